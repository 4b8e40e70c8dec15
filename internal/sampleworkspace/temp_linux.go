//go:build linux

package sampleworkspace

import (
	"os"
	"syscall"

	"github.com/rootpick/rootpick/internal/procinfo"
)

// processAlive reports whether pid runs and, when start is known, is the
// process that started then (not a later one given the same pid).
func processAlive(pid int, start string) bool {
	now := procinfo.StartTime(pid)
	if now == "" {
		return false
	}
	return start == "" || now == start
}

// ownFolder reports whether dir belongs to the person running rootpick.
func ownFolder(dir string) bool {
	var st syscall.Stat_t
	return syscall.Lstat(dir, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFDIR && int(st.Uid) == os.Geteuid()
}
