package ui

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/ui/sharing"
	"github.com/rootpick/rootpick/vcsdetect"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// keyPress builds the message a terminal key produces.
func keyPress(s string) tea.KeyPressMsg {
	switch s {
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	if c, ok := strings.CutPrefix(s, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: []rune(c)[0], Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// typeText types s into the list, one key a character.
func typeText(m *Model, s string) tea.Cmd {
	var cmd tea.Cmd
	for _, r := range s {
		if r == ' ' {
			cmd = send(m, "space")
			continue
		}
		cmd = send(m, string(r))
	}
	return cmd
}

// fixture is a model over a fake tree of repositories under /work/demo, with
// no hub; its scan is fed by hand.
func fixture(t *testing.T, repos ...vcsdetect.Repo) *Model {
	t.Helper()
	m := New(Config{Dir: "/work/demo", Scan: func(context.Context, string, vcsdetect.Options, func(vcsdetect.Repo)) (vcsdetect.Stats, error) {
		t.Fatal("fixture models do not scan")
		return vcsdetect.Stats{}, nil
	}, Describe: func(context.Context, vcsdetect.Repo) vcsdetect.Details { return vcsdetect.Details{} }})
	m.walk.gen = 1
	m.Update(scanBatchMsg{gen: 1, repos: repos, done: true, stats: vcsdetect.Stats{Dirs: 40, Repos: len(repos)}})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return m
}

func repo(rel, branch string) vcsdetect.Repo {
	p := filepath.Join("/work/demo", rel)
	return vcsdetect.Repo{Path: p, Name: filepath.Base(p), Kind: vcsdetect.KindGit, Branch: branch, Depth: strings.Count(rel, "/") + 1}
}

func demoRepos() []vcsdetect.Repo {
	return []vcsdetect.Repo{
		repo("api", "main"),
		repo("web", "feature/login"),
		repo("tools/cli", "main"),
		repo("tools/cli/vendor/lib", "v2"),
		{Path: "/work/demo/api-wt", Name: "api-wt", Kind: vcsdetect.KindWorktree, Branch: "hotfix", Depth: 1},
	}
}

// send feeds keys to the model and returns the last command.
func send(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		_, cmd = m.Update(keyPress(k))
	}
	return cmd
}

// screen is m's screen as drawn now. Tests set a model up by calling
// its handlers and setting its parts directly, which Update never does
// between its end and the frame: the fixed lines it drew are dropped.
func screen(m *Model) string {
	m.chrome.drawn = false
	return ansi.Strip(m.View().Content)
}

func TestToggleAndCheckAll(t *testing.T) {
	m := fixture(t, demoRepos()...)
	// Rows are sorted by path: api, api-wt, tools/cli, tools/cli/vendor/lib, web.
	send(m, "space", "down", "down", "space")
	if got, want := m.picker.Checked(), []string{"/work/demo/api", "/work/demo/tools/cli"}; !slices.Equal(got, want) {
		t.Fatalf("checked %v, want %v", got, want)
	}
	send(m, "space") // uncheck tools/cli
	if got := m.picker.Checked(); !slices.Equal(got, []string{"/work/demo/api"}) {
		t.Fatalf("after second space: %v", got)
	}
	send(m, "ctrl+a")
	if n := len(m.picker.Checked()); n != 5 {
		t.Fatalf("ctrl+a checked %d, want 5", n)
	}
	send(m, "ctrl+x")
	if n := len(m.picker.Checked()); n != 0 {
		t.Fatalf("ctrl+x left %d checked", n)
	}
}

// TestCheckAllAsksWhenRowsAreOffScreen: ctrl+a and ctrl+x change every row
// the filter shows; when some of those are off screen they ask first, and
// any key but enter changes nothing.
func TestCheckAllAsksWhenRowsAreOffScreen(t *testing.T) {
	var repos []vcsdetect.Repo
	for i := range 40 {
		repos = append(repos, repo(fmt.Sprintf("svc-%02d", i), "main"))
	}
	m := fixture(t, repos...) // 80×24: not 40 rows
	send(m, "ctrl+a")
	if m.mode() != modeAsk || m.picker.CheckedCount() != 0 || !strings.Contains(screen(m), "Check 40 rows?") {
		t.Fatalf("ctrl+a with rows off screen: mode %d, %d checked\n%s", m.mode(), m.picker.CheckedCount(), screen(m))
	}
	send(m, "n")
	if m.mode() != modeList || m.picker.CheckedCount() != 0 {
		t.Fatalf("n: mode %d, %d checked", m.mode(), m.picker.CheckedCount())
	}
	send(m, "ctrl+a", "enter")
	if m.picker.CheckedCount() != 40 {
		t.Fatalf("ctrl+a enter checked %d, want 40", m.picker.CheckedCount())
	}
	typeText(m, "svc-3") // 13 rows: all on screen, no question
	shown := m.picker.ShownLen()
	send(m, "ctrl+x")
	if m.mode() != modeList || m.picker.CheckedCount() != 40-shown {
		t.Fatalf("ctrl+x on %d rows shown: mode %d, %d checked, want %d and no question\n%s", shown, m.mode(), m.picker.CheckedCount(), 40-shown, screen(m))
	}
}

func TestCheckAllOnlyShown(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "t", "o", "o", "l", "ctrl+a")
	if got, want := m.picker.Checked(), []string{"/work/demo/tools/cli", "/work/demo/tools/cli/vendor/lib"}; !slices.Equal(got, want) {
		t.Fatalf("ctrl+a under filter checked %v, want %v", got, want)
	}
	send(m, "esc") // clears the filter
	if m.picker.Filter() != "" || len(m.picker.Shown()) != 5 {
		t.Fatalf("esc did not clear the filter: %q, %d shown", m.picker.Filter(), len(m.picker.Shown()))
	}
}

func TestEnterBuildsProposalOffTheUpdateLoop(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"one", "two"} {
		if err := os.Mkdir(filepath.Join(dir, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	m := New(Config{Dir: dir})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.walk.gen = 1
	m.Update(scanBatchMsg{gen: 1, done: true, repos: []vcsdetect.Repo{
		{Path: filepath.Join(dir, "one"), Name: "one", Kind: vcsdetect.KindGit},
		{Path: filepath.Join(dir, "two"), Name: "two", Kind: vcsdetect.KindGit},
	}})
	send(m, "space")
	cmd := send(m, "enter")
	if m.review.sh.Dialog() != nil {
		t.Fatal("the dialog opened before the proposal was built")
	}
	if cmd == nil {
		t.Fatal("enter returned no command")
	}
	msg, ok := cmd().(proposalMsg)
	if !ok {
		t.Fatalf("enter's command returned %T", msg)
	}
	if len(msg.proposed) != 1 || msg.proposed[0].Path != filepath.Join(dir, "one") {
		t.Fatalf("proposal %+v", msg.proposed)
	}
	if !strings.HasPrefix(msg.proposed[0].URI, "file:///") {
		t.Fatalf("URI %q", msg.proposed[0].URI)
	}
}

// openDialog brings the fixture to an open, armed dialog proposing plain
// roots (no warnings); see openDialogWith.
func openDialog(t *testing.T, m *Model, proposed ...consent.Root) {
	t.Helper()
	items := make([]proposedRoot, len(proposed))
	for i, r := range proposed {
		items[i] = proposedRoot{Root: r, Requested: r.Path}
	}
	openDialogWith(t, m, items...)
}

func mkRoot(p string) consent.Root {
	return consent.Root{Path: p, URI: consent.PathToURI(p), Name: filepath.Base(p)}
}

func TestConfirmServesExactlyTheProposal(t *testing.T) {
	m := fixture(t, demoRepos()...)
	openDialog(t, m, mkRoot("/work/demo/api"), mkRoot("/work/demo/web"))
	cmd := send(m, "y")
	if m.review.sh.Dialog() != nil {
		t.Fatal("y did not close the dialog")
	}
	if !m.review.sh.Applying() {
		t.Fatal("confirm did not mark the change as applying")
	}
	if len(m.review.sh.Served()) != 0 {
		t.Fatal("exposed changed before the hub served it")
	}
	msg := cmd()
	served, ok := msg.(rootsServedMsg)
	if !ok || len(served.roots) != 2 {
		t.Fatalf("confirm's command returned %#v", msg)
	}
	if cmd := send(m, "enter"); cmd != nil {
		t.Fatal("enter while a change is being served opened another review")
	}
	_, next := m.Update(served)
	if len(m.review.sh.Served()) != 2 || m.review.sh.Applying() {
		t.Fatalf("after serving: exposed %d, applying %v", len(m.review.sh.Served()), m.review.sh.Applying())
	}
	// The enter was not lost: the review starts once the change is served.
	if next == nil || !(m.review.sh.Phase() == sharing.Preparing) {
		t.Fatal("enter pressed while a change was being served was dropped")
	}
	// A second review of the same selection removes web.
	openDialog(t, m, mkRoot("/work/demo/api"))
	if got := m.review.sh.Dialog().change; len(got.Removed) != 1 || got.Removed[0].Path != "/work/demo/web" || len(got.Kept) != 1 {
		t.Fatalf("second change %+v", got)
	}
	if !strings.Contains(screen(m), "Stop sharing 1 of 2 roots with no connected server?") {
		t.Fatalf("a removal-only dialog must say it stops sharing:\n%s", screen(m))
	}
	if !strings.Contains(screen(m), "− web") {
		t.Fatalf("dialog does not show the removal:\n%s", screen(m))
	}
}

func TestCancelChangesNothing(t *testing.T) {
	for _, k := range []string{"n", "esc"} {
		m := fixture(t, demoRepos()...)
		openDialog(t, m, mkRoot("/work/demo/api"))
		if cmd := send(m, k); cmd != nil {
			t.Fatalf("%s returned a command", k)
		}
		if m.review.sh.Dialog() != nil || m.review.sh.Applying() || len(m.review.sh.Served()) != 0 {
			t.Fatalf("%s: dialog %v applying %v exposed %v", k, m.review.sh.Dialog() != nil, m.review.sh.Applying(), m.review.sh.Served())
		}
	}
}

// TestNothingToChange: a review that would change nothing opens no dialog
// (whose keys would offer y) and says so on the status line.
func TestNothingToChange(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.review.sh.Review(nil) // as enter leaves it: preparing
	m.Update(proposalMsg{})
	// At 80 columns the note does not fit beside the status: it gets its
	// own line, whole (it was cut: "…and nothing i…").
	if out := strings.Join(strings.Fields(screen(m)), " "); m.review.sh.Dialog() != nil || m.mode() != modeList || !strings.Contains(out, "Nothing to change: nothing is checked and nothing is shared.") {
		t.Fatalf("empty proposal: dialog %v\n%s", m.review.sh.Dialog() != nil, screen(m))
	}
}

// TestEnterTakesTheHighlightedRow: with nothing to review, enter reviews
// the highlighted row, as fzf's enter takes it; cancelling puts it back.
// Straight after a query (one enter, no second to leave the filter) the
// row reviewed is the query's best match.
func TestEnterTakesTheHighlightedRow(t *testing.T) {
	m := fixture(t, demoRepos()...)
	typeText(m, "cli")
	cmd := send(m, "enter")
	if !(m.review.sh.Phase() == sharing.Preparing) || cmd == nil || !slices.Equal(m.picker.Checked(), []string{"/work/demo/tools/cli"}) {
		t.Fatalf("enter with nothing checked: preparing %v, checked %v", (m.review.sh.Phase() == sharing.Preparing), m.picker.Checked())
	}
	m.Update(proposalMsg{proposed: plainItems("/work/demo/tools/cli")}) // the fixture's folders do not exist
	if m.review.sh.Dialog() == nil || !strings.Contains(screen(m), "+ tools/cli") {
		t.Fatalf("enter did not review tools/cli:\n%s", screen(m))
	}
	send(m, "esc")
	if m.picker.CheckedCount() != 0 {
		t.Fatalf("cancelling kept %v checked", m.picker.Checked())
	}
	// With a row checked, enter reviews the checks only.
	send(m, "ctrl+u", "space", "down")
	send(m, "enter")
	if !slices.Equal(m.picker.Checked(), []string{"/work/demo/api"}) {
		t.Fatalf("enter with a check took the highlighted row too: %v", m.picker.Checked())
	}
}

// TestRevokeAllIgnoresTheFilter: ctrl+d reviews stopping sharing every
// root, those the kept filter hides too (issue 17: "A enter y" under the
// filter authsvc removed one root and kept two), and says so; cancelling
// puts the checks back.
func TestRevokeAllIgnoresTheFilter(t *testing.T) {
	m := fixture(t, demoRepos()...)
	shared := []consent.Root{mkRoot("/work/demo/api"), mkRoot("/work/demo/tools/cli"), mkRoot("/work/demo/web")}
	for _, r := range shared {
		m.picker.SetChecked(append(m.picker.Checked(), r.Path))
	}
	serveConfirmed(m, shared)
	typeText(m, "web")
	cmd := send(m, "ctrl+d")
	if cmd == nil || m.picker.CheckedCount() != 0 {
		t.Fatalf("ctrl+d: %v still checked", m.picker.Checked())
	}
	m.Update(proposalMsg{})
	out := screen(m)
	if !strings.Contains(out, "− removed (3)") || !strings.Contains(out, "Stop sharing all 3 roots") || !strings.Contains(out, "whatever the filter shows") {
		t.Fatalf("ctrl+d under a filter:\n%s", out)
	}
	send(m, "esc")
	if m.picker.CheckedCount() != 3 {
		t.Fatalf("cancelling ctrl+d left %v checked, want the 3 back", m.picker.Checked())
	}
}

// TestRememberedIsNotUnsaved: rows checked from the remembered consent
// are not changes: quitting at once asks nothing (issue 17: "Discard 1
// unconfirmed change?" right after a relaunch).
func TestRememberedIsNotUnsaved(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.applyRemembered(&consent.Record{Dir: "/work/demo", Roots: []consent.Root{mkRoot("/work/demo/api")}})
	if !m.picker.IsChecked("/work/demo/api") {
		t.Fatal("the remembered root is not checked")
	}
	if cmd := send(m, "ctrl+q"); cmd == nil || !isQuit(cmd) || m.mode() == modeAsk {
		t.Fatalf("ctrl+q with only remembered checks asked (mode %d)\n%s", m.mode(), screen(m))
	}
	m = fixture(t, demoRepos()...)
	m.applyRemembered(&consent.Record{Dir: "/work/demo", Roots: []consent.Root{mkRoot("/work/demo/api")}})
	send(m, "down", "space") // a change of the person's own
	if send(m, "ctrl+q"); m.mode() != modeAsk || !strings.Contains(screen(m), "Discard 1 unconfirmed change?") {
		t.Fatalf("a real change was not asked about:\n%s", screen(m))
	}
}

func TestStaleScanResultsDropped(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.walk.gen = 2 // a rescan started
	m.Update(scanBatchMsg{gen: 1, repos: []vcsdetect.Repo{repo("ghost", "main")}})
	for _, r := range m.picker.Shown() {
		if r.Name == "ghost" {
			t.Fatal("a result of a cancelled scan was shown")
		}
	}
}

func TestQuitAndInterrupt(t *testing.T) {
	m := fixture(t, demoRepos()...)
	if msg := send(m, "ctrl+q")(); msg != tea.Quit() {
		t.Fatalf("q returned %#v", msg)
	}
	if msg := send(m, "ctrl+c")(); msg != tea.Interrupt() {
		t.Fatalf("ctrl+c returned %#v", msg)
	}
}

// TestTinySizesDoNotPanic: at every size, down to nothing, a frame has
// no more lines than the terminal and no line wider than it (measured by
// x/ansi, not by the cutting code), the list's and the dialog's.
func TestTinySizesDoNotPanic(t *testing.T) {
	m := fixture(t, demoRepos()...)
	check := func(what string, w, h int, out string) {
		t.Helper()
		if out == "" {
			return
		}
		lines := strings.Split(out, "\n")
		if len(lines) > h {
			t.Errorf("%s at %dx%d: %d lines", what, w, h, len(lines))
		}
		for i, l := range lines {
			if cw := ansi.StringWidth(l); cw > w {
				t.Errorf("%s at %dx%d: line %d is %d cells wide: %q", what, w, h, i+1, cw, l)
			}
		}
	}
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {5, 2}, {10, 3}, {20, 4}, {80, 1}, {30, 12}, {45, 20}} {
		m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		check("the list", sz[0], sz[1], screen(m))
		openDialog(t, m, mkRoot("/work/demo/api"))
		check("the dialog", sz[0], sz[1], screen(m))
		send(m, "n")
	}
}

func TestNoViewBeforeSize(t *testing.T) {
	m := New(Config{Dir: "/x"})
	if got := m.View().Content; got != "" {
		t.Fatalf("drew %q before the first WindowSizeMsg", got)
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (go test ./ui -update rewrites it after a deliberate change)\n--- got\n%s\n--- want\n%s", name, path, got, want)
	}
}

func TestGoldenViews(t *testing.T) {
	t.Setenv("HOME", "/nonexistent-home")
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		sz := func(m *Model) { m.Update(tea.WindowSizeMsg{Width: w, Height: h}) }
		suffix := "_" + itoa(w) + "x" + itoa(h)

		m := fixture(t, demoRepos()...)
		sz(m)
		m.onHubEvent(connectedEvent("demo", "rootpick-demo"))
		m.onHubEvent(fetchedEvent("demo"))
		send(m, "down", "space", "down", "space", "down")
		// Facts read for some rows: dirty with ahead/behind, unknown, clean.
		m.Update(factsMsg{pool: m.facts.pool, results: []vcsdetect.Result[repoFacts]{
			{Repo: repo("api", "main"), Value: repoFacts{det: vcsdetect.Details{State: vcsdetect.StateDirty, Ahead: 2, Behind: 1}}},
			{Repo: repo("web", "feature/login"), Value: repoFacts{det: vcsdetect.Details{State: vcsdetect.StateUnknown}}},
			{Repo: repo("tools/cli", "main"), Value: repoFacts{det: vcsdetect.Details{State: vcsdetect.StateClean, Ahead: 1}}},
		}})
		golden(t, "list"+suffix, screen(m))

		openDialog(t, m, mkRoot("/work/demo/api-wt"), mkRoot("/work/demo/tools/cli"))
		golden(t, "dialog"+suffix, screen(m))

		m.Update(send(m, "y")())
		golden(t, "shared_pending"+suffix, screen(m))
		m.onHubEvent(fetchedEvent("demo", "file:///work/demo/api-wt", "file:///work/demo/tools/cli"))
		golden(t, "shared_synced"+suffix, screen(m))

		send(m, "c", "l", "i")
		golden(t, "filtering"+suffix, screen(m))
	}
}

// TestDialogShowsEveryChangeWhenShort: on a short terminal the access
// line and the full path go first; every added and removed path stays
// visible while it can, and when it cannot, y says how many are unseen.
func TestDialogShowsEveryChangeWhenShort(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.review.sh.ServedNow([]consent.Root{mkRoot("/work/demo/api"), mkRoot("/work/demo/web")})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 14})
	openDialog(t, m, mkRoot("/work/demo/tools/cli"), mkRoot("/work/demo/api-wt"))
	out := screen(m)
	for _, want := range []string{"+ api-wt", "+ tools/cli", "− api", "− web", "(2 added, 2 removed)"} {
		if !strings.Contains(out, want) {
			t.Errorf("100x14 dialog lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "file://") {
		t.Errorf("URIs shown although the paths barely fit:\n%s", out)
	}
	m = fixture(t, demoRepos()...)
	m.review.sh.ServedNow([]consent.Root{mkRoot("/work/demo/api"), mkRoot("/work/demo/web")})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 9})
	openDialog(t, m, mkRoot("/work/demo/tools/cli"), mkRoot("/work/demo/api-wt"))
	if out := screen(m); !strings.Contains(out, "not yet shown") || !strings.Contains(out, "(2 added, 2 removed)") {
		t.Errorf("100x9 dialog must say how many added lines are unseen and keep the counts:\n%s", out)
	}
}

