package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/ui/fleet"
)

// Tests of a failing server as the person sees it: the short reason and
// where the details are on the status line at every width, the history
// and the whole reason in the server pane, a final failure, and a slow
// start counting its seconds beside its last stderr line.

// clock is a model time to feed events at: "23:41:07" today.
func clock(hms string) time.Time {
	t, err := time.Parse("15:04:05", hms)
	if err != nil {
		panic(err)
	}
	return time.Date(2026, 12, 2, t.Hour(), t.Minute(), t.Second(), 0, time.Local)
}

// at applies ev as if it was read at hms.
func at(m *Model, hms string, ev mcpconn.Event) {
	m.now = clock(hms)
	m.onHubEvent(ev)
}

// exitedFalse is what the hub says of `rootpick DIR -- false`.
func exitedFalse(m *Model) {
	at(m, "23:41:05", mcpconn.Event{Server: "false", Kind: mcpconn.Connecting, Attempt: 1, Timeout: 15 * time.Second})
	at(m, "23:41:05", mcpconn.Event{Server: "false", Kind: mcpconn.Failed, Reason: "exited with status 1",
		Err: errors.New("exited with status 1 before it answered initialize (stderr: Error: Cannot find module '/srv/index.js' | at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15))")})
	at(m, "23:41:05", mcpconn.Event{Server: "false", Kind: mcpconn.Restarting, Attempt: 1, Delay: 4 * time.Second})
}

// TestStatusSaysWhyAtEveryWidth: a server that exits at once shows its
// state word and short reason at every width where they fit, with the
// server pane's key for details where there is room, never a bare
// "restarting".
func TestStatusSaysWhyAtEveryWidth(t *testing.T) {
	m := fixture(t, demoRepos()...)
	exitedFalse(m)
	wantStatus(t, m, map[int]string{
		100: "nothing shared  ● false restarting in 4s: exited with status 1 — ctrl+o for details",
		80:  "nothing shared  ● false restarting in 4s: exited with status 1",
		60:  "0 shared  ● false restarting in 4s: exited with status 1",
		30:  "0 shared  ● false restarting",
	})
	m.setSize(300, 10)
	if got := statusOf(m); !strings.Contains(got, "● false restarting in 4s (attempt 1, ctrl+t retries now): exited with status 1 before it answered initialize (stderr: Error: Cannot find module") ||
		!strings.HasSuffix(got, " — ctrl+o for details") {
		t.Errorf("status at 300 columns: %q", got)
	}
	// Two servers: the failing one keeps its reason while it fits.
	m.onHubEvent(connectedEvent("secure-filesystem-server", "secure-filesystem-server"))
	wantStatus(t, m, map[int]string{
		120: "nothing shared  ● false restarting in 4s: exited with status 1  ● secure-filesystem-server pending — ctrl+o for details",
		100: "nothing shared  ● false restarting in 4s: exited with status 1  ● secure-filesystem-server pending",
	})
}

// TestStatusNamesTheKeysOfTheKeyMap: the keys the status line and the
// pane name are the key map's, whatever they are bound to.
func TestStatusNamesTheKeysOfTheKeyMap(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.keys.Servers = key.NewBinding(key.WithKeys("ctrl+y"), key.WithHelp("ctrl+y", "servers"))
	m.keys.Retry = key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "retry servers now"))
	m.setSize(500, 30)
	exitedFalse(m)
	m.onHubEvent(mcpconn.Event{Server: "nosuch", Kind: mcpconn.Failed, Final: true, Reason: "not found on PATH", Err: errors.New("nosuch: not found on PATH")})
	got := statusOf(m)
	for _, want := range []string{"(attempt 1, ctrl+g retries now)", "(not restarted until you press ctrl+g)", " — ctrl+y for details"} {
		if !strings.Contains(got, want) {
			t.Errorf("status %q lacks %q", got, want)
		}
	}
	wantStatus(t, m, map[int]string{
		140: "nothing shared  ● false restarting in 4s: exited with status 1  ● nosuch failed: not found on PATH (ctrl+g retries) — ctrl+y for details",
	})
	m.setSize(500, 30)
	send(m, "ctrl+y")
	pane := screen(m)
	if !strings.Contains(pane, "ctrl+g retries servers that are down now · q/esc or ctrl+y goes back") ||
		!strings.Contains(pane, "not restarted until you press ctrl+g") {
		t.Errorf("the pane does not name the bound keys:\n%s", pane)
	}
	for _, s := range []string{got, pane} {
		if strings.Contains(s, "tab for") || strings.Contains(s, "R retries") || strings.Contains(s, "tab or esc") {
			t.Errorf("a key is named that is not bound:\n%s", s)
		}
	}
}

