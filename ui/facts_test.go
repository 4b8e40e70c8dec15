package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/vcsdetect"
)

// describeLog is a fake describe function: it answers at once from a
// table and records what it was asked, in order.
type describeLog struct {
	mu    sync.Mutex
	asked []string
	det   map[string]vcsdetect.Details
}

func (d *describeLog) describe(_ context.Context, r vcsdetect.Repo) vcsdetect.Details {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.asked = append(d.asked, r.Path)
	return d.det[r.Path]
}

func (d *describeLog) got() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.asked)
}

// withDescribe gives m a fresh pool reading with d.
func withDescribe(m *Model, d *describeLog) {
	m.cfg.Describe = d.describe
	m.newPool()
}

// pumpFacts runs the reading command and feeds its messages to m, as the
// program does, until done reports true.
func pumpFacts(t *testing.T, m *Model, done func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !done() {
		if m.facts.resting {
			// Keys moved the list faster than restAfter: the program's
			// tick would come after it.
			time.Sleep(restAfter)
			m.Update(factsRestMsg{})
			continue
		}
		got := make(chan tea.Msg, 1)
		go func(cmd tea.Cmd) { got <- cmd() }(waitFacts(m.facts.pool))
		select {
		case msg := <-got:
			m.Update(msg)
		case <-deadline:
			t.Fatalf("facts did not come: %d known", len(m.facts.known))
		}
	}
}

