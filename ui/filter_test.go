package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/ui/sharing"
	"github.com/rootpick/rootpick/vcsdetect"
)

func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

func tab() tea.KeyPressMsg { return tea.KeyPressMsg{Code: tea.KeyTab} }

func shownLabels(m *Model) []string {
	var out []string
	for i := range m.picker.ShownLen() {
		out = append(out, m.list.label(m.picker.ShownAt(i)))
	}
	return out
}

// TestFilterLikeFzf: typing in the list filters, as in fzf; ↓/ctrl+j/
// ctrl+k move and tab toggles (then moves down) without touching the
// query; esc clears the query, and only then quits.
func TestFilterLikeFzf(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "t", "c") // fuzzy: tools/cli and its vendor/lib
	if got, want := shownLabels(m), []string{"tools/cli", "tools/cli/vendor/lib"}; !slices.Equal(got, want) {
		t.Fatalf("tc shows %v, want %v", got, want)
	}
	m.Update(tab())
	if got := m.picker.Checked(); !slices.Equal(got, []string{"/work/demo/tools/cli"}) {
		t.Fatalf("tab while typing checked %v", got)
	}
	if m.picker.Cursor() != 1 || m.filter.Value() != "tc" {
		t.Fatalf("tab: cursor %d, query %q; want the next row, the query kept", m.picker.Cursor(), m.filter.Value())
	}
	m.Update(ctrl('k'))
	if m.picker.Cursor() != 0 || m.filter.Value() != "tc" {
		t.Fatalf("ctrl+k: cursor %d, query %q (must move, not edit)", m.picker.Cursor(), m.filter.Value())
	}
	m.Update(ctrl('j'))
	send(m, "up", "down")
	if m.picker.Cursor() != 1 {
		t.Fatalf("ctrl+j, up, down: cursor %d, want 1", m.picker.Cursor())
	}
	// Type a new query: ctrl+u clears it, as in a shell.
	m.Update(ctrl('u'))
	send(m, "w", "e", "b")
	m.Update(tab())
	if got := m.picker.Checked(); !slices.Equal(got, []string{"/work/demo/tools/cli", "/work/demo/web"}) {
		t.Fatalf("after web, tab: checked %v", got)
	}
	if out := screen(m); !strings.Contains(out, "/ web") {
		t.Fatalf("the query is not shown:\n%s", out)
	}
	if cmd := send(m, "esc"); m.picker.Filter() != "" || m.picker.ShownLen() != 5 || cmd != nil && isQuit(cmd) {
		t.Fatalf("esc: filter %q, %d shown; want it cleared, not quit", m.picker.Filter(), m.picker.ShownLen())
	}
	send(m, "space") // an empty query: space checks the row
	if got := len(m.picker.Checked()); got != 3 {
		t.Fatalf("space on an empty query checked %d rows in all, want 3", got)
	}
	send(m, "w", "space", "x") // in a query, space separates terms
	if m.filter.Value() != "w x" || len(m.picker.Checked()) != 3 {
		t.Fatalf("space in a query: query %q, %d checked", m.filter.Value(), len(m.picker.Checked()))
	}
	send(m, "ctrl+u", "x", "backspace", "space")
	if m.filterPending() || strings.Contains(strings.Split(screen(m), "\n")[1], "…") {
		t.Fatalf("an empty query is shown as pending:\n%s", screen(m))
	}
}

