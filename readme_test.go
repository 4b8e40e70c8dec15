package main

import (
	"io"
	"os"
	"strings"
	"testing"

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
