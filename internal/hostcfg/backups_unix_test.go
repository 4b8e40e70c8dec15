//go:build unix

package hostcfg

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestHostsBackupsInStateFolder: with a backups folder, the previous
// content goes there and nothing beside the file (a project's .mcp.json is
// tracked); one backup per file, the newest, replacing the one before,
// with the file's mode and owner; two files of one base name keep one
// each; a link in the backup's place is replaced, never followed.
func TestHostsBackupsInStateFolder(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	backups := filepath.Join(t.TempDir(), "state", "backups")
	if err := os.MkdirAll(backups, 0o700); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	name := filepath.Join(project, ".mcp.json")
	if err := os.WriteFile(name, []byte("v1"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, 0o666); err != nil {
		t.Fatal(err)
	}
	w, err := Write(name, []byte("v1"), []byte("v2"), backups)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(backups, BackupName(name)); w.Backup != want || readFile(t, want) != "v1" {
		t.Errorf("backup %q, want %q holding v1", w.Backup, want)
	}
	if fi, err := os.Stat(w.Backup); err != nil || fi.Mode().Perm() != 0o666 {
		t.Errorf("the backup's mode: %v, %v; want the file's, 0666", fi.Mode().Perm(), err)
	}
	if entries, _ := os.ReadDir(project); len(entries) != 1 {
		t.Errorf("the project folder holds %d files, want the file alone: no backup beside it", len(entries))
	}

	// Again: the newest replaces it; still one backup.
	if w, err = Write(name, []byte("v2"), []byte("v3"), backups); err != nil || readFile(t, w.Backup) != "v2" || w.BackupExisted {
		t.Errorf("second write: %+v, %v", w, err)
	}
	if entries, _ := os.ReadDir(backups); len(entries) != 1 {
		t.Errorf("the backups folder holds %d files, want one per file", len(entries))
	}

	// Another project's .mcp.json: a backup of its own.
	other := filepath.Join(t.TempDir(), ".mcp.json")
	if err := os.WriteFile(other, []byte("o1"), 0o644); err != nil {
		t.Fatal(err)
	}
	if BackupName(other) == BackupName(name) {
		t.Fatalf("two files, one backup name %q", BackupName(name))
	}

	// A link where the backup goes is replaced, and what it leads to is
	// left alone.
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(backups, BackupName(other))); err != nil {
		t.Fatal(err)
	}
	if w, err = Write(other, []byte("o1"), []byte("o2"), backups); err != nil {
		t.Fatal(err)
	}
	if readFile(t, victim) != "keep" {
		t.Error("the backup was written through a link")
	}
	if fi, err := os.Lstat(w.Backup); err != nil || !fi.Mode().IsRegular() || readFile(t, w.Backup) != "o1" {
		t.Errorf("the backup in the link's place: %v, %v", fi, err)
	}

	if os.Geteuid() != 0 {
		t.Skip("the owner part needs root, to give a file away")
	}
	if err := os.Chown(name, 65534, 65534); err != nil {
		t.Skip("cannot give a file away:", err)
	}
	if w, err = Write(name, []byte("v3"), []byte("v4"), backups); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(w.Backup)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 65534 || st.Gid != 65534 {
		t.Errorf("the backup is owned by %d:%d, want the file's 65534:65534", st.Uid, st.Gid)
	}
}
