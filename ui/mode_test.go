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
		modeHelp:    func(_ *testing.T, m *Model) { send(m, "?") },
		modeServers: func(_ *testing.T, m *Model) { send(m, "ctrl+o") },
		modeDialog:  func(t *testing.T, m *Model) { openDialog(t, m, mkRoot("/work/demo/api")) },
		modeAsk:     func(_ *testing.T, m *Model) { send(m, "space", "esc") },
	}
	for _, tc := range []struct {
		from mode
		key  string
		want mode
		quit bool // the key's command ends the program
	}{
		{modeList, "?", modeHelp, false},
		{modeList, "ctrl+o", modeServers, false},
		{modeList, "tab", modeList, false}, // checks, as in fzf
		{modeList, "j", modeList, false},   // typed into the query
		{modeList, "q", modeList, false},   // typed into the query
		{modeList, "esc", modeList, true},  // the query is empty
		{modeList, "ctrl+q", modeList, true},

		{modeHelp, "j", modeHelp, false}, // scrolls
		{modeHelp, "x", modeList, false},
		{modeHelp, "q", modeList, false}, // closes, as in man and less
		{modeHelp, "esc", modeList, false},
		{modeHelp, "ctrl+q", modeList, true},

		{modeServers, "j", modeServers, false},
		{modeServers, "ctrl+o", modeList, false},
		{modeServers, "esc", modeList, false},
		{modeServers, "q", modeList, false},
		{modeServers, "ctrl+q", modeServers, true},

		{modeDialog, "j", modeDialog, false},
		{modeDialog, "q", modeList, false}, // cancels, as n and esc do
		{modeDialog, "esc", modeList, false},
		{modeDialog, "y", modeList, false},

		{modeAsk, "j", modeList, false},
		{modeAsk, "y", modeList, false},     // a letter goes back (and types)
		{modeAsk, "enter", modeList, false}, // reviews: nothing thrown away
		{modeAsk, "ctrl+q", modeList, true},
	} {
		m := fixture(t, demoRepos()...)
		enter[tc.from](t, m)
		if m.mode() != tc.from {
			t.Fatalf("setting up %d: mode %d", tc.from, m.mode())
		}
		cmd := send(m, tc.key)
		if m.mode() != tc.want {
			t.Errorf("mode %d, key %q: mode %d, want %d", tc.from, tc.key, m.mode(), tc.want)
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

// TestOverlayGivesBack: the dialog opening while a query is typed covers
// the query, which is still there when the dialog closes; the quit
// question asked from the server pane goes back to the server pane.
func TestOverlayGivesBack(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "w", "e")
	openDialog(t, m, mkRoot("/work/demo/api"))
	if m.mode() != modeDialog || !strings.Contains(screen(m), "api") {
		t.Fatalf("dialog over the query: mode %d\n%s", m.mode(), screen(m))
	}
	send(m, "esc")
	if m.mode() != modeList || m.filter.Value() != "we" {
		t.Fatalf("after the dialog: mode %d, query %q; want the query back", m.mode(), m.filter.Value())
	}
	send(m, "b")
	if m.filter.Value() != "web" {
		t.Fatalf("typing after the dialog: %q", m.filter.Value())
	}

	m = fixture(t, demoRepos()...)
	send(m, "space", "ctrl+o", "ctrl+q")
	if m.mode() != modeAsk || !strings.Contains(screen(m), "Discard 1 unconfirmed change?") {
		t.Fatalf("ctrl+q in the server pane: mode %d\n%s", m.mode(), screen(m))
	}
	if !strings.Contains(screen(m), "Servers") && !strings.Contains(screen(m), "server") {
		t.Fatalf("the question hid the server pane:\n%s", screen(m))
	}
	send(m, "x")
	if m.mode() != modeServers {
		t.Fatalf("after the question: mode %d, want the server pane", m.mode())
	}
}
