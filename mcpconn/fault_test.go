package mcpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// testTiming makes supervision quick enough for tests.
var testTiming = Timing{BackoffMin: 20 * time.Millisecond, BackoffMax: 80 * time.Millisecond,
	StuckAfter: 500 * time.Millisecond, NotFetchingAfter: 300 * time.Millisecond}

func has(evs []Event, kind EventKind, server string) bool {
	return slices.ContainsFunc(evs, func(e Event) bool { return e.Kind == kind && e.Server == server })
}

// count counts the events of kind, of server ("" for any server).
func count(evs []Event, kind EventKind, server string) int {
	n := 0
	for _, e := range evs {
		if e.Kind == kind && (server == "" || e.Server == server) {
			n++
		}
	}
	return n
}

// connOf is the live connection of the server labelled label, or nil.
func connOf(h *Hub, label string) *conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.servers {
		if s.label == label {
			return s.current()
		}
	}
	return nil
}

// waitWedged waits until a write to the server labelled label has been
// blocked for a while: it no longer reads, and its input pipe is full.
// It returns that connection.
func waitWedged(t *testing.T, h *Hub, label string) *conn {
	t.Helper()
	var c *conn
	waitFor(t, label+"'s input to fill", func() bool {
		c = connOf(h, label)
		return c != nil && c.wc.blocked() > 100*time.Millisecond
	})
	return c
}

// TestWedgedServerDoesNotDelayOthers: a server that stops reading while it
// keeps asking roots/list must not delay a revocation to a healthy server,
// must be declared stuck and stopped, and must not delay Close (beyond
// hangBound: how soon a Close returns is BenchmarkClose's figure).
//
// "Not delayed" is judged against the wedge's own clock, not a wall-time
// bound that load can exceed: a change that waited on the wedge would wait
// until its watchdog stopped it, StuckAfter (2 s) after its write blocked.
// So SetRoots must return, and the healthy server must hold the new set,
// before the wedge is declared stuck: typically 15 ms against 2 s.
func TestWedgedServerDoesNotDelayOthers(t *testing.T) {
	marker := testproc.UniqueMarker("wedge")
	demo := NewDemo(nil, nil)
	hub := NewHub(Options{Timing: Timing{StuckAfter: 2 * time.Second}})
	events := collect(hub)
	ctx := context.Background()
	if err := hub.Connect(ctx, Spec{Name: "healthy", Demo: demo}); err != nil {
		t.Fatal(err)
	}
	if err := hub.Connect(ctx, Spec{Name: "wedge", Command: testproc.SelfServer(t, "wedge", marker)}); err != nil {
		t.Fatal(err)
	}
	a, b := root(t, "a"), root(t, "b")
	hub.SetRoots([]consent.Root{a})
	waitFor(t, "healthy to hold a", func() bool { return slices.Equal(uris(demo.Roots()), []string{a.URI}) })
	wedge := waitWedged(t, hub, "wedge")

	start := time.Now()
	hub.SetRoots([]consent.Root{b}) // revokes a
	if wedge.stuck.Load() != nil {
		t.Errorf("SetRoots returned only after the wedge was declared stuck (%v)", time.Since(start))
	}
	waitFor(t, "healthy to hold only b", func() bool { return slices.Equal(uris(demo.Roots()), []string{b.URI}) })
	if wedge.stuck.Load() != nil {
		t.Errorf("the revocation reached the healthy server only after the wedge was declared stuck (%v)", time.Since(start))
	}
	t.Logf("revocation reached the healthy server in %v", time.Since(start))
	// From the swap on, every answer excludes a, whoever asks.
	for _, e := range events() {
		if e.Kind == Fetched && e.Server == "healthy" && slices.Contains(e.URIs, a.URI) && slices.Contains(e.URIs, b.URI) {
			t.Errorf("healthy was answered a and b together: %v", e.URIs)
		}
	}
	waitFor(t, "the wedge declared stuck", func() bool { return has(events(), Stuck, "wedge") })
	waitFor(t, "the wedge restarted", func() bool { return count(events(), Connected, "wedge") >= 2 })
	start = time.Now()
	hub.Close()
	t.Logf("Close took %v", time.Since(start))
	if d := time.Since(start); d > hangBound {
		t.Errorf("Close took %v", d)
	}
	if pids := faultserver.ServerPids(marker); len(pids) > 0 {
		t.Errorf("wedged server %v still running after Close", pids)
	}
}

