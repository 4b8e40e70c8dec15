package sharing

import (
	"slices"
	"testing"

	"github.com/rootpick/rootpick/consent"
)

type dialog struct{}

func mkRoot(p string) consent.Root { return consent.Root{URI: "file://" + p, Path: p, Name: p} }

// TestTransitions: every phase × every event of the consent pipeline,
// written once: the phase after, what the transition reports, and where a
// dialog may exist (only while reviewing).
func TestTransitions(t *testing.T) {
	roots := []consent.Root{mkRoot("/work/demo/api")}
	events := map[string]func(s *State[dialog]) bool{
		"review":         func(s *State[dialog]) bool { return s.Review(nil) },
		"revoke all":     func(s *State[dialog]) bool { return s.RevokeAll(nil) },
		"proposed":       func(s *State[dialog]) bool { return s.Proposed(&dialog{}, false) },
		"proposed empty": func(s *State[dialog]) bool { return s.Proposed(&dialog{}, true) },
		"cancel":         func(s *State[dialog]) bool { return s.Cancel() != nil },
		"confirm":        func(s *State[dialog]) bool { return s.Confirm(roots, nil, "") },
		"resume":         func(s *State[dialog]) bool { return s.Resume(roots, nil) },
		"served":         func(s *State[dialog]) bool { return s.ServedNow(roots) },
		"served, review asked": func(s *State[dialog]) bool {
			if s.Phase() != Idle { // (idle, it would start one now)
				s.Review(nil) // kept for later while applying
			}
			return s.ServedNow(roots)
		},
	}
	type want struct {
		phase Phase
		ok    bool
	}
	I, P, R, A := Idle, Preparing, Reviewing, Applying
	table := map[Phase]map[string]want{
		I: {"review": {P, true}, "revoke all": {P, true}, "proposed": {I, false}, "proposed empty": {I, false}, "cancel": {I, false},
			"confirm": {I, false}, "resume": {A, true}, "served": {I, false}, "served, review asked": {I, false}},
		P: {"review": {P, false}, "revoke all": {P, false}, "proposed": {R, true}, "proposed empty": {I, false}, "cancel": {P, false},
			"confirm": {P, false}, "resume": {P, false}, "served": {P, false}, "served, review asked": {P, false}},
		R: {"review": {R, false}, "revoke all": {R, false}, "proposed": {R, false}, "proposed empty": {R, false}, "cancel": {I, true},
			"confirm": {A, true}, "resume": {R, false}, "served": {R, false}, "served, review asked": {R, false}},
		A: {"review": {A, false}, "revoke all": {A, false}, "proposed": {A, false}, "proposed empty": {A, false}, "cancel": {A, false},
			"confirm": {A, false}, "resume": {A, false}, "served": {I, false}, "served, review asked": {P, true}},
	}
	for from, row := range table {
		if len(row) != len(events) {
			t.Fatalf("phase %v: %d events in the table, %d defined", from, len(row), len(events))
		}
		for name, w := range row {
			s := inPhase(t, from)
			ok := events[name](s)
			if s.Phase() != w.phase || ok != w.ok {
				t.Errorf("%v + %s: phase %v (reported %v), want %v (%v)", from, name, s.Phase(), ok, w.phase, w.ok)
			}
			if (s.Dialog() != nil) != (s.Phase() == R) {
				t.Errorf("%v + %s: dialog %v in phase %v; a dialog exists only while reviewing", from, name, s.Dialog() != nil, s.Phase())
			}
		}
	}
}

// inPhase drives a new State to phase p through its transitions, with a
// check to put back on cancel.
func inPhase(t *testing.T, p Phase) *State[dialog] {
	t.Helper()
	s := &State[dialog]{}
	undo := []string{"/work/demo/web"}
	switch p {
	case Idle:
	case Preparing:
		s.Review(undo)
	case Reviewing:
		s.Review(undo)
		s.Proposed(&dialog{}, false)
	case Applying:
		s.Resume(nil, nil)
	}
	if s.Phase() != p {
		t.Fatalf("could not reach phase %v (at %v)", p, s.Phase())
	}
	return s
}