// TestTypingAWordOnlyFilters: every letter typed in the list goes into the
// query; a whole word never checks, sorts, rescans or quits (issue 17:
// "payments" checked all 44 repositories and re-sorted, "terraform"
// rescanned twice).
func TestTypingAWordOnlyFilters(t *testing.T) {
	m := fixture(t, demoRepos()...)
	sortBefore := m.picker.Sort()
	for _, word := range []string{"payments", "terraform", "quit", "abcdefghijklmnopqrstuvwxyz", "ASRGQ", "jkgG"} {
		send(m, "ctrl+u")
		cmd := typeText(m, word)
		if m.filter.Value() != word {
			t.Fatalf("typing %q: query %q", word, m.filter.Value())
		}
		if n := len(m.picker.Checked()); n != 0 {
			t.Fatalf("typing %q checked %d rows", word, n)
		}
		if m.picker.Sort() != sortBefore || m.walk.gen != 1 || m.mode() != modeList || cmd != nil && isQuit(cmd) {
			t.Fatalf("typing %q: sort %v, scan generation %d, mode %d, quit %v", word, m.picker.Sort(), m.walk.gen, m.mode(), cmd != nil && isQuit(cmd))
		}
	}
}

// TestFilterMatchesTheTextShown: the row for DIR itself is drawn as "."
// and "." finds it; the words of DIR's own path find nothing.
func TestFilterMatchesTheTextShown(t *testing.T) {
	m := fixture(t, append(demoRepos(), vcsdetect.Repo{Path: "/work/demo", Name: "demo", Kind: vcsdetect.KindGit})...)
	send(m, ".")
	if got := shownLabels(m); !slices.Equal(got, []string{"."}) {
		t.Fatalf(". shows %v, want the row drawn as .", got)
	}
	send(m, "esc", "w", "o", "r", "k")
	if got := shownLabels(m); len(got) != 0 {
		t.Fatalf("a word of DIR's path matched %v", got)
	}
}

// TestFilterHighlightsMatches: the matched characters are drawn underlined
// and bold, on the cursor row too.
func TestFilterHighlightsMatches(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "p", "i") // api (the cursor row, ranked first) and api-wt
	out := m.View().Content
	hit := matchStyle(lipgloss.NewStyle())
	if !strings.Contains(out, " a"+hit.Render("pi")+"-wt ") {
		t.Fatalf("p and i of api-wt are not highlighted, or more is:\n%q", out)
	}
	if !strings.Contains(out, m.st.cursor.Render("a")+matchStyle(m.st.cursor.Style).Render("pi")) {
		t.Fatalf("the cursor row's match is not highlighted:\n%q", out)
	}
	if got := highlight("abc", []int{4, 6}, 3, inkOf(lipgloss.NewStyle()), inkOf(hit), true); got != "a"+hit.Render("b")+"c" {
		t.Fatalf("highlight with an offset: %q", got)
	}
}