// TestAServerAtRestWakesNothing: the watchdog looks at a server's writes
// only while one is in progress; once the server is served and quiet it
// is not looked at (it was, every StuckAfter/8, for as long as rootpick
// ran), and a write after the rest is watched again (that a blocked
// write is then declared stuck: TestWedgedServerDoesNotDelayOthers).
func TestAServerAtRestWakesNothing(t *testing.T) {
	marker := testproc.UniqueMarker("rest")
	hub := NewHub(Options{Timing: Timing{StuckAfter: 400 * time.Millisecond, Revalidate: time.Hour}})
	defer hub.Close()
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Name: "up", Command: testproc.SelfServer(t, "demo", marker)}); err != nil {
		t.Fatal(err)
	}
	hub.SetRoots([]consent.Root{root(t, "a")})
	waitFor(t, "up to be verified", func() bool { return has(events(), Verified, "up") })
	c := connOf(hub, "up")
	looks := func() int {
		c.wc.mu.Lock()
		defer c.wc.mu.Unlock()
		return c.wc.looks
	}
	time.Sleep(300 * time.Millisecond) // the last write's look is over
	before := looks()
	time.Sleep(500 * time.Millisecond) // ten looks a second while it ticked
	if n := looks() - before; n > 1 {
		t.Errorf("the watchdog looked %d times at a server at rest in 500 ms", n)
	}
	// A change after the rest is written, and watched while it is.
	hub.SetRoots([]consent.Root{root(t, "b")})
	waitFor(t, "the watchdog to look at the write", func() bool { return looks() > before })
}

// TestCloseWithAWedgedServer: quitting while a server is wedged (before
// the watchdog acts) still ends everything, and Close returns (the 3 s
// promise is BenchmarkClose's; the bound here catches a hang).
func TestCloseWithAWedgedServer(t *testing.T) {
	marker := testproc.UniqueMarker("wedge-close")
	hub := NewHub(Options{Timing: Timing{StuckAfter: time.Minute}})
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Name: "wedge", Command: testproc.SelfServer(t, "wedge", marker)}); err != nil {
		t.Fatal(err)
	}
	hub.SetRoots([]consent.Root{root(t, "a")})
	waitFor(t, "the wedge to wedge", func() bool {
		return slices.ContainsFunc(events(), func(e Event) bool { return e.Kind == Stderr && e.Text == "wedged" })
	})
	waitWedged(t, hub, "wedge")
	start := time.Now()
	hub.SetRoots(nil)
	hub.Close()
	d := time.Since(start)
	t.Logf("SetRoots(nil) + Close with a wedged server: %v", d)
	if d > hangBound {
		t.Errorf("SetRoots + Close took %v with a wedged server", d)
	}
	if pids := faultserver.ServerPids(marker); len(pids) > 0 {
		t.Errorf("wedged server %v still running after Close", pids)
	}
}

