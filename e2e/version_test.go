package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EVersionStamp: a binary built in the checkout names its commit.
func TestE2EVersionStamp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program: skipped with -short")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not a git checkout: ", err)
	}
	// In a checkout (.git a folder, as in CI) the build is of this tree,
	// so it compiles nothing the other tests' build has not. go build
	// stamps no commit in a linked worktree (.git is a file there), so
	// there it builds a clone of the commit.
	src := ".."
	if st, err := os.Stat(filepath.Join("..", ".git")); err != nil || !st.IsDir() {
		src = filepath.Join(t.TempDir(), "src")
		if out, err := exec.Command("git", "clone", "-q", "--no-checkout", "..", src).CombinedOutput(); err != nil {
			t.Skipf("git clone: %v\n%s", err, out)
		}
		if out, err := exec.Command("git", "-C", src, "checkout", "-q", strings.TrimSpace(string(head))).CombinedOutput(); err != nil {
			t.Fatalf("git checkout: %v\n%s", err, out)
		}
	}
	bin := filepath.Join(t.TempDir(), "rootpick")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "commit " + string(head[:12]); !strings.Contains(string(out), want) || strings.Contains(string(out), "date unknown") {
		t.Errorf("rootpick version: %q, want %q and a date", out, want)
	}
}