// TestReviewWhileApplying: a review asked for while a confirmed set is on
// its way is not lost: it starts when the set is served.
func TestReviewWhileApplying(t *testing.T) {
	s := inPhase(t, Applying)
	if s.Review(nil) {
		t.Fatal("review while applying started at once")
	}
	if !s.ServedNow(nil) || s.Phase() != Preparing {
		t.Fatalf("once served: phase %v; want preparing", s.Phase())
	}
	if s.ServedNow(nil) {
		t.Fatal("the kept review started twice")
	}
}

// TestQuitWaitsForSaves: quitting waits for the consent being written,
// and ends once the last write is done.
func TestQuitWaitsForSaves(t *testing.T) {
	var s State[dialog]
	s.Saving()
	s.Saving()
	if s.Quit() || !s.Quitting() {
		t.Fatal("quit did not wait for two writes")
	}
	if s.Saved() {
		t.Fatal("quit after the first of two writes")
	}
	if !s.Saved() {
		t.Fatal("no quit after the last write")
	}
	var idle State[dialog]
	if !idle.Quit() {
		t.Fatal("quit with nothing being written waited")
	}
	idle.Saving()
	if idle.Saved() {
		t.Fatal("a finished write with no quit waiting reported that the program may end")
	}
}

// TestWithdrawLeavesTheConfirmedSet: the hub withdrawing a served root
// changes what is served, never what the person confirmed (what --print
// writes). The served set and the confirmed set were once one array, and
// the withdrawal's in-place delete left [web, {}] as the confirmation.
func TestWithdrawLeavesTheConfirmedSet(t *testing.T) {
	api, web := mkRoot("/work/demo/api"), mkRoot("/work/demo/web")
	s := inPhase(t, Reviewing)
	final := []consent.Root{api, web}
	s.Confirm(final, nil, "")
	s.ServedNow(final)
	s.Withdraw(api.Path, "deleted")
	if got := s.Confirmed(); !slices.Equal(got, []consent.Root{api, web}) {
		t.Fatalf("confirmed after a withdrawal: %+v, want api and web", got)
	}
	if got := s.Served(); !slices.Equal(got, []consent.Root{web}) {
		t.Fatalf("served after the withdrawal: %+v, want web", got)
	}
	if why, ok := s.Withdrawn(api.Path); !ok || why != "deleted" {
		t.Fatalf("withdrawn api: %q %v", why, ok)
	}
}

// TestCopiesOnTheWayIn: a caller that edits what it handed over (the
// final set, the grants, the served roots, the undo checks) changes
// nothing kept here.
func TestCopiesOnTheWayIn(t *testing.T) {
	api, web := mkRoot("/work/demo/api"), mkRoot("/work/demo/web")
	undo := []string{api.Path}
	s := &State[dialog]{}
	s.Review(undo)
	undo[0] = "/elsewhere"
	s.Proposed(&dialog{}, false)
	if got := s.Cancel(); !slices.Equal(got, []string{api.Path}) {
		t.Fatalf("undo after the caller edited its slice: %v", got)
	}
	final := []consent.Root{api}
	grants := map[string][]string{api.URI: {"secrets"}}
	s.Review(nil)
	s.Proposed(&dialog{}, false)
	s.Confirm(final, grants, "")
	served := []consent.Root{api}
	s.ServedNow(served)
	final[0], served[0], grants[api.URI][0] = web, web, "edited"
	delete(grants, api.URI)
	if got := s.Confirmed(); got[0] != api {
		t.Fatalf("confirmed changed with the caller's slice: %+v", got)
	}
	if got := s.Served(); got[0] != api {
		t.Fatalf("served changed with the caller's slice: %+v", got)
	}
	if g := s.Grants(); len(g[api.URI]) != 1 {
		t.Fatalf("grants changed with the caller's map: %v", g)
	}
}

// TestVersionCountsEveryChange: each write of a set moves the version
// (caches of the rows' states depend on it); a transition that changes no
// set leaves it.
func TestVersionCountsEveryChange(t *testing.T) {
	s := &State[dialog]{}
	writes := []struct {
		name string
		do   func()
	}{
		{"remember", func() { s.Remember([]string{"/a"}) }},
		{"served", func() { s.ServedNow([]consent.Root{mkRoot("/a")}) }},
		{"withdraw", func() { s.Withdraw("/a", "gone") }},
		{"confirm", func() { s.Review(nil); s.Proposed(&dialog{}, false); s.Confirm(nil, nil, "") }},
		{"served again", func() { s.ServedNow(nil) }},
		{"resume", func() { s.Resume(nil, nil) }},
	}
	for _, w := range writes {
		before := s.Version()
		w.do()
		if s.Version() == before {
			t.Errorf("%s left the version at %d", w.name, before)
		}
	}
	before := s.Version()
	s.Review(nil) // applying: kept for later, no set changed
	if s.Version() != before {
		t.Error("a review asked for moved the version")
	}
}

