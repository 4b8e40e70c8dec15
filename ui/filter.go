package ui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/picker"
)

// syncFilterMax is the largest list the filter matches inside Update.
// Fuzzy matching costs about a microsecond a candidate (more for a
// one-letter query that everything matches), so above this a query is
// matched in a command and the keystroke returns at once.
const syncFilterMax = 2000

// filterResultMsg is a query matched off the Update loop. It is applied
// only if it is for the query typed last and the candidates it was
// matched against are still current (picker.State.Apply).
type filterResultMsg struct{ res picker.Result }

// runFilter matches q; it reads only q's snapshot of the candidates.
func runFilter(q picker.Query) tea.Cmd {
	return func() tea.Msg { return filterResultMsg{q.Run()} }
}

// requestFilter asks for the filter text: matched at once on a small list,
// else in a command stamped with the text.
func (m *Model) requestFilter(text string) tea.Cmd {
	m.filterWant = text
	if text == m.picker.Filter() {
		return nil
	}
	q := m.picker.Prepare(text)
	if m.picker.Len() <= m.filterSyncMax || strings.TrimSpace(text) == "" || q.Ready(m.filterSyncMax) {
		m.applyFilter(q.Run())
		return nil
	}
	return runFilter(q)
}

// onFilterResult shows a result unless the person has typed on since (a
// result for an old query never replaces a newer one), and asks again when
// the candidates changed under it.
func (m *Model) onFilterResult(msg filterResultMsg) tea.Cmd {
	if msg.res.Text != m.filterWant || msg.res.Superseded() {
		return nil // a newer query's result is on its way
	}
	if !m.applyFilter(msg.res) {
		return runFilter(m.picker.Prepare(m.filterWant))
	}
	return nil
}

func (m *Model) applyFilter(res picker.Result) bool {
	before := m.picker.Filter()
	if !m.picker.Apply(res) {
		return false
	}
	if before != m.picker.Filter() {
		m.list.offset = 0
	}
	m.keys.ClearFilter.SetEnabled(m.picker.Filter() != "" && !m.in(modeFilter))
	m.list.follow(m.picker.Cursor(), m.picker.ShownLen())
	return true
}

// filterPending reports whether a typed query has not been applied yet.
func (m *Model) filterPending() bool {
	if strings.TrimSpace(m.filterWant) == "" {
		return m.picker.Filter() != "" // spaces alone are no filter
	}
	return m.filterWant != m.picker.Filter()
}

// filterKey handles a key while the query is open. As in fzf, the list
// keeps answering: ↑/↓ (ctrl+k/ctrl+j) move, tab toggles and moves down;
// every other key edits the query.
func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.fkeys
	switch {
	case key.Matches(msg, k.Keep):
		m.close()
		m.filter.Blur()
	case key.Matches(msg, k.Drop):
		m.close()
		m.filter.Blur()
		m.filterWant = ""
		m.picker.SetFilter("")
	case key.Matches(msg, k.Up):
		m.picker.Move(-1)
		m.list.follow(m.picker.Cursor(), m.picker.ShownLen())
		return nil
	case key.Matches(msg, k.Down):
		m.picker.Move(1)
		m.list.follow(m.picker.Cursor(), m.picker.ShownLen())
		return nil
	case key.Matches(msg, k.Toggle), key.Matches(msg, k.ToggleUp):
		m.toggle()
		if key.Matches(msg, k.Toggle) {
			m.picker.Move(1)
		} else {
			m.picker.Move(-1)
		}
		m.list.follow(m.picker.Cursor(), m.picker.ShownLen())
		return nil
	default:
		var cmd tea.Cmd
		m.filter, cmd = m.filter.Update(msg)
		return tea.Batch(cmd, m.requestFilter(m.filter.Value()))
	}
	m.keys.ClearFilter.SetEnabled(m.picker.Filter() != "" || m.filterWant != "")
	m.layout()
	return nil
}

// filterLine is the line above the list: the query being typed, or the
// filter kept; "…" while a typed query is still being matched. The help,
// the server pane and the dialog, which do not show the list, leave it out.
func (m *Model) filterLine() (string, bool) {
	if md := m.bodyMode(); md != modeList && md != modeFilter {
		return "", false
	}
	pending := ""
	if m.filterPending() {
		pending = m.st.dim.Render(" …")
	}
	switch {
	case m.in(modeFilter):
		return m.filter.View() + pending, true
	case m.picker.Filter() != "" || m.filterWant != "":
		return m.st.filter.Render("/ ") + safetext.Escape(m.filterWant) + pending + m.st.dim.Render("  (esc clears)"), true
	}
	return "", false
}

// highlight draws s with the bytes at offsets pos (ascending, relative to
// s after subtracting from) in hit and the rest in base; pos outside s are
// ignored. It cuts only between runes, and emits one style run per span.
func highlight(s string, pos []int, from int, base, hit lipgloss.Style, plainBase bool) string {
	var b strings.Builder
	run := func(t string, on bool) {
		switch {
		case t == "":
		case on:
			b.WriteString(hit.Render(t))
		case plainBase:
			b.WriteString(t)
		default:
			b.WriteString(base.Render(t))
		}
	}
	start, on := 0, false
	for i := range s { // rune starts
		_, hitHere := slices.BinarySearch(pos, i+from)
		if hitHere != on {
			run(s[start:i], on)
			start, on = i, hitHere
		}
	}
	run(s[start:], on)
	return b.String()
}