// TestEnterLeavesTheHighlightedRowAlone: enter takes the highlighted row
// only when there is nothing else to review. With remembered checks it
// reviews those alone; on a highlighted row that is already shared (and
// checked) it keeps that row checked, so the review changes nothing.
func TestEnterLeavesTheHighlightedRowAlone(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.applyRemembered(&consent.Record{Dir: "/work/demo", Roots: []consent.Root{mkRoot("/work/demo/api")}})
	send(m, "down") // api-wt, not checked
	if c, _ := m.picker.Current(); c.Path != "/work/demo/api-wt" || m.picker.IsChecked(c.Path) {
		t.Fatalf("precondition: highlighted %s (checked %v), want api-wt unchecked", c.Path, m.picker.IsChecked(c.Path))
	}
	if cmd := send(m, "enter"); cmd == nil || m.review.sh.Phase() != sharing.Preparing {
		t.Fatalf("enter with remembered checks reviewed nothing (phase %v)", m.review.sh.Phase())
	}
	if got := m.picker.Checked(); !slices.Equal(got, []string{"/work/demo/api"}) {
		t.Fatalf("enter with remembered checks reviews %v, want the remembered [/work/demo/api] only (the highlighted row was taken too)", got)
	}

	m = fixture(t, demoRepos()...)
	serveConfirmed(m, []consent.Root{mkRoot("/work/demo/api")})
	m.picker.SetChecked([]string{"/work/demo/api"})
	if c, _ := m.picker.Current(); c.Path != "/work/demo/api" {
		t.Fatalf("precondition: highlighted %s, want api", c.Path)
	}
	send(m, "enter")
	if got := m.picker.Checked(); !slices.Equal(got, []string{"/work/demo/api"}) {
		t.Fatalf("enter on the highlighted shared row left %v checked, want [/work/demo/api] (enter unchecked a shared row)", got)
	}
}

