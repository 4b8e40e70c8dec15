package ui

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
)

// TestEndToEndInProcess runs the real program loop (no terminal) with the
// real scan, the hub and the built-in demo server, sends keys as a person
// would, and checks what the server itself holds after each step.
func TestEndToEndInProcess(t *testing.T) {
	dir := t.TempDir()
	for _, rel := range []string{"alpha", "beta gamma", "nested/delta", "plain/not-a-repo"} {
		if err := os.MkdirAll(filepath.Join(dir, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{"alpha", "beta gamma", "nested/delta"} {
		if err := os.Mkdir(filepath.Join(dir, rel, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir, _ = filepath.EvalSymlinks(dir)

	demo := mcpconn.NewDemo(nil, nil)
	hub := mcpconn.NewHub(mcpconn.Options{})
	defer hub.Close()
	m := New(Config{Dir: dir, Hub: hub, Servers: []mcpconn.Spec{{Demo: demo}}, ArmDelay: 20 * time.Millisecond})

	scanned := make(chan struct{})
	armed := make(chan struct{}, 8)
	p := tea.NewProgram(m,
		tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24), tea.WithoutSignals(),
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			switch msg := msg.(type) {
			case scanBatchMsg:
				if msg.done {
					close(scanned)
				}
			case consentGuardMsg:
				armed <- struct{}{}
			}
			return msg
		}))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()

	wait := func(what string, ch <-chan struct{}) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(hangBound):
			t.Fatalf("timed out waiting for %s", what)
		}
	}
	holds := func(what string, want ...string) {
		t.Helper()
		slices.Sort(want)
		deadline := time.Now().Add(hangBound)
		for {
			got := uris(demo.Roots())
			if demo.Fetches() > 0 && slices.Equal(got, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: server holds %q, want %q", what, got, want)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	keys := func(ks ...string) {
		for _, k := range ks {
			p.Send(keyPress(k))
		}
	}

	wait("scan", scanned)
	holds("before any consent") // the server asked, and got nothing
	time.Sleep(50 * time.Millisecond)
	if demo.Fetches() != 1 {
		t.Fatalf("server fetched %d times before consent, want 1", demo.Fetches())
	}

	// Rows: alpha, beta gamma, nested/delta. Checking is not consenting.
	// A fetch the server made for no reason would show as a count change.
	fetchesStay := func(what string, n int) {
		t.Helper()
		time.Sleep(100 * time.Millisecond)
		if got := demo.Fetches(); got != n {
			t.Fatalf("%s: the server fetched %d times, want %d", what, got, n)
		}
	}
	keys("space", "down", "down", "space")
	fetchesStay("after checking, before enter", 1)
	holds("after checking, before enter")

	keys("enter")
	wait("dialog", armed)
	fetchesStay("with the dialog open", 1)
	holds("with the dialog open")
	keys("y")
	holds("after confirm", consent.PathToURI(filepath.Join(dir, "alpha")), consent.PathToURI(filepath.Join(dir, "nested/delta")))

	// Swap delta for beta gamma, then cancel: nothing changes.
	keys("space", "up", "space", "enter")
	wait("dialog", armed)
	keys("n")
	fetchesStay("after cancel", 2)
	holds("after cancel", consent.PathToURI(filepath.Join(dir, "alpha")), consent.PathToURI(filepath.Join(dir, "nested/delta")))

	keys("enter")
	wait("dialog", armed)
	keys("y")
	holds("after swap", consent.PathToURI(filepath.Join(dir, "alpha")), consent.PathToURI(filepath.Join(dir, "beta gamma")))

	// Revoke everything.
	keys("ctrl+d")
	wait("dialog", armed)
	keys("y")
	holds("after revoking all")

	keys("ctrl+q")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("program ended with %v", err)
		}
	case <-time.After(hangBound):
		t.Fatal("q did not end the program")
	}
}

func uris(roots []*mcp.Root) []string {
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		out = append(out, r.URI)
	}
	slices.Sort(out)
	return out
}

// hangBound is how long the in-process run waits for a step before
// calling it a hang: a catch-all well above any promise (a loaded 2-core
// machine running two race suites took 10.5 s to open the dialog once),
// not a timing check; the promised figures are benchmarks.
const hangBound = 60 * time.Second
