package vcsdetect

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// gated is a describe function that records the order it is called in and
// blocks each call until release lets it finish (or its context ends).
type gated struct {
	mu      sync.Mutex
	order   []string
	calls   chan string // each call's path, as it begins
	release chan struct{}
}

func newGated() *gated {
	return &gated{calls: make(chan string, 1<<16), release: make(chan struct{}, 1<<16)}
}

func (g *gated) fn(ctx context.Context, r Repo) string {
	g.mu.Lock()
	g.order = append(g.order, r.Path)
	g.mu.Unlock()
	g.calls <- r.Path
	select {
	case <-g.release:
	case <-ctx.Done():
	}
	return "described " + r.Path
}

func (g *gated) began(t *testing.T) string {
	t.Helper()
	select {
	case p := <-g.calls:
		return p
	case <-time.After(10 * time.Second):
		t.Fatal("no description began")
		return ""
	}
}

func (g *gated) got() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.order)
}

func repos(paths ...string) []Repo {
	out := make([]Repo, len(paths))
	for i, p := range paths {
		out[i] = Repo{Path: p, Kind: KindGit}
	}
	return out
}

// idle waits until the pool has no worker left.
func idle[T any](t *testing.T, p *Pool[T]) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for p.Running() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d workers still running", p.Running())
		}
		time.Sleep(time.Millisecond)
	}
}

// waitN collects n results.
func waitN[T any](t *testing.T, p *Pool[T], n int) []Result[T] {
	t.Helper()
	var all []Result[T]
	done := make(chan struct{})
	go func() {
		defer close(done)
		for len(all) < n {
			rs, ok := p.Wait()
			if !ok {
				return
			}
			all = append(all, rs...)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %d results", n)
	}
	return all
}

// TestPoolOrderAndDropping: the newest wanted list decides what runs next,
// in its order; what an older list wanted and the newer does not is
// dropped before it begins.
func TestPoolOrderAndDropping(t *testing.T) {
	g := newGated()
	p := NewPool(1, g.fn)
	defer p.Close()
	p.Want(repos("a", "b", "c"))
	if got := g.began(t); got != "a" {
		t.Fatalf("first description %q, want a", got)
	}
	p.Want(repos("x")) // scrolled on: b and c are no longer wanted…
	p.Want(repos("c", "d", "b"))
	for range 4 {
		g.release <- struct{}{}
	}
	waitN(t, p, 4)
	idle(t, p)
	if got, want := g.got(), []string{"a", "c", "d", "b"}; !slices.Equal(got, want) {
		t.Fatalf("described %v, want %v (the newest list's order; x dropped)", got, want)
	}
}

// TestPoolDescribesOnce: a repository is described once per pool, however
// often it is wanted again.
func TestPoolDescribesOnce(t *testing.T) {
	g := newGated()
	p := NewPool(2, g.fn)
	defer p.Close()
	close(g.release)
	p.Want(repos("a", "b", "a"))
	rs := waitN(t, p, 2)
	idle(t, p)
	p.Want(repos("b", "a", "c"))
	rs = append(rs, waitN(t, p, 1)...)
	idle(t, p)
	if p.Started() != 3 || len(g.got()) != 3 {
		t.Fatalf("%d descriptions begun (%v), want 3: a and b again came from the cache", p.Started(), g.got())
	}
	for _, r := range rs {
		if r.Value != "described "+r.Repo.Path {
			t.Errorf("result %+v", r)
		}
	}
}

// TestPoolScrollingDoesNotQueue: wanting 50,000 windows in turn while the
// workers are busy (holding ↓ through a long list) begins no more than
// the workers' first descriptions and the last window.
func TestPoolScrollingDoesNotQueue(t *testing.T) {
	const rows, window, workers = 50000, 40, 2
	paths := make([]string, rows)
	for i := range paths {
		paths[i] = fmt.Sprintf("/r/%05d", i)
	}
	all := repos(paths...)
	g := newGated()
	p := NewPool(workers, g.fn)
	defer p.Close()
	for top := range rows - window + 1 {
		cur := top + window - 1
		want := append([]Repo{all[cur]}, all[top:top+window]...)
		p.Want(want)
	}
	close(g.release)
	// Workers stop when nothing is left; then count.
	deadline := time.Now().Add(10 * time.Second)
	for p.Started() < window || p.Running() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d begun, %d running", p.Started(), p.Running())
		}
		time.Sleep(time.Millisecond)
	}
	t.Logf("50,000 windows wanted: %d descriptions begun", p.Started())
	if p.Started() > workers+window {
		t.Fatalf("%d descriptions begun for 50,000 windows, want at most %d (the workers' first ones and the last window)", p.Started(), workers+window)
	}
	last := g.got()[len(g.got())-1]
	if last < paths[rows-window] {
		t.Errorf("the last description is %s, outside the last window", last)
	}
}

// TestPoolClose: closing cancels the running descriptions, drops their
// results and the wanted ones, ends Wait, and ignores later wants.
func TestPoolClose(t *testing.T) {
	g := newGated()
	p := NewPool(2, g.fn)
	p.Want(repos("a", "b", "c"))
	g.began(t)
	g.began(t)
	waited := make(chan bool)
	go func() {
		_, ok := p.Wait()
		waited <- ok
	}()
	p.Close()
	select {
	case ok := <-waited:
		if ok {
			t.Fatal("Wait returned results after Close")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not end on Close")
	}
	idle(t, p) // the running two saw their context end
	p.Want(repos("d"))
	time.Sleep(10 * time.Millisecond)
	if got := g.got(); len(got) != 2 || p.Running() != 0 {
		t.Fatalf("after Close: described %v, %d running", got, p.Running())
	}
}