// TestFinalFailureInTheStatus: a program that is not found says so, says
// it is not restarted until R, and R retries it.
func TestFinalFailureInTheStatus(t *testing.T) {
	m := fixture(t, demoRepos()...)
	at(m, "23:41:05", mcpconn.Event{Server: "nosuch-cmd-xyz", Kind: mcpconn.Connecting, Attempt: 1})
	at(m, "23:41:05", mcpconn.Event{Server: "nosuch-cmd-xyz", Kind: mcpconn.Failed, Final: true,
		Reason: "not found on PATH", Err: errors.New("nosuch-cmd-xyz: not found on PATH")})
	wantStatus(t, m, map[int]string{
		140: "nothing shared  ● nosuch-cmd-xyz failed: nosuch-cmd-xyz: not found on PATH (not restarted until you press ctrl+t) — ctrl+o for details",
		90:  "nothing shared  ● nosuch-cmd-xyz failed: not found on PATH (ctrl+t retries)",
		65:  "0 shared  ● nosuch-cm… failed: not found on PATH (ctrl+t retries)",
		58:  "0 shared  ● nosuch-cmd-xyz failed",
		50:  "0 shared  ● nosuch-cmd-xyz failed",
	})
	hub := mcpconn.NewHub(mcpconn.Options{})
	defer hub.Close()
	m.cfg.Hub = hub
	if cmd := send(m, "ctrl+t"); cmd == nil {
		t.Error("R does not retry a final failure")
	}
	// A retry starts it again: the final mark goes.
	at(m, "23:41:20", mcpconn.Event{Server: "nosuch-cmd-xyz", Kind: mcpconn.Connecting, Attempt: 2})
	if got := statusOf(m); strings.Contains(got, "not restarted") {
		t.Errorf("after the retry's start the status still says final: %q", got)
	}
}

