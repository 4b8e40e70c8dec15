package ui

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// unconfirmed counts the checks that differ from what is served: folders
// checked but not shared (unless the hub withdrew them, or they were
// checked from the remembered consent), shared folders unchecked, and
// shared folders whose access (read-only, read and write) was switched.
func (m *Model) unconfirmed() int {
	shared := m.sharedPaths()
	n := 0
	// Counted in the checked set's own order: a sorted copy of 40,000
	// checked paths was most of what esc cost (TestKeyCostDoesNotGrowWithTheList).
	m.picker.EachCheckedWhile(func(p string) bool {
		if _, gone := m.review.sh.Withdrawn(p); !shared[p] && !gone && !m.review.sh.IsRemembered(p) {
			n++ // a withdrawn or remembered root is not a change the person made
		}
		return true
	})
	for p := range shared {
		if !m.picker.IsChecked(p) {
			n++
		}
	}
	for _, r := range m.review.sh.Served() {
		if m.picker.IsChecked(r.Path) && m.picker.IsReadOnly(r.Path) != r.ReadOnly {
			n++ // an access changed alone is a change too
		}
	}
	return n
}

// question is the modeAsk question asked, and when (a question that
// throws work away takes no key pressed in the moment it appeared).
type question struct {
	kind askKind
	at   time.Time
}

// askKind is what a question asks: its yes does it, any other key goes
// back.
type askKind int

const (
	askNone       askKind = iota // no question is asked
	askQuit                      // discard unconfirmed changes and quit
	askCheckAll                  // check every row shown, some off screen
	askUncheckAll                // uncheck every row shown, some off screen
)

// checkShown checks (on) or unchecks every row the filter shows; when some
// of the rows it would change are off screen, it asks first, so that one
// key cannot change what the person cannot see.
func (m *Model) checkShown(on bool) tea.Cmd {
	n, off := 0, 0
	top, h := m.list.offset, m.list.height
	for i := range m.picker.ShownLen() {
		if m.picker.IsChecked(m.picker.ShownAt(i).Path) != on {
			n++
			if i < top || i >= top+h {
				off++
			}
		}
	}
	verb, q := "Check", askCheckAll
	if !on {
		verb, q = "Uncheck", askUncheckAll
	}
	switch {
	case n == 0:
		m.setNote("Nothing to "+strings.ToLower(verb)+": every row shown already is.", false)
		return nil
	case off > 0:
		m.question = question{kind: q, at: m.clock()}
		what := itoa(n) + " " + noun(n, "row", "rows")
		if m.picker.Filter() != "" {
			what += " matching " + strconv.Quote(m.picker.Filter())
		}
		m.setNote(verb+" "+what+"? "+itoa(off)+" "+noun(off, "is", "are")+" off screen. "+keyName(askYes)+" does it, any other key goes back.", true)
		return nil
	}
	m.doCheckShown(on)
	return nil
}

func (m *Model) doCheckShown(on bool) {
	m.picker.CheckShown(on)
	m.setNote("", false)
}

// quit ends the program, first asking when checks are unconfirmed, and
// waiting for consent still being written (the next launch must remember a
// y pressed just before q).
func (m *Model) quit() tea.Cmd {
	if n := m.unconfirmed(); n > 0 && !m.review.sh.Applying() {
		m.question = question{kind: askQuit, at: m.clock()}
		m.setNote("Discard "+itoa(n)+" unconfirmed "+noun(n, "change", "changes")+"? "+keyName(askDiscard)+" or "+keyName(m.keys.QuitNow)+" quits, "+keyName(m.keys.Review)+" reviews them, any other key goes back.", true)
		return nil
	}
	return m.finish()
}

// askYes answers a question yes. It is enter, not a letter: a question
// asked while the person types (esc, then "yarn") must not take the y of
// a word as its answer.
var askYes = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "yes"))

// askDiscard says yes to the question that throws unconfirmed changes
// away, beside the quit key again: a letter, but taken only as a key of
// its own, pressed once the question has been up for the arm delay, so
// that a word typed across the question ("yarn") never answers it. Not
// enter: everywhere else enter reviews and shares, and here it does too.
var askDiscard = key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "discard and quit"))

// answer takes the answer to the question asked: askYes (for the quit
// question: the quit key again, or askDiscard on its own; enter reviews
// the changes) says yes; any other key says no, and a key that types text
// goes on to the query, so a word typed across the question is not lost.
func (m *Model) answer(msg tea.KeyPressMsg) tea.Cmd {
	asked := m.question
	m.question = question{}
	yes := key.Matches(msg, askYes)
	switch asked.kind {
	case askQuit:
		if key.Matches(msg, m.keys.QuitNow) || key.Matches(msg, askDiscard) && m.clock().Sub(asked.at) >= m.cfg.ArmDelay {
			return m.finish()
		}
		if key.Matches(msg, m.keys.Review) {
			return m.toReview(reviewAsked{})
		}
		m.setNote("Not quitting: the unconfirmed changes are still checked ("+keyName(m.keys.Review)+" reviews them).", false)
	case askCheckAll, askUncheckAll:
		if yes {
			m.doCheckShown(asked.kind == askCheckAll)
			return nil
		}
		m.setNote("Nothing checked or unchecked.", false)
	case askNone: // (not asked: the key went elsewhere)
		return nil
	}
	if msg.Text != "" && m.page == pageList {
		return m.editQuery(msg)
	}
	return nil
}

func (m *Model) finish() tea.Cmd {
	if !m.review.sh.Quit() {
		m.setNote("Remembering the consent, then quitting…", false)
		return nil
	}
	m.walk.stop() // a walk still running would outlive the screen
	m.closePool()
	return tea.Quit
}
