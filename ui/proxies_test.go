package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn/proxy"
)

// TestProxyStates: a proxy that reads no consent says so in the status
// line and why in the server pane; one whose server never asks for roots
// is "not fetching" with the {roots} hint; one speaking the older version
// its host asked for is not flagged as a protocol mismatch.
func TestProxyStates(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.cfg.Store = storeFor(t)
	m.setSize(200, 30)
	m.Update(proxiesMsg{entries: []proxy.Entry{
		{PID: 11, Status: proxy.Status{Host: "Claude Code", Server: "fs", State: "connected", Asked: true,
			FetchedAt: time.Date(2026, 12, 4, 9, 8, 7, 0, time.Local),
			Protocol:  "2025-06-18", Problem: "not believed: \"/s/consent/work.json\" is a FIFO"}},
		{PID: 12, Status: proxy.Status{Host: "gemini-cli", Server: "git", State: "connected", Protocol: "2025-06-18", NotFetching: true}},
	}})
	status := statusOf(m)
	for _, want := range []string{"Claude Code → fs (proxy) no consent", "gemini-cli → git (proxy) not fetching"} {
		if !strings.Contains(status, want) {
			t.Errorf("status %q lacks %q", status, want)
		}
	}
	send(m, "ctrl+o")
	pane := screen(m)
	for _, want := range []string{"no consent", "is a FIFO", "pass folders with {roots}", "protocol 2025-06-18", "0 roots fetched at 09:08:07"} {
		if !strings.Contains(pane, want) {
			t.Errorf("the server pane lacks %q:\n%s", want, pane)
		}
	}
	if strings.Contains(pane, "≠") {
		t.Errorf("an older version a host asked for is flagged:\n%s", pane)
	}
}

// TestRefusedRegistryIsSaid: a proxy registry folder the person does not
// own alone (here one anybody may write into, where another user could
// plant a proxy line) shows no proxy, and the status line says why, once;
// when the folder is put right the note goes.
func TestRefusedRegistryIsSaid(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.cfg.Store = storeFor(t)
	m.setSize(200, 30)
	state := t.TempDir()
	if err := os.Chmod(state, 0o700); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(state, "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(run, 0o777); err != nil {
		t.Fatal(err)
	}
	m.Update(pollProxies(run, m.cfg.Store.Profile(), 0)())
	if status := statusOf(m); !strings.Contains(status, "Proxies not shown") || !strings.Contains(status, run) {
		t.Fatalf("status %q: want why the proxies are not shown, naming %s", status, run)
	}
	if err := os.Chmod(run, 0o700); err != nil {
		t.Fatal(err)
	}
	m.Update(pollProxies(run, m.cfg.Store.Profile(), 0)())
	if m.registryProblem != "" {
		t.Errorf("the registry is the person's own again, still noted: %q", m.registryProblem)
	}
}

// TestProxiesServingAreExposed: what the profile's proxies serve (the
// remembered consent) is exposed: the status line counts it ("2 roots
// served by 1 proxy", not "nothing shared"), a proxy holding exactly what
// it serves is synced, and ctrl+d reviews stopping it at once, the dialog
// listing those roots as removed (it said "Nothing is shared").
func TestProxiesServingAreExposed(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.cfg.Store = storeFor(t)
	m.setSize(200, 30)
	api, web := mkRoot("/work/demo/api"), mkRoot("/work/demo/web")
	m.Update(proxiesMsg{entries: []proxy.Entry{
		{PID: 11, Status: proxy.Status{Host: "Claude Code", Server: "fs", State: "connected", Asked: true,
			Fetched: []string{api.URI, web.URI}, Served: []string{api.URI, web.URI}}},
	}})
	if st := statusOf(m); !strings.HasPrefix(st, "2 roots served by 1 proxy") || !strings.Contains(st, "Claude Code → fs (proxy) synced") {
		t.Fatalf("status with a proxy serving two roots: %q", st)
	}
	// Not checked here: a confirmation of the checks would stop them.
	if h := ansi.Strip(m.headerView()); !strings.Contains(h, "−2 remove") {
		t.Fatalf("the header does not count what the proxy serves: %q", h)
	}
	cmd := send(m, "ctrl+d")
	if cmd == nil || strings.Contains(screen(m), "Nothing is shared") {
		t.Fatalf("ctrl+d with a proxy serving roots did not review stopping it:\n%s", screen(m))
	}
	m.Update(cmd())
	d := m.review.sh.Dialog()
	if d == nil || len(d.change.Removed) != 2 {
		t.Fatalf("the revoke-all review: %+v", d)
	}
}