// TestKilledServerIsRestartedAndReserved kills a stdio server 20 times in a
// row: each time it comes back and is served the consented set again.
func TestKilledServerIsRestartedAndReserved(t *testing.T) {
	marker := testproc.UniqueMarker("killme")
	hub := NewHub(Options{Timing: testTiming})
	defer hub.Close()
	events := collect(hub)
	a := root(t, "a")
	hub.SetRoots([]consent.Root{a})
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	if err := hub.Connect(context.Background(), Spec{Name: "k", Command: []string{exe, marker}}); err != nil {
		t.Fatal(err)
	}
	fetchedA := func(after int) func() bool {
		return func() bool {
			evs := events()
			for _, e := range evs[min(after, len(evs)):] {
				if e.Kind == Fetched && e.Server == "k" && slices.Equal(e.URIs, []string{a.URI}) {
					return true
				}
			}
			return false
		}
	}
	waitFor(t, "first fetch", fetchedA(0))
	var worst time.Duration
	for i := range 20 {
		pids := faultserver.ServerPids(marker)
		if len(pids) != 1 {
			t.Fatalf("kill %d: want one server process, have %v", i, pids)
		}
		mark := len(events())
		var pid int
		if _, err := fmt.Sscan(pids[0], &pid); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := testproc.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		waitFor(t, fmt.Sprintf("kill %d: served again", i), fetchedA(mark))
		worst = max(worst, time.Since(start))
		waitFor(t, "the old process gone", func() bool { return !slices.Contains(faultserver.ServerPids(marker), pids[0]) })
	}
	t.Logf("20 kills: worst time from SIGKILL to served again %v", worst)
	var restarts, disconnects int
	for _, e := range events() {
		switch {
		case e.Kind == Restarting && e.Server == "k":
			restarts++
		case e.Kind == Disconnected && e.Server == "k":
			disconnects++
		}
	}
	if restarts < 20 || disconnects < 20 {
		t.Errorf("saw %d restarts, %d disconnects; want 20 of each", restarts, disconnects)
	}
}

// TestBackoffDoublesAndIsCapped: a server that fails at start is retried
// with a growing delay, and Retry skips the wait. (It exits at once: a
// program that does not exist is not retried at all, see
// TestFinalFailureWaitsForRetry.)
func TestBackoffDoublesAndIsCapped(t *testing.T) {
	hub := NewHub(Options{Timing: Timing{BackoffMin: 10 * time.Millisecond, BackoffMax: 40 * time.Millisecond}})
	defer hub.Close()
	events := collect(hub)
	hub.Add(Spec{Name: "missing", Command: []string{"sh", "-c", "exit 1"}})
	waitFor(t, "six restarts", func() bool { return count(events(), Restarting, "") >= 6 })
	var delays []time.Duration
	var attempts []int
	for _, e := range events() {
		if e.Kind == Restarting {
			delays = append(delays, e.Delay)
			attempts = append(attempts, e.Attempt)
		}
	}
	wantD := []time.Duration{10, 20, 40, 40, 40, 40}
	for i := range wantD {
		if delays[i] != wantD[i]*time.Millisecond || attempts[i] != i+1 {
			t.Fatalf("restart %d: delay %v attempt %d; want %v attempt %d (all: %v)", i, delays[i], attempts[i], wantD[i]*time.Millisecond, i+1, delays)
		}
	}

	slow := NewHub(Options{Timing: Timing{BackoffMin: time.Hour}})
	defer slow.Close()
	sev := collect(slow)
	slow.Add(Spec{Name: "missing", Command: []string{"sh", "-c", "exit 1"}})
	waitFor(t, "a restart an hour away", func() bool { return has(sev(), Restarting, "missing") })
	slow.Retry("missing")
	waitFor(t, "the retry to start it at once", func() bool { return count(sev(), Failed, "") >= 2 })
}

// TestInitTimeout: a server that never answers initialize fails after the
// init timeout, with the tail of its stderr, and is stopped.
func TestInitTimeout(t *testing.T) {
	marker := testproc.UniqueMarker("silent")
	hub := NewHub(Options{InitTimeout: 300 * time.Millisecond, Timing: Timing{BackoffMin: time.Hour}})
	defer hub.Close()
	err := hub.Connect(context.Background(), Spec{Name: "silent", Command: []string{"sh", "-c", "echo warming up >&2; sleep 30; echo " + marker}})
	if err == nil || !strings.Contains(err.Error(), "no answer to initialize within 300ms") || !strings.Contains(err.Error(), "warming up") {
		t.Fatalf("err = %v; want the timeout and the stderr tail", err)
	}
	waitFor(t, "the silent server gone", func() bool { return len(faultserver.ServerPids(marker)) == 0 })
}

