package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/testskip"
)

// TestReadmeInstall runs the Install block's lines after `go install .`
// in an empty home folder, with the built rootpick where go install puts
// it: they must make the folders they write to, and man must find the
// page with no MANPATH.
func TestReadmeInstall(t *testing.T) {
	bin := rootpickBin(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The lines of the Install block after its "go install ." line.
	_, install, _ := strings.Cut(string(readme), "\n## Install\n")
	_, after, ok := strings.Cut(install, "\ngo install .")
	_, after, _ = strings.Cut(after, "\n")
	block, _, ok2 := strings.Cut(after, "```")
	script := strings.Split(strings.TrimSpace(block), "\n")
	if !ok || !ok2 || strings.TrimSpace(block) == "" {
		t.Fatal("README's Install block has no lines after go install .")
	}
	home := t.TempDir()
	gobin := filepath.Join(home, "go", "bin")
	if err := os.MkdirAll(gobin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, filepath.Join(gobin, "rootpick")); err != nil {
		t.Fatal(err)
	}
	// A fresh account: nothing but HOME, and PATH with go's bin folder on
	// it, as go install asks.
	env := []string{"HOME=" + home, "PATH=" + gobin + string(os.PathListSeparator) + filepath.Dir(goBin) + ":/usr/bin:/bin"}
	cmd := exec.Command("sh", "-eux", "-c", strings.Join(script, "\n"))
	cmd.Env, cmd.Dir = env, t.TempDir()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the Install lines failed in an empty home: %v\n%s", err, out)
	}
	page := filepath.Join(home, "go", "share", "man", "man1", "rootpick.1")
	for file, want := range map[string]string{
		page: ".TH ROOTPICK 1",
		filepath.Join(home, ".local", "share", "bash-completion", "completions", "rootpick"): "complete ",
	} {
		b, err := os.ReadFile(file)
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %v; want a file holding %q", file, err, want)
		}
	}
	t.Run("man finds it", func(t *testing.T) {
		if _, err := exec.LookPath("man"); err != nil {
			testskip.Skip(t, "man", "man not installed: apt-get install man-db")
		}
		cmd := exec.Command("man", "-w", "rootpick")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != page {
			t.Errorf("man -w rootpick = %q, %v; want %s", out, err, page)
		}
	})
}