// TestProxyServedRowsAreServed: rows the profile's proxies serve (checked
// from the remembered consent) read "✓ served by <proxy>", are no
// unconfirmed change, and unchecking one proposes exactly its removal:
// enter does not take the highlighted row as an addition.
func TestProxyServedRowsAreServed(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.cfg.Store = storeFor(t)
	m.setSize(200, 30)
	api, web := mkRoot("/work/demo/api"), mkRoot("/work/demo/web")
	m.applyRemembered(&consent.Record{Dir: "/work/demo", Roots: []consent.Root{api, web}, Time: time.Now()})
	m.Update(proxiesMsg{entries: []proxy.Entry{
		{PID: 11, Status: proxy.Status{Host: "Claude Code", Server: "fs", State: "connected", Asked: true,
			Fetched: []string{api.URI, web.URI}, Served: []string{api.URI, web.URI}}},
	}})
	m.Update(proxiesMsg{entries: []proxy.Entry{
		{PID: 11, Status: proxy.Status{Host: "Claude Code", Name: "fs", Server: "secure-filesystem-server", State: "connected", Asked: true,
			Fetched: []string{api.URI, web.URI}, Served: []string{api.URI, web.URI}}},
	}})
	// Named as the host's entry names it, not as the server calls itself.
	if row := rowOf(t, m, "api "); !strings.Contains(row, "✓ served by Claude Code → fs (proxy)") {
		t.Errorf("a row the proxy serves reads %q", row)
	}
	if n := m.unconfirmed(); n != 0 {
		t.Errorf("unconfirmed() = %d with the proxy serving the checks", n)
	}
	if !strings.Contains(m.status.note, "the profile's proxies serve them now") {
		t.Errorf("the note still says the remembered roots are not shared: %q", m.status.note)
	}
	m.picker.MoveTo(0) // api
	send(m, "space")
	if n := m.unconfirmed(); n != 1 {
		t.Errorf("unconfirmed() = %d after unchecking a served row", n)
	}
	if cmd := send(m, "enter"); cmd == nil || m.picker.IsChecked(api.Path) {
		t.Fatalf("enter did not review, or took the highlighted row (api checked: %v)", m.picker.IsChecked(api.Path))
	}
	m.Update(proposalMsg{proposed: plainItems(web.Path)}) // what the checks resolve to (the fixture's folders do not exist)
	d := m.review.sh.Dialog()
	if d == nil || len(d.change.Added) != 0 || len(d.change.Removed) != 1 || d.change.Removed[0].Path != api.Path {
		t.Fatalf("enter after unchecking a served row reviews %+v", d)
	}
}

// TestProxyMismatchIsShown: a proxy whose server, asked, holds more than
// the consent (server-filesystem started with a folder argument) shows
// mismatch on the status line with what it holds, and one whose server
// holds exactly what it serves is verified.
func TestProxyMismatchIsShown(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.cfg.Store = storeFor(t)
	m.setSize(240, 30)
	api := mkRoot("/work/demo/api")
	at := time.Date(2026, 12, 4, 9, 8, 7, 0, time.Local)
	m.Update(proxiesMsg{entries: []proxy.Entry{
		{PID: 11, Status: proxy.Status{Host: "Claude Code", Server: "fs", State: "connected", Asked: true,
			Fetched: []string{api.URI}, Served: []string{api.URI}, VerifiedAt: at, Verified: []string{api.URI, "file:///home/me/src"},
			Mismatch: "holds /home/me/src beyond the consent"}},
		{PID: 12, Status: proxy.Status{Host: "gemini-cli", Server: "fs", State: "connected", Asked: true,
			Fetched: []string{api.URI}, Served: []string{api.URI}, VerifiedAt: at, Verified: []string{api.URI}}},
	}})
	st := statusOf(m)
	if !strings.Contains(st, "Claude Code → fs (proxy) mismatch: holds /home/me/src beyond the consent") {
		t.Errorf("status %q: want the first proxy's mismatch", st)
	}
	if !strings.Contains(st, "gemini-cli → fs (proxy) verified") {
		t.Errorf("status %q: want the second proxy verified", st)
	}
}
