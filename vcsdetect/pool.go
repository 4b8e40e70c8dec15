package vcsdetect

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rootpick/rootpick/internal/panics"
)

// Pool describes repositories on a few goroutines, the ones wanted most
// first. Its owner says, as often as it likes, which repositories it wants
// now and in which order (Want); the newest list replaces the one before,
// so a repository that is no longer wanted (a row scrolled away) is
// dropped before it starts, and scrolling fast through a long list never
// builds up a backlog. Each repository is described at most once per pool:
// the pool is the run's cache of what was started, and its owner keeps the
// values. Results are collected by one reader with Wait.
//
// T is what one description yields: Details, or Details with more facts
// that the owner reads alongside.
type Pool[T any] struct {
	fn      func(context.Context, Repo) T
	workers int32
	ctx     context.Context
	cancel  context.CancelFunc

	// latest is the newest wanted list; Want only stores it and wakes
	// workers, so a caller that must not block (a UI's update loop) can
	// call it.
	latest  atomic.Pointer[[]Repo]
	running atomic.Int32 // workers alive
	started atomic.Int64 // descriptions begun, for tests and measurements

	mu      sync.Mutex // workers and Wait only, never Want
	applied *[]Repo    // the wanted list queue was built from
	queue   []Repo     // wanted, not begun, most wanted first
	begun   map[string]bool
	results []Result[T]
	ready   chan struct{} // holds a token while results wait
}

// Result is one repository's description.
type Result[T any] struct {
	Repo  Repo
	Value T
}

// PoolWorkers is the default number of workers: one per CPU, at most 4
// (each may be running git status, which reads the whole work tree).
func PoolWorkers() int { return min(4, runtime.NumCPU()) }

// NewPool returns a pool that runs fn on at most workers goroutines (0:
// PoolWorkers). Goroutines start when there is something wanted and end
// when there is nothing left, so an idle pool holds none. fn gets a
// context that Close cancels.
func NewPool[T any](workers int, fn func(context.Context, Repo) T) *Pool[T] {
	if workers <= 0 {
		workers = PoolWorkers()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Pool[T]{fn: fn, workers: int32(workers), ctx: ctx, cancel: cancel,
		begun: map[string]bool{}, ready: make(chan struct{}, 1)}
}

// Want replaces the wanted list: repos are described in this order, the
// ones already begun (or done) skipped, and whatever an earlier list
// wanted that this one does not is dropped. It never blocks: it stores the
// list and starts workers if fewer than the maximum are running. The pool
// keeps repos; the caller must not change it afterwards.
func (p *Pool[T]) Want(repos []Repo) {
	if p.ctx.Err() != nil {
		return
	}
	p.latest.Store(&repos)
	for range len(repos) {
		if !p.claim() {
			return
		}
		go func() {
			defer panics.Guard()
			p.work()
		}()
	}
}

// claim counts one more worker, if there is room for it.
func (p *Pool[T]) claim() bool {
	for {
		n := p.running.Load()
		if n >= p.workers {
			return false
		}
		if p.running.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

func (p *Pool[T]) work() {
	for {
		r, ok := p.next()
		if !ok {
			p.running.Add(-1)
			// A Want that came after next() looked may have found every
			// worker counted and started none: look again, now that this
			// one no longer counts (atomics are sequentially consistent,
			// so either that Want sees the room or this sees its list).
			if p.ctx.Err() != nil || p.latest.Load() == p.appliedList() || !p.claim() {
				return
			}
			continue
		}
		v := p.fn(p.ctx, r)
		p.mu.Lock()
		if p.ctx.Err() == nil {
			p.results = append(p.results, Result[T]{Repo: r, Value: v})
			select {
			case p.ready <- struct{}{}:
			default:
			}
		}
		p.mu.Unlock()
	}
}

func (p *Pool[T]) appliedList() *[]Repo {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.applied
}

// next takes the most wanted repository not yet begun.
func (p *Pool[T]) next() (Repo, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx.Err() != nil {
		return Repo{}, false
	}
	if l := p.latest.Load(); l != p.applied {
		p.applied = l
		p.queue = p.queue[:0]
		for _, r := range *l {
			if !p.begun[r.Path] {
				p.queue = append(p.queue, r)
			}
		}
	}
	for len(p.queue) > 0 {
		r := p.queue[0]
		p.queue = p.queue[1:]
		if !p.begun[r.Path] { // a list may name a repository twice
			p.begun[r.Path] = true
			p.started.Add(1)
			return r, true
		}
	}
	return Repo{}, false
}

// Wait blocks until descriptions are ready and returns them, in the order
// they finished; ok is false once the pool is closed. One goroutine reads.
func (p *Pool[T]) Wait() (rs []Result[T], ok bool) {
	for {
		select {
		case <-p.ready:
		case <-p.ctx.Done():
			return nil, false
		}
		p.mu.Lock()
		rs, p.results = p.results, nil
		p.mu.Unlock()
		if len(rs) > 0 {
			return rs, true
		}
	}
}

// Close cancels the descriptions running (their results are dropped),
// drops the wanted ones and ends Wait. A closed pool stays closed.
func (p *Pool[T]) Close() { p.cancel() }

// Started is how many descriptions the pool has begun.
func (p *Pool[T]) Started() int { return int(p.started.Load()) }

// Running is how many workers are alive.
func (p *Pool[T]) Running() int { return int(p.running.Load()) }
