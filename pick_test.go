package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/consent"
)

// TestPrintFormats: --print writes the roots as JSON (no control or bidi
// character raw, yet decoding gives the exact roots), as lines escaped as
// list escapes them, or as raw NUL-terminated paths.
func TestPrintFormats(t *testing.T) {
	roots := []consent.Root{
		{Path: "/src/plain", URI: "file:///src/plain", Name: "plain"},
		{Path: "/src/rtl\u202e\nx\u009b", URI: consent.PathToURI("/src/rtl\u202e\nx\u009b"), Name: "rtl\u202e\nx\u009b"},
	}
	print := func(roots []consent.Root, format string) string {
		t.Helper()
		var b bytes.Buffer
		if err := printRoots(&b, roots, format); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	js := print(roots, "json")
	var back []consent.Root
	if err := json.Unmarshal([]byte(js), &back); err != nil || !slices.Equal(back, roots) {
		t.Errorf("json decodes to %+v, %v; want %+v", back, err, roots)
	}
	if bytes.ContainsAny([]byte(js), "\u202e\u009b") {
		t.Errorf("json holds a bidi or C1 character raw: %q", js)
	}
	if got := print(nil, "json"); got != "[]\n" {
		t.Errorf("json of no roots = %q, want []", got)
	}
	if got, want := print(roots, "lines"), "/src/plain\n/src/rtl\\u202e\\nx\\u009b\n"; got != want {
		t.Errorf("lines = %q, want %q", got, want)
	}
	if got, want := print(roots, "null"), "/src/plain\x00/src/rtl\u202e\nx\u009b\x00"; got != want {
		t.Errorf("null = %q, want %q", got, want)
	}
	for _, f := range []string{"lines", "null"} {
		if got := print(nil, f); got != "" {
			t.Errorf("%s of no roots = %q, want nothing", f, got)
		}
	}
}

// TestPrintLeavesOutRootsThatAreGone: --print prints the consented roots
// that are still folders at quit, and says on stderr which it left out
// and why (deleted, or no folder any more).
func TestPrintLeavesOutRootsThatAreGone(t *testing.T) {
	base := t.TempDir()
	var roots []consent.Root
	for _, name := range []string{"kept", "deleted", "replaced"} {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		r, err := consent.NewRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		roots = append(roots, r)
	}
	if err := os.Remove(roots[1].Path); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(roots[2].Path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(roots[2].Path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	got := existingRoots(&errb, roots)
	if len(got) != 1 || got[0].Path != roots[0].Path {
		t.Errorf("printed %+v; want only %s", got, roots[0].Path)
	}
	for _, want := range []string{"--print leaves out " + roots[1].Path + ": it is gone", "--print leaves out " + roots[2].Path + ": it is no folder any more"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
}
