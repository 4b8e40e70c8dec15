package sampleworkspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rootpick/rootpick/internal/procinfo"
)

// A demo's temporary folder holds its workspace, consent and log, and is
// removed when the demo ends. A demo that cannot run its clean-up (SIGKILL,
// or SIGQUIT and SIGABRT, which end a Go program without deferred calls)
// leaves it behind; so each folder names its owner, and the next demo
// removes the folders whose owner is gone (SweepTemp).

// tempPrefix starts the name of every demo folder in the temporary folder.
const tempPrefix = "rootpick-demo-"

// ownerFile, in a demo folder, holds "PID START NS": the process that owns
// it, that process's start stamp (see procinfo.StartTime), which tells a reused
// pid apart, and the PID namespace the pid is numbered in (a demo in a
// container sharing /tmp has pids this one cannot look up: its folder is
// never swept from outside). A folder without it is never swept: it is
// being made, or kept.
const ownerFile = ".rootpick-demo-owner"

// MakeTemp makes a demo folder (0700) in the temporary folder, owned by
// this process unless keep: a kept folder has no owner and is never swept.
func MakeTemp(keep bool) (string, error) {
	dir, err := os.MkdirTemp("", tempPrefix)
	if err != nil || keep {
		return dir, err
	}
	pid := os.Getpid()
	owner := fmt.Sprintf("%d %s %s\n", pid, procinfo.StartTime(pid), procinfo.PIDNamespace())
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner), 0o600); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// SweepTemp removes the demo folders in the temporary folder that were
// left behind: a real folder (not a link) of the person's own, named as
// MakeTemp names them, whose owner file names a process that is gone (or
// whose pid now belongs to a process started later). It returns the
// folders removed; errors are collected, and what could be removed is.
func SweepTemp() ([]string, error) {
	tmp := os.TempDir()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) || e.Type() != fs.ModeDir {
			continue // not a demo's, or a link: never followed
		}
		dir := filepath.Join(tmp, e.Name())
		if !ownFolder(dir) || !orphaned(dir) {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, dir)
	}
	return removed, errors.Join(errs...)
}

// orphaned reports whether dir's owner file names a process that is gone.
func orphaned(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil || len(b) > 64 {
		return false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return false
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return false
	}
	start := ""
	if len(f) > 1 {
		start = f[1]
	}
	if len(f) > 2 && f[2] != procinfo.PIDNamespace() {
		return false // another PID namespace's demo: its pid means nothing here
	}
	return !processAlive(pid, start)
}