// runCmd runs a command and returns every message it (and its batches)
// produced.
func runCmd(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, runCmd(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func filterResults(cmd tea.Cmd) []filterResultMsg {
	var out []filterResultMsg
	for _, msg := range runCmd(cmd) {
		if r, ok := msg.(filterResultMsg); ok {
			out = append(out, r)
		}
	}
	return out
}

// TestStaleQueryResultNeverShown: a query matched to the end (not
// superseded while it ran) whose message arrives after a newer query was
// typed is never shown, not even for a frame: only the text typed last is.
func TestStaleQueryResultNeverShown(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.filterSyncMax = 0               // every list counts as large
	r1 := filterResults(send(m, "w")) // matched before e is typed
	if len(r1) != 1 || r1[0].res.Superseded() {
		t.Fatalf("w: %d results (superseded %v)", len(r1), len(r1) == 1 && r1[0].res.Superseded())
	}
	second := send(m, "e")
	m.Update(r1[0])
	if m.picker.Filter() != "" || m.picker.ShownLen() != 5 {
		t.Fatalf("the result of w was shown after we was typed: filter %q, shows %v", m.picker.Filter(), shownLabels(m))
	}
	m.Update(filterResults(second)[0])
	if m.picker.Filter() != "we" || !slices.Equal(shownLabels(m), []string{"web"}) {
		t.Fatalf("we: filter %q, shows %v", m.picker.Filter(), shownLabels(m))
	}
}

// TestFilterOffTheUpdateLoop: on a large list a keystroke returns at once
// with a command that matches; a result for an old query never replaces a
// newer one, and one matched against candidates that changed since is
// matched again.
func TestFilterOffTheUpdateLoop(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.filterSyncMax = 0 // every list counts as large

	first := send(m, "w")
	if m.picker.Filter() != "" || m.picker.ShownLen() != 5 {
		t.Fatalf("the keystroke matched inside Update: filter %q", m.picker.Filter())
	}
	if l := strings.Split(screen(m), "\n")[1]; !strings.HasPrefix(l, "/ w ") || !strings.HasSuffix(strings.TrimSpace(l), "…") {
		t.Fatalf("no sign that the query is being matched:\n%s", screen(m))
	}
	second := send(m, "e")
	r1, r2 := filterResults(first), filterResults(second)
	if len(r1) != 1 || len(r2) != 1 {
		t.Fatalf("keystrokes returned %d and %d filter results, want one each", len(r1), len(r2))
	}
	// The newer result arrives first; the older one must not replace it.
	m.Update(r2[0])
	m.Update(r1[0])
	if m.picker.Filter() != "we" {
		t.Fatalf("filter %q after the old result arrived last, want we", m.picker.Filter())
	}
	if got := shownLabels(m); !slices.Equal(got, []string{"web"}) {
		t.Fatalf("we shows %v", got)
	}
	// A candidate changes (a scan batch updates it) while a query is matched.
	third := send(m, "b")
	m.Update(scanBatchMsg{gen: m.walk.gen, repos: []vcsdetect.Repo{repo("api", "web-login")}})
	_, cmd := m.Update(filterResults(third)[0])
	if m.picker.Filter() != "we" {
		t.Fatalf("a result matched against old candidates was applied: %q", m.picker.Filter())
	}
	again := filterResults(cmd)
	if len(again) != 1 {
		t.Fatal("a stale result was not matched again")
	}
	m.Update(again[0])
	if got := shownLabels(m); m.picker.Filter() != "web" || !slices.Contains(got, "api") || !slices.Contains(got, "web") {
		t.Fatalf("web after the rematch shows %v (filter %q); api's new branch web-login matches", got, m.picker.Filter())
	}
}

// TestErasingIsImmediate: on a large list (matched off the Update loop),
// backspace shows the shorter query's kept result inside Update, as fzf
// does, instead of matching again.
func TestErasingIsImmediate(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.filterSyncMax = 0 // every list counts as large

	for _, k := range []string{"w", "e"} {
		for _, r := range filterResults(send(m, k)) {
			m.Update(r)
		}
	}
	if m.picker.Filter() != "we" {
		t.Fatalf("filter %q, want we", m.picker.Filter())
	}
	cmd := send(m, "backspace")
	if rs := filterResults(cmd); len(rs) != 0 || m.picker.Filter() != "w" || m.filterPending() {
		t.Fatalf("backspace to w: filter %q, %d results to wait for, pending %v", m.picker.Filter(), len(rs), m.filterPending())
	}
	if got := shownLabels(m); len(got) < 2 {
		t.Fatalf("w shows %v", got)
	}
}

// TestSortAndRescanKeepTheCursor: s cycles the sort and r rescans; the
// cursor stays on the repository it was on.
func TestSortAndRescanKeepTheCursor(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "down", "down", "down") // tools/cli/vendor/lib
	want, _ := m.picker.Current()
	for _, sortName := range []string{"last commit", "name", "path"} {
		send(m, "ctrl+s")
		if c, _ := m.picker.Current(); c.Path != want.Path {
			t.Fatalf("sort by %s moved the cursor to %s", sortName, c.Path)
		}
		if !strings.Contains(screen(m), "Sorted by "+sortName) {
			t.Fatalf("s does not say the sort is by %s:\n%s", sortName, screen(m))
		}
	}
	m.Update(scanBatchMsg{gen: m.walk.gen, repos: []vcsdetect.Repo{repo("zz/aardvark", "main")}})
	send(m, "ctrl+s", "ctrl+s") // by name: aardvark first
	if got := shownLabels(m); got[0] != "zz/aardvark" || !strings.Contains(firstLine(screen(m)), "by name") {
		t.Fatalf("by name shows %v; header %q", got, firstLine(screen(m)))
	}
	if c, _ := m.picker.Current(); c.Path != want.Path {
		t.Fatalf("sort by name moved the cursor to %s", c.Path)
	}
	send(m, "ctrl+s") // back to path
	m.walk.gen = 1
	m.cfg.Scan = nil // r's command is not run: its results are fed by hand
	send(m, "ctrl+r")
	gen := m.walk.gen
	repos := append(demoRepos(), repo("zz/aardvark", "main"))
	m.Update(scanBatchMsg{gen: gen, repos: repos[:2]})
	m.Update(scanBatchMsg{gen: gen, repos: repos[2:], done: true})
	if c, _ := m.picker.Current(); c.Path != want.Path {
		t.Fatalf("rescan moved the cursor to %s, want %s", c.Path, want.Path)
	}
	if !strings.Contains(screen(m), "› [ ] tools/cli/vendor/lib") {
		t.Fatalf("the cursor row is not drawn on it:\n%s", screen(m))
	}
}

// TestSupersededQueryIsNotAskedAgain: after w, e, backspace the first
// query's text is the one wanted again, but a newer match of it is on its
// way: the superseded result neither shows nor starts another match.
func TestSupersededQueryIsNotAskedAgain(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.filterSyncMax = 0

	first := send(m, "w")
	send(m, "e")
	_, last := m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	r1 := filterResults(first) // runs now, after two newer queries
	if len(r1) != 1 || !r1[0].res.Superseded() {
		t.Fatalf("the first query was not superseded: %+v", r1)
	}
	if _, cmd := m.Update(r1[0]); cmd != nil || m.picker.Filter() != "" {
		t.Fatalf("a superseded result was applied (filter %q) or asked again (%v)", m.picker.Filter(), cmd != nil)
	}
	m.Update(filterResults(last)[0])
	if m.picker.Filter() != "w" || m.picker.ShownLen() != 2 {
		t.Fatalf("w: filter %q, %d shown (web, api-wt)", m.picker.Filter(), m.picker.ShownLen())
	}
}

// TestGoldenFilter: the query open with a row toggled by tab, and the
// filter kept in the list sorted by name, at 120×40, 80×24 and 40×10.
func TestGoldenFilter(t *testing.T) {
	t.Setenv("HOME", "/nonexistent-home")
	for _, size := range [][2]int{{120, 40}, {80, 24}, {40, 10}} {
		w, h := size[0], size[1]
		suffix := "_" + itoa(w) + "x" + itoa(h)
		m := fixture(t, append(demoRepos(), vcsdetect.Repo{Path: "/work/demo", Name: "demo", Kind: vcsdetect.KindGit, Branch: "main"})...)
		m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		send(m, "t", "c")
		m.Update(tab())
		golden(t, "filter_open"+suffix, screen(m))
		send(m, "ctrl+s", "ctrl+s")
		golden(t, "filter_kept_by_name"+suffix, screen(m))
	}
}

// TestFilterLineOnlyOverTheList: the kept filter's line belongs to the
// list; the server pane and the help, which hide the list, leave it out.
func TestFilterLineOnlyOverTheList(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "a", "p", "i")
	line2 := func() string { return strings.Split(screen(m), "\n")[1] }
	if !strings.HasPrefix(line2(), "/ api") {
		t.Fatalf("no filter line over the list: %q", line2())
	}
	for _, k := range []string{"ctrl+o", "?"} {
		send(m, k)
		if strings.HasPrefix(line2(), "/ ") {
			t.Errorf("the filter line shows over %s's pane: %q", k, line2())
		}
		send(m, "esc")
		if !strings.HasPrefix(line2(), "/ api") {
			t.Fatalf("after esc from %s's pane: %q", k, line2())
		}
	}
}

