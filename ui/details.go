package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/vcsdetect"
)

// The details pane shows the facts of the highlighted repository: to the
// right of the list at 120 columns or more (a third of the width, so that
// the list's paths keep theirs), below it from 80×24, not at all on
// smaller terminals, where the status line shows the highlighted row's
// path instead. The facts are read off the Update loop, the
// highlighted row first (facts.go), and kept for the scan; the pane shows
// "reading…" until they come and never waits for them.
const (
	detailsSideMin   = 120 // columns from which the pane sits beside the list
	detailsBelowMinW = 80
	detailsBelowMinH = 24
	detailsBelowRows = 6
)

// detailsMode says where the pane goes at this size: "side", "below" or
// "" (hidden); only beside the list, not the dialog, help or server pane.
func (m *Model) detailsMode() string {
	switch {
	case m.width >= detailsSideMin && m.height >= detailsBelowMinH:
		return "side"
	case m.width >= detailsBelowMinW && m.height >= detailsBelowMinH:
		return "below"
	}
	return ""
}

// labelled is the lines of text, the first after label and the others
// after as many spaces, each made by line.
func labelled(label, text string, line func(label, l string) string) []string {
	var out []string
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			label = strings.Repeat(" ", len(label))
		}
		out = append(out, line(label, l))
	}
	return out
}

func (m *Model) detailsWidth() int { return m.width / 3 }

// sideListWidth is the list's width when the pane is beside it: the rest
// of the row but the pane (detailsWidth), its border and a blank column.
func (m *Model) sideListWidth() int { return m.width - m.detailsWidth() - 2 }

// detailsView draws the pane for the highlighted repository in w×h.
func (m *Model) detailsView(w, h int) string {
	r, ok := m.picker.Current()
	if !ok || w < 10 || h < 1 {
		return ""
	}
	line := func(label, value string) string {
		return cut(m.st.dim.Render(label)+value, w, "…")
	}
	mid := func(s string) string { return midCut(s, max(w-9, 8)) }
	// A path or URI is wrapped, never cut, at a / where it can: where it
	// leaves DIR is what tells the folder is outside it.
	wrapped := func(label, value string) []string {
		var out []string
		for i, l := range strings.Split(ansi.Wrap(value, max(w-9, 8), "/"), "\n") {
			if i > 0 {
				label = "         "
			}
			out = append(out, line(label, l))
		}
		return out
	}
	rows := []string{cut(m.st.title.Render(safetext.Escape(r.Name)), w, "…")}
	f, known := m.facts.known[r.Path]
	// The path and the URI (the very thing shared) come right after the
	// warnings and are never dropped; a short pane drops the rows after
	// them instead (fitDetails).
	// The warnings come first, so that a short pane never cuts them.
	for _, warn := range f.warnings {
		// Wrapped at spaces, never cut: the end names the file.
		rows = append(rows, labelled("warning  ", ansi.Wrap("⚠ "+safetext.Escape(warn), max(w-9, 8), ""), func(label, l string) string {
			return line(label, m.st.warn.Render(l))
		})...)
	}
	rows = append(rows, wrapped("path     ", safetext.Escape(r.Path))...)
	if known && f.uri != "" {
		rows = append(rows, wrapped("uri      ", f.uri)...)
	}
	kind := string(r.Kind)
	if r.Reason != "" {
		kind += " (" + safetext.Escape(r.Reason) + ")"
	}
	if r.Marker != "" {
		kind += " (" + safetext.Escape(r.Marker) + ")"
	}
	rows = append(rows, line("kind     ", kind))
	if !known {
		rows = append(rows, m.st.dim.Render("reading…"))
		return strings.Join(rows, "\n")
	}
	d := f.det
	if d.Head != "" {
		head := safetext.Escape(d.Head)
		if d.Detached {
			head += " (detached)"
		}
		if d.Upstream != "" {
			head += m.st.dim.Render(" → " + safetext.Escape(d.Upstream))
			switch {
			case !d.Counted:
				head += m.st.dim.Render("  ↑? ↓? not counted")
			case d.Ahead > 0 || d.Behind > 0:
				head += " ↑" + itoa(d.Ahead) + " ↓" + itoa(d.Behind)
			default:
				head += m.st.dim.Render("  in step")
			}
		}
		rows = append(rows, line("branch   ", head))
	}
	if d.Remote != "" {
		rows = append(rows, line("remote   ", mid(safetext.Escape(d.Remote))))
	}
	if !d.LastCommit.IsZero() {
		rows = append(rows, line("commit   ", d.LastCommit.Local().Format("2006-01-02 15:04")+" "+safetext.Escape(d.Subject)))
	}
	switch d.State {
	case vcsdetect.StateDirty:
		rows = append(rows, line("state    ", m.st.warn.Render("dirty (uncommitted changes)")))
	case vcsdetect.StateClean:
		rows = append(rows, line("state    ", m.st.ok.Render("clean")))
	case vcsdetect.StateUnknown:
		rows = append(rows, line("state    ", "unknown"))
	}
	if f.err != "" {
		rows = append(rows, line("share    ", m.st.err.Render("cannot be shared: "+safetext.Escape(f.err))))
	}
	return strings.Join(rows, "\n")
}

