package ui

import (
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/picker"
	"github.com/rootpick/rootpick/ui/sharing"
	"github.com/rootpick/rootpick/vcsdetect"
)

// review is the review flow as a sub-model, as crush's dialogs are: the
// consented sets and the pipeline's phase with the open dialog
// (sharing.State, their one writer), and the number of the last dialog
// opened. The model hands it each message of the flow (the review and
// revoke-all keys as a reviewAsked, the proposal built off the loop, the
// dialog's keys and guard ticks) with what it reads of the rest of the
// picker, a reviewIn built for that call and never kept; it changes
// nothing outside itself and returns an action, which Model.onReview, the
// one place that acts on the review, carries out.
//
// The open dialog stays in sharing.State rather than here: that a dialog
// is open exactly while the phase is Reviewing is one fact, held in one
// field that only sharing's transitions (Proposed, Cancel, Confirm) set,
// so the compiler keeps it true; a second field here would have to be
// kept in step by hand.
type review struct {
	sh  sharing.State[consentDialog]
	seq int // which dialog opening this is (its guard ticks carry it)
}

// proposalMsg is a proposal built from the checked folders: each becomes a
// root with its warnings; folders that cannot be shared are problems.
type proposalMsg struct {
	proposed []proposedRoot
	problems []string
}

// reviewAsked is the review key (enter), or revoke-all (ctrl+d) when
// revoke is set, pressed in the list.
type reviewAsked struct{ revoke bool }

// reviewIn is what the review reads of the rest of the picker on one call
// (Model.reviewIn): it is handed, never kept, so the review holds no
// pointer into the model.
type reviewIn struct {
	now  time.Time // the clock (the guard, a dialog's opening)
	dir  string    // the scanned folder
	rows *picker.State
	// label is a row's text as the list draws it.
	label func(vcsdetect.Repo) string
	// unconfirmed counts the checks that differ from what is served
	// (Model.unconfirmed), asked only when enter may take a row.
	unconfirmed func() int
	proxyServed []consent.Root // what the profile's proxies serve
	recipients  recipients     // who a confirmation reaches
	armDelay    time.Duration
	remembered  *consent.Record // the consent remembered at start
	store       *consent.Store  // where a confirmation is remembered; nil when nowhere
	scanning    bool
	com         *common
}

// reviewPropose: build the proposal for the checked folders
// (proposeConsent) when now, after checking the highlighted row (take)
// or unchecking every row (clear).
type reviewPropose struct{ take, clear, now bool }

// reviewNote: say text on the status line.
type reviewNote struct{ text string }

// reviewOpened: a dialog opened; the body is laid out again.
type reviewOpened struct{}

func (reviewPropose) reviewAction() {}
func (reviewNote) reviewAction()    {}
func (reviewOpened) reviewAction()  {}

// Update handles one message of the review: a key asking for one, the
// proposal built, or a message for the open dialog (a key, its guard's
// tick). It returns what the model should do, and a command of its own.
func (r *review) Update(msg tea.Msg, in reviewIn) (reviewAction, tea.Cmd) {
	switch msg := msg.(type) {
	case reviewAsked:
		return r.ask(msg.revoke, in), nil
	case proposalMsg:
		return r.open(msg, in)
	}
	if d := r.sh.Dialog(); d != nil {
		return d.Update(msg, in.now)
	}
	return nil, nil
}

// ask is enter: review the checked folders; with nothing to review (the
// checks are what is shared) it takes the highlighted row, as fzf's enter
// does, and puts it back if the review is cancelled. With revoke it is
// ctrl+d: review stopping sharing every folder, shown by the filter or
// not; cancelling puts the checks back. One change at a time: a proposal
// is computed against what is served, so while a confirmed change is on
// its way the review waits until it is served (sharing.State.Review).
func (r *review) ask(revoke bool, in reviewIn) reviewAction {
	if r.sh.Busy() {
		return nil
	}
	if revoke {
		if len(r.sh.Served()) == 0 && len(r.sh.Confirmed()) == 0 && len(in.proxyServed) == 0 {
			return reviewNote{"Nothing is shared: nothing to stop sharing."}
		}
		return reviewPropose{clear: true, now: r.sh.RevokeAll(in.rows.Checked())}
	}
	var undo []string
	take := false
	if !r.sh.Applying() && in.unconfirmed() == 0 && !r.sh.AnyRemembered(in.rows.IsChecked) {
		if c, ok := in.rows.Current(); ok && !in.rows.IsChecked(c.Path) {
			undo, take = in.rows.Checked(), true
		}
	}
	return reviewPropose{take: take, now: r.sh.Review(undo)}
}

// open builds the dialog for a proposal and hands it to the sharing
// state, which holds it while it is open.
func (r *review) open(msg proposalMsg, in reviewIn) (reviewAction, tea.Cmd) {
	if r.sh.Phase() != sharing.Preparing {
		return nil, nil // not asked for
	}
	r.seq++
	rows, label := in.rows, in.label
	inside := func(path string) []string {
		var out []string
		for _, r := range rows.Inside(path) {
			out = append(out, label(r))
		}
		return out
	}
	d := newConsentDialog(r.seq, in.dir, r.exposed(in.proxyServed), msg.proposed, msg.problems,
		in.recipients, inside, in.armDelay, in.now, in.com)
	d.revokeAll = r.sh.Revoking()
	d.replaces = r.replacesNote(in)
	if !r.sh.Proposed(d, d.change.Empty() && len(msg.problems) == 0) {
		// Nothing for y to do: say so on the status line, with no dialog
		// whose keys would offer a confirmation.
		why := emptyChange(len(d.change.Kept), 0) // "Nothing is checked…": lower-cased after the colon; no problems here
		// The keys typed ahead go to the list (Model.update).
		return reviewNote{"Nothing to change: " + strings.ToLower(why[:1]) + why[1:]}, nil
	}
	if in.scanning {
		d.scanning = true
		d.rebuild()
	}
	// The keys that wait go to the dialog next (Model.update), in the
	// order pressed, while its guard ignores an early y or space: those
	// typed while the review was built, and those still waiting for the
	// query's result, which released later would reach the dialog after
	// its guard, a y typed in the query confirming it.
	return reviewOpened{}, d.guardTick()
}

// replacesNote says that y replaces the profile's remembered consent for
// another folder (a profile remembers one folder's consent): "" when the
// record is this folder's, or empty, or once a consent was confirmed here.
func (r *review) replacesNote(in reviewIn) string {
	rec := in.remembered
	if in.store == nil || rec == nil || rec.Dir == in.dir || len(rec.Roots) == 0 || r.sh.Confirmed() != nil {
		return ""
	}
	return "Replaces profile " + safetext.Escape(in.store.Profile()) + "'s consent for " + safetext.Escape(home(rec.Dir)) +
		" (" + plural(len(rec.Roots), "root", "roots") + "): its proxies then serve this folder's instead."
}

// exposed is what a confirmation changes: what this picker serves and
// what the profile's proxies serve (the remembered consent, which y
// replaces for them too), each root once.
func (r *review) exposed(proxyServed []consent.Root) []consent.Root {
	out := slices.Clone(r.sh.Served())
	for _, p := range proxyServed {
		if !slices.ContainsFunc(out, func(o consent.Root) bool { return o.URI == p.URI }) {
			out = append(out, p)
		}
	}
	return out
}
