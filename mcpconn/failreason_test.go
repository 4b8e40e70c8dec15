//go:build unix

package mcpconn

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// Tests of why a server failed, as the person reads it: the exit status or
// the signal rather than the transport's EOF, a program that cannot be
// started as a final failure, the longer first start of a package runner,
// and the last stderr line while a server starts.

// failedEvent is the first Failed event of server.
func failedEvent(t *testing.T, evs []Event, server string) Event {
	t.Helper()
	for _, e := range evs {
		if e.Kind == Failed && e.Server == server {
			return e
		}
	}
	t.Fatalf("no Failed event of %s in %+v", server, evs)
	return Event{}
}

// TestExitIsTheReason: a server whose process exits or is killed while it
// starts is reported by its exit status or signal, not by the EOF the
// handshake met; a final failure it is not, so it is restarted. The
// status is waited for, not guessed from how soon the process went away:
// "SIGTERM, slow to end" leaves a grandchild deaf to SIGTERM, which its
// guard takes a second to end (as a loaded machine delays any guard), and
// is still reported by its signal.
func TestExitIsTheReason(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(t.TempDir(), "pids")
	t.Cleanup(func() {
		for _, p := range faultserver.ReadPids(pidfile) {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	})
	for _, tc := range []struct {
		name    string
		command []string
		reason  string
		whole   string
	}{
		{"false", []string{"false"}, "exited with status 1", "exited with status 1 before it answered initialize"},
		{"exit 3 with stderr", []string{"sh", "-c", "echo boom >&2; exit 3"}, "exited with status 3",
			"exited with status 3 before it answered initialize (stderr: boom)"},
		{"exit 127", []string{"sh", "-c", "exit 127"}, "exited with status 127 (a command it ran was not found)", ""},
		{"SIGKILL", []string{"sh", "-c", "kill -KILL $$"}, "killed by signal 9 (SIGKILL)", ""},
		{"SIGTERM", []string{"sh", "-c", "kill -TERM $$"}, "terminated by SIGTERM (signal 15)", ""},
		{"SIGTERM, slow to end", []string{"env", "ROOTPICK_TEST_SERVE=setsid-then-term", "ROOTPICK_TEST_PIDFILE=" + pidfile, exe},
			"terminated by SIGTERM (signal 15)", "terminated by SIGTERM (signal 15) before it answered initialize"},
		{"SIGSEGV", []string{"sh", "-c", "kill -SEGV $$"}, "killed by signal 11 (SIGSEGV)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hub := NewHub(Options{Timing: Timing{BackoffMin: time.Hour}})
			defer hub.Close()
			events := collect(hub)
			err := hub.Connect(context.Background(), Spec{Name: "x", Command: tc.command})
			if err == nil || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("err = %v; want it to say %q", err, tc.reason)
			}
			if strings.Contains(err.Error(), "EOF") || strings.Contains(err.Error(), "initialize\"") {
				t.Errorf("err = %v; the transport's error hides the exit", err)
			}
			if tc.whole != "" && err.Error() != tc.whole {
				t.Errorf("err = %q; want %q", err, tc.whole)
			}
			waitFor(t, "a restart scheduled", func() bool { return has(events(), Restarting, "x") })
			f := failedEvent(t, events(), "x")
			if f.Reason != tc.reason || f.Final {
				t.Errorf("Failed event: reason %q final %v; want %q, not final", f.Reason, f.Final, tc.reason)
			}
		})
	}
}

// TestKilledServerSaysTheSignal: a connected server killed by SIGKILL is
// reported disconnected because of that signal.
func TestKilledServerSaysTheSignal(t *testing.T) {
	marker := testproc.UniqueMarker("sigkill")
	hub := NewHub(Options{Timing: Timing{BackoffMin: time.Hour}})
	defer hub.Close()
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Name: "k", Command: testproc.SelfServer(t, "demo", marker)}); err != nil {
		t.Fatal(err)
	}
	faultserver.KillServer(t, marker)
	waitFor(t, "the disconnect", func() bool { return has(events(), Disconnected, "k") })
	for _, e := range events() {
		if e.Kind == Disconnected {
			if e.Reason != "killed by signal 9 (SIGKILL)" || e.Err == nil || e.Err.Error() != e.Reason {
				t.Errorf("Disconnected: reason %q err %v; want the signal", e.Reason, e.Err)
			}
		}
	}
}

