package ui

import (
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/picker"
	"github.com/rootpick/rootpick/vcsdetect"
)

// A repository's facts (branch and upstream, remote, last commit, dirty
// state, what sharing it would mean) are read by a vcsdetect.Pool, off the
// Update loop, for the rows a person can see: after every message the
// model tells the pool which repositories it wants now — the highlighted
// one, then the visible rows, then prefetchRows past each edge, then a few
// checked rows off screen — and the
// pool drops what an older list wanted and has not begun, so holding ↓
// through a long list never builds a backlog; and while keys move the
// list faster than restAfter nothing more is wanted, so the rows passed
// cost no git status at all (those in view are read once the list
// rests). Each repository is read
// once per scan; a rescan starts a new pool and forgets the facts, a quit
// closes it. Rows and the details pane draw what is known and never wait.

// checkedWant is how many checked rows off screen are wanted after the
// visible ones, so that the facts of what is about to be shared fill in
// without reading every checked repository of a huge selection.
const checkedWant = 32

// prefetchRows is how many rows past each edge of the list are wanted
// after the visible ones.
const prefetchRows = 8

// restAfter is how long the list must stay still before the rows that
// came into view are read: keys that move it faster (a held ↓, a burst)
// pass rows no one can read, and each read is a git status. The first key
// after a rest is read at once, with the rows read ahead past each edge,
// so that a single ↓ still draws its row's facts in one frame.
const restAfter = 120 * time.Millisecond

// factsRestMsg comes restAfter after keys began to move the list faster
// than that: the rows in view are then wanted if the list has stayed
// still, else the wait begins again.
type factsRestMsg struct{}

// factsTimeout bounds one repository's facts (the describer has its own,
// shorter, budget for git).
const factsTimeout = 3 * time.Second

// repoFacts is what the pane shows besides the row: the describer's
// details and, for a folder that can be shared, its root and warnings.
type repoFacts struct {
	det      vcsdetect.Details
	uri      string
	warnings []string
	risks    []string // the warnings' codes (consent.Warn*), for the row's ⚠ mark
	err      string   // why the folder cannot be shared
}

// factsPool is the pool the model reads facts with.
type factsPool = vcsdetect.Pool[repoFacts]

// factsMsg carries the facts read since the last one, from pool.
type factsMsg struct {
	pool    *factsPool
	results []vcsdetect.Result[repoFacts]
}

// readFacts reads r's facts: describe reads git, consent says what sharing
// it would mean, compared with env (the folders every root is compared
// with). It runs on the pool's workers.
func readFacts(ctx context.Context, describe DescribeFunc, env func() consent.Env, r vcsdetect.Repo) repoFacts {
	ctx, cancel := context.WithTimeout(ctx, factsTimeout)
	defer cancel()
	f := repoFacts{det: describe(ctx, r)}
	if root, err := consent.NewRoot(r.Path); err != nil {
		f.err = err.Error()
	} else {
		f.uri = root.URI
		for _, w := range consent.Risks(r.Path, root, env()) {
			f.warnings = append(f.warnings, w.Text)
			f.risks = append(f.risks, w.Code)
		}
	}
	return f
}

// rowFacts reads the facts of the rows in view with its pool and keeps
// them, with what it last wanted. The model hands it the rows and the
// list's place on each call; it keeps no pointer into the model.
type rowFacts struct {
	pool          *factsPool
	armed         bool                 // a waitFacts command is reading the pool
	known         map[string]repoFacts // the facts read, by path
	wanted        []string             // the highlighted and visible paths last wanted
	wantedChecked [2]int               // the picker versions checkedSample was taken at
	checkedSample []vcsdetect.Repo     // checked rows wanted after the visible ones
	// seen is the highlighted row and the first visible one as last seen,
	// moved when that last changed, resting whether a factsRestMsg is on
	// its way.
	seen    [2]string
	moved   time.Time
	resting bool
	held    bool // the list moved too fast and nothing was wanted since
}

// reset closes the pool, if any, and starts reading facts afresh with
// describe, each root compared with the folders around dir: the
// describer's cache goes with it.
func (f *rowFacts) reset(describe DescribeFunc, dir string) {
	f.close()
	// The folders each root is compared with (system folders, the home
	// folder and its parents, the mount table) are read once per pool, by
	// the first worker that needs them, not once per row: reading them
	// was a tenth of the picker's CPU while ↓ was held.
	env := sync.OnceValue(func() consent.Env { return consent.DefaultEnv(dir) })
	f.pool = vcsdetect.NewPool(0, func(ctx context.Context, r vcsdetect.Repo) repoFacts {
		return readFacts(ctx, describe, env, r)
	})
	f.armed = false
	f.wanted, f.wantedChecked, f.checkedSample = f.wanted[:0], [2]int{-1, -1}, nil
	f.known = map[string]repoFacts{}
	f.seen, f.moved, f.resting, f.held = [2]string{}, time.Time{}, false, false
}

// close cancels what the pool is reading; its results are dropped.
func (f *rowFacts) close() {
	if f.pool != nil {
		f.pool.Close()
	}
}

// waitFacts blocks until pool has read facts.
func waitFacts(pool *factsPool) tea.Cmd {
	return func() tea.Msg {
		rs, ok := pool.Wait()
		if !ok {
			return nil // closed: a rescan or a quit
		}
		return factsMsg{pool: pool, results: rs}
	}
}

