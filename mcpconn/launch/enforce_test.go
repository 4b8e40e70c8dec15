package launch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rootpick/rootpick/internal/testskip"
)

// TestEnforceDefaultIsOn: outside the tests an unset Enforce means on.
func TestEnforceDefaultIsOn(t *testing.T) {
	if got := EnforceDefault.Resolve(); got != EnforceOn {
		t.Errorf("the default resolves to %q, want on", got)
	}
	for _, s := range []string{"on", "off", "require"} {
		if e, err := ParseEnforce(s); err != nil || string(e) != s {
			t.Errorf("ParseEnforce(%q) = %q, %v", s, e, err)
		}
	}
	if _, err := ParseEnforce("yes"); err == nil {
		t.Error("ParseEnforce(yes) was accepted")
	}
}

// TestEnforceOffIsAdvisory: enforce = off never asks the kernel, and says
// why; require without a kernel that can is a final error (see the
// Linux tests for require with one).
func TestEnforceOffIsAdvisory(t *testing.T) {
	abi, why, err := decideEnforcement(EnforceOff, "srv")
	if abi != 0 || why != "enforce is off for this server" || err != nil {
		t.Errorf("off: %d, %q, %v", abi, why, err)
	}
	if kabi, _ := landlockABI(); kabi == 0 {
		_, why, err := decideEnforcement(EnforceRequire, "srv")
		if !IsFinal(err) || why == "" {
			t.Errorf("require without Landlock: %q, %v (want a final error)", why, err)
		}
	}
}

// TestRemoveTmpUnwritable: a server's temporary folder goes whole even
// when the server left folders in it that nobody may write (a Go module
// cache is read-only), and a link in it is removed, never followed. Root
// is not stopped by modes: .ci/run runs it again as nobody.
func TestRemoveTmpUnwritable(t *testing.T) {
	testskip.SkipAsRoot(t)
	tmp := tempDir(t)
	outside := filepath.Join(tempDir(t), "outside")
	must(t, os.MkdirAll(outside, 0o700))
	must(t, os.WriteFile(filepath.Join(outside, "kept"), nil, 0o600))
	dir := filepath.Join(tmp, "server-tmp")
	locked := filepath.Join(dir, "mod", "locked")
	must(t, os.MkdirAll(locked, 0o700))
	must(t, os.WriteFile(filepath.Join(locked, "f"), []byte("x"), 0o400))
	must(t, os.Symlink(outside, filepath.Join(dir, "link")))
	must(t, os.Chmod(locked, 0o500))
	must(t, os.Chmod(filepath.Join(dir, "mod"), 0o500))
	removeTmp(dir)
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary folder is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "kept")); err != nil {
		t.Errorf("the folder a link in it led to lost its file: %v", err)
	}
}
