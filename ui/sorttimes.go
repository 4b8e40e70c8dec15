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

// wantTimes starts reading the commit times of every repository listed,
// when the list is sorted by last commit and has changed since it last
// asked. The pool reads each repository once per scan.
func (m *Model) wantTimes() tea.Cmd {
	if m.picker.Sort() != picker.ByLastCommit || m.timesVer == m.picker.ListVersion() && m.times != nil {
		return nil
	}
	if m.times == nil {
		read := m.cfg.CommitTime
		if read == nil {
			read = vcsdetect.LastCommitTime
		}
		m.times = vcsdetect.NewPool(0, func(_ context.Context, r vcsdetect.Repo) commitTime {
			t, ok := read(r)
			return commitTime{t, ok}
		})
		m.timesArmed = false
	}
	m.timesVer = m.picker.ListVersion()
	var want []vcsdetect.Repo
	for _, r := range m.picker.All() {
		if _, known := m.commitTimes[r.Path]; !known {
			want = append(want, r)
		}
	}
	m.times.Want(want)
	if !m.timesArmed {
		m.timesArmed = true
		return waitTimes(m.times)
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
func (m *Model) onTimes(msg timesMsg) tea.Cmd {
	if msg.pool != m.times {
		return nil // from an earlier scan's pool
	}
	for _, r := range msg.results {
		m.commitTimes[r.Repo.Path] = r.Value
	}
	if m.resortDue {
		return waitTimes(m.times)
	}
	m.resortDue = true
	return tea.Batch(waitTimes(m.times), tea.Tick(resortEvery, func(time.Time) tea.Msg { return timesResortMsg{} }))
}

func (m *Model) onTimesResort() {
	m.resortDue = false
	if m.picker.Sort() == picker.ByLastCommit {
		m.picker.SetSort(picker.ByLastCommit) // the cursor stays on its repository
	}
}

// lastCommit is the sort's key: the time read for sorting, else the one
// the facts brought.
func (m *Model) lastCommit(r vcsdetect.Repo) (time.Time, bool) {
	if c, ok := m.commitTimes[r.Path]; ok {
		return c.t, c.ok
	}
	if f, ok := m.facts[r.Path]; ok && !f.det.LastCommit.IsZero() {
		return f.det.LastCommit, true
	}
	return time.Time{}, false
}

// closeTimes stops reading commit times and forgets them (a rescan, a
// quit).
func (m *Model) closeTimes() {
	if m.times != nil {
		m.times.Close()
		m.times = nil
	}
	m.commitTimes = map[string]commitTime{}
}
