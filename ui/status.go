package ui

// statusLine is the status line as a component: it owns its width and
// the note of the last action; the line about the roots and the servers
// is handed to it on each frame (statusFrame, Model.statusFrame). The
// note follows that line when it fits, else on lines of its own below,
// wrapped: a result or a reason is cut only where the terminal is too
// short for it and the rows (statusFrame.noteRows). A question takes the
// whole line and is never cut.
type statusLine struct {
	*common
	w       int
	note    string // one-line feedback on the last action, or the question asked
	noteErr bool
}

var _ framed[statusFrame] = (*statusLine)(nil)

// statusFrame is what the status line draws beside its note on one frame.
type statusFrame struct {
	servers string // the roots and servers' line at the line's width, which the note follows
	asking  bool   // the note is a question (ask.go)
	// where, with no note, is the highlighted row's path where no details
	// pane shows it (a narrow terminal), else "".
	where string
	// noteRows is the most lines a note wrapped below the line may take
	// (a short terminal: chromeHeight), its last kept line ending in "…";
	// 0 for all. A question is never shortened.
	noteRows int
}

// SetSize gives the line its width; its height is what it needs.
func (l *statusLine) SetSize(w, _ int) { l.w = w }

// set shows note, as an error (or question) when isErr.
func (l *statusLine) set(note string, isErr bool) { l.note, l.noteErr = note, isErr }

// View draws the line and its note.
func (l *statusLine) View(f statusFrame) string {
	if f.asking { // the question takes the whole line, wrapped
		return l.st.err.Render(wrapText(l.note, l.w))
	}
	line := f.servers
	note, st := l.note, l.st.dim
	if l.noteErr {
		st = l.st.err
	}
	if note == "" {
		if where := f.where; where != "" { // on a line of its own, so the servers' line stays put
			return cut(line, l.w, "…") + "\n" + st.Render(wrapText(where, l.w))
		}
	}
	if note == "" {
		return cut(line, l.w, "…")
	}
	if cellWidth(line)+2+cellWidth(note) <= l.w {
		return line + "  " + st.Render(note)
	}
	return cut(line, l.w, "…") + "\n" + st.Render(keepLines(wrapText(note, l.w), f.noteRows, l.w))
}