// onFacts records the facts read; curCame reports whether those of the
// highlighted row (at path cur) came, which the details pane shows.
func (f *rowFacts) onFacts(msg factsMsg, cur string) (cmd tea.Cmd, curCame bool) {
	if msg.pool != f.pool {
		return nil, false // from the pool of an earlier scan
	}
	for _, r := range msg.results {
		f.known[r.Repo.Path] = r.Value
		curCame = curCame || r.Repo.Path == cur
	}
	return waitFacts(f.pool), curCame
}

// want tells the pool which repositories of p are wanted now, when that
// changed: the highlighted one, the visible rows (height rows from
// offset), then up to checkedWant checked ones; while scanning, the
// highlighted one alone. While keys move the list faster than restAfter
// it wants nothing (see restAfter) and asks for a factsRestMsg. It costs
// a comparison of the visible paths per message; the pool itself only
// stores the list (it never blocks the loop).
func (f *rowFacts) want(p *picker.State, offset, height int, scanning bool, now time.Time) tea.Cmd {
	if f.pool == nil {
		return nil
	}
	if v := [2]int{p.CheckedVersion(), p.ListVersion()}; v != f.wantedChecked {
		f.wantedChecked = v
		f.checkedSample = f.checkedSample[:0]
		p.EachCheckedWhile(func(path string) bool {
			if r, ok := p.Lookup(path); ok {
				f.checkedSample = append(f.checkedSample, r)
			}
			return len(f.checkedSample) < checkedWant
		})
		f.wanted = f.wanted[:0] // the list changes
	}
	n := p.ShownLen()
	lo, hi := min(offset, n), min(n, offset+height)
	if scanning {
		// While the walk runs only the highlighted row, for the details
		// pane: the rows on screen change with every batch, and their
		// git status runs would take the CPU from the walk.
		lo, hi = 0, 0
	}
	cur, ok := p.Current()
	if !ok {
		return nil
	}
	// Then the rows just past each edge, so that the row a ↓ or ↑ brings
	// into view has its facts already: the key draws one frame, not a
	// second one when they come.
	below, above := hi, lo
	if hi > lo {
		below, above = min(n, hi+prefetchRows), max(0, lo-prefetchRows)
	}
	if f.sameWanted(p, cur, lo, hi, below, above) {
		return nil
	}
	if !scanning {
		seen := [2]string{cur.Path}
		if lo < hi {
			seen[1] = p.ShownAt(lo).Path
		}
		if f.hold(seen, now) {
			return f.restTick()
		}
	}
	want := make([]vcsdetect.Repo, 0, 1+below-above+len(f.checkedSample))
	want = append(want, cur)
	for i := range wantedRows(lo, hi, below, above) {
		want = append(want, p.ShownAt(i))
	}
	if !scanning {
		want = append(want, f.checkedSample...)
	}
	f.wanted = f.wanted[:0]
	for _, r := range want[:1+below-above] {
		f.wanted = append(f.wanted, r.Path)
	}
	f.pool.Want(want)
	if !f.armed {
		f.armed = true
		return waitFacts(f.pool)
	}
	return nil
}

// hold reports whether nothing is to be wanted now: the list, whose
// highlighted and first visible rows are seen, moved again less than
// restAfter after it last did, or has not rested since. Then what the
// pool has not begun is dropped.
func (f *rowFacts) hold(seen [2]string, now time.Time) bool {
	if seen != f.seen {
		fast := !f.moved.IsZero() && now.Sub(f.moved) < restAfter
		f.seen, f.moved = seen, now
		if fast {
			f.held = true
			f.pool.Want(nil)
			f.wanted = f.wanted[:0]
			return true
		}
	} else if f.held && now.Sub(f.moved) < restAfter {
		return true // still settling: wait out the rest
	}
	f.held = false
	return false
}

// restTick asks for a factsRestMsg restAfter from now, unless one is on
// its way.
func (f *rowFacts) restTick() tea.Cmd {
	if f.resting {
		return nil
	}
	f.resting = true
	return tea.Tick(restAfter, func(time.Time) tea.Msg { return factsRestMsg{} })
}

// detailsOf reads a repository's details from facts, once read: what a
// frame of the list is handed.
func detailsOf(facts map[string]repoFacts) func(path string) (vcsdetect.Details, bool) {
	return func(path string) (vcsdetect.Details, bool) {
		f, ok := facts[path]
		return f.det, ok
	}
}

// wantedRows yields the indexes of the rows wanted after the highlighted
// one: the visible rows lo..hi, then hi..below, then above..lo.
func wantedRows(lo, hi, below, above int) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		for _, span := range [...][2]int{{lo, hi}, {hi, below}, {above, lo}} {
			for i := span[0]; i < span[1]; i++ {
				if !yield(i) {
					return
				}
			}
		}
	}
}

// sameWanted reports whether the highlighted row and the rows of
// wantedRows are those last wanted.
func (f *rowFacts) sameWanted(p *picker.State, cur vcsdetect.Repo, lo, hi, below, above int) bool {
	if len(f.wanted) != 1+below-above || f.wanted[0] != cur.Path {
		return false
	}
	k := 1
	for i := range wantedRows(lo, hi, below, above) {
		if p.ShownAt(i).Path != f.wanted[k] {
			return false
		}
		k++
	}
	return true
}