// TestDoubleEscape: two escapes in one read arrive as alt+esc (tmux sends
// them so); it clears a query like esc, and on an empty query quits.
func TestDoubleEscape(t *testing.T) {
	m := fixture(t, demoRepos()...)
	typeText(m, "web")
	altEsc := tea.KeyPressMsg{Code: tea.KeyEscape, Mod: tea.ModAlt}
	if _, cmd := m.Update(altEsc); m.filter.Value() != "" || cmd != nil && isQuit(cmd) {
		t.Fatalf("alt+esc on a query: query %q, quit %v", m.filter.Value(), cmd != nil && isQuit(cmd))
	}
	if _, cmd := m.Update(altEsc); cmd == nil || !isQuit(cmd) {
		t.Fatal("alt+esc on an empty query did not quit")
	}
}

// TestKeysActOnTheQueryOnScreen: tab, space, enter, ctrl+a typed right
// after a query, before its result is shown, act on the rows of that
// query's result, never on a row of the older result still on screen.
// (Typed growth, then tab at once: the header said 1 checked and nothing
// visible was; the row checked was the old highlighted one.)
func TestKeysActOnTheQueryOnScreen(t *testing.T) {
	for _, keys := range [][]string{{"tab"}, {"shift+tab"}, {"enter"}, {"ctrl+a"}} {
		m := fixture(t, demoRepos()...)
		m.filterSyncMax = 0 // every list counts as large: the query is matched off the loop
		var results []filterResultMsg
		for _, k := range []string{"w", "e", "b"} {
			results = append(results, filterResults(send(m, k))...)
		}
		for _, k := range keys {
			send(m, k) // held: its command, if any, runs nothing yet
		}
		if n := m.picker.CheckedCount(); n != 0 {
			t.Fatalf("%v before the result of web: %d checked (%v): a key acted on the old result", keys, n, m.picker.Checked())
		}
		for _, r := range results {
			m.Update(r) // only web's is applied: the rest are for older queries
		}
		if got := m.picker.Checked(); len(got) != 1 || got[0] != "/work/demo/web" {
			t.Fatalf("%v after the result of web: checked %v, want web (the one row shown)", keys, got)
		}
	}

	// A key that types after a held key waits too: order is kept.
	m := fixture(t, demoRepos()...)
	m.filterSyncMax = 0
	results := filterResults(send(m, "w"))
	send(m, "tab", "x")
	if m.filter.Value() != "w" {
		t.Fatalf("x typed after a held tab was typed before it: query %q", m.filter.Value())
	}
	for _, r := range results {
		m.Update(r)
	}
	if m.filter.Value() != "wx" || !m.picker.IsChecked("/work/demo/web") {
		t.Fatalf("after w's result: query %q, checked %v; want wx and web", m.filter.Value(), m.picker.Checked())
	}
}