// TestNotFetching: a server that never asks roots/list is reported.
func TestNotFetching(t *testing.T) {
	hub := NewHub(Options{Timing: testTiming})
	defer hub.Close()
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Name: "nf", Command: testproc.SelfServer(t, "nofetch", "nf")}); err != nil {
		t.Fatal(err)
	}
	hub.SetRoots([]consent.Root{root(t, "a")})
	waitFor(t, "not fetching", func() bool { return has(events(), NotFetching, "nf") })

	// A server that does fetch is never reported: checked once the check
	// of the change has run, whenever that is. The demo fetches within
	// milliseconds; a second leaves room for a loaded machine.
	timing := testTiming
	timing.NotFetchingAfter = time.Second
	demoHub := NewHub(Options{Timing: timing})
	defer demoHub.Close()
	checked := make(chan bool, 8)
	demoHub.hooks.fetchChecked = func(c *conn, version int, reported bool) {
		if version == 1 { // the SetRoots below
			checked <- reported
		}
	}
	if err := demoHub.Connect(context.Background(), Spec{Name: "d", Demo: NewDemo(nil, nil)}); err != nil {
		t.Fatal(err)
	}
	demoHub.SetRoots([]consent.Root{root(t, "b")})
	select {
	case reported := <-checked:
		if reported {
			t.Fatal("the demo server, which fetches, was reported as not fetching")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the not-fetching check of the change never ran")
	}
}

// TestRevokeAllRestartsStdioServers: when the set becomes empty a stdio
// server is restarted, so that it holds nothing even if it would ignore an
// empty list.
func TestRevokeAllRestartsStdioServers(t *testing.T) {
	marker := testproc.UniqueMarker("revoke")
	hub := NewHub(Options{Timing: testTiming})
	defer hub.Close()
	events := collect(hub)
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	if err := hub.Connect(context.Background(), Spec{Name: "s", Command: []string{exe, marker}}); err != nil {
		t.Fatal(err)
	}
	a := root(t, "a")
	hub.SetRoots([]consent.Root{a})
	waitFor(t, "a served", func() bool {
		return slices.ContainsFunc(events(), func(e Event) bool { return e.Kind == Verified && slices.Equal(e.URIs, []string{a.URI}) })
	})
	before := faultserver.ServerPids(marker)
	hub.SetRoots(nil)
	waitFor(t, "a restart with a reason", func() bool {
		return slices.ContainsFunc(events(), func(e Event) bool { return e.Kind == Restarting && strings.Contains(e.Text, "revoked") })
	})
	waitFor(t, "a new process holding nothing", func() bool {
		after := faultserver.ServerPids(marker)
		return len(after) == 1 && !slices.Contains(before, after[0]) &&
			slices.ContainsFunc(events(), func(e Event) bool { return e.Kind == Stderr && e.Text == `{"fetch":1,"roots":[]}` })
	})
	waitFor(t, "verified empty", func() bool {
		evs := events()
		return evs[len(evs)-1].Kind == Verified && len(evs[len(evs)-1].URIs) == 0 || slices.ContainsFunc(evs, func(e Event) bool {
			return e.Kind == Verified && len(e.URIs) == 0
		})
	})
}

// TestRootsPlaceholderRestartsWithArguments: {roots} expands to the
// consented paths, and a change restarts the server with the new ones.
func TestRootsPlaceholderRestartsWithArguments(t *testing.T) {
	hub := NewHub(Options{Timing: testTiming})
	defer hub.Close()
	events := collect(hub)
	a, b := root(t, "a"), root(t, "b c")
	hub.SetRoots([]consent.Root{a})
	if err := hub.Connect(context.Background(), Spec{Name: "args", Command: testproc.SelfServer(t, "args", "x", "--dirs", launch.RootsPlaceholder, "--end")}); err != nil {
		t.Fatal(err)
	}
	argsLine := func(paths ...string) string {
		b, _ := json.Marshal(append(append([]string{"x", "--dirs"}, paths...), "--end"))
		return "args:" + string(b)
	}
	saw := func(line string) func() bool {
		return func() bool {
			return slices.ContainsFunc(events(), func(e Event) bool { return e.Kind == Stderr && e.Text == line })
		}
	}
	waitFor(t, "started with a", saw(argsLine(a.Path)))
	hub.SetRoots([]consent.Root{a, b})
	waitFor(t, "restarted with a and b", saw(argsLine(a.Path, b.Path)))
	hub.SetRoots(nil)
	waitFor(t, "restarted with none", saw(argsLine()))
}

