package main

import (
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
