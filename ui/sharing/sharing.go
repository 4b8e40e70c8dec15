// Package sharing is the picker's consented set and the pipeline that
// changes it: the sets (served, confirmed, remembered, withdrawn), the
// phase a change is in, and the work pending on it.
//
// It is a package of its own for one rule the compiler can hold: [State]
// is the only writer of those sets. The picker's model (package ui) asks
// it and calls its transitions; no other code can assign a field, and
// every slice and map is copied on the way in, so a caller that edits
// what it handed over changes nothing here. The dialog type is a type
// parameter so that the package needs nothing of the screen.
//
// The phases, exactly one at a time:
//
//	Idle ──review──▶ Preparing ──Proposed──▶ Reviewing ──Confirm──▶ Applying ──ServedNow──▶ Idle
//	                    │ (nothing to change)     │ Cancel                 │ (Review meanwhile:
//	                    ▼                         ▼                        ▼  Preparing again)
//	                   Idle                      Idle
//
// and [State.Resume] goes from Idle straight to Applying. The consent
// record is written beside this ([State.Saving], [State.Saved]), so
// quitting waits for it whatever the phase.
package sharing

import (
	"maps"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/rootpick/rootpick/consent"
)

// Phase is where the consent pipeline is.
type Phase int

// The phases, in the order a change goes through them.
const (
	Idle      Phase = iota // nothing under way
	Preparing              // the proposal for the checked folders is being built, off the loop
	Reviewing              // the consent dialog is open ([State.Dialog])
	Applying               // a confirmed set is on its way to the hub
)

func (p Phase) String() string {
	switch p {
	case Idle:
		return "idle"
	case Preparing:
		return "preparing"
	case Reviewing:
		return "reviewing"
	case Applying:
		return "applying"
	}
	return "phase(" + strconv.Itoa(int(p)) + ")"
}

// State is the consented set's one owner. D is the dialog a review shows;
// a *D exists exactly while the phase is [Reviewing]. The zero State is
// idle with nothing shared.
type State[D any] struct {
	phase  Phase
	dialog *D // set only while Reviewing

	// The sets.
	served     []consent.Root      // what the hub serves (as of the last ServedNow)
	confirmed  []consent.Root      // what the person last confirmed (or resumed): what --print writes
	grants     map[string][]string // for confirmed roots, by URI: the warnings the person acknowledged (Record.Granted)
	remembered map[string]bool     // checked from the consent store at start, not served yet
	withdrawn  map[string]string   // served roots the hub took back since: path → why
	version    uint64              // counts every change of the sets, for caches

	// Pending work.
	reviewNext bool     // a review was asked for while applying: start it once served
	undo       []string // the checks to put back if the review is cancelled
	revoking   bool     // the review is a revoke-all: stop sharing everything
	leftOut    string   // the warned roots left out at the last confirmation, for the result line
	saves      int      // consent writes still running
	quitting   bool     // a quit waits for the saves
}

// Phase is where the pipeline is.
func (s *State[D]) Phase() Phase { return s.phase }

// Dialog is the open dialog, nil unless the phase is [Reviewing]: whether
// a dialog is open is this, and nothing else.
func (s *State[D]) Dialog() *D { return s.dialog }

// Busy reports whether a review cannot start now: one is being built or
// is open.
func (s *State[D]) Busy() bool { return s.phase == Preparing || s.phase == Reviewing }

// Applying reports whether a confirmed set has not reached the hub yet.
func (s *State[D]) Applying() bool { return s.phase == Applying }

// Served is what the hub serves. It is replaced whole, never edited in
// place; the caller must not change it.
func (s *State[D]) Served() []consent.Root { return s.served }

// Confirmed is the set the person last confirmed (or resumed), nil before
// any; the caller must not change it.
func (s *State[D]) Confirmed() []consent.Root { return s.confirmed }

// Grants returns a copy of the confirmed roots' acknowledged warnings, by
// URI.
func (s *State[D]) Grants() map[string][]string { return maps.Clone(s.grants) }

// Version changes whenever one of the sets does (served, confirmed,
// remembered, withdrawn): a cache of anything derived from them is stale
// when it was built at another version.
func (s *State[D]) Version() uint64 { return s.version }

// IsServed reports whether path is served.
func (s *State[D]) IsServed(path string) bool {
	return slices.ContainsFunc(s.served, func(r consent.Root) bool { return r.Path == path })
}

// ServedReadOnly reports how path is served: read-only or read and
// write; ok is false when it is not served.
func (s *State[D]) ServedReadOnly(path string) (readOnly, ok bool) {
	i := slices.IndexFunc(s.served, func(r consent.Root) bool { return r.Path == path })
	if i < 0 {
		return false, false
	}
	return s.served[i].ReadOnly, true
}

// Withdrawn reports whether the hub withdrew path since it was last
// consented, and why.
func (s *State[D]) Withdrawn(path string) (why string, ok bool) {
	why, ok = s.withdrawn[path]
	return why, ok
}

// WithdrawnCount is how many roots the hub withdrew since they were last
// consented.
func (s *State[D]) WithdrawnCount() int { return len(s.withdrawn) }

// IsRemembered reports whether path was checked from the remembered
// consent and is not served yet.
func (s *State[D]) IsRemembered(path string) bool {
	return s.remembered[path] || s.remembered[filepath.Clean(path)]
}

