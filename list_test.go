package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/rootpick/rootpick/internal/testskip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
	rel := func(out string) []string {
		var r []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			r = append(r, strings.TrimPrefix(l, dir+"/"))
		}
		return r
	}

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
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", repo},
		{"-C", repo, "remote", "add", "origin", "https://user:tok3n@example.com/r.git"},
		{"-C", repo, "-c", "user.name=T", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "hello\n\nbody"},
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
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	for k, want := range map[string]any{"path": repo, "head": "main", "remote": "https://example.com/r.git", "subject": "hello", "state": "clean"} {
		if m[k] != want {
			t.Errorf("%s = %v, want %v in %s", k, m[k], want, out.String())
		}
	}
	if _, ok := m["last_commit"]; !ok {
		t.Errorf("no last_commit in %s", out.String())
	}
}