// TestQueryLineRedrawnAfterEveryChange: the drawn query line is kept
// between frames (queryLine), so each way the query changes must show:
// typing, esc clearing it, and a paste.
func TestQueryLineRedrawnAfterEveryChange(t *testing.T) {
	m := fixture(t, demoRepos()...)
	line := func() string { return strings.SplitN(screen(m), "\n", 3)[1] }
	if !strings.Contains(line(), "type to filter") {
		t.Fatalf("no placeholder on the query line: %q", line())
	}
	send(m, "a", "p")
	if !strings.Contains(line(), "/ ap") {
		t.Fatalf("the typed query is not on the query line: %q", line())
	}
	send(m, "esc")
	if l := line(); !strings.Contains(l, "type to filter") || strings.Contains(l, "ap") {
		t.Fatalf("esc cleared the query, but the query line shows %q", l)
	}
	m.Update(tea.PasteMsg{Content: "web"})
	if !strings.Contains(line(), "/ web") {
		t.Fatalf("the pasted query is not on the query line: %q", line())
	}
}

// TestHeldKeysKeepExactlyTheMax: while a query is matched, exactly
// earlyKeysMax keys wait for its result, in order; the next is dropped and
// the note says so. (A tab, then typed letters: each letter kept is typed
// once the result is shown, so the query counts what was kept.)
func TestHeldKeysKeepExactlyTheMax(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.filterSyncMax = 0 // every list counts as large: the query is matched off the loop
	results := filterResults(send(m, "w"))
	send(m, "tab") // acts on rows: waits, and every key after it too
	for range earlyKeysMax - 1 {
		send(m, "x")
	}
	if len(m.early.msgs) != earlyKeysMax || strings.Contains(m.status.note, "dropped") {
		t.Fatalf("%d keys held (note %q), want %d and none dropped", len(m.early.msgs), m.status.note, earlyKeysMax)
	}
	send(m, "x")
	if len(m.early.msgs) != earlyKeysMax {
		t.Fatalf("key %d was held: %d held, at most %d are", earlyKeysMax+1, len(m.early.msgs), earlyKeysMax)
	}
	if !strings.Contains(m.status.note, "Too many keys") {
		t.Fatalf("a key was dropped and the note does not say so: %q", m.status.note)
	}
	for _, r := range results {
		m.Update(r)
	}
	if want := "w" + strings.Repeat("x", earlyKeysMax-1); m.filter.Value() != want {
		t.Fatalf("after w's result: query %q (%d x), want w and %d x", m.filter.Value(), strings.Count(m.filter.Value(), "x"), earlyKeysMax-1)
	}
	if !m.picker.IsChecked("/work/demo/web") || m.picker.CheckedCount() != 1 {
		t.Fatalf("the held tab checked %v, want web (w's top row)", m.picker.Checked())
	}
}