// TestProgramThatCannotStartIsFinal: a program that is not on PATH, does
// not exist, is not executable, is a folder or names a missing
// interpreter fails with a plain reason and is not restarted.
func TestProgramThatCannotStartIsFinal(t *testing.T) {
	dir := tempDir(t)
	noExec := filepath.Join(dir, "noexec")
	must(t, os.WriteFile(noExec, []byte("#!/bin/sh\n"), 0o644))
	noInterp := filepath.Join(dir, "nointerp")
	must(t, os.WriteFile(noInterp, []byte("#!/nonexistent/interpreter\n"), 0o755))
	for _, tc := range []struct {
		program, want, reason string
	}{
		{"rootpick-nosuch-xyz", "rootpick-nosuch-xyz: not found on PATH", "not found on PATH"},
		{"/nonexistent/rootpick-no-such-server", "/nonexistent/rootpick-no-such-server: no such file", "no such file"},
		{noExec, noExec + ": not executable (permission denied)", "not executable (permission denied)"},
		{dir, dir + ": is a folder, not a program", "is a folder, not a program"},
		{noInterp, noInterp + ": its interpreter (the #! line) was not found", "its interpreter (the #! line) was not found"},
	} {
		t.Run(filepath.Base(tc.program), func(t *testing.T) {
			hub := NewHub(Options{Timing: testTiming})
			defer hub.Close()
			events := collect(hub)
			err := hub.Connect(context.Background(), Spec{Name: "p", Command: []string{tc.program, "arg"}})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v; want %q", err, tc.want)
			}
			waitFor(t, "the Failed event", func() bool { return has(events(), Failed, "p") })
			if f := failedEvent(t, events(), "p"); !f.Final || f.Reason != tc.reason {
				t.Errorf("Failed event: final %v reason %q; want final, %q", f.Final, f.Reason, tc.reason)
			}
		})
	}
}

// TestFinalFailureWaitsForRetry: a command not on PATH is not restarted
// on its own — with a 20 ms backoff a second of waiting would have seen
// dozens of starts — and Retry starts it again, once.
func TestFinalFailureWaitsForRetry(t *testing.T) {
	hub := NewHub(Options{Timing: testTiming})
	defer hub.Close()
	events := collect(hub)
	spec := Spec{Name: "nosuch", Command: []string{"rootpick-nosuch-xyz"}}
	if err := hub.Connect(context.Background(), spec); err == nil {
		t.Fatal("a command not on PATH connected")
	}
	time.Sleep(time.Second)
	if n, r := count(events(), Connecting, "nosuch"), count(events(), Restarting, "nosuch"); n != 1 || r != 0 {
		t.Fatalf("after a final failure: %d starts, %d restarts scheduled; want 1 and 0", n, r)
	}
	hub.Retry("")
	waitFor(t, "the retry's start and failure", func() bool { return count(events(), Failed, "nosuch") == 2 })
	var attempts []int
	for _, e := range events() {
		if e.Kind == Connecting {
			attempts = append(attempts, e.Attempt)
		}
	}
	if !slices.Equal(attempts, []int{1, 2}) {
		t.Errorf("Connecting attempts %v; want [1 2]", attempts)
	}
	time.Sleep(200 * time.Millisecond)
	if n := count(events(), Connecting, "nosuch"); n != 2 {
		t.Errorf("one retry made %d starts in all; want 2", n)
	}
}

