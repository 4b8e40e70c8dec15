package ui

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// statusOf is the status line of m without styles.
func statusOf(m *Model) string {
	lines := strings.Split(screen(m), "\n")
	// The status line is the first of its block (a note or the
	// highlighted path may follow it); the key help may wrap, or be
	// left out on a short terminal.
	n := lipgloss.Height(m.chrome.status)
	if m.chrome.help != "" {
		n += lipgloss.Height(m.chrome.help)
	}
	return lines[len(lines)-n]
}

func wide(t *testing.T) *Model {
	t.Helper()
	m := fixture(t, demoRepos()...)
	m.setSize(300, 24)
	return m
}

func TestServerStatesInTheStatusLine(t *testing.T) {
	api := consent.Root{Path: "/work/demo/api", URI: "file:///work/demo/api", Name: "api"}
	for _, tc := range []struct {
		name   string
		events []mcpconn.Event
		want   []string
		not    []string
	}{
		{"pending before a fetch", []mcpconn.Event{connectedEvent("fs", "fs")}, []string{"1 root exposed", "● fs pending"}, nil},
		{"synced after a fetch of the set", []mcpconn.Event{connectedEvent("fs", "fs"), fetchedEvent("fs", api.URI)}, []string{"● fs synced"}, []string{"verified"}},
		{"verified when asked", []mcpconn.Event{connectedEvent("fs", "fs"), fetchedEvent("fs", api.URI),
			{Server: "fs", Kind: mcpconn.Verified, URIs: []string{api.URI}}}, []string{"● fs verified"}, nil},
		{"verified for another set is not verified", []mcpconn.Event{connectedEvent("fs", "fs"), fetchedEvent("fs", api.URI),
			{Server: "fs", Kind: mcpconn.Verified, URIs: nil}}, []string{"● fs synced"}, []string{"verified"}},
		{"mismatch", []mcpconn.Event{connectedEvent("fs", "fs"), fetchedEvent("fs", api.URI),
			{Server: "fs", Kind: mcpconn.Mismatch, Text: "holds /etc beyond the consent"}}, []string{"● fs mismatch: holds /etc beyond the consent"}, []string{"synced"}},
		{"not fetching, with the hint", []mcpconn.Event{connectedEvent("git", "git"), {Server: "git", Kind: mcpconn.NotFetching}},
			[]string{"● git not fetching", "{roots}"}, nil},
		{"stuck keeps its reason through the disconnect", []mcpconn.Event{connectedEvent("w", "w"),
			{Server: "w", Kind: mcpconn.Stuck, Err: errors.New("stuck: a write was blocked for 2s")},
			{Server: "w", Kind: mcpconn.Disconnected, Err: errors.New("EOF")}}, []string{"● w stuck: stuck: a write was blocked for 2s"}, []string{"EOF"}},
		{"restarting counts down", []mcpconn.Event{{Server: "x", Kind: mcpconn.Failed, Err: errors.New("boom")},
			{Server: "x", Kind: mcpconn.Restarting, Attempt: 3, Delay: 4 * time.Second}},
			[]string{"● x restarting in 4s (attempt 3, ctrl+t retries now): boom", "consented, served when a server connects"}, nil},
		{"restarting at once says why", []mcpconn.Event{connectedEvent("fs", "fs"),
			{Server: "fs", Kind: mcpconn.Restarting, Text: "every root was revoked; restarting it with none"}},
			[]string{"● fs restarting: every root was revoked"}, nil},
		{"another protocol is flagged", []mcpconn.Event{{Server: "old", Kind: mcpconn.Connected, ServerName: "old", Text: "2024-11-05"}},
			[]string{"● old pending protocol 2024-11-05≠2025-11-25"}, nil},
		{"servers keep the names they were given, whatever they call themselves", []mcpconn.Event{connectedEvent("a", "fs"), connectedEvent("b", "fs")},
			[]string{"● a pending  ● b pending"}, []string{"fs"}},
		{"a hostile server name is escaped", []mcpconn.Event{connectedEvent("evil\x1b[2J\u202ename", "h")},
			[]string{`● evil\x1b[2J\u202ename pending`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := wide(t)
			m.review.sh.ServedNow([]consent.Root{api})
			m.now = time.Unix(1000, 0)
			for _, ev := range tc.events {
				m.onHubEvent(ev)
			}
			got := statusOf(m)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("status %q lacks %q", got, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("status %q holds %q", got, w)
				}
			}
		})
	}
}