// TestPaneKeepsHistory: a crash the server recovered from stays in the
// pane, with times; the history keeps the last 8 entries.
func TestPaneKeepsHistory(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.setSize(120, 60)
	at(m, "23:41:05", mcpconn.Event{Server: "fs", Kind: mcpconn.Connecting, Attempt: 1})
	at(m, "23:41:06", connectedEvent("fs", "fs"))
	at(m, "23:41:07", mcpconn.Event{Server: "fs", Kind: mcpconn.Disconnected, Reason: "exited with status 1", Err: errors.New("exited with status 1")})
	at(m, "23:41:07", mcpconn.Event{Server: "fs", Kind: mcpconn.Restarting, Attempt: 1, Delay: time.Second})
	at(m, "23:41:08", mcpconn.Event{Server: "fs", Kind: mcpconn.Connecting, Attempt: 2})
	at(m, "23:41:08", mcpconn.Event{Server: "fs", Kind: mcpconn.Failed, Reason: "no answer to initialize within 15s", Err: errors.New("connecting to fs: no answer to initialize within 15s")})
	at(m, "23:41:09", mcpconn.Event{Server: "fs", Kind: mcpconn.Connecting, Attempt: 3})
	at(m, "23:41:10", connectedEvent("fs", "fs"))
	if got := statusOf(m); strings.Contains(got, "exited") || strings.Contains(got, "details") {
		t.Errorf("a recovered server's status line still speaks of the crash: %q", got)
	}
	send(m, "ctrl+o")
	got := screen(m)
	want := strings.Join([]string{
		"  history   23:41:05 starting",
		"            23:41:06 connected",
		"            23:41:07 exited with status 1",
		"            23:41:08 restarted (attempt 2)",
		"            23:41:08 failed: no answer to initialize within 15s",
		"            23:41:09 restarted (attempt 3)",
		"            23:41:10 connected",
	}, "\n")
	if !strings.Contains(got, want) {
		t.Fatalf("the pane lacks the history:\n%s\nwant:\n%s", got, want)
	}
	for i := range 10 {
		at(m, "23:42:0"+itoa(i), mcpconn.Event{Server: "fs", Kind: mcpconn.Disconnected, Reason: "killed by signal 9 (SIGKILL)"})
	}
	got = screen(m)
	if n := strings.Count(got, ":42:0"); n != fleet.HistoryKept {
		t.Errorf("the pane shows %d history entries of 10; want the last %d:\n%s", n, fleet.HistoryKept, got)
	}
	if strings.Contains(got, "23:41:10 connected") || strings.Contains(got, "23:42:01 killed") || !strings.Contains(got, "23:42:09 killed") {
		t.Errorf("the history does not keep the newest entries:\n%s", got)
	}
	// An end that says how the process ended is not said twice.
	if got := statusOf(m); !strings.Contains(got, "● fs killed by signal 9 (SIGKILL) — ctrl+o for details") || strings.Contains(got, "exited: killed") {
		t.Errorf("status after a SIGKILL: %q", got)
	}
}

