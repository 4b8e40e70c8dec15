package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/internal/testskip"
)

// TestListFlags runs rootpick list with its scan flags on a small tree and
// checks what is printed on stdout and counted on stderr.
func TestListFlags(t *testing.T) {
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	for _, p := range []string{"a/.git", "node_modules/dep/.git", "b/sub/.git"} {
		if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "a", ".git", "HEAD"), []byte("ref: refs/heads/trunk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "proj", "go.mod"), []byte("module p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	list := func(args ...string) (string, string) {
		t.Helper()
		var out, errOut bytes.Buffer
		if err := run(append(append([]string{"list"}, args...), dir), &out, &errOut); err != nil {
			t.Fatalf("list %q: %v", args, err)
		}
		return out.String(), errOut.String()
	}
	rel := func(out string) []string { return strings.Split(strings.TrimSpace(out), "\n") }

	out, errOut := list()
	if got, want := rel(out), []string{"a", "b/sub", "proj"}; !slices.Equal(got, want) {
		t.Errorf("list: %q, want %q (sorted, node_modules skipped)", got, want)
	}
	if !strings.Contains(errOut, "1 skipped") {
		t.Errorf("list stderr %q does not count the skipped folder", errOut)
	}
	out, errOut = list("--all")
	if got, want := rel(out), []string{"a", "b/sub", "node_modules/dep", "proj"}; !slices.Equal(got, want) || errOut != "" {
		t.Errorf("list --all: %q, stderr %q; want %q and nothing on stderr", got, errOut, want)
	}
	out, _ = list("--all", "--skip", "b", "--skip", "proj")
	if got, want := rel(out), []string{"a", "node_modules/dep"}; !slices.Equal(got, want) {
		t.Errorf("list --all --skip b --skip proj: %q, want %q", got, want)
	}
	out, _ = list("--stream", "--all")
	got := rel(out)
	slices.Sort(got)
	if want := []string{"a", "b/sub", "node_modules/dep", "proj"}; !slices.Equal(got, want) {
		t.Errorf("list --stream --all: %q, want %q in any order", got, want)
	}

	out, _ = list("--json")
	var kinds []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct{ Path, Kind, Branch, Marker, URI string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, r.Kind+":"+r.Branch+r.Marker)
	}
	if want := []string{"git:trunk", "git:", "project:go.mod"}; !slices.Equal(kinds, want) {
		t.Errorf("list --json kinds %q, want %q", kinds, want)
	}

	var ee exitError
	if err := run([]string{"list", "--details", dir}, io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("--details without --json: %v, want exit 2", err)
	}
}

func TestListDetails(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testskip.Skip(t, "git", "git not installed: apt-get install git")
	}
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	repo := filepath.Join(dir, "r")
	// in-step: a clone in step with its upstream; gone: a clone whose
	// upstream branch was deleted, so nothing can be counted.
	inStep, gone := filepath.Join(dir, "in-step"), filepath.Join(dir, "gone")
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", repo},
		{"-C", repo, "-c", "user.name=T", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "hello\n\nbody"},
		{"clone", "-q", repo, inStep},
		{"clone", "-q", repo, gone},
		{"-C", gone, "update-ref", "-d", "refs/remotes/origin/main"},
		{"-C", repo, "remote", "add", "origin", "https://user:tok3n@example.com/r.git"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	var out bytes.Buffer
	if err := run([]string{"list", "--json", "--details", dir}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "tok3n") {
		t.Errorf("the remote's token reached the output: %s", out.String())
	}
	lines := map[string]map[string]any{}
	for l := range strings.Lines(out.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		lines[m["rel"].(string)] = m
	}
	m := lines["r"]
	for k, want := range map[string]any{"path": repo, "head": "main", "remote": "https://example.com/r.git", "subject": "hello", "state": "clean"} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v in %s", k, m[k], want, out.String())
		}
	}
	if _, ok := m["last_commit"]; !ok {
		t.Errorf("no last_commit in %s", out.String())
	}
	// ahead and behind: both present, 0 included, when counted; both
	// absent when not (no upstream, or its branch gone).
	for rel, want := range map[string][]any{"r": {nil, nil, nil}, "in-step": {"origin/main", 0.0, 0.0}, "gone": {"origin/main", nil, nil}} {
		m := lines[rel]
		if got := []any{m["upstream"], m["ahead"], m["behind"]}; !slices.Equal(got, want) {
			t.Errorf("%s: upstream, ahead, behind = %v, want %v in %s", rel, got, want, out.String())
		}
	}
}