func TestCountdownTicks(t *testing.T) {
	m := wide(t)
	m.now = time.Unix(1000, 0)
	cmd := m.onHubEvent(mcpconn.Event{Server: "x", Kind: mcpconn.Restarting, Attempt: 1, Delay: 3 * time.Second})
	if cmd == nil {
		t.Fatal("a countdown asked for no tick")
	}
	if again := m.onHubEvent(mcpconn.Event{Server: "x", Kind: mcpconn.Restarting, Attempt: 2, Delay: 3 * time.Second}); again != nil {
		t.Fatal("a second tick was scheduled while one is pending")
	}
	m.Update(tickMsg{now: time.Unix(1002, 0)})
	if got := statusOf(m); !strings.Contains(got, "restarting in 1s") {
		t.Fatalf("after 2 s the status says %q", got)
	}
	m.onHubEvent(connectedEvent("x", "x"))
	if _, cmd := m.Update(tickMsg{now: time.Unix(1003, 0)}); cmd != nil {
		t.Fatal("ticking goes on with nothing counting down")
	}
}

func TestRetryKey(t *testing.T) {
	m := wide(t)
	if cmd := send(m, "ctrl+t"); cmd != nil {
		t.Fatal("R with no hub returned a command")
	}
	hub := mcpconn.NewHub(mcpconn.Options{})
	defer hub.Close()
	m.cfg.Hub = hub
	m.onHubEvent(connectedEvent("ok", "ok"))
	if cmd := send(m, "ctrl+t"); cmd != nil {
		t.Fatal("R with every server connected returned a command")
	}
	m.onHubEvent(mcpconn.Event{Server: "bad", Kind: mcpconn.Restarting, Attempt: 1, Delay: time.Hour})
	if cmd := send(m, "ctrl+t"); cmd == nil {
		t.Fatal("R with a server waiting to restart returned no command")
	}
	if !strings.Contains(statusOf(m), "Retrying now") {
		t.Fatalf("status after R: %q", statusOf(m))
	}
}

func TestWithdrawnRootLeavesTheExposedSet(t *testing.T) {
	m := wide(t)
	api := consent.Root{Path: "/work/demo/api", URI: "file:///work/demo/api", Name: "api"}
	web := consent.Root{Path: "/work/demo/web", URI: "file:///work/demo/web", Name: "web"}
	m.review.sh.ServedNow([]consent.Root{api, web})
	m.onHubEvent(connectedEvent("fs", "fs"))
	m.onHubEvent(mcpconn.Event{Kind: mcpconn.Withdrawn, Path: api.Path, Text: "deleted or renamed"})
	if len(m.review.sh.Served()) != 1 || m.review.sh.Served()[0] != web {
		t.Fatalf("exposed after withdrawal: %+v", m.review.sh.Served())
	}
	if !withdrawnFor(m, api.Path, "deleted or renamed") {
		t.Fatal("api was not recorded as withdrawn (deleted or renamed)")
	}
	got := statusOf(m)
	if !strings.Contains(got, "1 root exposed") || !strings.Contains(got, "Withdrawn api: deleted or renamed") {
		t.Fatalf("status %q", got)
	}
	if len(m.fleet.Names()) != 1 {
		t.Fatalf("a withdrawal made a server entry: %q", m.fleet.Names())
	}
	// The next review proposes it again as an addition: only a new consent
	// shares it.
	openDialog(t, m, api, web)
	if len(m.review.sh.Dialog().change.Added) != 1 || m.review.sh.Dialog().change.Added[0] != api {
		t.Fatalf("the review after a withdrawal: %+v", m.review.sh.Dialog().change)
	}
}