// RememberedCount is how many remembered roots are still pending.
func (s *State[D]) RememberedCount() int { return len(s.remembered) }

// AnyRemembered reports whether a remembered root is still checked.
func (s *State[D]) AnyRemembered(checked func(path string) bool) bool {
	for p := range s.remembered {
		if checked(p) {
			return true
		}
	}
	return false
}

// Remember takes the remembered consent's paths, checked at start and not
// served.
func (s *State[D]) Remember(paths []string) {
	s.remembered = make(map[string]bool, len(paths))
	for _, p := range paths {
		s.remembered[p] = true
	}
	s.version++
}

// Review asks to review the checked folders. It reports whether to build
// the proposal now; while applying, the review is kept for when the
// change is served. undo, when not nil, is the checks to put back if the
// review is cancelled (a key took a row, or unchecked everything).
func (s *State[D]) Review(undo []string) bool {
	switch s.phase {
	case Idle:
		s.phase, s.undo = Preparing, slices.Clone(undo)
		return true
	case Applying:
		s.reviewNext = true
	case Preparing, Reviewing:
	}
	return false
}

// RevokeAll asks to review stopping sharing everything; undo is the
// checks to put back if it is cancelled. It reports whether to build the
// proposal now (only when idle).
func (s *State[D]) RevokeAll(undo []string) bool {
	if s.phase != Idle {
		return false
	}
	s.revoking = true
	return s.Review(undo)
}

// Revoking reports whether the review being built or shown is a
// revoke-all.
func (s *State[D]) Revoking() bool { return s.revoking }

// Proposed takes the dialog built for the proposal. An empty change opens
// nothing (idle again, reported false); otherwise the dialog is open.
func (s *State[D]) Proposed(d *D, empty bool) bool {
	if s.phase != Preparing || d == nil {
		return false // not asked for (a stale proposal)
	}
	if empty {
		s.phase, s.undo, s.revoking = Idle, nil, false
		return false
	}
	s.phase, s.dialog = Reviewing, d
	return true
}

// Cancel closes the dialog with nothing changed; it returns the checks to
// put back, if any.
func (s *State[D]) Cancel() []string {
	if s.phase != Reviewing {
		return nil
	}
	undo := s.undo
	s.phase, s.dialog, s.undo, s.revoking = Idle, nil, nil, false
	return undo
}

// Confirm closes the dialog: final is now the confirmed set, on its way to
// the hub; grants are its acknowledged warnings and leftOut names the
// warned roots left out, for the result line. Only an open dialog
// confirms. The remembered consent is history from here on.
func (s *State[D]) Confirm(final []consent.Root, grants map[string][]string, leftOut string) bool {
	if s.phase != Reviewing {
		return false
	}
	s.phase, s.dialog, s.undo, s.revoking = Applying, nil, nil, false
	s.confirmed, s.grants, s.leftOut = slices.Clone(final), maps.Clone(grants), leftOut
	if s.confirmed == nil {
		s.confirmed = []consent.Root{}
	}
	for _, r := range final {
		delete(s.withdrawn, r.Path) // consented again
	}
	s.remembered = nil
	s.version++
	return true
}

// Resume serves the remembered set without a dialog (--resume).
func (s *State[D]) Resume(roots []consent.Root, grants map[string][]string) bool {
	if s.phase != Idle {
		return false
	}
	s.phase, s.confirmed, s.grants, s.remembered = Applying, slices.Clone(roots), maps.Clone(grants), nil
	if s.confirmed == nil {
		s.confirmed = []consent.Root{}
	}
	s.version++
	return true
}

// LeftOut names the warned roots left out at the last confirmation ("" when
// none).
func (s *State[D]) LeftOut() string { return s.leftOut }

// ServedNow records that the hub serves roots. It reports whether a
// review asked for meanwhile starts now.
func (s *State[D]) ServedNow(roots []consent.Root) bool {
	s.served = slices.Clone(roots)
	s.version++
	if s.phase != Applying {
		return false
	}
	s.phase = Idle
	if s.reviewNext {
		s.reviewNext = false
		s.phase = Preparing
		return true
	}
	return false
}

// Withdraw records that the hub took path back (deleted, renamed, …): it
// is no longer served, and only a new consent shares it again.
func (s *State[D]) Withdraw(path, why string) {
	s.served = slices.DeleteFunc(slices.Clone(s.served), func(r consent.Root) bool { return r.Path == path })
	if s.withdrawn == nil {
		s.withdrawn = map[string]string{}
	}
	s.withdrawn[path] = why
	s.version++
}

// Saving counts a consent write that started.
func (s *State[D]) Saving() { s.saves++ }

// Saves is how many consent writes are still running.
func (s *State[D]) Saves() int { return s.saves }

// Saved counts a finished write; it reports whether the program may now
// end (a quit was waiting for it).
func (s *State[D]) Saved() bool {
	s.saves = max(s.saves-1, 0)
	return s.saves == 0 && s.quitting
}

// Quit asks to end the program: it reports whether that may happen now,
// or must wait for the consent being written.
func (s *State[D]) Quit() bool {
	if s.saves > 0 {
		s.quitting = true
		return false
	}
	return true
}

// Quitting reports whether a quit waits for the consent being written.
func (s *State[D]) Quitting() bool { return s.quitting }
