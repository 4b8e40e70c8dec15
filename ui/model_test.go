package ui

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
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
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// fixture is a model over a fake tree of repositories under /work/demo, with
// no hub; its scan is fed by hand.
func fixture(t *testing.T, repos ...vcsdetect.Repo) *Model {
	t.Helper()
	m := New(Config{Dir: "/work/demo", Scan: func(context.Context, string, vcsdetect.Options, func(vcsdetect.Repo)) (vcsdetect.Stats, error) {
		t.Fatal("fixture models do not scan")
		return vcsdetect.Stats{}, nil
	}, Describe: func(context.Context, vcsdetect.Repo) vcsdetect.Details { return vcsdetect.Details{} }})
	m.scanGen = 1
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

func screen(m *Model) string { return ansi.Strip(m.View().Content) }

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
	send(m, "a")
	if n := len(m.picker.Checked()); n != 5 {
		t.Fatalf("a checked %d, want 5", n)
	}
	send(m, "A")
	if n := len(m.picker.Checked()); n != 0 {
		t.Fatalf("A left %d checked", n)
	}
}

func TestCheckAllOnlyShown(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "/", "t", "o", "o", "l", "enter", "a")
	if got, want := m.picker.Checked(), []string{"/work/demo/tools/cli", "/work/demo/tools/cli/vendor/lib"}; !slices.Equal(got, want) {
		t.Fatalf("a under filter checked %v, want %v", got, want)
	}
	send(m, "esc") // clears the kept filter
	if m.picker.Filter() != "" || len(m.picker.Shown()) != 5 {
		t.Fatalf("esc did not clear the filter: %q, %d shown", m.picker.Filter(), len(m.picker.Shown()))
	}
	send(m, "/", "x", "esc") // dropping while typing
	if m.picker.Filter() != "" || m.mode == modeFilter {
		t.Fatalf("esc while typing kept %q (filtering=%v)", m.picker.Filter(), m.mode == modeFilter)
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
	m.scanGen = 1
	m.Update(scanBatchMsg{gen: 1, done: true, repos: []vcsdetect.Repo{
		{Path: filepath.Join(dir, "one"), Name: "one", Kind: vcsdetect.KindGit},
		{Path: filepath.Join(dir, "two"), Name: "two", Kind: vcsdetect.KindGit},
	}})
	send(m, "space")
	cmd := send(m, "enter")
	if m.dialog != nil {
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
	if m.dialog != nil {
		t.Fatal("y did not close the dialog")
	}
	if !m.applying {
		t.Fatal("confirm did not mark the change as applying")
	}
	if len(m.exposed) != 0 {
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
	if len(m.exposed) != 2 || m.applying {
		t.Fatalf("after serving: exposed %d, applying %v", len(m.exposed), m.applying)
	}
	// The enter was not lost: the review starts once the change is served.
	if next == nil || !m.preparing {
		t.Fatal("enter pressed while a change was being served was dropped")
	}
	m.preparing = false
	// A second review of the same selection removes web.
	openDialog(t, m, mkRoot("/work/demo/api"))
	if got := m.dialog.change; len(got.Removed) != 1 || got.Removed[0].Path != "/work/demo/web" || len(got.Kept) != 1 {
		t.Fatalf("second change %+v", got)
	}
	if !strings.Contains(screen(m), "Stop sharing with no connected server?") {
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
		if m.dialog != nil || m.applying || len(m.exposed) != 0 {
			t.Fatalf("%s: dialog %v applying %v exposed %v", k, m.dialog != nil, m.applying, m.exposed)
		}
	}
}

func TestNothingToChange(t *testing.T) {
	m := fixture(t, demoRepos()...)
	openDialog(t, m)
	if out := screen(m); !strings.Contains(out, "Nothing to change") || !strings.Contains(out, "Nothing is checked and nothing is shared.") {
		t.Fatalf("empty proposal:\n%s", out)
	}
	if cmd := send(m, "y"); cmd != nil || m.dialog == nil {
		t.Fatal("y confirmed an empty change")
	}
	send(m, "esc")
	if m.dialog != nil {
		t.Fatal("esc did not close the empty dialog")
	}
}

func TestStaleScanResultsDropped(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.scanGen = 2 // a rescan started
	m.Update(scanBatchMsg{gen: 1, repos: []vcsdetect.Repo{repo("ghost", "main")}})
	for _, r := range m.picker.Shown() {
		if r.Name == "ghost" {
			t.Fatal("a result of a cancelled scan was shown")
		}
	}
}

func TestQuitAndInterrupt(t *testing.T) {
	m := fixture(t, demoRepos()...)
	if msg := send(m, "q")(); msg != tea.Quit() {
		t.Fatalf("q returned %#v", msg)
	}
	if msg := send(m, "ctrl+c")(); msg != tea.Interrupt() {
		t.Fatalf("ctrl+c returned %#v", msg)
	}
}

func TestTinySizesDoNotPanic(t *testing.T) {
	m := fixture(t, demoRepos()...)
	for _, sz := range [][2]int{{0, 0}, {1, 1}, {5, 2}, {10, 3}, {20, 4}, {80, 1}} {
		m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		out := screen(m)
		if n := strings.Count(out, "\n") + 1; out != "" && n > sz[1] {
			t.Errorf("%dx%d: %d lines", sz[0], sz[1], n)
		}
		openDialog(t, m, mkRoot("/work/demo/api"))
		_ = screen(m)
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
		m.Update(factsMsg{pool: m.pool, results: []vcsdetect.Result[repoFacts]{
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

		send(m, "/", "c", "l", "i")
		golden(t, "filtering"+suffix, screen(m))
	}
}

// TestDialogShowsEveryChangeWhenShort: on a short terminal the access
// line and the full path go first; every added and removed path stays
// visible while it can, and when it cannot, y says how many are unseen.
func TestDialogShowsEveryChangeWhenShort(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.exposed = []consent.Root{mkRoot("/work/demo/api"), mkRoot("/work/demo/web")}
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
	m.exposed = []consent.Root{mkRoot("/work/demo/api"), mkRoot("/work/demo/web")}
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 9})
	openDialog(t, m, mkRoot("/work/demo/tools/cli"), mkRoot("/work/demo/api-wt"))
	if out := screen(m); !strings.Contains(out, "not yet shown") || !strings.Contains(out, "(2 added, 2 removed)") {
		t.Errorf("100x9 dialog must say how many added lines are unseen and keep the counts:\n%s", out)
	}
}
