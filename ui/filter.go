package ui

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/picker"
	"github.com/rootpick/rootpick/ui/sharing"
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
	return m.releaseKeys()
}

// holdKey keeps a key or a paste in the list that must wait (it reports
// whether msg was kept, or dropped because too many wait):
//   - behind any that waits already, to keep the order pressed;
//   - a key that acts on rows (check, check and move, check all, review)
//     while the query typed is still being matched, so that it acts on the
//     rows of that query's result, never on a row of the older result
//     still on screen (filter.go);
//   - any key while a review is being built: it is for the dialog (an
//     "enter n" cancels it), whose guard then ignores it.
//
// A paste only ever waits behind a key: let through, it could change the
// query back to the one shown, whose result never comes again, and leave
// every key waiting.
func (m *Model) holdKey(msg tea.Msg) bool {
	if !m.early.waiting() {
		k, ok := msg.(tea.KeyPressMsg)
		if !ok || m.review.sh.Phase() != sharing.Preparing && (!m.filterPending() || !m.actsOnRows(k)) {
			return false
		}
	}
	if !m.early.push(msg) {
		m.setNote("Too many keys while the query was matched or the review built: some were dropped.", true)
	}
	return true
}

// actsOnRows reports whether a key in the list changes which rows are
// checked or reviews them (space only where it checks: on an empty query).
func (m *Model) actsOnRows(msg tea.KeyPressMsg) bool {
	k := m.keys
	return key.Matches(msg, k.MarkDown, k.MarkUp, k.ReadOnly, k.CheckAll, k.UncheckAll, k.Review) ||
		key.Matches(msg, k.Toggle) && strings.TrimSpace(m.filter.Value()) == ""
}

// releaseKeys hands what waits back, in order, as if pressed now: when
// the query's result is shown (onFilterResult), and when a proposal has
// opened the review's dialog or found nothing to review (Model.update).
// Each key goes through handleKey again, so it waits again where it must
// (a key that typed on, a review that a released enter started); the
// dialog gets the keys while its guard ignores them, and no paste (it
// takes none).
func (m *Model) releaseKeys() tea.Cmd {
	var cmds []tea.Cmd
	for _, msg := range m.early.take() {
		if k, ok := msg.(tea.KeyPressMsg); ok {
			cmds = append(cmds, m.handleKey(k))
		} else if m.mode() == modeList && !m.holdKey(msg) {
			cmds = append(cmds, m.editQuery(msg))
		}
	}
	return tea.Batch(cmds...)
}

func (m *Model) applyFilter(res picker.Result) bool {
	before := m.picker.Filter()
	if !m.picker.Apply(res) {
		return false
	}
	if before != m.picker.Filter() {
		m.list.offset = 0
	}
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

// editQuery hands a message the list does not take (a key, a paste, the
// cursor's blink) to the query line, and asks for the new query's result
// when the text changed. Characters that could change how the line is
// drawn (controls, bidi overrides, zero-width ones) never enter the query.
func (m *Model) editQuery(msg tea.Msg) tea.Cmd {
	cmd := m.filter.Update(msg)
	v := m.filter.Value()
	if clean := strings.Map(queryRune, v); clean != v {
		m.filter.SetValue(clean)
		v = clean
	}
	if v == m.filterWant {
		return cmd
	}
	cmd = tea.Batch(cmd, m.requestFilter(v))
	m.keys.ClearQuery.SetEnabled(m.filterWant != "")
	return cmd
}

// queryRune drops the runes a query may not hold (strings.Map).
func queryRune(r rune) rune {
	if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
		return -1
	}
	return r
}

// clearQuery erases the query: every row is shown again.
func (m *Model) clearQuery() {
	m.filter.SetValue("")
	m.filterWant = ""
	m.picker.SetFilter("")
	m.keys.ClearQuery.SetEnabled(false)
	m.list.offset = 0
}

// queryLine is the query's text input, its drawn line kept until the input
// changes: bubbles draws the placeholder a character at a time through
// lipgloss, an eighth of a ↓ key's cost while nothing was typed. Every
// change goes through the methods below, which drop the drawn line; call
// no other method of textinput.Model that changes it.
type queryLine struct {
	textinput.Model
	drawn string
	fresh bool
}

// View is textinput.Model.View, drawn again only after a change.
func (q *queryLine) View() string {
	if !q.fresh {
		q.drawn, q.fresh = q.Model.View(), true
	}
	return q.drawn
}

// Update hands msg to the input.
func (q *queryLine) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	q.Model, cmd = q.Model.Update(msg)
	q.fresh = false
	return cmd
}

// SetValue sets the query text.
func (q *queryLine) SetValue(s string) { q.Model.SetValue(s); q.fresh = false }

// SetWidth sets the input's width.
func (q *queryLine) SetWidth(w int) { q.Model.SetWidth(w); q.fresh = false }

// SetStyles sets the input's styles.
func (q *queryLine) SetStyles(st textinput.Styles) { q.Model.SetStyles(st); q.fresh = false }

// filterLine is the line above the list: the query line, always there as
// in fzf (typing filters), with "…" while a typed query is still being
// matched. The help, the server pane and the dialog, which do not show the
// list, leave it out.
func (m *Model) filterLine() (string, bool) {
	if m.bodyMode() != modeList {
		return "", false
	}
	pending := ""
	if m.filterPending() {
		pending = m.st.dim.Render(" …")
	}
	return m.filter.View() + pending, true
}