// TestHeldKeysWaitForTheCurrentResult: a key held for a query is released
// only by that query's result as shown: neither the result of an older
// query nor one matched against candidates that changed since (stale: it
// is matched again) hands it to the list, which would act on the rows
// still on screen.
func TestHeldKeysWaitForTheCurrentResult(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.filterSyncMax = 0 // every list counts as large: the query is matched off the loop
	var results []filterResultMsg
	for _, k := range []string{"w", "e", "b"} {
		results = append(results, filterResults(send(m, k))...)
	}
	if len(results) != 3 {
		t.Fatalf("%d filter results for w, e, b; want 3", len(results))
	}
	send(m, "tab") // held: on screen is the unfiltered list, its cursor on api
	// tools/cli's branch changes while web is matched: web's result is stale.
	m.Update(scanBatchMsg{gen: m.walk.gen, repos: []vcsdetect.Repo{repo("tools/cli", "web-fix")}})
	for _, r := range results[:2] { // w and we: older queries
		if _, cmd := m.Update(r); cmd != nil || len(m.early.msgs) != 1 || m.picker.CheckedCount() != 0 {
			t.Fatalf("the result of %q (older than web) released the held tab: checked %v, %d held", r.res.Text, m.picker.Checked(), len(m.early.msgs))
		}
	}
	_, cmd := m.Update(results[2])
	if len(m.early.msgs) != 1 || m.picker.CheckedCount() != 0 {
		t.Fatalf("web's stale result released the held tab: checked %v, %d held; filter %q", m.picker.Checked(), len(m.early.msgs), m.picker.Filter())
	}
	again := filterResults(cmd)
	if len(again) != 1 {
		t.Fatalf("web's stale result was not matched again (%d results)", len(again))
	}
	m.Update(again[0])
	if m.picker.Filter() != "web" || !slices.Contains(shownLabels(m), "tools/cli") {
		t.Fatalf("web after the rematch: filter %q, shows %v", m.picker.Filter(), shownLabels(m))
	}
	if got, top := m.picker.Checked(), m.picker.ShownAt(0).Path; len(got) != 1 || got[0] != top || len(m.early.msgs) != 0 {
		t.Fatalf("after web's result: checked %v, %d held; want its top row %s", got, len(m.early.msgs), top)
	}
}

