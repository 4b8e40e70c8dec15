package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/vcsdetect"
)

func TestDetailsPane(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 150, Height: 30})
	if got := screen(m); !strings.Contains(got, "path     /work/demo/api") || !strings.Contains(got, "reading…") {
		t.Fatalf("the pane does not show the highlighted row before its facts come:\n%s", got)
	}
	m.Update(factsMsg{pool: m.facts.pool, results: []vcsdetect.Result[repoFacts]{{Repo: repo("api", "main"), Value: repoFacts{
		uri: "file:///work/demo/api",
		det: vcsdetect.Details{Head: "main", Upstream: "origin/main", Ahead: 2, Behind: 1, Counted: true,
			Remote: "https://github.com/acme/api", LastCommit: time.Date(2026, 11, 30, 9, 15, 0, 0, time.Local),
			Subject: "Fix the \x1b[2Jpayment retry", State: vcsdetect.StateDirty},
		warnings: []string{"holds .ssh at its top"}, risks: []string{"secrets"},
	}}}})
	got := screen(m)
	for _, want := range []string{
		"uri      file:///work/demo/api",
		"branch   main → origin/main ↑2 ↓1",
		"remote   https://github.com/acme/api",
		`commit   2026-11-30 09:15 Fix the \x1b[2J`,
		"state    dirty (uncommitted changes)",
		"warning  ⚠ holds .ssh at its top",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the pane lacks %q:\n%s", want, got)
		}
	}
	// The row shows the dirty marker and ahead/behind next to its branch.
	if !strings.Contains(got, "main * ↑2 ↓1") {
		t.Errorf("the api row lacks its marks:\n%s", got)
	}
	// The row carries the risk itself, with its word.
	if !strings.Contains(got, "api ") || !strings.Contains(strings.Split(got, "\n")[2], "⚠ secrets") {
		t.Errorf("the api row lacks its ⚠ mark:\n%s", got)
	}
	// Facts from the pool of an earlier scan are dropped.
	m.Update(factsMsg{pool: vcsdetect.NewPool[repoFacts](1, nil), results: []vcsdetect.Result[repoFacts]{{Repo: repo("web", "x")}}})
	if _, ok := m.facts.known["/work/demo/web"]; ok {
		t.Error("facts from another pool were kept")
	}
	// Below 80×24 the pane is hidden; between 80 and 100 columns it sits below.
	m.Update(tea.WindowSizeMsg{Width: 79, Height: 24})
	if strings.Contains(screen(m), "path     ") {
		t.Error("the pane shows on a 79×24 terminal")
	}
	m.Update(tea.WindowSizeMsg{Width: 90, Height: 24})
	if got := screen(m); !strings.Contains(got, "────") || !strings.Contains(got, "warning  ⚠ holds .ssh") {
		t.Errorf("at 90×24 the pane is not below the list:\n%s", got)
	}
}

// TestDetailsTellsInStepFromNotCounted: with an upstream, 0 ahead and 0
// behind says "in step" only when the commits were counted.
func TestDetailsTellsInStepFromNotCounted(t *testing.T) {
	for _, tc := range []struct {
		det  vcsdetect.Details
		want string
	}{
		{vcsdetect.Details{Head: "main", Upstream: "origin/main", Counted: true}, "branch   main → origin/main  in step"},
		{vcsdetect.Details{Head: "main", Upstream: "origin/main"}, "branch   main → origin/main  ↑? ↓? not counted"},
		{vcsdetect.Details{Head: "main", Upstream: "origin/main", Counted: true, Behind: 3}, "branch   main → origin/main ↑0 ↓3"},
		{vcsdetect.Details{Head: "main"}, "branch   main\n"},
	} {
		m := fixture(t, demoRepos()...)
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
		m.Update(factsMsg{pool: m.facts.pool, results: []vcsdetect.Result[repoFacts]{{Repo: repo("api", "main"), Value: repoFacts{det: tc.det}}}})
		if got := m.detailsView(60, 20) + "\n"; !strings.Contains(ansi.Strip(got), tc.want) {
			t.Errorf("%+v: the pane lacks %q:\n%s", tc.det, tc.want, ansi.Strip(got))
		}
	}
}

// TestLayoutKeepsPathsWhole: the side pane starts at 120 columns and
// takes about a third; a short pane drops the facts after the URI, never
// the URI (the very thing shared); a long path wraps at a "/"; below 80
// columns, where no pane shows, the highlighted row's full path is on the
// line under the status line.
func TestLayoutKeepsPathsWhole(t *testing.T) {
	m := fixture(t, repo("services/very-long-service-name-for-the-layout-test", "main"))
	long := m.picker.ShownAt(0).Path
	m.facts.known[long] = repoFacts{uri: "file://" + long, det: vcsdetect.Details{Head: "main", Remote: "https://example.com/x", State: vcsdetect.StateClean}}
	for w, want := range map[int]string{100: "below", 119: "below", 120: "side"} {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 30})
		if got := m.detailsMode(); got != want {
			t.Errorf("at %d columns the pane is %q, want %q", w, got, want)
		}
	}
	m.Update(tea.WindowSizeMsg{Width: 150, Height: 30})
	if w := m.detailsWidth(); w != 50 {
		t.Errorf("side pane at 150 columns: %d wide, want a third (50)", w)
	}
	pane := ansi.Strip(m.detailsView(30, 6))
	if !strings.Contains(strings.ReplaceAll(pane, "\n         ", ""), "uri      file://"+long) {
		t.Errorf("a 6-row pane lost (part of) the URI:\n%s", pane)
	}
	if first := strings.Split(pane, "\n")[1]; !strings.HasPrefix(first, "path") || !strings.HasSuffix(strings.TrimSpace(first), "/") {
		t.Errorf("the path's first line does not break at a /: %q", first)
	}
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	if out := screen(m); !strings.Contains(strings.ReplaceAll(out, "\n", ""), long) {
		t.Errorf("at 60 columns the highlighted row's full path is nowhere:\n%s", out)
	}
}

// TestPaneRedrawnWhenTheHighlightedRowsFactsChange: the pane is drawn
// once per row and kept (paneKey); facts of the highlighted row that come
// again, changed, are drawn, not the copy kept.
func TestPaneRedrawnWhenTheHighlightedRowsFactsChange(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 150, Height: 30})
	for _, remote := range []string{"https://example.com/first", "https://example.com/second"} {
		m.Update(factsMsg{pool: m.facts.pool, results: []vcsdetect.Result[repoFacts]{{Repo: repo("api", "main"),
			Value: repoFacts{det: vcsdetect.Details{Head: "main", Remote: remote}}}}})
		if got := screen(m); !strings.Contains(got, "remote   "+remote) {
			t.Fatalf("the pane does not show the facts as they came (%s):\n%s", remote, got)
		}
	}
}
