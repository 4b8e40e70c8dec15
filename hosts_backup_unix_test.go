//go:build unix

package main

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/paths"
)

// modeOf is the permission bits of the folder at path.
func modeOf(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// namedState is the environment's folders with dir as the state folder
// the person named, checked as --state-dir checks it (useStateDir).
func namedState(t *testing.T, dir string) paths.Dirs {
	t.Helper()
	dirs, err := paths.FromEnv().WithStateDir(dir, consent.CheckNamedDir)
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestHostsBackupsKeepANamedStateDir: the backups of a wrap go to the
// state folder the person named (--state-dir, as pick, proxy and forget
// take it), and rootpick changes no mode of that folder: one that was
// private when checked and is open to others when the backups are made
// (here, opened while the question was asked) is refused, and nothing is
// written — it is not closed for them. Only what rootpick makes (the
// named folder when absent, backups/ in it, its own folder under
// $XDG_STATE_HOME) is made 0700.
func TestHostsBackupsKeepANamedStateDir(t *testing.T) {
	home, project := hostsSandbox(t)
	before := snapshot(t, home, project)
	mcp := filepath.Join(project, ".mcp.json")
	wrap := hostsChange{targets: []string{"claude"}, project: project, wrap: true, proxy: hostcfg.Proxy{Exe: "/bin/rootpick"}}

	named := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(named, 0o700); err != nil {
		t.Fatal(err)
	}
	dirs := namedState(t, named)
	loosen := func(string) (bool, error) { return true, os.Chmod(named, 0o755) }
	var errb bytes.Buffer
	if err := wrap.run(&env{stdout: io.Discard, stderr: &errb, dirs: dirs}, loosen); err == nil {
		t.Errorf("the backups went to a named state folder open to others:\n%s", errb.String())
	}
	if m := modeOf(t, named); m != 0o755 {
		t.Errorf("the named state folder's mode became %04o: rootpick changed a folder it did not make (want 0755 kept and the write refused)", m)
	}
	if !strings.Contains(errb.String(), "nothing written") || !strings.Contains(errb.String(), "open to others") {
		t.Errorf("the refusal does not say what and why:\n%s", errb.String())
	}
	if !maps2Equal(before, snapshot(t, home, project)) {
		t.Fatal("files were written with no private folder for their backups")
	}

	// Named and absent: rootpick makes it, 0700, and backs up into it.
	fresh := filepath.Join(t.TempDir(), "fresh")
	yes := wrap
	yes.yes = true
	errb.Reset()
	if err := yes.run(&env{stdout: io.Discard, stderr: &errb, dirs: namedState(t, fresh)}, nil); err != nil {
		t.Fatalf("wrap with an absent named state folder: %v\n%s", err, errb.String())
	}
	for _, d := range []string{fresh, filepath.Join(fresh, "backups")} {
		if m := modeOf(t, d); m != 0o700 {
			t.Errorf("%s, made by rootpick, is %04o, want 0700", d, m)
		}
	}
	if b, err := os.ReadFile(filepath.Join(fresh, "backups", hostcfg.BackupName(mcp))); err != nil || string(b) != before[mcp] {
		t.Errorf("no backup of the original .mcp.json in the named state folder: %v", err)
	}
}

// TestHostsBackupsTightenTheirOwnStateDir: rootpick's own state folder
// under $XDG_STATE_HOME, which it made, is closed again (0700) when it
// has become open to others, before a backup is written into it.
func TestHostsBackupsTightenTheirOwnStateDir(t *testing.T) {
	_, project := hostsSandbox(t)
	own := filepath.Join(os.Getenv("XDG_STATE_HOME"), "rootpick")
	if err := os.MkdirAll(own, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(own, 0o755); err != nil {
		t.Fatal(err)
	}
	wrap := hostsChange{targets: []string{"claude"}, project: project, wrap: true, yes: true, proxy: hostcfg.Proxy{Exe: "/bin/rootpick"}}
	var errb bytes.Buffer
	if err := wrap.run(&env{stdout: io.Discard, stderr: &errb, dirs: paths.FromEnv()}, nil); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if m := modeOf(t, own); m != 0o700 {
		t.Errorf("rootpick's own state folder is %04o after the backups, want 0700", m)
	}
	if _, err := os.Stat(filepath.Join(own, "backups", hostcfg.BackupName(filepath.Join(project, ".mcp.json")))); err != nil {
		t.Errorf("no backup: %v", err)
	}
}
