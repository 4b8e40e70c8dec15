//go:build unix

package prefetch

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeLauncher writes an executable script named npx that runs body.
func fakeLauncher(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "npx")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRun: a prefetch tells what it fetches and how long it has taken,
// in lines when not on a terminal, and the entry's environment reaches
// the launcher.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	npx := fakeLauncher(t, `echo "$npm_config_cache" > "$PWD/seen"; echo "$@" >> "$PWD/seen"; sleep 0.5`)
	l, _ := Of([]string{npx, "-y", "@scope/server-x"})
	var out bytes.Buffer
	took, err := Run(context.Background(), l, Options{Env: append(os.Environ(), "npm_config_cache=/the/entry/cache"), Dir: dir,
		Progress: &out, Every: 100 * time.Millisecond, Name: "fs"})
	if err != nil {
		t.Fatal(err)
	}
	if took < 400*time.Millisecond {
		t.Errorf("took %v: it did not wait for the launcher", took)
	}
	text := out.String()
	for _, want := range []string{"fs: fetching @scope/server-x with npx…\n", "s so far\n", "fs: fetched @scope/server-x with npx in "} {
		if !strings.Contains(text, want) {
			t.Errorf("the progress lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\r") {
		t.Errorf("not a terminal, yet the progress rewrites its line:\n%q", text)
	}
	seen, _ := os.ReadFile(filepath.Join(dir, "seen"))
	if want := "/the/entry/cache\n--yes --package=@scope/server-x -- node -e 0\n"; string(seen) != want {
		t.Errorf("the launcher saw %q; want %q", seen, want)
	}
}

// TestRunFails: a launcher that fails gives an error with its last words
// (secrets hidden) and the command that fetches by hand; one that takes
// too long is interrupted at the timeout.
func TestRunFails(t *testing.T) {
	npx := fakeLauncher(t, `echo "npm error 404 Not Found - GET https://me:s3cr3tT0ken@registry.example/@scope%2fserver-x" >&2; exit 1`)
	l, _ := Of([]string{npx, "-y", "@scope/server-x"})
	_, err := Run(context.Background(), l, Options{Env: os.Environ()})
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v; want an *Error", err)
	}
	if !strings.Contains(pe.Said, "404 Not Found") || strings.Contains(err.Error(), "s3cr3tT0ken") {
		t.Errorf("the error says %q: want npm's last line, without the token", err)
	}
	if want := Quote([]string{npx, "--yes", "--package=@scope/server-x", "--", "node", "-e", "0"}); pe.Command != want {
		t.Errorf("Command = %q; want %q", pe.Command, want)
	}

	slow := fakeLauncher(t, `exec sleep 30`)
	l, _ = Of([]string{slow, "-y", "@scope/server-x"})
	start := time.Now()
	_, err = Run(context.Background(), l, Options{Env: os.Environ(), Timeout: 300 * time.Millisecond})
	if !errors.As(err, &pe) || !strings.Contains(pe.Reason, "stopped after 300ms") {
		t.Errorf("err = %v; want stopped after 300ms", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a timed-out prefetch returned after %v", d)
	}
}

func TestQuote(t *testing.T) {
	if got, want := Quote([]string{"npx", "--package=@a/b", "--", "node", "-e", "0", "it's", ""}), `npx --package=@a/b -- node -e 0 'it'\''s' ''`; got != want {
		t.Errorf("Quote = %s; want %s", got, want)
	}
}
