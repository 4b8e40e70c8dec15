package hostcfg

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestHostsWriteKeepsModeAndBacksUp: the file is replaced with its mode
// kept, and the previous content is beside it.
func TestHostsWriteKeepsModeAndBacksUp(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(name, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	w, err := Write(name, []byte("old"), []byte("new"), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, name); got != "new" {
		t.Errorf("file holds %q", got)
	}
	if w.Backup != name+BackupSuffix || readFile(t, w.Backup) != "old" {
		t.Errorf("backup %q holds %q", w.Backup, readFile(t, w.Backup))
	}
	if runtime.GOOS != "windows" {
		for _, f := range []string{name, w.Backup} {
			if fi, _ := os.Stat(f); fi.Mode().Perm() != 0o640 {
				t.Errorf("%s has mode %v, want 0640", f, fi.Mode().Perm())
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the folder holds %d files, want the file and its backup (no temporary file left)", len(entries))
	}
}

// TestHostsWriteNeverOverwritesABackup: an older backup of other content is
// kept and the new one takes the next name; an identical one is reused.
func TestHostsWriteNeverOverwritesABackup(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(name, []byte("v1"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name+BackupSuffix, []byte("v0"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Write(name, []byte("v1"), []byte("v2"), "")
	if err != nil {
		t.Fatal(err)
	}
	if readFile(t, name+BackupSuffix) != "v0" {
		t.Errorf("the older backup was overwritten")
	}
	if w.OlderBackup != name+BackupSuffix || w.Backup != name+BackupSuffix+".1" || readFile(t, w.Backup) != "v1" {
		t.Errorf("written %+v", w)
	}
	// Back to v1 and again: the backup of v2 is new, then v1's is reused.
	if _, err := Write(name, []byte("v2"), []byte("v1"), ""); err != nil {
		t.Fatal(err)
	}
	w, err = Write(name, []byte("v1"), []byte("v3"), "")
	if err != nil {
		t.Fatal(err)
	}
	if !w.BackupExisted || w.Backup != name+BackupSuffix+".1" {
		t.Errorf("written %+v, want the existing backup of v1 reused", w)
	}
}

// TestHostsWriteRefusesAChangedFile: a file that no longer holds what was
// read is left alone.
func TestHostsWriteRefusesAChangedFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(name, []byte("changed by the host"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(name, []byte("as read"), []byte("new"), ""); !errors.Is(err, ErrChanged) {
		t.Fatalf("Write: %v, want ErrChanged", err)
	}
	if readFile(t, name) != "changed by the host" {
		t.Error("the file was written")
	}
	if _, err := os.Stat(name + BackupSuffix); err == nil {
		t.Error("a backup was written")
	}
}

// TestHostsWriteThroughALink: a configuration that is a symbolic link
// stays a link; the file it leads to is written, and backed up beside it.
func TestHostsWriteThroughALink(t *testing.T) {
	dir := t.TempDir()
	dotfiles := filepath.Join(dir, "dotfiles")
	if err := os.Mkdir(dotfiles, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dotfiles, "claude.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, ".claude.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	w, err := Write(link, []byte("old"), []byte("new"), "")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	resolved, _ := filepath.EvalSymlinks(target)
	if !w.Link || w.Target != resolved || readFile(t, target) != "new" || readFile(t, target+BackupSuffix) != "old" {
		t.Errorf("written %+v; target holds %q", w, readFile(t, target))
	}
}

func TestHostsDiff(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n"
	b := strings.Replace(strings.Replace(a, "2\n", "two\n", 1), "15\n", "15\nfifteen and a half\n", 1)
	want := `--- a
+++ b
@@ -1,5 +1,5 @@
 1
-2
+two
 3
 4
 5
@@ -13,4 +13,5 @@
 13
 14
 15
+fifteen and a half
 16
`
	if got := Diff("a", "b", []byte(a), []byte(b)); got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if got := Diff("a", "b", []byte("x"), []byte("y")); got != "--- a\n+++ b\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n" {
		t.Errorf("diff without line ends:\n%s", got)
	}
	if Diff("a", "b", []byte(a), []byte(a)) != "" {
		t.Error("equal files differ")
	}
}