// TestListPaths: paths are relative to DIR (DIR itself as "."), absolute
// with --full-path, NUL-terminated and raw with --null; --json has both.
func TestListPaths(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	for _, p := range []string{".git", "a/.git", "b/sub/.git"} {
		if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	list := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := run(append(append([]string{"list"}, args...), dir), &out, io.Discard); err != nil {
			t.Fatalf("list %q: %v", args, err)
		}
		return out.String()
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, ".\na\nb/sub\n"},
		{[]string{"--full-path"}, dir + "\n" + dir + "/a\n" + dir + "/b/sub\n"},
		{[]string{"--null"}, ".\x00a\x00b/sub\x00"},
		{[]string{"-0", "--full-path"}, dir + "\x00" + dir + "/a\x00" + dir + "/b/sub\x00"},
	} {
		if got := list(tc.args...); got != tc.want {
			t.Errorf("list %q = %q, want %q", tc.args, got, tc.want)
		}
	}
	var rels []string
	for _, line := range strings.Split(strings.TrimSpace(list("--json")), "\n") {
		var r struct{ Path, Rel string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, r.Rel); r.Path != want {
			t.Errorf("path %q and rel %q disagree", r.Path, r.Rel)
		}
		rels = append(rels, r.Rel)
	}
	if want := []string{".", "a", "b/sub"}; !slices.Equal(rels, want) {
		t.Errorf("list --json rel %q, want %q", rels, want)
	}
	for _, args := range [][]string{{"--json", "--null"}, {"--json", "--full-path"}, {"-0", "--details"}} {
		var ee exitError
		if err := run(append(append([]string{"list"}, args...), dir), io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("list %q: %v, want exit 2", args, err)
		}
	}
}

// TestListEscapes: a folder named to drive the terminal is written escaped
// in text, the same way the picker draws it; JSON holds no such character
// raw either, yet decodes to the exact path; --null writes it raw.
func TestListEscapes(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	names := []string{"plain", "c1\u009bx", "rtl\u202eexe", "new\nline", "esc\x1b[2Jx", "zw\u200bsp", "sep\u2028x", "del\x7f", "spa ce", "bad\xffbyte"}
	for _, n := range names {
		if err := os.MkdirAll(filepath.Join(dir, n, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	list := func(args ...string) []byte {
		t.Helper()
		var out bytes.Buffer
		if err := run(append(append([]string{"list"}, args...), dir), &out, io.Discard); err != nil {
			t.Fatalf("list %q: %v", args, err)
		}
		return out.Bytes()
	}
	raw := func(out []byte) {
		t.Helper()
		if !utf8.Valid(out) {
			t.Errorf("output holds bytes that are not UTF-8: %q", out)
		}
		for _, r := range string(out) {
			if r != '\n' && safetext.Unsafe(r) {
				t.Errorf("output holds %U raw: %q", r, out)
				return
			}
		}
	}

	text := list()
	raw(text)
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	if len(lines) != len(names) {
		t.Fatalf("%d lines for %d repos:\n%s", len(lines), len(names), text)
	}
	for _, want := range []string{"plain", "spa ce", `c1\u009bx`, `rtl\u202eexe`, `new\nline`, `esc\x1b[2Jx`, `bad\xffbyte`, `del\x7f`} {
		if !slices.Contains(lines, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}

	js := list("--json")
	raw(js)
	jl := strings.Split(strings.TrimSuffix(string(js), "\n"), "\n")
	if len(jl) != len(names) {
		t.Fatalf("%d JSON lines for %d repos", len(jl), len(names))
	}
	var got []string
	for i, line := range jl {
		var r struct {
			Path, Rel, URI string
			PathBytes      []byte `json:"path_bytes"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		exact := r.Path
		if r.PathBytes != nil {
			if utf8.Valid(r.PathBytes) || !strings.Contains(r.Path, "\uFFFD") {
				t.Errorf("path_bytes %q given for %q", r.PathBytes, r.Path)
			}
			exact = string(r.PathBytes)
		}
		if p, err := consent.URIToPath(r.URI); err != nil || p != exact {
			t.Errorf("uri %q is %q, path %q", r.URI, p, exact)
		}
		rel := strings.TrimPrefix(exact, dir+"/")
		got = append(got, rel)
		// Text and JSON say the same: line i of the text is the escape of
		// the path JSON decodes to.
		if want := safetext.Escape(rel); lines[i] != want {
			t.Errorf("text line %q, JSON line %s: want the text %q", lines[i], line, want)
		}
		if r.PathBytes == nil && r.Rel != rel {
			t.Errorf("rel %q, want %q", r.Rel, rel)
		}
	}
	want := slices.Clone(names)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("JSON decodes to %q, want the exact names %q", got, want)
	}

	null := strings.Split(strings.TrimSuffix(string(list("--null")), "\x00"), "\x00")
	if !slices.Equal(null, want) {
		t.Errorf("--null wrote %q, want the raw names %q", null, want)
	}
}
