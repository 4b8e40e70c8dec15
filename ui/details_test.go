package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/vcsdetect"
)

func TestDetailsPane(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if got := screen(m); !strings.Contains(got, "path     /work/demo/api") || !strings.Contains(got, "reading…") {
		t.Fatalf("the pane does not show the highlighted row before its facts come:\n%s", got)
	}
	m.Update(detailsMsg{path: "/work/demo/api", facts: repoFacts{
		uri: "file:///work/demo/api",
		det: vcsdetect.Details{Head: "main", Upstream: "origin/main", Ahead: 2, Behind: 1,
			Remote: "https://github.com/acme/api", LastCommit: time.Date(2026, 11, 30, 9, 15, 0, 0, time.Local),
			Subject: "Fix the \x1b[2Jpayment retry", State: vcsdetect.StateDirty},
		warnings: []string{"holds .ssh at its top"},
	}})
	got := screen(m)
	for _, want := range []string{
		"uri      file:///work/demo/api",
		"branch   main → origin/main ↑2 ↓1",
		"remote   https://github.com/acme/api",
		`commit   2026-11-30 09:15 Fix the \x1b[2J`,
		"state    dirty (uncommitted changes)",
		"warning  holds .ssh at its top",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the pane lacks %q:\n%s", want, got)
		}
	}
	// Moving asks for the next row's facts, once; the known ones are kept.
	_, cmd := m.Update(keyPress("down"))
	if cmd == nil || !m.describing[m.detailsFor] {
		t.Fatal("moving to a new row did not ask for its facts")
	}
	if _, again := m.Update(keyPress("up")); again != nil {
		t.Fatal("facts already known were asked for again")
	}
	// Below 80×24 the pane is hidden; between 80 and 100 columns it sits below.
	m.Update(tea.WindowSizeMsg{Width: 79, Height: 24})
	if strings.Contains(screen(m), "path     ") {
		t.Error("the pane shows on a 79×24 terminal")
	}
	m.Update(tea.WindowSizeMsg{Width: 90, Height: 24})
	if got := screen(m); !strings.Contains(got, "────") || !strings.Contains(got, "branch   main") {
		t.Errorf("at 90×24 the pane is not below the list:\n%s", got)
	}
}