// TestClearedQueryActsOnEveryRow: a key that acts on rows, pressed right
// after the query is cleared (esc, ctrl+u, backspace to nothing), acts on
// the unfiltered rows, never on the filtered rows shown before. On a large
// list the clear is either shown at once or is pending until it is: the
// filtered rows are never what the key acts on.
func TestClearedQueryActsOnEveryRow(t *testing.T) {
	for _, clear := range [][]string{{"esc"}, {"ctrl+u"}, {"backspace", "backspace", "backspace"}} {
		m := fixture(t, demoRepos()...)
		m.filterSyncMax = 0 // every list counts as large
		for _, k := range []string{"w", "e", "b"} {
			for _, r := range filterResults(send(m, k)) {
				m.Update(r)
			}
		}
		if m.picker.Filter() != "web" || !slices.Equal(shownLabels(m), []string{"web"}) {
			t.Fatalf("web: filter %q, shows %v", m.picker.Filter(), shownLabels(m))
		}
		var pending []filterResultMsg
		for _, k := range clear {
			pending = append(pending, filterResults(send(m, k))...)
		}
		pending = append(pending, filterResults(send(m, "tab"))...)
		for _, r := range pending {
			m.Update(r)
		}
		if m.picker.Filter() != "" || m.picker.ShownLen() != 5 {
			t.Fatalf("%v: filter %q, %d shown; want the query cleared", clear, m.picker.Filter(), m.picker.ShownLen())
		}
		if got := m.picker.Checked(); !slices.Equal(got, []string{"/work/demo/api"}) {
			t.Fatalf("%v then tab checked %v; want api, the top of every row (web was the filtered row)", clear, got)
		}
	}
}

// TestFilterPending: a query typed and not yet shown is pending; spaces
// alone are no query, so they are pending only while a real query is
// still on screen (the query was cleared and its rows are not shown yet).
func TestFilterPending(t *testing.T) {
	for _, c := range []struct {
		want, shown string
		pending     bool
	}{
		{"", "", false},
		{"  ", "", false}, // spaces alone are no filter
		{"web", "web", false},
		{"web", "we", true},
		{"web", "", true},
		{"", "web", true},   // cleared, the filtered rows still on screen
		{"  ", "web", true}, // the same
	} {
		m := fixture(t, demoRepos()...)
		m.picker.SetFilter(c.shown)
		m.filterWant = c.want
		if got := m.filterPending(); got != c.pending {
			t.Errorf("query %q with %q shown: pending %v, want %v", c.want, c.shown, got, c.pending)
		}
	}
}

// TestPasteWaitsBehindHeldKeys: a paste after a held key waits behind it,
// as a typed key does. Let through, a paste that brought the query back to
// the one shown (webx shown, backspace to web still matched, tab held,
// then x pasted) left nothing pending and no result to come: the tab and
// every key after it waited for good.
func TestPasteWaitsBehindHeldKeys(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.filterSyncMax = 0 // every list counts as large: the query is matched off the loop
	for _, k := range []string{"w", "e", "b", "x"} {
		for _, r := range filterResults(send(m, k)) {
			m.Update(r)
		}
	}
	// tools/cli's branch changes: web's kept result is stale, so backspace
	// to web is matched off the loop.
	m.Update(scanBatchMsg{gen: m.walk.gen, repos: []vcsdetect.Repo{repo("tools/cli", "web-fix")}})
	web := filterResults(send(m, "backspace"))
	if len(web) != 1 || !m.filterPending() {
		t.Fatalf("backspace to web: %d results to wait for, pending %v; want it matched off the loop", len(web), m.filterPending())
	}
	send(m, "tab")
	m.Update(tea.PasteMsg{Content: "x"})
	if m.filter.Value() != "web" || len(m.early.msgs) != 2 {
		t.Fatalf("a paste after a held tab: query %q, %d held; want web and the paste held behind the tab", m.filter.Value(), len(m.early.msgs))
	}
	var rest []filterResultMsg
	for _, r := range web {
		_, cmd := m.Update(r)
		rest = append(rest, filterResults(cmd)...)
	}
	if got := m.picker.Checked(); len(got) != 1 || m.filter.Value() != "webx" || len(m.early.msgs) != 0 {
		t.Fatalf("after web's result: checked %v, query %q, %d held; want web's top row checked, then the paste typed", got, m.filter.Value(), len(m.early.msgs))
	}
	checked := m.picker.Checked()[0]
	for _, r := range rest {
		m.Update(r)
	}
	send(m, "ctrl+u", "ctrl+x") // the list answers keys again
	if len(m.early.msgs) != 0 || m.picker.CheckedCount() != 0 {
		t.Fatalf("keys after the paste: %d held, checked %v (%s was checked); want none held, ctrl+x unchecking", len(m.early.msgs), m.picker.Checked(), checked)
	}
}

