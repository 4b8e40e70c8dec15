//go:build unix

package hostcfg

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHostsLinkedConfigGroupWritable: a configuration reached through a
// symbolic link is refused when its target is writable by the group, as
// when it is writable by all: someone in the group could change what the
// link shows. The same target with no group write is read.
func TestHostsLinkedConfigGroupWritable(t *testing.T) {
	const content = `{"servers": {"s": {"command": "x"}}}`
	for _, tc := range []struct {
		mode os.FileMode
		why  string
	}{
		{0o620, "is writable by others (mode 0620)"},
		{0o660, "is writable by others (mode 0660)"},
		{0o664, "is writable by others (mode 0664)"},
		{0o602, "is writable by others (mode 0602)"},
	} {
		target := filepath.Join(t.TempDir(), "linked.json")
		if err := os.WriteFile(target, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(target, tc.mode); err != nil {
			t.Fatal(err)
		}
		f := projectFile(t)
		if err := os.Symlink(target, f.Path); err != nil {
			t.Fatal(err)
		}
		_, err := loadGuarded(t, f)
		refusedBecause(t, err, f.Path, tc.why)
		if _, err := ReadConfig(f.Path, MaxProjectFile); err == nil {
			t.Errorf("ReadConfig read a link to a file of mode %04o", tc.mode)
		}
	}
	target := filepath.Join(t.TempDir(), "linked.json")
	if err := os.WriteFile(target, []byte(content), 0o640); err != nil {
		t.Fatal(err)
	}
	f := projectFile(t)
	if err := os.Symlink(target, f.Path); err != nil {
		t.Fatal(err)
	}
	if c, err := loadGuarded(t, f); err != nil || len(c.Servers) != 1 {
		t.Errorf("a link to the person's own file of mode 0640: %v", err)
	}
}
