package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/ui/sharing"
)

// TestConfirmForgetsTheRemembered: once the person confirms a set, the
// remembered consent is history: a remembered folder they unchecked and
// check again afterwards is their own change again ("+ add", asked about
// on quit), not a remembered one.
func TestConfirmForgetsTheRemembered(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.applyRemembered(&consent.Record{Dir: "/work/demo", Roots: []consent.Root{mkRoot("/work/demo/api")}})
	send(m, "space", "down", "space") // uncheck api, check api-wt
	openDialog(t, m, mkRoot("/work/demo/api-wt"))
	m.Update(send(m, "y")()) // confirmed and served
	if m.review.sh.Phase() != sharing.Idle || len(m.review.sh.Served()) != 1 {
		t.Fatalf("precondition: phase %v, served %v after y", m.review.sh.Phase(), m.review.sh.Served())
	}
	send(m, "up", "space") // api checked again, by the person
	if m.review.sh.IsRemembered("/work/demo/api") {
		t.Fatal("after a confirmation api still counts as remembered: confirm kept the remembered set")
	}
	if cmd := send(m, "ctrl+q"); m.mode() != modeAsk || isQuit(cmd) || !strings.Contains(screen(m), "Discard 1 unconfirmed change?") {
		t.Fatalf("ctrl+q with api checked after the confirmation: mode %d, want the question about 1 change\n%s", m.mode(), screen(m))
	}
}

// TestSavedQuitsOnlyWhenAQuitWaits: a finished write ends the program
// only when q is waiting for it. y with a store writes the consent; its
// save coming back quits nothing, and q afterwards quits at once.
func TestSavedQuitsOnlyWhenAQuitWaits(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.cfg.Store = storeFor(t)
	send(m, "space") // api
	openDialog(t, m, mkRoot("/work/demo/api"))
	cmd := send(m, "y")
	if m.review.sh.Saves() != 1 {
		t.Fatalf("precondition: %d writes running after y, want 1", m.review.sh.Saves())
	}
	for _, c := range cmd().(tea.BatchMsg) {
		msg := c()
		if _, next := m.Update(msg); next != nil && isQuit(next) {
			t.Fatalf("the program quit on %T (the consent written), although nobody pressed q", msg)
		}
	}
	if m.review.sh.Saves() != 0 || m.review.sh.Quitting() {
		t.Fatalf("after the save: %d writes, quitting %v", m.review.sh.Saves(), m.review.sh.Quitting())
	}
	if !isQuit(send(m, "ctrl+q")) {
		t.Fatal("q after the save did not quit")
	}
}

// serveConfirmed puts the model where a confirmed set is served, through
// sharing's own transitions (as --resume does).
func serveConfirmed(m *Model, roots []consent.Root) {
	m.review.sh.Resume(roots, nil)
	m.review.sh.ServedNow(roots)
}

// withdrawnFor reports whether path is withdrawn for why.
func withdrawnFor(m *Model, path, why string) bool {
	got, ok := m.review.sh.Withdrawn(path)
	return ok && got == why
}

// TestPrintKeepsTheConfirmationAfterAWithdrawal: --print writes what the
// person confirmed, whatever the hub withdrew since. The served and the
// confirmed sets once shared one array, and the withdrawal's delete in
// place made Consented() [web, {}]: an empty root printed.
func TestPrintKeepsTheConfirmationAfterAWithdrawal(t *testing.T) {
	m := fixture(t, demoRepos()...)
	api, web := mkRoot("/work/demo/api"), mkRoot("/work/demo/web")
	openDialog(t, m, api, web)
	run(m, send(m, "y")) // confirmed and served
	if len(m.review.sh.Served()) != 2 {
		t.Fatalf("precondition: served %v after y", m.review.sh.Served())
	}
	m.onHubEvent(mcpconn.Event{Kind: mcpconn.Withdrawn, Path: api.Path, Text: "deleted or renamed"})
	if got := m.Consented(); !slices.Equal(got, []consent.Root{api, web}) {
		t.Fatalf("Consented() after the hub withdrew api: %+v, want api and web as confirmed", got)
	}
	if got := m.review.sh.Served(); !slices.Equal(got, []consent.Root{web}) {
		t.Fatalf("served after the withdrawal: %+v, want web", got)
	}
}