// TestRetryWhileUpIsNotKept: a retry asked while a server is connected
// (the UI asks every server when one is down) does not cut the backoff of
// its next failure short.
func TestRetryWhileUpIsNotKept(t *testing.T) {
	marker := testproc.UniqueMarker("retry-up")
	hub := NewHub(Options{Timing: Timing{BackoffMin: time.Hour}})
	defer hub.Close()
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Name: "up", Command: testproc.SelfServer(t, "demo", marker)}); err != nil {
		t.Fatal(err)
	}
	hub.Retry("")
	faultserver.KillServer(t, marker)
	waitFor(t, "a restart an hour away", func() bool { return has(events(), Restarting, "up") })
	time.Sleep(300 * time.Millisecond)
	if n := count(events(), Connecting, "up"); n != 1 {
		t.Errorf("%d starts: a retry asked while it was up restarted it at once", n)
	}
}

func TestPackageRunner(t *testing.T) {
	for _, tc := range []struct {
		command string
		want    bool
	}{
		{"npx -y @modelcontextprotocol/server-filesystem /tmp", true},
		{"/usr/local/bin/npx srv", true},
		{"uvx mcp-server-git", true},
		{"bunx srv", true},
		{"pnpx srv", true},
		{"pnpm dlx srv", true},
		{"pnpm --silent dlx srv", true},
		{"npm exec -- srv", true},
		{"npm x srv", true},
		{"yarn dlx srv", true},
		{"bun x srv", true},
		{"uv tool run mcp-server-git", true},
		{"env FOO=1 npx srv", true},
		{"NPX.CMD srv", true},
		{"pnpm run srv", false},
		{"npm start", false},
		{"uv run srv.py", false},
		{"node srv.js", false},
		{"python -m npx", false},
		{"false", false},
	} {
		if got := packageRunner(strings.Fields(tc.command)); got != tc.want {
			t.Errorf("packageRunner(%q) = %v; want %v", tc.command, got, tc.want)
		}
	}
}

func TestInitBudget(t *testing.T) {
	timing := Timing{}.WithDefaults()
	npx := Spec{Command: []string{"npx", "-y", "@modelcontextprotocol/server-filesystem"}}
	node := Spec{Command: []string{"node", "srv.js"}}
	for _, tc := range []struct {
		name            string
		spec            Spec
		explicit        time.Duration
		connectedBefore bool
		want            time.Duration
	}{
		{"npx, first start", npx, 0, false, FirstRunInitTimeout},
		{"npx, once connected", npx, 0, true, DefaultInitTimeout},
		{"npx, explicit budget", npx, 5 * time.Second, false, 5 * time.Second},
		{"node", node, 0, false, DefaultInitTimeout},
		{"node, explicit budget", node, time.Minute, false, time.Minute},
		{"URL", Spec{URL: "http://127.0.0.1:9/mcp"}, 0, false, DefaultInitTimeout},
	} {
		if got := initBudget(tc.spec, tc.explicit, timing, tc.connectedBefore); got != tc.want {
			t.Errorf("%s: budget %v; want %v", tc.name, got, tc.want)
		}
	}
	if FirstRunInitTimeout < 2*DefaultInitTimeout {
		t.Errorf("the first-run budget %v is hardly longer than the default %v", FirstRunInitTimeout, DefaultInitTimeout)
	}
}

