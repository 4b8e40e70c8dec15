package ui

import (
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/vcsdetect"
)

// A repository's facts (branch and upstream, remote, last commit, dirty
// state, what sharing it would mean) are read by a vcsdetect.Pool, off the
// Update loop, for the rows a person can see: after every message the
// model tells the pool which repositories it wants now — the highlighted
// one, then the visible rows, then prefetchRows past each edge, then a few
// checked rows off screen — and the
// pool drops what an older list wanted and has not begun, so holding ↓
// through a long list never builds a backlog. Each repository is read
// once per scan; a rescan starts a new pool and forgets the facts, a quit
// closes it. Rows and the details pane draw what is known and never wait.

// checkedWant is how many checked rows off screen are wanted after the
// visible ones, so that the facts of what is about to be shared fill in
// without reading every checked repository of a huge selection.
const checkedWant = 32

// prefetchRows is how many rows past each edge of the list are wanted
// after the visible ones.
const prefetchRows = 8

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

// newPool closes the current pool, if any, and starts reading facts
// afresh: the describer's cache goes with it.
func (m *Model) newPool() {
	m.closePool()
	describe := m.cfg.Describe
	if describe == nil {
		describe = vcsdetect.NewDescriber(vcsdetect.DescribeOptions{Logger: m.cfg.ScanOptions.Logger}).Describe
	}
	// The folders each root is compared with (system folders, the home
	// folder and its parents, the mount table) are read once per pool, by
	// the first worker that needs them, not once per row: reading them
	// was a tenth of the picker's CPU while ↓ was held.
	dir := m.cfg.Dir
	env := sync.OnceValue(func() consent.Env { return consent.DefaultEnv(dir) })
	m.pool = vcsdetect.NewPool(0, func(ctx context.Context, r vcsdetect.Repo) repoFacts {
		return readFacts(ctx, describe, env, r)
	})
	m.poolArmed = false
	m.wanted, m.wantedChecked, m.checkedSample = m.wanted[:0], [2]int{-1, -1}, nil
	m.facts = map[string]repoFacts{}
	m.paneKey = paneKey{}
}

// closePool cancels what the pools (facts, commit times) are reading;
// their results are dropped.
func (m *Model) closePool() {
	if m.pool != nil {
		m.pool.Close()
	}
	m.closeTimes()
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

func (m *Model) onFacts(msg factsMsg) tea.Cmd {
	if msg.pool != m.pool {
		return nil // from the pool of an earlier scan
	}
	cur, _ := m.picker.Current()
	for _, r := range msg.results {
		m.facts[r.Repo.Path] = r.Value
		if r.Repo.Path == cur.Path {
			m.paneKey = paneKey{} // the pane shows them: draw it again
		}
	}
	return waitFacts(m.pool)
}

// wantFacts tells the pool which repositories are wanted now, when that
// changed: the highlighted one, the visible rows, then up to checkedWant
// checked ones. It costs a comparison of the visible paths per message;
// the pool itself only stores the list (it never blocks the loop).
func (m *Model) wantFacts() tea.Cmd {
	if m.pool == nil {
		return nil
	}
	if v := [2]int{m.picker.CheckedVersion(), m.picker.ListVersion()}; v != m.wantedChecked {
		m.wantedChecked = v
		m.checkedSample = m.checkedSample[:0]
		m.picker.EachCheckedWhile(func(p string) bool {
			if r, ok := m.picker.Lookup(p); ok {
				m.checkedSample = append(m.checkedSample, r)
			}
			return len(m.checkedSample) < checkedWant
		})
		m.wanted = m.wanted[:0] // the list changes
	}
	n := m.picker.ShownLen()
	lo, hi := min(m.list.offset, n), min(n, m.list.offset+m.list.height)
	if m.scanning {
		// While the walk runs only the highlighted row, for the details
		// pane: the rows on screen change with every batch, and their
		// git status runs would take the CPU from the walk.
		lo, hi = 0, 0
	}
	cur, ok := m.picker.Current()
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
	if m.sameWanted(cur, lo, hi, below, above) {
		return nil
	}
	want := make([]vcsdetect.Repo, 0, 1+below-above+len(m.checkedSample))
	want = append(want, cur)
	for i := range wantedRows(lo, hi, below, above) {
		want = append(want, m.picker.ShownAt(i))
	}
	if !m.scanning {
		want = append(want, m.checkedSample...)
	}
	m.wanted = m.wanted[:0]
	for _, r := range want[:1+below-above] {
		m.wanted = append(m.wanted, r.Path)
	}
	m.pool.Want(want)
	if !m.poolArmed {
		m.poolArmed = true
		return waitFacts(m.pool)
	}
	return nil
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
func (m *Model) sameWanted(cur vcsdetect.Repo, lo, hi, below, above int) bool {
	if len(m.wanted) != 1+below-above || m.wanted[0] != cur.Path {
		return false
	}
	k := 1
	for i := range wantedRows(lo, hi, below, above) {
		if m.picker.ShownAt(i).Path != m.wanted[k] {
			return false
		}
		k++
	}
	return true
}