// TestRevokeAllDialogSaysServersRestart: before y, a dialog that revokes
// every root says the servers will be restarted with none; where the only
// server is the built-in demo one, which is not restarted, it says the
// servers are told instead.
func TestRevokeAllDialogSaysServersRestart(t *testing.T) {
	m := wide(t)
	m.setSize(120, 30)
	m.cfg.Servers = []mcpconn.Spec{{Demo: &mcpconn.Demo{}}}
	api := mkRoot("/work/demo/api")
	m.review.sh.ServedNow([]consent.Root{api})
	openDialog(t, m)
	if out := screen(m); strings.Contains(out, "restarts each server") || !strings.Contains(out, "each server is told it has none") {
		t.Fatalf("a revoke-all dialog with the demo server alone says it restarts:\n%s", out)
	}
	m.review.sh.Cancel()
	m.cfg.Servers = append(m.cfg.Servers, mcpconn.Spec{Command: []string{"server-filesystem"}})
	openDialog(t, m)
	if !strings.Contains(screen(m), "Revoking every root restarts each server with none") {
		t.Fatalf("a revoke-all dialog does not say the servers restart:\n%s", screen(m))
	}
	m.review.sh.Cancel()
	m.review.sh.ServedNow([]consent.Root{api, mkRoot("/work/demo/web")})
	openDialog(t, m, api)
	if strings.Contains(screen(m), "restarts each server") {
		t.Fatalf("a partial revocation says the servers restart:\n%s", screen(m))
	}
}

func TestServerPane(t *testing.T) {
	m := wide(t)
	m.setSize(120, 40)
	m.cfg.LogPath = "/home/me/.local/state/rootpick/rootpick.log"
	api := mkRoot("/work/demo/api")
	m.review.sh.ServedNow([]consent.Root{api})
	m.now = time.Date(2026, 12, 2, 15, 4, 5, 0, time.UTC)
	m.onHubEvent(mcpconn.Event{Server: "fs", Kind: mcpconn.Connected, ServerName: "secure-filesystem-server", ServerVersion: "0.2.0", Text: "2025-11-25"})
	m.onHubEvent(fetchedEvent("fs", api.URI))
	m.onHubEvent(mcpconn.Event{Server: "fs", Kind: mcpconn.Verified, URIs: []string{api.URI}})
	for i := range 7 {
		m.onHubEvent(mcpconn.Event{Server: "fs", Kind: mcpconn.Stderr, Text: "line " + itoa(i) + "\x1b[2J"})
	}
	m.onHubEvent(mcpconn.Event{Server: "fs", Kind: mcpconn.Dropped, Count: 12})
	m.onHubEvent(mcpconn.Event{Server: "bad", Kind: mcpconn.Failed, Err: errors.New("exec: no such file")})
	m.onHubEvent(mcpconn.Event{Server: "bad", Kind: mcpconn.Restarting, Attempt: 2, Delay: time.Minute})
	if strings.Contains(screen(m), "state ") {
		t.Fatal("the pane shows before tab")
	}
	send(m, "ctrl+o")
	got := screen(m)
	for _, want := range []string{
		"● fs  (secure-filesystem-server 0.2.0)",
		"state     verified  · protocol 2025-11-25",
		"roots     1 root fetched at 15:04:05: api  = the consent",
		"12 lines came faster than they could be read",
		`line 6\x1b[2J`,
		"● bad",
		"error     exec: no such file",
		"restarting in 60s (attempt 2",
		"log: /home/me/.local/state/rootpick/rootpick.log",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the server pane lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "line 1") || strings.Contains(got, "\x1b[2J") {
		t.Errorf("the pane shows more than the last 5 stderr lines, or a raw escape:\n%q", got)
	}
	hub := mcpconn.NewHub(mcpconn.Options{})
	defer hub.Close()
	m.cfg.Hub = hub
	if cmd := send(m, "ctrl+t"); cmd == nil {
		t.Error("R in the server pane does not retry")
	}
	send(m, "esc")
	if strings.Contains(screen(m), "state     ") {
		t.Error("esc does not go back to the list")
	}
	send(m, "ctrl+o", "ctrl+o")
	if strings.Contains(screen(m), "state     ") {
		t.Error("tab does not go back to the list")
	}
}

