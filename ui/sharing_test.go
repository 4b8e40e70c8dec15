package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/consent"
)

// TestSharingTransitions: every phase × every event of the consent
// pipeline, written once: the phase after, what the transition reports,
// and where a dialog may exist (only while reviewing).
func TestSharingTransitions(t *testing.T) {
	roots := []consent.Root{mkRoot("/work/demo/api")}
	events := map[string]func(s *sharing) bool{
		"review":         func(s *sharing) bool { return s.review() },
		"proposed":       func(s *sharing) bool { return s.proposed(&consentDialog{}, false) },
		"proposed empty": func(s *sharing) bool { return s.proposed(&consentDialog{}, true) },
		"cancel":         func(s *sharing) bool { return s.cancel() != nil },
		"confirm":        func(s *sharing) bool { return s.confirm(roots, nil) },
		"resume":         func(s *sharing) bool { return s.resume(roots, nil) },
		"served":         func(s *sharing) bool { return s.servedNow(roots) },
		"served, review asked": func(s *sharing) bool {
			s.reviewNext = true
			return s.servedNow(roots)
		},
	}
	type want struct {
		phase phase
		ok    bool
	}
	I, P, R, A := phaseIdle, phasePreparing, phaseReviewing, phaseApplying
	table := map[phase]map[string]want{
		I: {"review": {P, true}, "proposed": {I, false}, "proposed empty": {I, false}, "cancel": {I, false},
			"confirm": {I, false}, "resume": {A, true}, "served": {I, false}, "served, review asked": {I, false}},
		P: {"review": {P, false}, "proposed": {R, true}, "proposed empty": {I, false}, "cancel": {P, false},
			"confirm": {P, false}, "resume": {P, false}, "served": {P, false}, "served, review asked": {P, false}},
		R: {"review": {R, false}, "proposed": {R, false}, "proposed empty": {R, false}, "cancel": {I, true},
			"confirm": {A, true}, "resume": {R, false}, "served": {R, false}, "served, review asked": {R, false}},
		A: {"review": {A, false}, "proposed": {A, false}, "proposed empty": {A, false}, "cancel": {A, false},
			"confirm": {A, false}, "resume": {A, false}, "served": {I, false}, "served, review asked": {P, true}},
	}
	for from, row := range table {
		if len(row) != len(events) {
			t.Fatalf("phase %v: %d events in the table, %d defined", from, len(row), len(events))
		}
		for name, w := range row {
			s := sharing{phase: from, undo: []string{"/work/demo/web"}}
			if from == R {
				s.dialog = &consentDialog{}
			}
			ok := events[name](&s)
			if s.phase != w.phase || ok != w.ok {
				t.Errorf("%v + %s: phase %v (reported %v), want %v (%v)", from, name, s.phase, ok, w.phase, w.ok)
			}
			if (s.dialog != nil) != (s.phase == R) {
				t.Errorf("%v + %s: dialog %v in phase %v; a dialog exists only while reviewing", from, name, s.dialog != nil, s.phase)
			}
		}
	}
}

// TestSharingReviewWhileApplying: enter while a confirmed set is on its
// way is not lost: the review starts when the set is served.
func TestSharingReviewWhileApplying(t *testing.T) {
	s := sharing{phase: phaseApplying}
	if s.review() || !s.reviewNext {
		t.Fatal("review while applying was not kept for later")
	}
	if !s.servedNow(nil) || s.phase != phasePreparing || s.reviewNext {
		t.Fatalf("once served: phase %v, reviewNext %v; want preparing", s.phase, s.reviewNext)
	}
}

// TestSharingQuitWaitsForSaves: quitting waits for the consent being
// written, and ends once the last write is done.
func TestSharingQuitWaitsForSaves(t *testing.T) {
	s := sharing{saves: 2}
	if s.quit() || !s.quitting {
		t.Fatal("quit did not wait for two writes")
	}
	if s.saved() {
		t.Fatal("quit after the first of two writes")
	}
	if !s.saved() {
		t.Fatal("no quit after the last write")
	}
	if s := (sharing{}); !s.quit() {
		t.Fatal("quit with nothing being written waited")
	}
}

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
	if m.sh.phase != phaseIdle || len(m.sh.served) != 1 {
		t.Fatalf("precondition: phase %v, served %v after y", m.sh.phase, m.sh.served)
	}
	send(m, "up", "space") // api checked again, by the person
	if m.isRemembered("/work/demo/api") {
		t.Fatal("after a confirmation api still counts as remembered: confirm kept the remembered set")
	}
	if cmd := send(m, "ctrl+q"); m.mode != modeAsk || isQuit(cmd) || !strings.Contains(screen(m), "Discard 1 unconfirmed change?") {
		t.Fatalf("ctrl+q with api checked after the confirmation: mode %d, want the question about 1 change\n%s", m.mode, screen(m))
	}
}

// TestSavedQuitsOnlyWhenAQuitWaits: a finished write ends the program
// only when q is waiting for it. y with a store writes the consent; its
// save coming back quits nothing, and q afterwards quits at once.
func TestSavedQuitsOnlyWhenAQuitWaits(t *testing.T) {
	if s := (sharing{saves: 1}); s.saved() {
		t.Fatal("saved() with no quit waiting reported that the program may end")
	}
	m := fixture(t, demoRepos()...)
	m.cfg.Store = storeFor(t)
	send(m, "space") // api
	openDialog(t, m, mkRoot("/work/demo/api"))
	cmd := send(m, "y")
	if m.sh.saves != 1 {
		t.Fatalf("precondition: %d writes running after y, want 1", m.sh.saves)
	}
	for _, c := range cmd().(tea.BatchMsg) {
		msg := c()
		if _, next := m.Update(msg); next != nil && isQuit(next) {
			t.Fatalf("the program quit on %T (the consent written), although nobody pressed q", msg)
		}
	}
	if m.sh.saves != 0 || m.sh.quitting {
		t.Fatalf("after the save: %d writes, quitting %v", m.sh.saves, m.sh.quitting)
	}
	if !isQuit(send(m, "ctrl+q")) {
		t.Fatal("q after the save did not quit")
	}
}