// TestPaneShowsTheWholeReason: the pane holds the whole error, wrapped
// under its label at 60 columns (not cut), and for a final failure says
// that only R starts it again.
func TestPaneShowsTheWholeReason(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.setSize(60, 40)
	reason := "/home/me/servers/a-rather-long-folder-name/mcp-server-custom: its interpreter (the #! line) was not found"
	m.onHubEvent(mcpconn.Event{Server: "custom", Kind: mcpconn.Failed, Final: true, Reason: "its interpreter (the #! line) was not found", Err: errors.New(reason)})
	send(m, "tab")
	lines := m.fleet.PaneLines(m.fleetView(), m.width)
	// Wrapped lines may break inside a word (at a hyphen): compare
	// without any space.
	nospace := func(s string) string { return strings.Join(strings.Fields(ansi.Strip(s)), "") }
	flat := nospace(strings.Join(lines, " "))
	for _, want := range []string{reason, "It is not restarted until you press ctrl+t"} {
		if !strings.Contains(flat, nospace(want)) {
			t.Errorf("the pane lacks %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 60 || strings.Contains(l, "…") {
			t.Errorf("a line cut or too wide at 60 columns: %q", l)
		}
	}
}

// TestStartingCountsSecondsWithItsLastStderrLine: while a server starts
// (a cold npx downloads its package), the status counts the seconds and
// shows the last line it wrote on stderr, escaped and cut to fit; the
// count ticks, and ticking stops once it is connected.
func TestStartingCountsSecondsWithItsLastStderrLine(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.setSize(100, 10)
	m.now = clock("23:41:05")
	cmd := m.onHubEvent(mcpconn.Event{Server: "server-filesystem", Kind: mcpconn.Connecting, Attempt: 1, Timeout: 2 * time.Minute})
	if cmd == nil {
		t.Fatal("a start asked for no tick")
	}
	if got := statusOf(m); got != "nothing shared  ● server-filesystem starting (0s)" {
		t.Errorf("status at the start: %q", got)
	}
	at(m, "23:41:06", mcpconn.Event{Server: "server-filesystem", Kind: mcpconn.Progress,
		Text: "npm warn exec The following package was not found and will be installed: @modelcontextprotocol/server-filesystem@2026.8.31\x1b[2J"})
	if _, cmd := m.Update(tickMsg{now: clock("23:41:17")}); cmd == nil {
		t.Fatal("ticking stopped while the server starts")
	}
	got := statusOf(m)
	if !strings.HasPrefix(got, "nothing shared  ● server-filesystem starting (12s) — npm warn exec The following package") ||
		!strings.HasSuffix(got, "…") || ansi.StringWidth(got) > 100 {
		t.Errorf("status while starting: %q", got)
	}
	m.setSize(300, 10)
	if got := statusOf(m); !strings.HasSuffix(got, `server-filesystem@2026.8.31\x1b[2J`) {
		t.Errorf("the stderr line is not whole and escaped at 300 columns: %q", got)
	}
	m.setSize(40, 10)
	if got := statusOf(m); got != "0 shared  ● server-files… starting (12s)" {
		t.Errorf("status at 40 columns: %q", got)
	}
	at(m, "23:41:18", connectedEvent("server-filesystem", "secure-filesystem-server"))
	at(m, "23:41:18", mcpconn.Event{Server: "server-filesystem", Kind: mcpconn.Progress, Text: "late line"})
	if got := statusOf(m); strings.Contains(got, "starting") || strings.Contains(got, "late line") {
		t.Errorf("status once connected: %q", got)
	}
	if _, cmd := m.Update(tickMsg{now: clock("23:41:19")}); cmd != nil {
		t.Error("ticking goes on once the server is connected")
	}
}

// TestFailureTextIsEscaped: a reason and a starting line come from the
// server (its stderr, its program's name): they cannot drive the terminal.
func TestFailureTextIsEscaped(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.setSize(300, 30)
	at(m, "23:41:05", mcpconn.Event{Server: "a", Kind: mcpconn.Connecting, Attempt: 1})
	at(m, "23:41:05", mcpconn.Event{Server: "a", Kind: mcpconn.Progress, Text: "loading\x1b[2J\x07"})
	at(m, "23:41:05", mcpconn.Event{Server: "b", Kind: mcpconn.Failed, Final: true, Reason: "evil\x1b]0;title\x07: not found on PATH", Err: errors.New("evil\x1b]0;title\x07")})
	for _, view := range []string{m.View().Content, func() string { send(m, "tab"); return m.View().Content }()} {
		if strings.Contains(view, "\x1b[2J") || strings.Contains(view, "\x1b]0;") || strings.Contains(view, "\x07") {
			t.Fatalf("a raw escape reached the screen: %q", view)
		}
	}
	if got := screen(m); !strings.Contains(got, `evil\x1b]0;title\x07`) {
		t.Errorf("the escaped reason is not shown:\n%s", got)
	}
}

// TestCrashLoopStaysVisible: a server that keeps failing is starting
// again most of the time; its status line still says which attempt this
// is and why the last one ended, until it is up (it read "● false
// starting (4s)", like a first start, in 14 of 16 samples).
func TestCrashLoopStaysVisible(t *testing.T) {
	m := fixture(t, demoRepos()...)
	exitedFalse(m)
	at(m, "23:41:09", mcpconn.Event{Server: "false", Kind: mcpconn.Connecting, Attempt: 2, Timeout: 15 * time.Second})
	m.now = clock("23:41:13")
	wantStatus(t, m, map[int]string{
		100: "nothing shared  ● false starting (4s, attempt 2) — last: exited with status 1 — ctrl+o for details",
		60:  "nothing shared  ● false starting (4s, attempt 2)",
	})
	at(m, "23:41:14", connectedEvent("false", "false-server"))
	if got := statusOf(m); strings.Contains(got, "attempt") || strings.Contains(got, "last:") {
		t.Errorf("once connected the status still tells of the failures: %q", got)
	}
}