// TestVisibleRowsGetFacts: every visible row gets its facts, each read
// once, without the cursor moving; rows show the dirty marker, the unknown
// marker and ahead/behind next to the branch.
func TestVisibleRowsGetFacts(t *testing.T) {
	m := fixture(t, demoRepos()...)
	d := &describeLog{det: map[string]vcsdetect.Details{
		"/work/demo/api":                  {State: vcsdetect.StateDirty, Upstream: "origin/main", Ahead: 2, Behind: 1},
		"/work/demo/web":                  {State: vcsdetect.StateUnknown},
		"/work/demo/tools/cli":            {State: vcsdetect.StateClean, Behind: 3},
		"/work/demo/tools/cli/vendor/lib": {State: vcsdetect.StateClean},
	}}
	withDescribe(m, d)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	pumpFacts(t, m, func() bool { return len(m.facts.known) == 5 })
	if m.picker.Cursor() != 0 {
		t.Fatalf("cursor moved to %d", m.picker.Cursor())
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24}) // asks again: nothing new
	time.Sleep(20 * time.Millisecond)
	// (Which begins first is the pool's test: here several workers race.)
	got := d.got()
	slices.Sort(got)
	if len(slices.Compact(got)) != 5 || len(d.got()) != 5 {
		t.Fatalf("described %v, want the 5 rows once each", d.got())
	}
	out := screen(m)
	for _, want := range []string{"main * ↑2 ↓1", "feature/login ?", "main ↓3"} {
		if !strings.Contains(out, want) {
			t.Errorf("the rows lack %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "v2 *") || strings.Contains(out, "v2 ?") {
		t.Errorf("a clean row is marked:\n%s", out)
	}
}

// TestFactsForVisibleAndCheckedRows: on a list longer than the screen,
// the visible rows and a checked row off screen are read, the rows below
// the screen are not; paging down reads the next screen.
func TestFactsForVisibleAndCheckedRows(t *testing.T) {
	var repos []vcsdetect.Repo
	for i := range 200 {
		repos = append(repos, repo(fmt.Sprintf("r%03d", i), "main"))
	}
	m := fixture(t, repos...)
	d := &describeLog{}
	withDescribe(m, d)
	m.picker.SetChecked([]string{"/work/demo/r150"})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	visible := m.list.height
	pumpFacts(t, m, func() bool { return len(m.facts.known) == visible+prefetchRows+1 })
	time.Sleep(20 * time.Millisecond)
	got := d.got()
	if len(got) != visible+prefetchRows+1 || !slices.Contains(got, "/work/demo/r150") ||
		!slices.Contains(got, fmt.Sprintf("/work/demo/r%03d", visible+prefetchRows-1)) || slices.Contains(got, fmt.Sprintf("/work/demo/r%03d", visible+prefetchRows)) {
		t.Fatalf("described %v, want the %d visible rows, the %d below them and the checked r150", got, visible, prefetchRows)
	}
	// The row ↓ brings into view at the bottom has its facts already.
	for range visible - 1 {
		send(m, "down")
	}
	off := m.list.offset
	send(m, "down")
	if m.list.offset != off+1 {
		t.Fatalf("↓ at the bottom did not scroll (offset %d, was %d)", m.list.offset, off)
	}
	if _, ok := m.facts.known[fmt.Sprintf("/work/demo/r%03d", visible)]; !ok {
		t.Fatalf("the row ↓ brought into view has no facts yet: it was not read ahead")
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	pumpFacts(t, m, func() bool {
		_, ok := m.facts.known[fmt.Sprintf("/work/demo/r%03d", m.list.offset+visible-1)]
		return ok
	})
}

// TestRescanAndQuitClosePool: a rescan forgets the facts and closes the
// pool (its late results are dropped); a quit closes the pool too.
func TestRescanAndQuitClosePool(t *testing.T) {
	m := fixture(t, demoRepos()...)
	withDescribe(m, &describeLog{})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	pumpFacts(t, m, func() bool { return len(m.facts.known) == 5 })
	old := m.facts.pool
	send(m, "ctrl+r")
	if m.facts.pool == old || len(m.facts.known) != 0 {
		t.Fatalf("rescan kept the pool or %d facts", len(m.facts.known))
	}
	if _, ok := old.Wait(); ok {
		t.Fatal("the old pool still reads after a rescan")
	}
	m.Update(factsMsg{pool: old, results: []vcsdetect.Result[repoFacts]{{Repo: repo("api", "main")}}})
	if len(m.facts.known) != 0 {
		t.Fatal("a result of the old pool was kept")
	}
	cur := m.facts.pool
	send(m, "ctrl+q")
	if _, ok := cur.Wait(); ok {
		t.Fatal("the pool still reads after quit")
	}
}

// TestBranchCellKeepsMarks: in a narrow branch column the branch is cut
// first, then ahead/behind goes; the dirty marker stays.
func TestBranchCellKeepsMarks(t *testing.T) {
	l := listView{common: &common{st: newStyles(true, true)}}
	dirty := marksOf(vcsdetect.Details{State: vcsdetect.StateDirty, Ahead: 12, Behind: 3})
	for _, tt := range []struct {
		branch string
		m      branchMarks
		bw     int
		want   string
	}{
		{"main", dirty, 20, "main * ↑12 ↓3"},
		{"feature/login", dirty, 13, "feature/lo… *"},
		{"feature/login", dirty, 6, "fea… *"},
		{"feature/login", dirty, 2, " *"},
		{"", dirty, 4, "*"},
		{"feature/login", marksOf(vcsdetect.Details{State: vcsdetect.StateUnknown}), 13, "feature/lo… ?"},
		{"feature/login", branchMarks{}, 8, "feature…"},
	} {
		got := ansi.Strip(l.branchCell(tt.branch, tt.branch != "", tt.m, tt.bw))
		if got != tt.want || ansi.StringWidth(got) > tt.bw {
			t.Errorf("branchCell(%q, %+v, %d) = %q, want %q", tt.branch, tt.m, tt.bw, got, tt.want)
		}
	}
}

// TestWhileScanningOnlyTheHighlightedRowIsDescribed: during the walk only
// the highlighted row's facts are read (for the details pane); the rows
// on screen and the checked ones follow once the walk is done, so their
// git status runs do not take the CPU from the walk.
func TestWhileScanningOnlyTheHighlightedRowIsDescribed(t *testing.T) {
	var repos []vcsdetect.Repo
	for i := range 200 {
		repos = append(repos, repo(fmt.Sprintf("r%03d", i), "main"))
	}
	m := New(Config{Dir: "/work/demo"})
	d := &describeLog{}
	withDescribe(m, d)
	m.walk.gen, m.walk.running = 1, true
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(scanBatchMsg{gen: 1, repos: repos})
	m.picker.SetChecked([]string{"/work/demo/r150"})
	m.Update(scanBatchMsg{gen: 1, repos: nil})
	pumpFacts(t, m, func() bool { return len(m.facts.known) >= 1 })
	time.Sleep(50 * time.Millisecond)
	if got := d.got(); !slices.Equal(got, []string{"/work/demo/r000"}) {
		t.Fatalf("described %v while scanning, want only the highlighted r000", got)
	}
	m.Update(scanBatchMsg{gen: 1, done: true})
	visible := m.list.height
	pumpFacts(t, m, func() bool { return len(m.facts.known) == visible+prefetchRows+1 })
	if got := d.got(); !slices.Contains(got, "/work/demo/r150") || !slices.Contains(got, fmt.Sprintf("/work/demo/r%03d", visible-1)) {
		t.Fatalf("after the walk described %v, want the %d visible rows and the checked r150", got, visible)
	}
}

// TestRowsScrolledPastFastAreNotRead: keys that move the list faster than
// restAfter read nothing for the rows they pass (each read is a git
// status); once the list rests, the rows then in view are read. The
// first key after a rest still reads at once, with its read-ahead.
func TestRowsScrolledPastFastAreNotRead(t *testing.T) {
	var repos []vcsdetect.Repo
	for i := range 200 {
		repos = append(repos, repo(fmt.Sprintf("r%03d", i), "main"))
	}
	m := fixture(t, repos...)
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	m.cfg.Now = func() time.Time { return now }
	d := &describeLog{}
	withDescribe(m, d)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	visible := m.list.height
	pumpFacts(t, m, func() bool { return len(m.facts.known) == visible+prefetchRows })
	described := func(i int) bool { return slices.Contains(d.got(), fmt.Sprintf("/work/demo/r%03d", i)) }

	// A single ↓ after a rest: its read-ahead is read at once.
	now = now.Add(time.Second)
	for range visible {
		now = now.Add(time.Second)
		send(m, "down")
	}
	pumpFacts(t, m, func() bool { return described(visible + prefetchRows) })
	if m.facts.resting {
		t.Fatal("keys a second apart were taken for a burst")
	}

	// 60 ↓ 60 ms apart: nothing more is read while they come.
	before := len(d.got())
	for range 60 {
		now = now.Add(60 * time.Millisecond)
		send(m, "down")
	}
	// A message that is not a key, before the list has rested (a result,
	// a tick): still nothing.
	now = now.Add(30 * time.Millisecond)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	time.Sleep(20 * time.Millisecond)
	if got := len(d.got()); got != before {
		t.Errorf("%d rows read during the burst, want none", got-before)
	}
	if !m.facts.resting {
		t.Fatal("no rest asked for after the burst")
	}
	// The list rests: the rows in view are read, not those passed.
	now = now.Add(restAfter)
	pumpFacts(t, m, func() bool {
		_, ok := m.facts.known[fmt.Sprintf("/work/demo/r%03d", m.picker.Cursor())]
		return ok
	})
	passed := visible + prefetchRows + 3 // in view only during the burst
	if passed >= m.list.offset-prefetchRows {
		t.Fatalf("the test's row %d is still near the view (offset %d)", passed, m.list.offset)
	}
	if described(passed) {
		t.Errorf("r%03d, scrolled past during the burst, was read", passed)
	}
}
