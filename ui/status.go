package ui

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
	servers func(w int) string // the roots and servers' line at width w, which the note follows
	asking  func() bool        // whether the note is a question (ask.go)
	// where, with no note, is the highlighted row's path where no details
	// pane shows it (a narrow terminal), else "".
	where func() string
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
	line := l.servers(l.w)
	note, st := l.note, l.st.dim
	if l.noteErr {
		st = l.st.err
	}
	if note == "" && l.where != nil {
		if where := l.where(); where != "" { // on a line of its own, so the servers' line stays put
			return cut(line, l.w, "…") + "\n" + st.Render(wrapText(where, l.w))
		}
	}
	if note == "" {
		return cut(line, l.w, "…")
	}
	if cellWidth(line)+2+cellWidth(note) <= l.w {
		return line + "  " + st.Render(note)
	}
	return cut(line, l.w, "…") + "\n" + st.Render(wrapText(note, l.w))
}
