package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListQuotesUnsafeNames: the plain list never writes a control or
// format character, or a byte that is not UTF-8, to the terminal.
func TestListQuotesUnsafeNames(t *testing.T) {
	dir := t.TempDir()
	names := []string{"plain", "esc\x1b[2Jx", "rtl\u202eexe", "bad\xffbyte", "c1\u009bx", "spa ce"}
	for _, n := range names {
		if err := os.MkdirAll(filepath.Join(dir, n, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := run([]string{"list", dir}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(names) {
		t.Fatalf("%d lines for %d repos:\n%s", len(lines), len(names), out.String())
	}
	real, _ := filepath.EvalSymlinks(dir)
	for _, l := range lines {
		for _, bad := range []string{"\x1b", "\u202e", "\xff", "\u009b"} {
			if strings.Contains(l, bad) {
				t.Errorf("line %q holds %q raw", l, bad)
			}
		}
	}
	for _, want := range []string{real + "/plain", real + "/spa ce", `"` + real + `/esc\x1b[2Jx"`, `"` + real + `/bad\xffbyte"`} {
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{dir, dir},
		{"list", dir, dir},
		{"--server", " ", dir},
		{"--no-such-flag"},
		{"serve-demo", "extra"},
	} {
		var ee exitError
		err := run(args, io.Discard, io.Discard)
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("%q: %v, want exit 2", args, err)
		}
	}
	var ee exitError
	if err := run([]string{"--help"}, io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 0 {
		t.Errorf("--help: %v, want exit 0", err)
	}
}

// TestPickScanFlags: the picker takes the walk's flags, as list does.
func TestPickScanFlags(t *testing.T) {
	c, _, err := parse([]string{"--all", "--skip", "build", "--skip", "out", "--follow", "--one-file-system", "dir"}, &env{stdout: io.Discard, stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	o := c.Pick
	if !o.All || !o.Follow || !o.OneFileSystem || strings.Join(o.Skip, ",") != "build,out" || o.Dir != "dir" {
		t.Fatalf("options %+v", o)
	}
}

// TestE2EPickAll: a repository inside node_modules is skipped by default
// and listed with --all.
func TestE2EPickAll(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "app", "app/node_modules/dep")
	tt := startTUI(t, tuiOptions{width: 100, height: 20, args: []string{tree}})
	tt.waitRows(1)
	tt.quit()
	tt = startTUI(t, tuiOptions{width: 100, height: 20, args: []string{"--all", tree}})
	rows := tt.waitRows(2)
	if rows[1].label() != "app/node_modules/dep" && !strings.Contains(rows[1].text, "dep") {
		t.Fatalf("with --all the second row is %q", rows[1].text)
	}
	tt.quit()
}
