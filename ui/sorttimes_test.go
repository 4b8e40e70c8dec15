package ui

import (
	"context"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/picker"
	"github.com/rootpick/rootpick/vcsdetect"
)

// TestSortByLastCommitReadsEveryTime: picking the sort by last commit reads
// the commit time of every repository, on screen or not, and orders the
// list newest first with the unknown ones after, by path; the cursor stays
// on its repository.
func TestSortByLastCommitReadsEveryTime(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	when := map[string]time.Time{
		"/work/demo/api":    day(1),
		"/work/demo/web":    day(20),
		"/work/demo/api-wt": day(10),
	}
	repos := demoRepos()
	for i := range 40 { // more than a screen: the times of hidden rows count too
		p := "/work/demo/z/old" + itoa(10+i)
		repos = append(repos, vcsdetect.Repo{Path: p, Name: "old", Kind: vcsdetect.KindGit})
		when[p] = day(2)
	}
	repos = append(repos, vcsdetect.Repo{Path: "/work/demo/zz-newest", Name: "zz-newest", Kind: vcsdetect.KindGit})
	when["/work/demo/zz-newest"] = day(28) // last by path: far off screen
	m := fixture(t, repos...)
	m.cfg.CommitTime = func(r vcsdetect.Repo) (time.Time, bool) { w, ok := when[r.Path]; return w, ok }
	send(m, "down") // the cursor on api-wt
	send(m, "ctrl+s")
	if m.picker.Sort() != picker.ByLastCommit || m.times.pool == nil {
		t.Fatalf("s: sort %v, times pool %v", m.picker.Sort(), m.times.pool)
	}
	type batch struct {
		rs []vcsdetect.Result[commitTime]
		ok bool
	}
	deadline := time.After(10 * time.Second)
	for n := 0; n < len(repos); {
		got := make(chan batch, 1)
		go func(p *timesPool) { rs, ok := p.Wait(); got <- batch{rs, ok} }(m.times.pool)
		select {
		case b := <-got:
			if !b.ok {
				t.Fatal("the times pool closed")
			}
			m.Update(timesMsg{pool: m.times.pool, results: b.rs})
			n += len(b.rs)
		case <-deadline:
			t.Fatalf("only %d of %d commit times read", n, len(repos))
		}
	}
	m.Update(timesResortMsg{}) // the tick after the last batch
	var got []string
	for i := range 4 {
		got = append(got, m.picker.ShownAt(i).Path)
	}
	want := []string{"/work/demo/zz-newest", "/work/demo/web", "/work/demo/api-wt", "/work/demo/z/old10"}
	if !slices.Equal(got, want) {
		t.Fatalf("order by last commit: %q, want %q", got, want)
	}
	last := m.picker.ShownAt(m.picker.ShownLen() - 1).Path
	if last != "/work/demo/tools/cli/vendor/lib" {
		t.Fatalf("the last row is %s, want an unknown time, after the rest by path", last)
	}
	if c, _ := m.picker.Current(); c.Path != "/work/demo/api-wt" {
		t.Fatalf("the cursor moved to %s", c.Path)
	}
	// A rescan forgets the times; quitting closes the pool.
	pool := m.times.pool
	m.closePool()
	if _, ok := pool.Wait(); ok {
		t.Fatal("the times pool still reads after quit")
	}
}

// TestSortTimesKeepsItsOwnPool: the commit times are kept by sortTimes,
// which the model hands the rows: times from a pool it no longer reads are
// dropped; while a resort is on its way, times that come join it rather
// than asking for another; and a repository with no time read sorts by
// the commit its facts brought.
func TestSortTimesKeepsItsOwnPool(t *testing.T) {
	var s sortTimes
	s.close()
	old := vcsdetect.NewPool(1, func(context.Context, vcsdetect.Repo) commitTime { return commitTime{} })
	old.Close()
	s.onTimes(timesMsg{pool: old, results: []vcsdetect.Result[commitTime]{{Repo: repo("api", "main"), Value: commitTime{ok: true}}}})
	if len(s.read) != 0 {
		t.Fatalf("times from a pool it does not read were kept: %v", s.read)
	}

	s.pool = old // a closed pool: waiting on it ends at once
	first := s.onTimes(timesMsg{pool: old})
	if _, ok := first().(tea.BatchMsg); !ok {
		t.Fatal("the first times did not schedule a resort beside the next wait")
	}
	if msg := s.onTimes(timesMsg{pool: old})(); msg != nil {
		t.Fatalf("times while a resort is on its way asked for another: %#v", msg)
	}

	when := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	facts := rowFacts{known: map[string]repoFacts{"/work/demo/api": {det: vcsdetect.Details{LastCommit: when}}}}
	if got, ok := lastCommit(&s, &facts)(repo("api", "main")); !ok || !got.Equal(when) {
		t.Fatalf("a row with no time read sorts by %v, %v; want its facts' commit %v", got, ok, when)
	}
}