// withDetails lays the list and the pane out together in the body's
// w×h, as detailsMode says. The drawn pane is kept until the highlighted
// repository, its facts or the size change: moving through the list
// redraws it once per row, not once per frame.
func (m *Model) withDetails(list string, w, h int) string {
	mode := m.detailsMode()
	if mode == "" {
		return list
	}
	r, _ := m.picker.Current()
	_, known := m.facts.known[r.Path]
	key := paneKey{path: r.Path, known: known, w: w, h: h, mode: mode}
	if key != m.paneKey {
		m.paneKey, m.pane = key, m.drawPane(mode, w, h)
	}
	switch mode {
	case "side":
		// The list, and a blank column before the pane's border.
		return joinSide(strings.Split(fit(list, m.sideListWidth(), h), "\n"), m.sideListWidth()+1, m.pane)
	default:
		rows := min(detailsBelowRows, max(h/3, 1))
		return fit(list, w, h-rows) + "\n" + m.pane
	}
}

// sidePane draws the side pane: content fitted into pw-2 columns and h
// rows, each line after the rule (a left border of the rule's colour) and
// a space, padded to pw cells in all, as the lipgloss style with that
// border, padding and size draws it (TestSidePaneIsLipgloss), without its
// measuring every line again.
func sidePane(content string, pw, h int, rule ink) string {
	lines := strings.Split(fit(content, pw-2, h), "\n")
	bar := rule.Render("│") + " "
	for i, l := range lines {
		lines[i] = bar + padRight(l, pw-2)
	}
	return strings.Join(lines, "\n")
}

// joinSide lays left's lines, each padded to lw cells, beside right's, each
// padded to the widest of them, top-aligned, as lipgloss.JoinHorizontal
// does, measuring each line once with cellWidth.
func joinSide(left []string, lw int, right string) string {
	rl := strings.Split(right, "\n")
	rw, size := 0, 0
	for _, l := range rl {
		rw = max(rw, cellWidth(l))
		size += len(l)
	}
	for _, l := range left {
		size += len(l)
	}
	n := max(len(left), len(rl))
	// One allocation: the lines, the padding (at most every cell of both
	// sides) and the line breaks; a key draws this whole body.
	var b strings.Builder
	b.Grow(size + n*(lw+rw+1))
	for i := range n {
		if i > 0 {
			b.WriteByte('\n')
		}
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(rl) {
			r = rl[i]
		}
		writePadded(&b, l, lw)
		writePadded(&b, r, rw)
	}
	return b.String()
}

// writePadded writes s to b, then spaces up to w cells (padRight without
// the padded copy).
func writePadded(b *strings.Builder, s string, w int) {
	b.WriteString(s)
	for range w - cellWidth(s) {
		b.WriteByte(' ')
	}
}

// paneKey is what the drawn details pane depends on.
type paneKey struct {
	path  string
	known bool
	w, h  int
	mode  string
}

func (m *Model) drawPane(mode string, w, h int) string {
	if mode == "side" {
		pw := m.detailsWidth()
		return sidePane(m.detailsView(pw-2, h), pw, h, m.st.rule)
	}
	rows := min(detailsBelowRows, max(h/3, 1))
	return m.st.dim.Render(strings.Repeat("─", w)) + "\n" + fit(m.detailsView(w, rows-1), w, rows-1)
}
