package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/ui"
)

// TestReadmeKeyTable keeps the README's key table equal to the key map the
// program uses (the help line and full help come from the same bindings).
func TestReadmeKeyTable(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "| key | action |\n|---|---|\n")
	if start < 0 {
		t.Fatal("README.md has no key table")
	}
	var got []string
	for _, line := range strings.Split(text[start:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		got = append(got, line)
	}
	var want []string
	for _, row := range ui.KeyTable() {
		want = append(want, "| `"+row[0]+"` | "+row[1]+" |")
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("README key table is out of date; it should read:\n%s", strings.Join(want, "\n"))
	}
}

// TestParseArgs checks that flags and DIR mix in any order and that
// everything after -- is the server command, flags included.
func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args         []string
		pos, command string
		print        bool
	}{
		{[]string{"dir", "--print"}, "dir", "", true},
		{[]string{"--print", "dir", "--", "npx", "-y", "srv", "--print"}, "dir", "npx -y srv --print", true},
		{[]string{"--", "rootpick", "serve-demo"}, "", "rootpick serve-demo", false},
		{nil, "", "", false},
	} {
		e := &env{stdout: os.Stdout, stderr: os.Stderr}
		c, _, err := parse(tc.args, e)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if c.Pick.Dir != tc.pos || strings.Join(e.command, " ") != tc.command || c.Pick.Print != tc.print {
			t.Errorf("%q: dir %q command %q print %v", tc.args, c.Pick.Dir, e.command, c.Pick.Print)
		}
	}
}

// TestReadmeCommandLine: the README's "Command line" section names every
// command and every flag of the parser's model.
func TestReadmeCommandLine(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "## Command line\n")
	end := strings.Index(text[start+1:], "\n## ")
	if start < 0 || end < 0 {
		t.Fatal("README.md has no Command line section")
	}
	section := text[start : start+1+end]
	var c cli
	k, err := newParser(&c, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range k.Model.Flags {
		if !strings.Contains(section, "--"+f.Name) {
			t.Errorf("README Command line lacks the global flag --%s", f.Name)
		}
	}
	for _, n := range k.Model.Children {
		if !strings.Contains(section, "rootpick "+n.Name) && !(n.Name == "pick" && strings.Contains(section, "rootpick [pick]")) {
			t.Errorf("README Command line lacks the command %q", n.Name)
		}
		for _, f := range n.Flags {
			if !f.Hidden && !strings.Contains(section, "--"+f.Name) {
				t.Errorf("README Command line lacks %s --%s", n.Name, f.Name)
			}
		}
	}
}

// readmeBlock returns the lines of the first ```sh block after heading in
// README.md ("" for the top of the file).
func readmeBlock(t *testing.T, heading string) []string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if heading != "" {
		i := strings.Index(text, "\n"+heading+"\n")
		if i < 0 {
			t.Fatalf("README.md has no %q", heading)
		}
		text = text[i:]
	}
	_, rest, ok := strings.Cut(text, "```sh\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatalf("README.md has no sh block after %q", heading)
	}
	return strings.Split(strings.TrimSuffix(block, "\n"), "\n")
}

// TestReadmeFirstCommand: the first command the README gives after
// cloning is the demo, and every `go run .` and `rootpick` command of the
// first steps (the top block and Install) names a command rootpick has.
func TestReadmeFirstCommand(t *testing.T) {
	top := readmeBlock(t, "")
	if !strings.HasPrefix(top[0], "go run . demo ") {
		t.Errorf("the README's first command is %q, want go run . demo", top[0])
	}
	var c cli
	k, err := newParser(&c, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	commands := map[string]bool{}
	for _, n := range k.Model.Children {
		commands[n.Name] = true
	}
	for _, line := range append(top, readmeBlock(t, "## Install")...) {
		f := strings.Fields(line)
		var word string
		switch {
		case len(f) > 2 && f[0] == "go" && f[1] == "run" && f[2] == ".":
			if len(f) > 3 {
				word = f[3]
			}
		case len(f) > 1 && f[0] == "rootpick":
			word = f[1]
		}
		if word != "" && !strings.HasPrefix(word, "#") && !strings.HasPrefix(word, "-") && !commands[word] {
			t.Errorf("README line %q: rootpick has no command %q", line, word)
		}
	}
}

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
	var script []string
	installed := false
	for _, line := range readmeBlock(t, "## Install") {
		if strings.HasPrefix(line, "go install .") {
			installed = true
			continue
		}
		if installed {
			script = append(script, line)
		}
	}
	if !installed || len(script) == 0 {
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