// withVerifiedAPI is a model sharing api with one server,
// secure-filesystem-server, which has fetched and verified it.
func withVerifiedAPI(t *testing.T) *Model {
	m := fixture(t, demoRepos()...)
	api := mkRoot("/work/demo/api")
	m.review.sh.ServedNow([]consent.Root{api})
	m.onHubEvent(connectedEvent("secure-filesystem-server", "secure-filesystem-server"))
	m.onHubEvent(fetchedEvent("secure-filesystem-server", api.URI))
	m.onHubEvent(mcpconn.Event{Server: "secure-filesystem-server", Kind: mcpconn.Verified, URIs: []string{api.URI}})
	return m
}

// TestStatusNeverHidesAServer: when the servers do not fit, the status
// counts them instead of cutting some off.
func TestStatusNeverHidesAServer(t *testing.T) {
	m := withVerifiedAPI(t)
	m.onHubEvent(mcpconn.Event{Server: "b", Kind: mcpconn.Failed, Err: errors.New("a very long reason that takes the whole line")})
	m.onHubEvent(mcpconn.Event{Server: "c", Kind: mcpconn.Restarting, Attempt: 1, Delay: time.Second})
	// At 80 columns each server keeps one word; at 70 they are counted.
	got := statusOf(m)
	if !strings.Contains(got, "● secure-filesystem-server verified  ● b failed  ● c restarting") {
		t.Fatalf("status at 80 columns: %q", got)
	}
	m.setSize(70, 24)
	if got := statusOf(m); !strings.Contains(got, "3 servers: 1 verified, 1 restarting, 1 failed") {
		t.Fatalf("status at 70 columns: %q", got)
	}
	// Narrower, the hint goes, then the words around the count of roots,
	// and the worst states come first: a cut takes the good news.
	wantStatus(t, m, map[int]string{
		62: "1 root exposed  3 servers: 1 verified, 1 restarting, 1 failed",
		40: "1 exposed  3 servers: 1 failed, 1 resta…",
	})
	m.setSize(300, 24)
	if got := statusOf(m); !strings.Contains(got, "● c restarting") {
		t.Fatalf("status at 300 columns: %q", got)
	}
}

// TestGoldenServerPane: the server pane with a verified server, a failed
// one waiting to restart and a stuck one, at three sizes (colour off).
func TestGoldenServerPane(t *testing.T) {
	t.Setenv("HOME", "/nonexistent-home")
	for _, size := range [][2]int{{120, 40}, {80, 24}, {40, 10}} {
		m := fixture(t, demoRepos()...)
		m.setSize(size[0], size[1])
		m.cfg.LogPath = "/home/me/.local/state/rootpick/rootpick.log"
		api := mkRoot("/work/demo/api")
		m.review.sh.ServedNow([]consent.Root{api})
		m.now = time.Date(2026, 12, 2, 15, 4, 5, 0, time.UTC)
		m.onHubEvent(mcpconn.Event{Server: "fs", Kind: mcpconn.Connected, ServerName: "secure-filesystem-server", ServerVersion: "0.2.0", Text: "2025-11-25"})
		m.onHubEvent(fetchedEvent("fs", api.URI))
		m.onHubEvent(mcpconn.Event{Server: "fs", Kind: mcpconn.Verified, URIs: []string{api.URI}})
		m.onHubEvent(mcpconn.Event{Server: "fs", Kind: mcpconn.Stderr, Text: "Secure MCP Filesystem Server running on stdio"})
		m.onHubEvent(mcpconn.Event{Server: "git", Kind: mcpconn.Failed, Err: errors.New(`exec: "uvx": executable file not found in $PATH`)})
		m.onHubEvent(mcpconn.Event{Server: "git", Kind: mcpconn.Restarting, Attempt: 3, Delay: 4 * time.Second})
		m.onHubEvent(mcpconn.Event{Server: "slow", Kind: mcpconn.Connected, ServerName: "slow"})
		m.onHubEvent(mcpconn.Event{Server: "slow", Kind: mcpconn.Stuck, Err: errors.New("a write blocked for 2s")})
		send(m, "ctrl+o")
		golden(t, "servers_"+itoa(size[0])+"x"+itoa(size[1]), screen(m))
	}
}

