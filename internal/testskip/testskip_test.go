package testskip

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	mu.Lock() // start from nothing skipped, also on -count=2's second run
	order, reasons, counts = nil, map[string]string{}, map[string]int{}
	mu.Unlock()
	t.Run("tmux", func(t *testing.T) { Skip(t, "tmux", "tmux not installed") })
	t.Run("tmux2", func(t *testing.T) { Skip(t, "tmux", "tmux not installed") })
	t.Run("root", func(t *testing.T) { Skip(t, "as root", "permissions do not stop root") })
	var tty, stderr bytes.Buffer
	if got := report("pkg", 0, false, &tty, &stderr, nil); got != 0 {
		t.Errorf("not strict: exit %d, want 0", got)
	}
	want := "pkg: 3 tests skipped: tmux ×2 (tmux not installed); as root ×1 (permissions do not stop root)\n"
	if tty.String() != want || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("tty %q stderr %q, want %q", tty.String(), stderr.String(), want)
	}
	if got := report("pkg", 0, true, nil, &stderr, []string{"as root", "tmux"}); got != 0 {
		t.Errorf("strict, all allowed: exit %d, want 0", got)
	}
	stderr.Reset()
	if got := report("pkg", 0, true, nil, &stderr, []string{"as root"}); got != 1 || !strings.Contains(stderr.String(), `group "tmux" was skipped`) {
		t.Errorf("strict, tmux not allowed: exit %d, %q", got, stderr.String())
	}
	if got := report("pkg", 3, false, nil, &stderr, nil); got != 3 {
		t.Errorf("a failing run's code is kept: %d", got)
	}
}

// TestSkipAsRootLists: as root, a permission test lists itself (its
// package folder and full name) for .ci/run's rerun as nobody, and skips;
// as anyone else it runs.
func TestSkipAsRootLists(t *testing.T) {
	list := filepath.Join(t.TempDir(), "list")
	t.Setenv(AsNobodyEnv, list)
	ran := false
	t.Run("perm", func(t *testing.T) {
		SkipAsRoot(t)
		ran = true
	})
	b, _ := os.ReadFile(list)
	wd, _ := os.Getwd()
	if os.Geteuid() != 0 {
		if !ran || len(b) != 0 {
			t.Errorf("as user %d: ran %v, listed %q", os.Geteuid(), ran, b)
		}
		return
	}
	if ran || string(b) != wd+"\tTestSkipAsRootLists/perm\n" {
		t.Errorf("as root: ran %v, listed %q", ran, b)
	}
}

// TestExitWritesTheSkipLog: a package that skipped something appends its
// summary to ROOTPICK_SKIP_LOG, which .ci/run prints: a logged run says
// what it skipped though go test shows nothing of a passing package.
func TestExitWritesTheSkipLog(t *testing.T) {
	if os.Getenv("ROOTPICK_TESTSKIP_CHILD") == "1" {
		t.Run("skipped", func(t *testing.T) { Skip(t, "tmux", "tmux not installed") })
		Exit("child", 0, "tmux")
	}
	log := filepath.Join(t.TempDir(), "skips")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(log, []byte("earlier: 1 tests skipped: x ×1 (y)\n"), 0o644))
	exe, err := os.Executable()
	must(err)
	cmd := exec.Command(exe, "-test.run", "^TestExitWritesTheSkipLog$")
	cmd.Env = append(os.Environ(), "ROOTPICK_TESTSKIP_CHILD=1", SkipLogEnv+"="+log, "ROOTPICK_TEST_STRICT=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the child: %v\n%s", err, out)
	}
	b, err := os.ReadFile(log)
	must(err)
	if want := "earlier: 1 tests skipped: x ×1 (y)\nchild: 1 tests skipped: tmux ×1 (tmux not installed)\n"; string(b) != want {
		t.Errorf("the skip log:\n%q\nwant\n%q", b, want)
	}
}