// TestCheckAllCountsTheRowJustBelowTheScreen: with one row more than the
// list shows, that last row is off screen, so ctrl+a asks; with exactly
// as many rows as fit, it does not.
func TestCheckAllCountsTheRowJustBelowTheScreen(t *testing.T) {
	many := func(n int) []vcsdetect.Repo {
		var repos []vcsdetect.Repo
		for i := range n {
			repos = append(repos, repo(fmt.Sprintf("svc-%02d", i), "main"))
		}
		return repos
	}
	h := fixture(t, many(40)...).list.height
	if h <= 0 || h >= 40 {
		t.Fatalf("precondition: the list shows %d rows at 80×24", h)
	}
	m := fixture(t, many(h+1)...)
	last := fmt.Sprintf("svc-%02d", h)
	if m.list.height != h || m.list.offset != 0 || strings.Contains(screen(m), last) {
		t.Fatalf("precondition: %s (index %d) should be just below the screen (height %d, offset %d)\n%s", last, h, m.list.height, m.list.offset, screen(m))
	}
	send(m, "ctrl+a")
	if m.mode() != modeAsk || m.picker.CheckedCount() != 0 || !strings.Contains(screen(m), "1 is off screen") {
		t.Fatalf("ctrl+a with %s just below the screen: mode %d, %d checked; want a question saying 1 is off screen\n%s", last, m.mode(), m.picker.CheckedCount(), screen(m))
	}
	m = fixture(t, many(h)...)
	send(m, "ctrl+a")
	if m.mode() != modeList || m.picker.CheckedCount() != h {
		t.Fatalf("ctrl+a with all %d rows on screen: mode %d, %d checked; want no question", h, m.mode(), m.picker.CheckedCount())
	}
}
