package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
)

// consentDialog shows exactly what a confirmation would add and remove. It
// is a value: it holds one proposal, and answering it yields a decision for
// that proposal only.
type consentDialog struct {
	id       int            // which opening this is; arming ticks carry it
	armed    bool           // keys are ignored until the type-ahead guard passes
	proposed []consent.Root // the full set that y would serve
	change   consent.Change
	problems []string // selected folders that cannot be shared, with why
	servers  string   // who will receive the roots
	width    int
	height   int
	st       styles
}

// SetSize sets the area the dialog may use; it draws a box within it.
func (d *consentDialog) SetSize(w, h int) { d.width, d.height = max(w, 0), max(h, 0) }

func (d *consentDialog) View() string {
	if d.width < 8 || d.height < 3 {
		return ""
	}
	inner := max(d.width-4, 4) // border and padding
	line := func(s string) string { return ansi.Truncate(s, inner, "…") }
	rows := d.rows(line, true)
	maxRows := d.height - 2 // the border
	if len(rows) > maxRows {
		rows = d.rows(line, false) // drop the URI lines first
	}
	if len(rows) > maxRows && maxRows >= 4 {
		// Still too long: keep the title, as many changes as fit, and the
		// summary line, which always counts what is added and removed.
		keep := maxRows - 2
		hidden := len(rows) - 1 - keep
		rows = append(append(rows[:keep:keep], d.st.dim.Render(line(fmt.Sprintf("  … %d more", hidden)))), rows[len(rows)-1])
	}
	box := d.st.dialog.Width(min(d.width, maxLineWidth(rows)+4)).Render(strings.Join(rows, "\n"))
	return box
}

// rows are the dialog's lines; withURIs adds each root's URI under its path.
func (d *consentDialog) rows(line func(string) string, withURIs bool) []string {
	var rows []string
	var title string
	switch {
	case d.change.Empty():
		title = "Nothing to change"
	case len(d.change.Added) == 0:
		title = "Stop sharing with " + d.servers + "?"
	default:
		title = "Share with " + d.servers + "?"
	}
	rows = append(rows, d.st.title.Render(line(title)))
	if withURIs {
		rows = append(rows, "")
	}
	entry := func(sign string, st lipgloss.Style, r consent.Root) {
		rows = append(rows, st.Render(line(sign+" "+clean(r.Path))))
		if withURIs {
			rows = append(rows, d.st.dim.Render(line("    "+r.URI)))
		}
	}
	for _, r := range d.change.Added {
		entry("+", d.st.added, r)
	}
	for _, r := range d.change.Removed {
		entry("−", d.st.removed, r)
	}
	if n := len(d.change.Kept); n > 0 {
		rows = append(rows, d.st.dim.Render(line(fmt.Sprintf("  %d already shared, kept", n))))
	}
	if d.change.Empty() {
		msg := fmt.Sprintf("The %d checked folders are exactly what is shared.", len(d.proposed))
		switch len(d.proposed) {
		case 0:
			msg = "Nothing is checked and nothing is shared."
		case 1:
			msg = "The checked folder is exactly what is shared."
		}
		rows = append(rows, d.st.dim.Render(line(msg)))
	}
	for _, p := range d.problems {
		rows = append(rows, d.st.warn.Render(line("! "+clean(p))))
	}
	if withURIs {
		rows = append(rows, "")
	}
	return append(rows, d.summary(line))
}

func (d *consentDialog) summary(line func(string) string) string {
	if !d.armed {
		return d.st.dim.Render(line("…"))
	}
	if d.change.Empty() {
		return line(d.st.title.Render("n") + d.st.dim.Render("/esc close"))
	}
	return line(fmt.Sprintf("%s confirm  %s cancel   %s",
		d.st.title.Render("y"), d.st.title.Render("n/esc"),
		d.st.dim.Render(fmt.Sprintf("(%d added, %d removed)", len(d.change.Added), len(d.change.Removed)))))
}

func maxLineWidth(rows []string) int {
	w := 0
	for _, r := range rows {
		w = max(w, lipgloss.Width(r))
	}
	return w
}
