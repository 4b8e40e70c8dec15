package main

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/ui"
)

// modelWords are every visible command and long flag of the kong model, at
// least those named here (so that a broken walk cannot pass with nothing).
func modelWords(t *testing.T) (cmds, flags []string) {
	t.Helper()
	k, err := newParser(&cli{}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	add := func(list *[]string, w string) {
		if !seen[w] {
			seen[w] = true
			*list = append(*list, w)
		}
	}
	for _, f := range k.Model.Flags {
		if !f.Hidden {
			add(&flags, f.Name)
		}
	}
	for _, n := range k.Model.Children {
		if n.Hidden {
			continue
		}
		add(&cmds, n.Name)
		for _, f := range n.Flags {
			if !f.Hidden {
				add(&flags, f.Name)
			}
		}
	}
	for _, w := range []string{"pick", "demo", "list", "proxy", "serve-demo", "forget", "version", "completion", "man", "help", "config"} {
		if !seen[w] {
			t.Fatalf("the model has no command %q", w)
		}
	}
	if len(flags) < 20 {
		t.Fatalf("the model has %d flags, want 20 or more: %q", len(flags), flags)
	}
	return cmds, flags
}

// TestManPage: the page names every command and flag, and groff renders it
// without a single warning.
func TestManPage(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"man"}, &out, &errOut); err != nil || errOut.Len() > 0 {
		t.Fatalf("man: %v %s", err, errOut.String())
	}
	page := out.String()
	if !strings.HasPrefix(page, ".TH ROOTPICK 1 ") {
		t.Fatalf("no .TH header:\n%.200s", page)
	}
	cmds, flags := modelWords(t)
	for _, c := range cmds {
		if !strings.Contains(page, `.SS "rootpick `+strings.ReplaceAll(c, "-", `\-`)) {
			t.Errorf("no section for command %q", c)
		}
	}
	for _, f := range flags {
		if !strings.Contains(page, `\fB\-\-`+strings.ReplaceAll(f, "-", `\-`)+`\fR`) {
			t.Errorf("flag --%s not described", f)
		}
	}
	for _, sub := range []string{"config path", "config show"} {
		if !strings.Contains(page, `.SS "rootpick `+sub) {
			t.Errorf("no section for the subcommand %q", sub)
		}
	}
	for _, sec := range []string{".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH COMMANDS", ".SH EXIT STATUS", ".SH FILES"} {
		if !strings.Contains(page, sec) {
			t.Errorf("no %s", sec)
		}
	}
	for i, line := range strings.Split(page, "\n") {
		if strings.ContainsFunc(line, func(r rune) bool { return r > 0x7e || r < 0x20 && r != '\t' }) {
			t.Errorf("line %d is not plain ASCII (troff reads bytes): %q", i+1, line)
		}
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		testskip.Skip(t, "groff", "groff not installed: apt-get install groff-base")
	}
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(page)
	warn, err := cmd.CombinedOutput()
	if err != nil || len(warn) > 0 {
		t.Errorf("groff: %v\n%s", err, warn)
	}
}

// TestRoffText: text cannot start a request or smuggle an escape.
func TestRoffText(t *testing.T) {
	for in, want := range map[string]string{
		".so /etc/passwd": `\&.so /etc/passwd`,
		"'br":             `\&'br`,
		`a\fBb`:           `a\efBb`,
		"--all …":         `\-\-all \[u2026]`,
	} {
		if got := roffText(in); got != want {
			t.Errorf("roffText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestManPageKeysFromTheBindings: the man page has a KEYS section with
// every binding of the picker, as ui.KeyTable lists them.
func TestManPageKeysFromTheBindings(t *testing.T) {
	k, err := newParser(&cli{}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	page := manPage(k.Model, nil)
	_, keys, ok := strings.Cut(page, ".SH KEYS\n")
	if !ok {
		t.Fatal("the man page has no KEYS section")
	}
	keys, _, _ = strings.Cut(keys, ".SH ")
	for _, row := range ui.KeyTable() {
		if !strings.Contains(keys, ".B "+roffText(row[0])+"\n"+roffText(row[1])+"\n") {
			t.Errorf("KEYS lacks %q: %q", row[0], row[1])
		}
	}
}