// TestVerifiedAndMismatch: rootpick asks servers it knows what they hold.
func TestVerifiedAndMismatch(t *testing.T) {
	hub := NewHub(Options{Timing: testTiming})
	defer hub.Close()
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Name: "demo", Demo: NewDemo(nil, nil)}); err != nil {
		t.Fatal(err)
	}
	if err := hub.Connect(context.Background(), Spec{Name: "liar", Command: testproc.SelfServer(t, "liar", "liar")}); err != nil {
		t.Fatal(err)
	}
	a := root(t, "a")
	hub.SetRoots([]consent.Root{a})
	waitFor(t, "demo verified", func() bool {
		return slices.ContainsFunc(events(), func(e Event) bool {
			return e.Kind == Verified && e.Server == "demo" && slices.Equal(e.URIs, []string{a.URI})
		})
	})
	waitFor(t, "the liar caught", func() bool {
		return slices.ContainsFunc(events(), func(e Event) bool {
			return e.Kind == Mismatch && e.Server == "liar" && e.Text == "holds /etc beyond the consent; lacks "+a.Path
		})
	})
	if has(events(), Verified, "liar") {
		t.Error("the liar was verified")
	}
}

// TestWithdrawVanishedRoots: a served folder that is deleted, renamed or
// swapped for a symlink is withdrawn from every server (within a second:
// BenchmarkWithdraw measures it).
func TestWithdrawVanishedRoots(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string)
		why    string
	}{
		{"deleted", func(t *testing.T, dir string) { must(t, os.RemoveAll(dir)) }, "deleted or renamed"},
		{"renamed", func(t *testing.T, dir string) { must(t, os.Rename(dir, dir+".old")) }, "deleted or renamed"},
		{"symlink to /etc", func(t *testing.T, dir string) {
			must(t, os.Rename(dir, dir+".old"))
			must(t, os.Symlink("/etc", dir))
		}, ""}, // "deleted or renamed" or "now resolves to /etc": which step is seen first
		{"parent swapped", func(t *testing.T, dir string) {
			parent := filepath.Dir(dir)
			must(t, os.Rename(parent, parent+".old"))
			must(t, os.MkdirAll(filepath.Join(parent+".elsewhere", filepath.Base(dir)), 0o755))
			must(t, os.Symlink(parent+".elsewhere", parent))
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			demo := NewDemo(nil, nil)
			hub := NewHub(Options{})
			defer hub.Close()
			events := collect(hub)
			if err := hub.Connect(context.Background(), Spec{Name: "demo", Demo: demo}); err != nil {
				t.Fatal(err)
			}
			gone, kept := root(t, "p/gone"), root(t, "kept")
			hub.SetRoots([]consent.Root{gone, kept})
			waitFor(t, "both held", func() bool { return len(demo.Roots()) == 2 })
			start := time.Now()
			tc.change(t, gone.Path)
			waitFor(t, "withdrawn", func() bool {
				return slices.ContainsFunc(events(), func(e Event) bool {
					return e.Kind == Withdrawn && e.Path == gone.Path && strings.HasPrefix(e.Text, tc.why) && e.Text != ""
				})
			})
			waitFor(t, "the server to hold only kept", func() bool { return slices.Equal(uris(demo.Roots()), []string{kept.URI}) })
			// How soon is BenchmarkWithdraw's figure; waitFor's
			// bound catches a hang.
			t.Logf("%s: withdrawn from the server in %v", tc.name, time.Since(start))
			if got := hub.Roots(); len(got) != 1 || got[0].Path != kept.Path {
				t.Errorf("hub serves %v after the withdrawal", got)
			}
		})
	}
}