// TestServerPaneScrolls: a pane taller than the screen scrolls with ↓ and
// G, so the last server can be read at 40×10, and says it scrolls.
func TestServerPaneScrolls(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.setSize(40, 10)
	for _, s := range []string{"one", "two", "three"} {
		m.onHubEvent(mcpconn.Event{Server: s, Kind: mcpconn.Failed, Err: errors.New(s + " failed")})
	}
	send(m, "ctrl+o")
	if s := screen(m); strings.Contains(s, "● three") || !strings.Contains(s, "↑/↓ scroll") {
		t.Fatalf("at 40×10 the pane should not fit, and say it scrolls:\n%s", s)
	}
	send(m, "G")
	if s := screen(m); !strings.Contains(s, "three failed") {
		t.Fatalf("G did not reach the last server:\n%s", s)
	}
	send(m, "g", "j")
	if s := screen(m); strings.Contains(s, "● one") {
		t.Fatalf("j did not scroll:\n%s", s)
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if s := screen(m); !strings.Contains(s, "● one") {
		t.Fatalf("the wheel did not scroll back:\n%s", s)
	}
	for range 50 {
		send(m, "j")
	}
	send(m, "k")
	if s := screen(m); strings.Contains(s, "three failed") && strings.Contains(s, "log:") && strings.Contains(s, "R retries") {
		t.Fatalf("k after scrolling past the end did not move up:\n%s", s)
	}
}

// TestServerPaneShowsTheWholeError: an error longer than the screen is
// wrapped under its label, every word of it on screen, none cut off.
func TestServerPaneShowsTheWholeError(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.setSize(60, 30)
	reason := `Post "http://127.0.0.1:9/mcp": dial tcp 127.0.0.1:9: connect: connection refused (after 3 attempts, next in 8s)`
	m.onHubEvent(mcpconn.Event{Server: "b", Kind: mcpconn.Failed, Err: errors.New(reason)})
	send(m, "ctrl+o")
	got := strings.Join(strings.Fields(strings.Join(m.fleet.PaneLines(m.fleetView(), m.width), " ")), " ")
	if !strings.Contains(got, strings.Join(strings.Fields(reason), " ")) {
		t.Fatalf("the pane at 60 columns does not hold the whole error:\n%s", strings.Join(m.fleet.PaneLines(m.fleetView(), m.width), "\n"))
	}
	for _, l := range m.fleet.PaneLines(m.fleetView(), m.width) {
		if w := ansi.StringWidth(l); w > 60 {
			t.Fatalf("a line of %d cells at 60 columns: %q", w, l)
		}
	}
}

// TestStatusOneServerKeepsItsState: on a narrow line the one server's
// state stays whole; the count of roots shortens and its name is cut.
func TestStatusOneServerKeepsItsState(t *testing.T) {
	m := withVerifiedAPI(t)
	m.status.note = ""
	wantStatus(t, m, map[int]string{
		80: "1 root exposed  ● secure-filesystem-server verified",
		40: "1 exposed  ● secure-filesystem… verified",
	})
}

// wantStatus checks the status line at each width.
func wantStatus(t *testing.T, m *Model, want map[int]string) {
	t.Helper()
	for w, line := range want {
		m.setSize(w, 10)
		if got := statusOf(m); got != line {
			t.Errorf("status at %d columns: %q, want %q", w, got, line)
		}
	}
}

// TestNothingSharedIsNotVerified: with nothing shared the status line says
// so in words, and a server that holds nothing is ready, not a green
// "verified" (the demo's first screen showed one while nothing was
// shared); once a root is shared and it says it holds it, it is verified.
func TestNothingSharedIsNotVerified(t *testing.T) {
	m := wide(t)
	m.onHubEvent(connectedEvent("fs", "fs"))
	m.onHubEvent(fetchedEvent("fs"))
	m.onHubEvent(mcpconn.Event{Server: "fs", Kind: mcpconn.Verified, URIs: []string{}})
	if got := statusOf(m); !strings.HasPrefix(got, "nothing shared  ● fs ready") {
		t.Errorf("nothing shared: status %q, want 'nothing shared  ● fs ready'", got)
	}
	api := mkRoot("/work/demo/api")
	m.review.sh.ServedNow([]consent.Root{api})
	m.onHubEvent(fetchedEvent("fs", api.URI))
	m.onHubEvent(mcpconn.Event{Server: "fs", Kind: mcpconn.Verified, URIs: []string{api.URI}})
	if got := statusOf(m); !strings.HasPrefix(got, "1 root exposed  ● fs verified") {
		t.Errorf("api shared and held: status %q", got)
	}
}

// TestDialogSaysEnforcedOrAdvisory: the dialog's access sentence says
// whether the kernel holds the servers to the consented folders, and what
// else an enforced server can read; the pane shows each server's
// enforcement with the Landlock ABI.
func TestDialogSaysEnforcedOrAdvisory(t *testing.T) {
	m := wide(t)
	m.setSize(120, 40)
	enforced := connectedEvent("fs", "fs")
	enforced.Enforcement = &launch.Enforcement{Enforced: true, ABI: 7, Policy: &launch.Policy{Paths: []launch.PolicyPath{
		{Path: "/work/demo/api", Why: launch.WhyConsented}, {Path: "/usr", Why: launch.WhySystem}, {Path: "/home/me/.npm", Why: "npm cache"}}}}
	m.onHubEvent(enforced)
	openDialog(t, m, mkRoot("/work/demo/api"))
	out := strings.Join(strings.Fields(screen(m)), " ")
	if !strings.Contains(out, "Enforced: the kernel lets the server open only these folders") || !strings.Contains(out, "Also readable where enforced: system folders, npm cache.") {
		t.Fatalf("an enforced server's dialog:\n%s", screen(m))
	}
	m.review.sh.Cancel()
	advisory := connectedEvent("git", "git")
	advisory.Enforcement = &launch.Enforcement{Advisory: "enforce is off for this server"}
	m.onHubEvent(advisory)
	openDialog(t, m, mkRoot("/work/demo/api"))
	if out := strings.Join(strings.Fields(screen(m)), " "); !strings.Contains(out, "Advisory for git: may read anything you can") {
		t.Fatalf("one advisory server among enforced ones:\n%s", screen(m))
	}
	pane := ansi.Strip(strings.Join(m.fleet.PaneLines(m.fleetView(), 120), "\n"))
	if !strings.Contains(pane, "enforced (Landlock ABI 7)") || !strings.Contains(pane, "advisory: enforce is off for this server") {
		t.Fatalf("the pane does not show each server's enforcement:\n%s", pane)
	}
	// A folder allowed beyond the consent is named, in the dialog and the
	// pane.
	m.review.sh.Cancel()
	allowed := connectedEvent("notes", "notes")
	allowed.Enforcement = &launch.Enforcement{Enforced: true, ABI: 7, Policy: &launch.Policy{Paths: []launch.PolicyPath{
		{Path: "/work/demo/api", Why: launch.WhyConsented}, {Path: "/srv/notes", Why: launch.WhyAllowRead}}}}
	m.onHubEvent(allowed)
	openDialog(t, m, mkRoot("/work/demo/api"))
	if out := strings.Join(strings.Fields(screen(m)), " "); !strings.Contains(out, "/srv/notes (--allow-read)") {
		t.Fatalf("the dialog does not name the folder allowed beyond the consent:\n%s", screen(m))
	}
	if pane := ansi.Strip(strings.Join(m.fleet.PaneLines(m.fleetView(), 120), "\n")); !strings.Contains(pane, "allowed   /srv/notes (read)") {
		t.Fatalf("the pane does not name the folder allowed beyond the consent:\n%s", pane)
	}
}

// TestPaneSaysTheWallsBesideTheFiles: an enforced server's pane line says
// which unix sockets it may reach and which metadata it may change; a
// socket allowed below Landlock ABI 9 (every socket, then) is said in
// the dialog and the pane.
func TestPaneSaysTheWallsBesideTheFiles(t *testing.T) {
	m := wide(t)
	m.setSize(120, 40)
	fs := connectedEvent("fs", "fs")
	fs.Enforcement = &launch.Enforcement{Enforced: true, ABI: 7, Policy: &launch.Policy{Paths: []launch.PolicyPath{
		{Path: "/work/demo/api", Why: launch.WhyConsented}, {Path: "/usr", Why: launch.WhySystem},
		{Path: "/work/demo/docs", Access: launch.AccessRead, Why: launch.WhyConsented, ReadOnly: true},
		{Path: "/srv/npm", Access: launch.AccessRead | launch.AccessWrite, Why: "npm cache"}},
		Refused: []launch.PolicyRefusal{{Var: "npm_config_cache", Value: "/srv/x/.ssh", Why: "not a cache folder"}}}}
	m.onHubEvent(fs)
	pane := strings.Join(strings.Fields(ansi.Strip(strings.Join(m.fleet.PaneLines(m.fleetView(), 120), "\n"))), " ")
	for _, want := range []string{"may open /work/demo/api none (consented) /usr none (system) /work/demo/docs read (consented; read-only) /srv/npm read+write (npm cache; shared with every npx server)", "sockets none (unix sockets refused)", "network on", "refused env npm_config_cache=/srv/x/.ssh: not a cache folder", "metadata mode and times only where it may write; owner and extended attributes nowhere"} {
		if !strings.Contains(pane, want) {
			t.Errorf("the pane does not say %q:\n%s", want, pane)
		}
	}
	db := connectedEvent("db", "db")
	db.Enforcement = &launch.Enforcement{Enforced: true, ABI: 7, Policy: &launch.Policy{Paths: []launch.PolicyPath{
		{Path: "/run/pg/.s.PGSQL.5432", Access: launch.AccessConnect, Why: launch.WhyAllowSocket}}}}
	m.onHubEvent(db)
	openDialog(t, m, mkRoot("/work/demo/api"))
	out := strings.Join(strings.Fields(strings.ReplaceAll(screen(m), "│", " ")), " ") // the dialog's border cut out
	for _, want := range []string{"the socket /run/pg/.s.PGSQL.5432 (--allow-socket)", "Network: on.", "Any unix socket for db: --allow-socket needs Landlock ABI 9 to hold it to one."} {
		if !strings.Contains(out, want) {
			t.Errorf("the dialog does not say %q:\n%s", want, screen(m))
		}
	}
	if strings.Contains(out, "runs as root") {
		t.Errorf("the dialog warns of root though rootpick does not run as root:\n%s", screen(m))
	}
	pane = strings.Join(strings.Fields(ansi.Strip(strings.Join(m.fleet.PaneLines(m.fleetView(), 120), "\n"))), " ")
	for _, want := range []string{"allowed /run/pg/.s.PGSQL.5432 (connect)", "sockets any: allow-socket /run/pg/.s.PGSQL.5432 needs Landlock ABI 9"} {
		if !strings.Contains(pane, want) {
			t.Errorf("the pane does not say %q:\n%s", want, pane)
		}
	}
}

// TestRootIsSaid: run as root, the dialog and the pane say that an
// enforced server still reads all that root can in its runtime.
func TestRootIsSaid(t *testing.T) {
	m := wide(t)
	m.setSize(120, 40)
	m.cfg.AsRoot = true
	fs := connectedEvent("fs", "fs")
	fs.Enforcement = &launch.Enforcement{Enforced: true, ABI: 7, Policy: &launch.Policy{Paths: []launch.PolicyPath{{Path: "/usr", Why: launch.WhySystem}}}}
	m.onHubEvent(fs)
	openDialog(t, m, mkRoot("/work/demo/api"))
	if out := strings.Join(strings.Fields(screen(m)), " "); !strings.Contains(out, "rootpick runs as root: an enforced server still reads") {
		t.Errorf("the dialog does not warn of root:\n%s", screen(m))
	}
	if pane := strings.Join(strings.Fields(ansi.Strip(strings.Join(m.fleet.PaneLines(m.fleetView(), 120), "\n"))), " "); !strings.Contains(pane, "as root rootpick runs as root") {
		t.Errorf("the pane does not warn of root:\n%s", pane)
	}
}

// TestNetworkIsSaid: the dialog says, per enforced server, whether it
// may use the network.
func TestNetworkIsSaid(t *testing.T) {
	m := wide(t)
	m.setSize(120, 40)
	for _, c := range []struct {
		name string
		off  bool
	}{{"fs", true}, {"search", false}} {
		e := connectedEvent(c.name, c.name)
		e.Enforcement = &launch.Enforcement{Enforced: true, ABI: 7, Policy: &launch.Policy{NoNetwork: c.off}}
		m.onHubEvent(e)
	}
	openDialog(t, m, mkRoot("/work/demo/api"))
	if out := strings.Join(strings.Fields(strings.ReplaceAll(screen(m), "│", " ")), " "); !strings.Contains(out, "Network: off for fs; on for the others.") {
		t.Errorf("the dialog does not say which server's network is off:\n%s", screen(m))
	}
	if pane := strings.Join(strings.Fields(ansi.Strip(strings.Join(m.fleet.PaneLines(m.fleetView(), 120), "\n"))), " "); !strings.Contains(pane, "network off (no TCP or UDP: IP sockets refused)") {
		t.Errorf("the pane does not say fs's network is off:\n%s", pane)
	}
}

// A frame takes the fixed lines (status, help, scan) its Update drew to
// learn their height instead of drawing them again: after every message
// of a long random session, with servers in every state, the frame is
// the frame drawn afresh.
func TestFrameTakesTheLinesUpdateDrew(t *testing.T) {
	m := withVerifiedAPI(t)
	m.onHubEvent(mcpconn.Event{Server: "b", Kind: mcpconn.Failed, Err: errors.New("exited")})
	m.onHubEvent(mcpconn.Event{Server: "c", Kind: mcpconn.Restarting, Attempt: 1, Delay: time.Second})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	keys := []string{"down", "down", "up", "space", "tab", "enter", "esc", "n", "ctrl+o", "?", "a", "p", "i", "backspace", "pgdown", "home", "end", "ctrl+a", "s", "/"}
	rng := rand.New(rand.NewPCG(7, 8))
	taken := 0
	for i := range 3000 {
		if rng.IntN(25) == 0 {
			m.Update(tea.WindowSizeMsg{Width: 30 + rng.IntN(110), Height: 6 + rng.IntN(40)})
		} else {
			send(m, keys[rng.IntN(len(keys))])
		}
		if m.chrome.drawn {
			taken++
		}
		got := m.View().Content
		m.chrome.drawn = false
		if want := m.View().Content; got != want {
			t.Fatalf("message %d: the frame with Update's lines differs from the frame drawn afresh:\n%s\n---\n%s", i, got, want)
		}
	}
	if taken < 2000 {
		t.Errorf("only %d of 3000 frames took Update's lines", taken)
	}
}

// Update's lines serve one frame: a frame drawn again without an Update
// (a handler called directly, as tests do) draws them afresh.
func TestUpdatesLinesServeOneFrame(t *testing.T) {
	m := withVerifiedAPI(t)
	send(m, "down")
	_ = m.View()
	m.onHubEvent(mcpconn.Event{Server: "b", Kind: mcpconn.Failed, Err: errors.New("exited")})
	if got := m.View().Content; !strings.Contains(ansi.Strip(got), "b failed") {
		t.Errorf("the second frame kept the first frame's status:\n%s", ansi.Strip(got))
	}
}

// The frame after an Update does not draw the fixed lines again: it
// allocates less than a frame that must.
func TestFrameAfterUpdateDrawsLess(t *testing.T) {
	m := withVerifiedAPI(t)
	taken := testing.AllocsPerRun(50, func() { send(m, "down"); _ = m.View() })
	fresh := testing.AllocsPerRun(50, func() { send(m, "down"); m.chrome.drawn = false; _ = m.View() })
	if taken >= fresh {
		t.Errorf("a ↓ and its frame allocate %.0f times taking Update's lines, %.0f drawing them again: not fewer", taken, fresh)
	}
}
