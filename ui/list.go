package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/picker"
	"github.com/rootpick/rootpick/vcsdetect"
)

// listView draws the candidates with their checkboxes. It keeps only the
// scroll offset; what is shown, checked and highlighted lives in picker.State.
type listView struct {
	width, height int
	offset        int
	dir           string
	st            styles
}

// SetSize sets the area the list may draw in.
func (l *listView) SetSize(w, h int) { l.width, l.height = max(w, 0), max(h, 0) }

// follow scrolls so that the cursor row is visible.
func (l *listView) follow(cursor, total int) {
	if l.height <= 0 {
		return
	}
	if cursor < l.offset {
		l.offset = cursor
	}
	if cursor >= l.offset+l.height {
		l.offset = cursor - l.height + 1
	}
	l.offset = max(0, min(l.offset, total-l.height))
}

// label is a repository's path relative to the scanned folder ("." for the
// folder itself), cleaned of control characters: the text the filter
// matches (picker.Label).
func (l *listView) label(r vcsdetect.Repo) string {
	return safetext.Escape(picker.Label(l.dir, r.Path))
}

// View draws the shown rows; tags gives a row's state column (shared, to
// add, to remove, covered, withdrawn, remembered: see rows.go), so the
// person sees what the servers see and what a confirmation would change,
// not only what is checked.
func (l *listView) View(p *picker.State, scanning bool, state func(path string) string) string {
	if l.width <= 0 || l.height <= 0 {
		return ""
	}
	n := p.ShownLen()
	if n == 0 {
		msg := "No repositories found."
		switch {
		case scanning:
			msg = "Scanning…"
		case p.Len() > 0:
			msg = "Nothing matches the filter."
		}
		return l.st.dim.Render(ansi.Truncate("  "+msg, l.width, "…"))
	}
	// Right-hand columns: tags (state, kind) and branch, each as wide as
	// its widest visible cell; the tags take at most half of the row and
	// the branch at most a third. Only the visible rows are read.
	end := min(n, l.offset+l.height)
	tags := make([]string, end-l.offset)
	tw, bw := 0, 0
	for i := l.offset; i < end; i++ {
		r := p.ShownAt(i)
		var t []string
		if s := state(r.Path); s != "" {
			t = append(t, s)
		}
		if r.Kind != vcsdetect.KindGit && r.Kind != "" {
			t = append(t, l.st.kind.Render(string(r.Kind)))
		}
		tags[i-l.offset] = ansi.Truncate(strings.Join(t, " "), l.width/2, "…")
		tw = max(tw, lipgloss.Width(tags[i-l.offset]))
		bw = max(bw, lipgloss.Width(safetext.Escape(r.Branch)))
	}
	bw = min(bw, l.width/3)

	rows := make([]string, 0, end-l.offset)
	for i := l.offset; i < end; i++ {
		r := p.ShownAt(i)
		cur := i == p.Cursor()
		pointer, box := "  ", "[ ]"
		if cur {
			pointer = l.st.cursor.Render("› ")
		}
		if p.IsChecked(r.Path) {
			box = l.st.checked.Render("[x]")
		}
		raw := picker.Label(l.dir, r.Path)
		label := safetext.Escape(raw)
		pos := p.MatchedAt(i)
		right := ""
		if tw > 0 {
			right = padRight(tags[i-l.offset], tw) + " "
		}
		if bw > 0 {
			branch := safetext.Escape(r.Branch)
			if len(pos) > 0 && branch == r.Branch {
				// The branch follows the label and a space in the haystack.
				branch = highlight(branch, pos, len(raw)+1, l.st.branch, matchStyle(l.st.branch), false)
			} else {
				branch = l.st.branch.Render(branch)
			}
			right += padRight(ansi.Truncate(branch, bw, "…"), bw)
		}
		nameWidth := l.width - 2 - 4 - lipgloss.Width(right) - 1
		name := label
		switch {
		case len(pos) > 0 && label == raw:
			// Escaped names are not highlighted: the offsets are into the raw text.
			base := lipgloss.NewStyle()
			if cur {
				base = l.st.cursor
			}
			name = highlight(label, pos, 0, base, matchStyle(base), !cur)
		case cur:
			name = l.st.cursor.Render(label)
		}
		name = midCut(name, max(nameWidth, 1))
		gap := max(1, l.width-2-4-lipgloss.Width(name)-lipgloss.Width(right))
		row := pointer + box + " " + name + strings.Repeat(" ", gap) + right
		rows = append(rows, ansi.Truncate(row, l.width, ""))
	}
	return strings.Join(rows, "\n")
}

// matchStyle marks the characters the filter matched: underlined and bold
// on top of the row's own style, so a match is not told by colour alone.
func matchStyle(base lipgloss.Style) lipgloss.Style {
	return base.Underline(true).Bold(true)
}

// padRight pads s with spaces to w cells.
func padRight(s string, w int) string {
	return s + strings.Repeat(" ", max(0, w-lipgloss.Width(s)))
}
