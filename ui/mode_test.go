package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestModeKeys: every mode takes its keys, and only it; an overlay gives
// the screen back to the mode it opened over.
func TestModeKeys(t *testing.T) {
	// enter opens each mode from the list.
	enter := map[mode]func(t *testing.T, m *Model){
		modeList:    func(*testing.T, *Model) {},
		modeFilter:  func(_ *testing.T, m *Model) { send(m, "/") },
		modeHelp:    func(_ *testing.T, m *Model) { send(m, "?") },
		modeServers: func(_ *testing.T, m *Model) { send(m, "tab") },
		modeDialog:  func(t *testing.T, m *Model) { openDialog(t, m, mkRoot("/work/demo/api")) },
		modeQuitAsk: func(_ *testing.T, m *Model) { send(m, "space", "q") },
	}
	for _, tc := range []struct {
		from mode
		key  string
		want mode
		quit bool // the key's command ends the program
	}{
		{modeList, "/", modeFilter, false},
		{modeList, "?", modeHelp, false},
		{modeList, "tab", modeServers, false},
		{modeList, "j", modeList, false},
		{modeList, "q", modeList, true},

		{modeFilter, "q", modeFilter, false}, // typed into the query
		{modeFilter, "?", modeFilter, false},
		{modeFilter, "tab", modeFilter, false}, // toggles, as in fzf
		{modeFilter, "enter", modeList, false},
		{modeFilter, "esc", modeList, false},

		{modeHelp, "j", modeHelp, false}, // scrolls
		{modeHelp, "x", modeList, false},
		{modeHelp, "q", modeList, true},

		{modeServers, "j", modeServers, false},
		{modeServers, "tab", modeList, false},
		{modeServers, "esc", modeList, false},
		{modeServers, "q", modeServers, true},

		{modeDialog, "j", modeDialog, false},
		{modeDialog, "q", modeDialog, false}, // the dialog answers only y, n, esc
		{modeDialog, "esc", modeList, false},
		{modeDialog, "y", modeList, false},

		{modeQuitAsk, "j", modeList, false},
		{modeQuitAsk, "y", modeList, true},
	} {
		m := fixture(t, demoRepos()...)
		enter[tc.from](t, m)
		if m.mode != tc.from {
			t.Fatalf("setting up %d: mode %d", tc.from, m.mode)
		}
		cmd := send(m, tc.key)
		if m.mode != tc.want {
			t.Errorf("mode %d, key %q: mode %d, want %d", tc.from, tc.key, m.mode, tc.want)
		}
		quit := cmd != nil && isQuit(cmd)
		if quit != tc.quit {
			t.Errorf("mode %d, key %q: quits %v, want %v", tc.from, tc.key, quit, tc.quit)
		}
		_ = screen(m) // every mode draws
	}
}

// isQuit says whether cmd, run, ends the program (directly or in a batch).
func isQuit(cmd tea.Cmd) bool {
	for _, msg := range runCmd(cmd) {
		if _, ok := msg.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

// TestOverlayGivesBack: the dialog opening while a query is typed (enter
// was pressed while a change was on its way) covers the query, which is
// still there, focused, when the dialog closes; q asked from the server
// pane goes back to the server pane.
func TestOverlayGivesBack(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "/", "w", "e")
	openDialog(t, m, mkRoot("/work/demo/api"))
	if m.mode != modeDialog || !strings.Contains(screen(m), "/work/demo/api") {
		t.Fatalf("dialog over the query: mode %d\n%s", m.mode, screen(m))
	}
	send(m, "esc")
	if m.mode != modeFilter || m.filter.Value() != "we" {
		t.Fatalf("after the dialog: mode %d, query %q; want the query back", m.mode, m.filter.Value())
	}
	send(m, "b")
	if m.filter.Value() != "web" {
		t.Fatalf("typing after the dialog: %q", m.filter.Value())
	}

	m = fixture(t, demoRepos()...)
	send(m, "space", "tab", "q")
	if m.mode != modeQuitAsk || !strings.Contains(screen(m), "Discard 1 unconfirmed change?") {
		t.Fatalf("q in the server pane: mode %d\n%s", m.mode, screen(m))
	}
	if !strings.Contains(screen(m), "Servers") && !strings.Contains(screen(m), "server") {
		t.Fatalf("the question hid the server pane:\n%s", screen(m))
	}
	send(m, "x")
	if m.mode != modeServers {
		t.Fatalf("after the question: mode %d, want the server pane", m.mode)
	}
}
