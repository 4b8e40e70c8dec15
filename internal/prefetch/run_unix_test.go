//go:build unix

package prefetch

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// unconfined runs the command as it is: for the tests of what Run says;
// the confined prefetch is tested in mcpconn (TestConfinePrefetch).
func unconfined(*exec.Cmd) (func(error) error, error) {
	return func(err error) error { return err }, nil
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
		Progress: &out, Every: 100 * time.Millisecond, Name: "fs", Program: npx, Confine: unconfined})
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
	_, err := Run(context.Background(), l, Options{Env: os.Environ(), Program: npx, Confine: unconfined})
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
	_, err = Run(context.Background(), l, Options{Env: os.Environ(), Timeout: 300 * time.Millisecond, Program: slow, Confine: unconfined})
	if !errors.As(err, &pe) || !strings.Contains(pe.Reason, "stopped after 300ms") {
		t.Errorf("err = %v; want stopped after 300ms", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a timed-out prefetch returned after %v", d)
	}
}

// TestRunStartsOnlyTheCheckedProgramConfined: Run starts the program it
// is given, not the one the command line names, and nothing without a
// program found by Installed, without a Confine, or when Confine fails
// (fail closed); Confine is given the command with the launcher's
// arguments, the entry's env and folder.
func TestRunStartsOnlyTheCheckedProgramConfined(t *testing.T) {
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	npx := fakeLauncher(t, `echo "$0 $*" >> `+ran)
	evil := filepath.Join(dir, "evil", "npx") // what the entry names
	if err := os.Mkdir(filepath.Dir(evil), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(evil, []byte("#!/bin/sh\necho evil >> "+ran+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	l, _ := Of([]string{evil, "-y", "@scope/server-x"})
	var nr *NotRunError
	for _, o := range []Options{
		{Confine: unconfined},                      // no program
		{Program: "evil/npx", Confine: unconfined}, // not absolute
		{Program: npx},                             // no Confine
		{Program: npx, Confine: func(*exec.Cmd) (func(error) error, error) { return nil, errors.New("no Landlock here") }},
	} {
		if _, err := Run(context.Background(), l, o); !errors.As(err, &nr) {
			t.Errorf("Run with program %q, Confine %v: %v; want a NotRunError", o.Program, o.Confine != nil, err)
		}
	}
	if b, err := os.ReadFile(ran); err == nil {
		t.Fatalf("a refused prefetch ran: %s", b)
	}
	if _, err := Run(context.Background(), l, Options{Program: npx, Confine: unconfined}); err != nil || !strings.Contains(nr.Why, "no Landlock here") {
		t.Errorf("err %v, the refusal said %q", err, nr.Why)
	}
	if b, _ := os.ReadFile(ran); strings.Contains(string(b), "evil") || !strings.Contains(string(b), "--yes --package=@scope/server-x -- node -e 0") {
		t.Errorf("Run ran %q; want the given program with the prefetch's arguments", b)
	}

	var seen *exec.Cmd
	confine := func(cmd *exec.Cmd) (func(error) error, error) {
		seen = cmd
		return func(err error) error { return errors.Join(err, errors.New("said by finish")) }, nil
	}
	_, err := Run(context.Background(), l, Options{Program: npx, Confine: confine, Env: []string{"A=1"}, Dir: dir})
	if seen == nil || seen.Path != npx || seen.Args[0] != evil || seen.Dir != dir || !slices.Equal(seen.Env, []string{"A=1"}) {
		t.Errorf("Confine was given %+v", seen)
	}
	if err == nil || !strings.Contains(err.Error(), "said by finish") {
		t.Errorf("Run's error %v; want finish's", err)
	}
}

func TestQuote(t *testing.T) {
	if got, want := Quote([]string{"npx", "--package=@a/b", "--", "node", "-e", "0", "it's", ""}), `npx --package=@a/b -- node -e 0 'it'\''s' ''`; got != want {
		t.Errorf("Quote = %s; want %s", got, want)
	}
}