// TestConsentedAgainIsServedNotWithdrawn: a root the hub withdrew and the
// person then confirms again is a consent like any other: it is no longer
// marked withdrawn (nor counted), and the roots still withdrawn stay so.
func TestConsentedAgainIsServedNotWithdrawn(t *testing.T) {
	api, web := mkRoot("/work/demo/api"), mkRoot("/work/demo/web")
	s := inPhase(t, Reviewing)
	s.Confirm([]consent.Root{api, web}, nil, "")
	s.ServedNow([]consent.Root{api, web})
	s.Withdraw(api.Path, "deleted")
	s.Withdraw(web.Path, "renamed")
	if s.WithdrawnCount() != 2 {
		t.Fatalf("withdrawn after two withdrawals: %d, want 2", s.WithdrawnCount())
	}
	s.Review(nil)
	s.Proposed(&dialog{}, false)
	if !s.Confirm([]consent.Root{api}, nil, "") {
		t.Fatal("the confirmation of api again was refused")
	}
	s.ServedNow([]consent.Root{api})
	if why, ok := s.Withdrawn(api.Path); ok {
		t.Fatalf("api, consented again and served, is still withdrawn (%q)", why)
	}
	if !s.IsServed(api.Path) {
		t.Fatal("api, consented again, is not served")
	}
	if why, ok := s.Withdrawn(web.Path); !ok || why != "renamed" || s.WithdrawnCount() != 1 {
		t.Fatalf("web, not consented again: withdrawn %q %v, %d withdrawn in all; want renamed, 1", why, ok, s.WithdrawnCount())
	}
}

// TestRevokeAllWhileBusyChangesNothing: revoke-all asked for while a
// review is being built, shown or applied does nothing, and in
// particular does not mark the review (this one, or the next one asked
// for) as a revoke-all: a plain review must not become "stop sharing
// everything".
func TestRevokeAllWhileBusyChangesNothing(t *testing.T) {
	for _, p := range []Phase{Preparing, Reviewing, Applying} {
		s := inPhase(t, p)
		if s.RevokeAll(nil) {
			t.Errorf("%v: revoke-all started a review", p)
		}
		if s.Revoking() {
			t.Errorf("%v: revoke-all while busy marked the review a revoke-all", p)
		}
		if s.Phase() != p {
			t.Errorf("%v: revoke-all moved the phase to %v", p, s.Phase())
		}
	}
	// While applying, a review asked for after the refused revoke-all
	// starts once served, and it is a plain review.
	s := inPhase(t, Applying)
	s.RevokeAll(nil)
	s.Review(nil)
	if !s.ServedNow(nil) || s.Phase() != Preparing {
		t.Fatalf("the kept review did not start once served (phase %v)", s.Phase())
	}
	if s.Revoking() {
		t.Fatal("the review kept while applying became a revoke-all")
	}
	// Idle, it is one, until the review ends.
	s = inPhase(t, Idle)
	if !s.RevokeAll(nil) || !s.Revoking() {
		t.Fatalf("idle revoke-all: phase %v, revoking %v", s.Phase(), s.Revoking())
	}
	s.Proposed(&dialog{}, false)
	s.Cancel()
	if s.Revoking() {
		t.Fatal("still a revoke-all after the dialog was cancelled")
	}
}

// TestStraySaveDoesNotDisarmQuit: a finished write that was never counted
// (one too many Saved) leaves the count at zero, not below: the next write
// still makes a quit wait for it.
func TestStraySaveDoesNotDisarmQuit(t *testing.T) {
	var s State[dialog]
	if s.Saved() {
		t.Fatal("a stray finished write with no quit waiting said the program may end")
	}
	if s.Saves() != 0 {
		t.Fatalf("%d writes running after a stray finished write, want 0", s.Saves())
	}
	s.Saving()
	if s.Quit() {
		t.Fatal("quit did not wait for the write running (the stray Saved drove the count below zero)")
	}
	if !s.Saved() {
		t.Fatal("no quit once the write was done")
	}
}
