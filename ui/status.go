package ui

import (
	"github.com/charmbracelet/x/ansi"
)

// statusLine is the status line as a component: it owns its width and
// the note of the last action; the line about the roots and the servers
// comes from its source (the model). The note follows that line when it
// fits, else on lines of its own below, wrapped: a result or a reason is
// never cut. A question takes the whole line.
type statusLine struct {
	*common
	w       int
	note    string // one-line feedback on the last action, or the question asked
	noteErr bool
	fleet   *fleet      // the servers, whose line the note follows
	asking  func() bool // whether the note is a question (ask.go)
}

var _ component = (*statusLine)(nil)

// SetSize gives the line its width; its height is what it needs.
func (l *statusLine) SetSize(w, _ int) { l.w = w }

// set shows note, as an error (or question) when isErr.
func (l *statusLine) set(note string, isErr bool) { l.note, l.noteErr = note, isErr }

// View draws the line and its note.
func (l *statusLine) View() string {
	if l.asking() { // the question takes the whole line, wrapped
		return l.st.err.Render(wrapText(l.note, l.w))
	}
	line := l.fleet.line(l.w)
	if l.note == "" {
		return ansi.Truncate(line, l.w, "…")
	}
	st := l.st.dim
	if l.noteErr {
		st = l.st.err
	}
	if ansi.StringWidth(line)+2+ansi.StringWidth(l.note) <= l.w {
		return line + "  " + st.Render(l.note)
	}
	return ansi.Truncate(line, l.w, "…") + "\n" + st.Render(wrapText(l.note, l.w))
}
