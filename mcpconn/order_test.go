package mcpconn

import (
	"context"
	"io"
	"log/slog"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// The tests here stop a change at a hook (see hooks in hub.go) between two
// steps whose order matters, and look there: the order is checked on every
// run, not only when the scheduler happens to interleave the steps.

// demoSession is the demo server's side of its one session.
func demoSession(t *testing.T, demo *Demo) *mcp.ServerSession {
	t.Helper()
	var ss *mcp.ServerSession
	for s := range demo.Server().Sessions() {
		ss = s
	}
	if ss == nil {
		t.Fatal("no server session")
	}
	return ss
}

func rootURIs(roots []consent.Root) []string {
	out := []string{}
	for _, r := range roots {
		out = append(out, r.URI)
	}
	slices.Sort(out)
	return out
}

// TestSetRootsServesBeforeNotifying: when a server is told of a change, the
// new set is already the one served, so that the roots/list the
// notification prompts gets it. Told first, a server could ask before the
// store, or its notifier could wake, find no new version and send nothing:
// the server kept the old set (the demo child stuck at "pending", seen once
// in five runs of TestE2EServeDemoChild).
func TestSetRootsServesBeforeNotifying(t *testing.T) {
	demo := NewDemo(nil, nil)
	hub := NewHub(Options{})
	defer hub.Close()
	if err := hub.Connect(context.Background(), Spec{Demo: demo}); err != nil {
		t.Fatal(err)
	}
	ss := demoSession(t, demo)
	a, b := root(t, "a"), root(t, "b")
	steps := [][]consent.Root{{a}, {a, b}, {b}, {}}
	var told int
	hub.hooks.notifying = func(s *server, set *servedSet) {
		told++
		want := rootURIs(set.roots)
		if got := rootURIs(hub.Roots()); !slices.Equal(got, want) {
			t.Errorf("telling %s of %v while %v is served", s.label, want, got)
		}
		// What the server would be answered if it asked right now.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, err := ss.ListRoots(ctx, nil)
		if err != nil {
			t.Errorf("roots/list while %s is being told: %v", s.label, err)
			return
		}
		if got := uris(res.Roots); !slices.Equal(got, want) {
			t.Errorf("telling %s of %v, but roots/list answers %v", s.label, want, got)
		}
	}
	for _, set := range steps {
		hub.SetRoots(set)
		want := rootURIs(set)
		waitFor(t, "the demo to hold the set", func() bool { return slices.Equal(uris(demo.Roots()), want) })
	}
	if told != len(steps) {
		t.Fatalf("the server was told %d times of %d changes", told, len(steps))
	}
}

// TestWithdrawalHoldsTheSetLock: a withdrawal decides what to keep from the
// set served now and swaps it in, both under setMu. A consent confirmed
// between the two (the person replaces b by c while a vanishes) must win:
// with the lock released in between, the withdrawal would swap in what it
// decided from the old set, serving b again though it was just revoked.
// The hook runs in that gap; if the lock is free there, the test confirms
// the consent right then, which is the interleaving the lock excludes.
func TestWithdrawalHoldsTheSetLock(t *testing.T) {
	demo := NewDemo(nil, nil)
	hub := NewHub(Options{})
	defer hub.Close()
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Demo: demo}); err != nil {
		t.Fatal(err)
	}
	a, b, c := root(t, "a"), root(t, "b"), root(t, "c")
	consented := make(chan struct{})
	var held bool // whether setMu was held in the gap
	var gaps int
	hub.hooks.withdrawing = func(keep []consent.Root) {
		gaps++
		if gaps > 1 {
			return
		}
		if hub.setMu.TryLock() {
			hub.setMu.Unlock()
			hub.SetRoots([]consent.Root{c})
			close(consented)
			return
		}
		held = true
		go func() {
			hub.SetRoots([]consent.Root{c}) // waits for the withdrawal
			close(consented)
		}()
	}
	hub.SetRoots([]consent.Root{a, b})
	waitFor(t, "the demo to hold a and b", func() bool { return len(demo.Roots()) == 2 })
	must(t, os.RemoveAll(a.Path))
	waitFor(t, "a withdrawn", func() bool {
		return slices.ContainsFunc(events(), func(e Event) bool { return e.Kind == Withdrawn && e.Path == a.Path })
	})
	select {
	case <-consented:
	case <-time.After(10 * time.Second):
		t.Fatal("the consent confirmed during the withdrawal never returned")
	}
	if !held {
		t.Error("setMu was free between the withdrawal's check and its swap")
	}
	if got, want := rootURIs(hub.Roots()), []string{c.URI}; !slices.Equal(got, want) {
		t.Fatalf("after a withdrawal and a later consent of %v, the hub serves %v", want, got)
	}
	waitFor(t, "the demo to hold c", func() bool { return slices.Equal(uris(demo.Roots()), []string{c.URI}) })
}

// TestStopWhileStarting: Close can stop a server while its process is
// being started (a restart after every root was revoked, then quit at
// once). Stopping must not close the stderr pipe that exec is handing to
// the child at that moment; the race detector saw it do so in about one
// TestCloseWithAWedgedServer run in ten. Here both orders are tried many
// times; with -race any unordered close of the pipe fails the test.
func TestStopWhileStarting(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOTPICK_TEST_SERVE", "crash") // exits at once
	for range 20 {
		pt, err := launch.NewProcess([]string{exe}, launch.ServerAccess{}, slog.New(slog.NewTextHandler(io.Discard, nil)), func(string, *launch.Refusal) {})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			if conn, err := pt.Connect(context.Background()); err == nil {
				_ = conn.Close()
			}
		}()
		pt.Stop()
		<-done
		pt.Stop() // the process, if it started, is gone when this returns
	}
}

// TestRestartStartsTheNewProcessFirst: a server restarted because every
// root was revoked has its new process started while the old one is
// being ended, not after: ending a process may take seconds (its grace,
// then a tree to kill), and the new consent reaches the server only with
// the new process. The retired connection's end is held at its start
// (the retiring hook) until the next start has begun (the starting
// hook); were the old process ended first, the hold would run out.
func TestRestartStartsTheNewProcessFirst(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	hub := NewHub(Options{Timing: testTiming})
	defer hub.Close()
	release := make(chan struct{})
	var once sync.Once
	var heldOut atomic.Bool // the hold ran out: the next start waited for this end
	hub.hooks.retiring = func(*conn) {
		select {
		case <-release:
		case <-time.After(10 * time.Second):
			heldOut.Store(true)
		}
	}
	var starts atomic.Int32
	restarted := make(chan struct{})
	hub.hooks.starting = func(*server) {
		if starts.Add(1) == 2 {
			once.Do(func() { close(release) })
			close(restarted)
		}
	}
	if err := hub.Connect(context.Background(), Spec{Name: "s", Command: []string{exe, testproc.UniqueMarker("restart-order")}}); err != nil {
		t.Fatal(err)
	}
	hub.SetRoots([]consent.Root{root(t, "a")})
	hub.SetRoots(nil)
	select {
	case <-restarted:
	case <-time.After(30 * time.Second):
		t.Fatal("no new start 30 s after every root was revoked")
	}
	if heldOut.Load() {
		t.Error("the new process was started only once the old one had been ended")
	}
}