// TestPackageRunnerGetsTheLongerBudget: a fake npx on PATH that takes a
// second before it serves (as a download would) connects on its first
// start when the default budget is 300 ms, since a package runner's first
// start gets the longer one; the same program under another name, or with
// the budget set explicitly, fails after 300 ms. Once it has connected, a
// restart gets the default budget.
func TestPackageRunnerGetsTheLongerBudget(t *testing.T) {
	exe, err := os.Executable()
	must(t, err)
	bin := tempDir(t)
	script := "#!/bin/sh\necho fetching the package >&2\nsleep 1\nROOTPICK_TEST_SERVE=demo exec " + shellQuote(exe) + " \"$@\"\n"
	for _, name := range []string{"npx", "slowserver"} {
		must(t, os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755))
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	timing := Timing{BackoffMin: time.Hour, DefaultInit: 300 * time.Millisecond, FirstRunInit: 20 * time.Second}

	t.Run("npx", func(t *testing.T) {
		marker := testproc.UniqueMarker("npx")
		hub := NewHub(Options{Timing: timing})
		defer hub.Close()
		events := collect(hub)
		if err := hub.Connect(context.Background(), Spec{Name: "npx", Command: []string{"npx", "-y", marker}}); err != nil {
			t.Fatalf("the first start of npx failed: %v", err)
		}
		faultserver.KillServer(t, marker)
		waitFor(t, "a restart scheduled", func() bool { return has(events(), Restarting, "npx") })
		hub.Retry("npx")
		waitFor(t, "the restart", func() bool { return count(events(), Connecting, "npx") == 2 })
		var budgets []time.Duration
		for _, e := range events() {
			if e.Kind == Connecting {
				budgets = append(budgets, e.Timeout)
			}
		}
		if !slices.Equal(budgets, []time.Duration{20 * time.Second, 300 * time.Millisecond}) {
			t.Errorf("budgets %v; want 20s for the first start, then 300ms", budgets)
		}
	})
	for _, tc := range []struct {
		name     string
		program  string
		explicit time.Duration
	}{
		{"another name", "slowserver", 0},
		{"explicit budget", "npx", 300 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hub := NewHub(Options{InitTimeout: tc.explicit, Timing: timing})
			defer hub.Close()
			err := hub.Connect(context.Background(), Spec{Name: "s", Command: []string{tc.program, testproc.UniqueMarker("slow")}})
			if err == nil || !strings.Contains(err.Error(), "no answer to initialize within 300ms") {
				t.Fatalf("err = %v; want no answer within 300ms", err)
			}
		})
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestProgressWhileStarting: while a server starts, its last stderr line
// arrives as Progress, before the outcome; none follows the outcome.
func TestProgressWhileStarting(t *testing.T) {
	hub := NewHub(Options{InitTimeout: 500 * time.Millisecond, Timing: Timing{BackoffMin: time.Hour}})
	defer hub.Close()
	events := collect(hub)
	_ = hub.Connect(context.Background(), Spec{Name: "slow", Command: []string{"sh", "-c", "echo resolving >&2; echo downloading 3/7 >&2; exec sleep 30"}})
	waitFor(t, "the restart scheduled", func() bool { return has(events(), Restarting, "slow") })
	evs := events()
	failed := slices.IndexFunc(evs, func(e Event) bool { return e.Kind == Failed })
	last := -1
	for i, e := range evs {
		if e.Kind == Progress {
			last = i
		}
	}
	if last < 0 || last > failed {
		t.Fatalf("Progress events at %d, the failure at %d: %+v", last, failed, evs)
	}
	if evs[last].Text != "downloading 3/7" {
		t.Errorf("the last Progress says %q; want the last stderr line", evs[last].Text)
	}
}

// TestProgressIsCoalesced: a Progress event waiting to be read is replaced
// by a newer one of its server, until something else about that server is
// queued after it; so a flood of lines queues one event, and an outcome is
// never overtaken.
func TestProgressIsCoalesced(t *testing.T) {
	q := &queue{wake: make(chan struct{}, 1)} // no pump: items stay queued
	q.publish(Event{Server: "a", Kind: Connecting})
	for i := range 1000 {
		q.publish(Event{Server: "a", Kind: Progress, Text: "line " + strconv.Itoa(i)})
		q.publish(Event{Server: "b", Kind: Progress, Text: "b " + strconv.Itoa(i)})
	}
	q.publish(Event{Server: "a", Kind: Stderr, Text: "chatter"})
	q.publish(Event{Server: "a", Kind: Failed, Err: errors.New("x")})
	q.publish(Event{Server: "a", Kind: Progress, Text: "after"})
	var got []string
	for _, e := range q.items {
		got = append(got, e.Server+" "+e.Kind.String()+" "+e.Text)
	}
	want := []string{"a connecting ", "a progress line 999", "b progress b 999", "a stderr chatter", "a failed ", "a progress after"}
	if !slices.Equal(got, want) {
		t.Errorf("queued:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
