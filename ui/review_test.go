package ui

import (
	"slices"
	"testing"

	"github.com/rootpick/rootpick/consent"
)

// TestReviewReturnsTheDecision: the dialog is a sub-model that returns
// what it asks, as crush's dialogs do: y returns the confirmation with
// its decision as a value (the set to serve, the grants, the warned roots
// left out) and changes nothing outside the dialog; only the model,
// acting on it, serves it and unchecks the warned root left out. n returns a cancel the same way.
func TestReviewReturnsTheDecision(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.picker.SetChecked([]string{"/work/demo/api", "/work/demo/web"})
	openDialogWith(t, m, plainItems("/work/demo/api")[0], warnedItem("/work/demo/web", consent.WarnHome))
	d := m.review.sh.Dialog()
	for range 4 {
		send(m, "down") // every added line seen
	}
	action, _ := d.Update(keyPress("y"), clockOf(m).Now())
	confirm, ok := action.(reviewConfirm)
	if !ok {
		t.Fatalf("y returned %#v, want a confirmation", action)
	}
	dec := confirm.decision
	if len(dec.final) != 1 || dec.final[0].Path != "/work/demo/api" || len(dec.granted) != 0 ||
		!slices.Equal(dec.withheld, []withheldRoot{{path: "/work/demo/web", requested: "/work/demo/web"}}) {
		t.Fatalf("the decision: %+v; want api served, web withheld, nothing granted", dec)
	}
	if m.review.sh.Dialog() != d || m.review.sh.Applying() || len(m.Consented()) != 0 {
		t.Fatal("the dialog's y changed the sharing state itself: only the model acts on the decision")
	}
	m.onReview(action, nil)
	if m.review.sh.Dialog() != nil || !m.review.sh.Applying() || len(m.Consented()) != 1 || !slices.Equal(m.picker.Checked(), []string{"/work/demo/api"}) {
		t.Fatalf("the model did not act on the confirmation: open %v, consented %v, checked %v; want api served and web, withheld, unchecked",
			m.review.sh.Dialog() != nil, m.Consented(), m.picker.Checked())
	}

	m = fixture(t, demoRepos()...)
	openDialogWith(t, m, plainItems("/work/demo/api")...)
	if action, _ := m.review.sh.Dialog().Update(keyPress("n"), clockOf(m).Now()); action != (reviewCancel{changed: true}) {
		t.Fatalf("n returned %#v, want a cancel of a change", action)
	}
}

// TestProposalNotAskedForIsDropped: the review takes a proposal only
// while one is being built; one that arrives otherwise (a stale one)
// opens nothing, says nothing and numbers no dialog.
func TestProposalNotAskedForIsDropped(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.setNote("before", false)
	m.Update(proposalMsg{})                                       // nothing to change, had it been asked for
	m.Update(proposalMsg{proposed: plainItems("/work/demo/api")}) // a change, had it been asked for
	if m.review.sh.Dialog() != nil || m.review.seq != 0 || m.status.note != "before" {
		t.Fatalf("a proposal not asked for: dialog %v, seq %d, note %q; want none, 0, the note before",
			m.review.sh.Dialog() != nil, m.review.seq, m.status.note)
	}
}
