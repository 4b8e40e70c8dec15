package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/picker"
	"github.com/rootpick/rootpick/vcsdetect"
)

// Sorting by last commit needs every repository's commit time, not only
// the facts of the rows on screen: when the person picks that sort, a
// second pool reads just the times (vcsdetect.LastCommitTime, a few file
// reads each, no git status) for the whole list, and the list is sorted
// again as each batch arrives, the cursor staying on its repository. Until
// a time is known its row sorts after the known ones, by path.

// commitTime is one repository's HEAD commit time, if it has one.
type commitTime struct {
	t  time.Time
	ok bool
}

type timesPool = vcsdetect.Pool[commitTime]

// timesMsg carries the commit times read since the last one, from pool.
type timesMsg struct {
	pool    *timesPool
	results []vcsdetect.Result[commitTime]
}

// sortTimes reads the commit times for the sort by last commit and keeps
// them: its own pool over the whole list, the times read, and the resort
// on its way. The model hands it the rows on each call; it keeps no
// pointer into the model.
type sortTimes struct {
	pool      *timesPool            // nil until the sort by last commit is picked, and after close
	armed     bool                  // a waitTimes command is reading the pool
	ver       int                   // the list version times were last wanted for
	read      map[string]commitTime // read for the sort, by path
	resortDue bool                  // a timesResortMsg is on its way
}

// want starts reading the commit times (with read; nil is
// vcsdetect.LastCommitTime) of every repository of p, when p is sorted by
// last commit and its list has changed since it last asked. The pool
// reads each repository once per scan.
func (s *sortTimes) want(p *picker.State, read func(vcsdetect.Repo) (time.Time, bool)) tea.Cmd {
	if p.Sort() != picker.ByLastCommit || s.ver == p.ListVersion() && s.pool != nil {
		return nil
	}
	if s.pool == nil {
		if read == nil {
			read = vcsdetect.LastCommitTime
		}
		s.pool = vcsdetect.NewPool(0, func(_ context.Context, r vcsdetect.Repo) commitTime {
			t, ok := read(r)
			return commitTime{t, ok}
		})
		s.armed = false
	}
	s.ver = p.ListVersion()
	var want []vcsdetect.Repo
	for _, r := range p.All() {
		if _, known := s.read[r.Path]; !known {
			want = append(want, r)
		}
	}
	s.pool.Want(want)
	if !s.armed {
		s.armed = true
		return waitTimes(s.pool)
	}
	return nil
}

func waitTimes(pool *timesPool) tea.Cmd {
	return func() tea.Msg {
		rs, ok := pool.Wait()
		if !ok {
			return nil
		}
		return timesMsg{pool: pool, results: rs}
	}
}

// resortEvery is how often, at most, the list is sorted again while
// commit times arrive: a sort of 50,000 rows costs tens of milliseconds.
const resortEvery = 150 * time.Millisecond

// timesResortMsg sorts the list again with the times read so far.
type timesResortMsg struct{}

// onTimes records the times read; the list is sorted again once, at
// most resortEvery later, with every time read by then.
func (s *sortTimes) onTimes(msg timesMsg) tea.Cmd {
	if msg.pool != s.pool {
		return nil // from an earlier scan's pool
	}
	for _, r := range msg.results {
		s.read[r.Repo.Path] = r.Value
	}
	if s.resortDue {
		return waitTimes(s.pool)
	}
	s.resortDue = true
	return tea.Batch(waitTimes(s.pool), tea.Tick(resortEvery, func(time.Time) tea.Msg { return timesResortMsg{} }))
}

// resort sorts p again with the times read so far (timesResortMsg).
func (s *sortTimes) resort(p *picker.State) {
	s.resortDue = false
	if p.Sort() == picker.ByLastCommit {
		p.SetSort(picker.ByLastCommit) // the cursor stays on its repository
	}
}

// close stops reading commit times and forgets them (a rescan, a quit).
func (s *sortTimes) close() {
	if s.pool != nil {
		s.pool.Close()
		s.pool = nil
	}
	s.read = map[string]commitTime{}
}

// lastCommit is the sort's key (picker.State.SetCommitTime): the time
// read for sorting, else the one the facts brought.
func lastCommit(times *sortTimes, facts *rowFacts) func(vcsdetect.Repo) (time.Time, bool) {
	return func(r vcsdetect.Repo) (time.Time, bool) {
		if c, ok := times.read[r.Path]; ok {
			return c.t, c.ok
		}
		if f, ok := facts.known[r.Path]; ok && !f.det.LastCommit.IsZero() {
			return f.det.LastCommit, true
		}
		return time.Time{}, false
	}
}