// TestWithdrawUnreadableRoot: a served folder made unreadable is withdrawn.
// As root every folder stays readable, so .ci/run runs it again as nobody.
func TestWithdrawUnreadableRoot(t *testing.T) {
	testskip.SkipAsRoot(t)
	demo := NewDemo(nil, nil)
	hub := NewHub(Options{})
	defer hub.Close()
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Name: "demo", Demo: demo}); err != nil {
		t.Fatal(err)
	}
	r := root(t, "locked")
	t.Cleanup(func() { _ = os.Chmod(r.Path, 0o755) })
	hub.SetRoots([]consent.Root{r})
	waitFor(t, "held", func() bool { return len(demo.Roots()) == 1 })
	start := time.Now()
	must(t, os.Chmod(r.Path, 0))
	waitFor(t, "withdrawn as unreadable", func() bool {
		return slices.ContainsFunc(events(), func(e Event) bool {
			return e.Kind == Withdrawn && e.Path == r.Path && e.Text == "no longer readable"
		})
	})
	waitFor(t, "the server to hold nothing", func() bool { return len(demo.Roots()) == 0 })
	t.Logf("unreadable: withdrawn in %v", time.Since(start))
}

// TestBackoffResetsAfterHealth: a server that stayed up for HealthyAfter
// is restarted after the shortest delay again.
func TestBackoffResetsAfterHealth(t *testing.T) {
	marker := testproc.UniqueMarker("health")
	hub := NewHub(Options{Timing: Timing{BackoffMin: 20 * time.Millisecond, BackoffMax: time.Second, HealthyAfter: 2 * time.Second}})
	defer hub.Close()
	events := collect(hub)
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	if err := hub.Connect(context.Background(), Spec{Name: "h", Command: []string{exe, marker}}); err != nil {
		t.Fatal(err)
	}
	j := testproc.NewBackoffJudge(t, 20*time.Millisecond, time.Second, 2*time.Second)
	restart := func(sleep time.Duration) {
		t.Helper()
		n := count(events(), Restarting, "")
		waitFor(t, "a connection", func() bool { return count(events(), Connected, "") > n })
		connected := time.Now()
		time.Sleep(sleep)
		killed := time.Now()
		faultserver.KillServer(t, marker)
		waitFor(t, "a restart", func() bool { return count(events(), Restarting, "") > n })
		reported := time.Now()
		var last Event
		for _, e := range events() {
			if e.Kind == Restarting {
				last = e
			}
		}
		if (last.Attempt == 1) != (last.Delay == 20*time.Millisecond) {
			t.Fatalf("restart numbered %d after %v: only the first of a series waits BackoffMin", last.Attempt, last.Delay)
		}
		j.Judge(connected, killed, reported, last.Delay)
	}
	j.Run(restart)
}

// TestRestartPreemptsAStart: a server started with the consented folders
// as its arguments ({roots}) that takes its time to answer initialize
// (this one never does) is restarted with the new folders as soon as the
// consent changes, not once its handshake is over: the process being
// started was made for a set that is no longer the consent. The old
// process is ended; the bound is a catch-all, far below the initialize
// budget that a serialized restart would wait out.
func TestRestartPreemptsAStart(t *testing.T) {
	marker := testproc.UniqueMarker("preempt")
	hub := NewHub(Options{InitTimeout: 10 * time.Minute, Timing: testTiming})
	defer hub.Close()
	events := collect(hub)
	a := root(t, "a")
	hub.Add(Spec{Name: "slow", Command: []string{"sh", "-c", `echo "args:$*" >&2; sleep 600`, marker, launch.RootsPlaceholder}})
	saw := func(line string) func() bool {
		return func() bool {
			return slices.ContainsFunc(events(), func(e Event) bool { return e.Kind == Stderr && e.Text == line })
		}
	}
	waitFor(t, "the first start, with no folder", saw("args:"))
	first := faultserver.ServerPids(marker)
	if len(first) != 1 {
		t.Fatalf("want one process being started, have %v", first)
	}
	hub.SetRoots([]consent.Root{a})
	waitFor(t, "a start with a, while the first is still starting", saw("args:"+a.Path))
	waitFor(t, "the first process ended", func() bool { return !slices.Contains(faultserver.ServerPids(marker), first[0]) })
	evs := events()
	if n := count(evs, Failed, "slow"); n > 0 {
		t.Errorf("a start cut short by a restart was reported failed %d times: %v", n, evs)
	}
	if !slices.ContainsFunc(evs, func(e Event) bool {
		return e.Kind == Restarting && e.Server == "slow" && strings.Contains(e.Text, "arguments")
	}) {
		t.Errorf("no Restarting event that says why: %v", evs)
	}
}