// TestHeldKeysNeverAnswerALaterDialog: keys held for a query's result
// that a review overtakes (enter pressed while a change was applied, the
// review built once it is served) go to its dialog with the keys typed
// ahead, in the order pressed, while its guard still ignores y: a y typed
// into the query and released once the guard had passed confirmed the
// dialog, sharing web unasked.
func TestHeldKeysNeverAnswerALaterDialog(t *testing.T) {
	api := mkRoot("/work/demo/api")
	applyingWithHeldKeys := func(t *testing.T, keys ...string) (*Model, []filterResultMsg) {
		t.Helper()
		m := fixture(t, demoRepos()...)
		m.filterSyncMax = 0 // every list counts as large: the query is matched off the loop
		openDialog(t, m, api)
		send(m, "y")
		send(m, "enter") // applying: the review is kept for when api is served
		results := filterResults(send(m, "w"))
		send(m, keys...)
		if !m.review.sh.Applying() || len(m.early.msgs) != len(keys) {
			t.Fatalf("applying %v, %d keys held; want applying and %v held", m.review.sh.Applying(), len(m.early.msgs), keys)
		}
		m.Update(rootsServedMsg{roots: []consent.Root{api}})
		if m.review.sh.Phase() != sharing.Preparing {
			t.Fatalf("served: phase %v, want the kept review preparing", m.review.sh.Phase())
		}
		return m, results
	}

	// The query's result comes after the dialog's guard has passed.
	m, results := applyingWithHeldKeys(t, "tab", "y")
	clk := clockOf(m)
	m.Update(proposalMsg{proposed: plainItems("/work/demo/api", "/work/demo/web")})
	clk.Advance(time.Second)
	m.Update(consentGuardMsg{id: m.review.sh.Dialog().id, seq: m.review.sh.Dialog().guardSeq})
	for _, r := range results {
		m.Update(r)
	}
	if m.review.sh.Dialog() == nil || m.review.sh.Applying() || len(m.Consented()) != 1 {
		t.Fatalf("a y held for the query answered the dialog: open %v, consented %v", m.review.sh.Dialog() != nil, m.Consented())
	}

	// The query's result comes while the review is built, before an n
	// typed ahead: tab, then n, reach the dialog; n cancels it, and the
	// tab never checks a row of the list (openDialog checked none).
	m, results = applyingWithHeldKeys(t, "tab")
	send(m, "n")
	for _, r := range results {
		m.Update(r)
	}
	m.Update(proposalMsg{proposed: plainItems("/work/demo/api", "/work/demo/web")})
	if m.review.sh.Dialog() != nil || m.picker.CheckedCount() != 0 {
		t.Fatalf("tab then n typed while the review was built: dialog open %v, checked %v; want it cancelled, no row checked", m.review.sh.Dialog() != nil, m.picker.Checked())
	}
}
