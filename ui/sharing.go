package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/consent"
)

// phase is where the consent pipeline is. Exactly one holds at a time:
//
//	idle ──enter/ctrl+d──▶ preparing ──proposal──▶ reviewing ──y──▶ applying ──served──▶ idle
//	                           │ (nothing to change)      │ n/esc/q                 │ (enter meanwhile:
//	                           ▼                          ▼                         ▼  preparing again)
//	                          idle                       idle
//
// and --resume goes from idle straight to applying. The consent record is
// written beside this (sharing.saves), so quitting waits for it whatever
// the phase.
type phase int

const (
	phaseIdle      phase = iota // nothing under way
	phasePreparing              // the proposal for the checked folders is being built, off the loop
	phaseReviewing              // the consent dialog is open (sharing.dialog)
	phaseApplying               // a confirmed set is on its way to the hub
)

func (p phase) String() string {
	switch p {
	case phaseIdle:
		return "idle"
	case phasePreparing:
		return "preparing"
	case phaseReviewing:
		return "reviewing"
	case phaseApplying:
		return "applying"
	}
	return "phase(" + itoa(int(p)) + ")"
}

// sharing is the consented set's one owner: the sets, each under one name,
// the phase of the pipeline that changes them, and the work pending on it.
// Its transitions are its methods; Model turns their results into
// commands and notes.
type sharing struct {
	phase  phase
	dialog *consentDialog // set only in phaseReviewing

	// The sets.
	served     []consent.Root      // what the hub serves (as of the last rootsServedMsg)
	confirmed  []consent.Root      // what the person last confirmed (or resumed): what --print writes
	grants     map[string][]string // for confirmed roots, by URI: the warnings the person acknowledged (Record.Granted)
	remembered map[string]bool     // checked from the consent store at start, not served yet
	withdrawn  map[string]string   // served roots the hub took back since: path → why

	// Pending work.
	reviewNext bool              // enter came while applying: review once served
	undo       []string          // the checks to put back if the review is cancelled (enter took a row, ctrl+d unchecked all)
	revoking   bool              // the review is ctrl+d's: stop sharing everything
	leftOut    string            // the warned roots left out at the last y, for the result line
	typeAhead  []tea.KeyPressMsg // keys pressed while preparing, for the dialog
	saves      int               // consent writes still running
	quitting   bool              // quit waits for saves
}

// busy reports whether a review cannot start now: one is being built or is
// open.
func (s *sharing) busy() bool { return s.phase == phasePreparing || s.phase == phaseReviewing }

// applying reports whether a confirmed set has not reached the hub yet.
func (s *sharing) applying() bool { return s.phase == phaseApplying }

// review asks to review the checked folders (enter). It reports whether to
// build the proposal now; while applying, the review is kept for when the
// change is served.
func (s *sharing) review() bool {
	switch s.phase {
	case phaseIdle:
		s.phase = phasePreparing
		return true
	case phaseApplying:
		s.reviewNext = true
	case phasePreparing, phaseReviewing:
	}
	return false
}

// proposed takes the dialog built for the proposal. An empty change opens
// nothing (idle again, reported false); otherwise the dialog is open.
func (s *sharing) proposed(d *consentDialog, empty bool) bool {
	if s.phase != phasePreparing {
		return false // not asked for (a stale proposal)
	}
	if empty {
		s.phase, s.undo, s.revoking = phaseIdle, nil, false
		return false
	}
	d.revokeAll = s.revoking
	s.phase, s.dialog = phaseReviewing, d
	return true
}

// cancel closes the dialog with nothing changed; it returns the checks to
// put back, if any.
func (s *sharing) cancel() []string {
	if s.phase != phaseReviewing {
		return nil
	}
	undo := s.undo
	s.phase, s.dialog, s.undo, s.revoking = phaseIdle, nil, nil, false
	return undo
}

// confirm closes the dialog on y: final is now the confirmed set, on its
// way to the hub. Only an open dialog confirms.
func (s *sharing) confirm(final []consent.Root, grants map[string][]string) bool {
	if s.phase != phaseReviewing {
		return false
	}
	s.phase, s.dialog, s.undo, s.revoking = phaseApplying, nil, nil, false
	s.confirmed, s.grants = final, grants
	for _, r := range final {
		delete(s.withdrawn, r.Path) // consented again
	}
	s.remembered = nil
	return true
}

// resume serves the remembered set without a dialog (--resume).
func (s *sharing) resume(roots []consent.Root, grants map[string][]string) bool {
	if s.phase != phaseIdle {
		return false
	}
	s.phase, s.confirmed, s.grants, s.remembered = phaseApplying, roots, grants, nil
	return true
}

// servedNow records that the hub serves roots. It reports whether a review
// asked for meanwhile starts now.
func (s *sharing) servedNow(roots []consent.Root) bool {
	s.served = roots
	if s.phase != phaseApplying {
		return false
	}
	s.phase = phaseIdle
	if s.reviewNext {
		s.reviewNext = false
		s.phase = phasePreparing
		return true
	}
	return false
}

// saved counts a finished write; it reports whether the program may now
// end (a quit was waiting for it).
func (s *sharing) saved() bool {
	s.saves--
	return s.saves == 0 && s.quitting
}

// quit asks to end the program: it reports whether that may happen now,
// or must wait for the consent being written.
func (s *sharing) quit() bool {
	if s.saves > 0 {
		s.quitting = true
		return false
	}
	return true
}
