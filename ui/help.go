package ui

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/ui/fleet"
)

// shortHelp is the key help under the status line: "key desc" items
// joined by " • ", wrapped onto as many lines as the width needs, never
// cut (at 40 columns the filter's keys take two lines).
func (m *Model) shortHelp() string {
	md, waiting := m.bodyMode(), false
	var keys []key.Binding
	switch md {
	case modeDialog:
		keys = m.dkeys.ShortHelp()
		if d := m.review.sh.Dialog(); d != nil {
			keys = d.keysThatAct() // y only when it would confirm: never offered for nothing
		}
		if m.review.sh.Dialog() != nil && !m.review.sh.Dialog().armed {
			keys, waiting = m.dialogWaitHelp(), true // y is not taken yet: do not offer it
		}
	case modeServers:
		keys = m.serverPaneHelp()
	case modeHelp:
		keys = m.helpPaneHelp()
	case modeList, modeAsk:
		keys = m.keys.ShortHelp()
	}
	// The layout asks for it on every message and frame: it is kept until
	// the width, the keys shown or the palette change.
	k := helpLineKey{w: m.width, mode: md, waiting: waiting, dark: m.st.dark, shown: shownKeys(keys)}
	if k == m.helpLine.key && m.helpLine.text != "" {
		return m.helpLine.text
	}
	var items []string
	more := -1 // the item that opens the full help
	for _, b := range keys {
		if b.Enabled() {
			if slices.Equal(b.Keys(), m.keys.Help.Keys()) {
				more = len(items)
			}
			items = append(items, m.st.helpKey.Render(b.Help().Key)+" "+m.st.helpDesc.Render(b.Help().Desc))
		}
	}
	sep := m.st.helpDesc.Render(" • ")
	m.helpLine.key, m.helpLine.text = k, wrapItems(items, sep, m.width)
	m.helpLine.short = oneLine(items, more, sep, m.width)
	return m.helpLine.text
}

// oneLine is the key help of a terminal too short for all of it: the
// items that fit one line of width w, in order (one too long is passed
// over for the next), then items[more] (the key that shows the full
// help), which always fits where it fits at all.
func oneLine(items []string, more int, sep string, w int) string {
	room := w
	if more >= 0 {
		room -= cellWidth(items[more]) + cellWidth(sep)
	}
	var keep []string
	lw := 0
	for i, item := range items {
		if i == more {
			continue
		}
		iw := cellWidth(item)
		if len(keep) > 0 {
			iw += cellWidth(sep)
		}
		if lw+iw > room {
			continue
		}
		keep, lw = append(keep, item), lw+iw
	}
	if more >= 0 {
		keep = append(keep, items[more])
	}
	return cut(strings.Join(keep, sep), w, "…")
}

// helpLineKey is what the drawn key help depends on.
type helpLineKey struct {
	w       int
	mode    mode
	waiting bool // the dialog's guard holds
	shown   uint64
	dark    bool
}

// shownKeys tells apart the key lines that keys give: a hash (FNV-1a) of
// the help of each enabled binding, in order. Which keys, not how many: the
// dialog's keys come and go (y once every root was seen, ↓ while lines are
// hidden), and a count of them kept the line without y after y was offered.
func shownKeys(keys []key.Binding) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	for _, b := range keys {
		if !b.Enabled() {
			continue
		}
		for _, s := range [2]string{b.Help().Key, b.Help().Desc} {
			for i := 0; i < len(s); i++ {
				h = (h ^ uint64(s[i])) * prime
			}
			h = (h ^ 0xff) * prime // the end of a field
		}
	}
	return h
}

// wrapItems joins items with sep, starting a new line where the next item
// would pass width w; an item wider than w alone is cut.
func wrapItems(items []string, sep string, w int) string {
	sw := cellWidth(sep)
	var lines []string
	line, lw := "", 0
	for _, item := range items {
		iw := cellWidth(item)
		switch {
		case lw == 0:
			line, lw = item, iw
		case lw+sw+iw <= w:
			line, lw = line+sep+item, lw+sw+iw
		default:
			lines = append(lines, line)
			line, lw = item, iw
		}
	}
	if lw > 0 {
		lines = append(lines, line)
	}
	for i, l := range lines {
		lines[i] = cut(l, w, "…")
	}
	return strings.Join(lines, "\n")
}

// helpEntry is one line of the full help: a key or a state word, and
// what it does or means.
type helpEntry struct{ key, desc string }

// helpSection is a titled group of entries.
type helpSection struct {
	title   string
	entries []helpEntry
}

func bindingEntries(bs ...key.Binding) []helpEntry {
	out := make([]helpEntry, 0, len(bs))
	for _, b := range bs {
		out = append(out, helpEntry{b.Help().Key, b.Help().Desc})
	}
	return out
}

// helpSections is everything ? explains: the keys of the list, of the
// open filter and of the consent dialog, what each row mark and each
// server state word means.
func (m *Model) helpSections() []helpSection {
	var list []key.Binding
	for _, col := range m.keys.FullHelp() {
		list = append(list, col...)
	}
	d := m.dkeys
	return []helpSection{
		{"Keys", bindingEntries(list...)},
		{"The query line (always there, as in fzf)", []helpEntry{
			{"letters, digits, - _ . /", "type into the query: fuzzy, paysvc finds payments-service; the highlight goes to the best match"},
			{"space", "between terms, each must match (web svc); on an empty query it checks the row"},
			{"backspace, ctrl+u, ctrl+w", "erase a character, the query, a word"},
		}},
		{"Help and server pane", bindingEntries(backKeys)},
		{"Consent dialog (" + keyName(m.keys.Review) + ")", bindingEntries(d.Confirm, d.Cancel, d.Grant, d.Expand,
			d.Up, d.Down, d.PageUp, d.PageDown, d.Top, d.Bottom)},
		{"Rows", []helpEntry{
			{"[x]", "checked: in the set the next y shares"},
			{glyphAdd + " add", "checked, not shared yet: y shares it"},
			{glyphRemove + " remove", "shared but unchecked: y stops sharing it"},
			{glyphShared + " shared", "the servers are offered it now"},
			{glyphCovered + " covered by", "inside a checked or shared folder, so reachable through it"},
			{glyphWithdrawn + " withdrawn", "it was deleted, renamed, made unreadable or swapped for a symlink while shared, and taken back from every server; only a new y shares it again"},
			{glyphRemembered + " remembered", "checked from your last consent, not shared until you confirm it (or start with --resume)"},
		}},
		{"Risk marks (" + glyphRisk + ": the dialog asks for each its own yes)", riskEntries()},
		{"Server states (status line; " + keyName(m.keys.Servers) + " shows each server)", stateEntries(keyName(m.keys.Retry))},
		{"This help", bindingEntries(helpScroll, m.keys.QuitNow, helpBack)},
	}
}

// riskEntries explains every risk mark's word.
func riskEntries() []helpEntry {
	out := make([]helpEntry, len(riskWords))
	for i, r := range riskWords {
		out[i] = helpEntry{glyphRisk + " " + r.word, r.meaning}
	}
	return out
}

// stateEntries explains every state word, from the fleet's own table
// (retryKey names the key that retries), and the protocol note.
func stateEntries(retryKey string) []helpEntry {
	var out []helpEntry
	for _, w := range fleet.StateWords(retryKey) {
		out = append(out, helpEntry{w[0], w[1]})
	}
	return append(out, helpEntry{"protocol X≠Y", "it answered another protocol revision; it may not ask for roots"})
}

// helpText lays the sections out for width w: the key or word in a
// column, its meaning beside it, wrapped with a hanging indent; on a
// narrow screen the meaning goes under the key.
func (m *Model) helpText(w int) string {
	var out []string
	for i, s := range m.helpSections() {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, m.st.title.Render(cut(s.title, w, "…")))
		kw := 0
		for _, e := range s.entries {
			kw = max(kw, cellWidth(e.key))
		}
		indent := 2 + kw + 2
		stacked := w-indent < 24 // too narrow for a column: meaning below
		if stacked {
			indent = 4
		}
		for _, e := range s.entries {
			k := m.st.helpKey.Render(e.key)
			desc := strings.Split(ansi.Wrap(e.desc, max(w-indent, 8), ""), "\n")
			if stacked {
				out = append(out, "  "+k)
			} else {
				out = append(out, "  "+k+strings.Repeat(" ", kw-cellWidth(e.key)+2)+m.st.helpDesc.Render(desc[0]))
				desc = desc[1:]
			}
			for _, d := range desc {
				out = append(out, strings.Repeat(" ", indent)+m.st.helpDesc.Render(d))
			}
		}
	}
	return strings.Join(out, "\n")
}

// openHelp shows the full help from its top.
func (m *Model) openHelp() {
	m.page = pageHelp
	m.helpVP = viewport.New()
	m.sizeHelp()
}

// sizeHelp lays the help out for the body's size; the last line says
// how to scroll when it does not fit.
func (m *Model) sizeHelp() {
	h := m.bodyHeight()
	text := m.helpText(m.width)
	if lipgloss.Height(text) > h {
		h--
	}
	m.helpVP.SetWidth(m.width)
	m.helpVP.SetHeight(max(h, 0))
	m.helpVP.SetContent(text)
}

// helpKey scrolls the help; q, esc and any other key close it, as q
// closes man and less; ctrl+q quits.
func (m *Model) helpKey(msg tea.KeyPressMsg) tea.Cmd {
	vk := m.helpVP.KeyMap
	switch {
	case key.Matches(msg, m.keys.QuitNow):
		m.page = pageList
		return m.quit()
	case key.Matches(msg, vk.Up, vk.Down, vk.PageUp, vk.PageDown, vk.HalfPageUp, vk.HalfPageDown):
		m.helpVP, _ = m.helpVP.Update(msg)
	case key.Matches(msg, m.dkeys.Top):
		m.helpVP.GotoTop()
	case key.Matches(msg, m.dkeys.Bottom):
		m.helpVP.GotoBottom()
	default:
		m.page = pageList
	}
	return nil
}

// helpView is the body while the help is open.
func (m *Model) helpView() string {
	v := m.helpVP.View()
	if m.helpVP.TotalLineCount() <= m.helpVP.Height() {
		return v
	}
	pos := strconv.Itoa(int(m.helpVP.ScrollPercent()*100)) + "%"
	more := helpScroll.Help().Key + " " + pos + " · other keys close"
	return v + "\n" + m.st.dim.Render(cut(more, m.width, "…"))
}

// The key help of the server pane and of the full help, which take their
// keys from the list's map but mean something else there.
var (
	// paneScroll and helpScroll scroll the server pane and the help (the
	// dialog's navigation keys, and the help viewport's).
	paneScroll = key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	helpScroll = key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑/↓/pgdn", "scroll"))
	// helpBack is what closes the help: q, esc and any key that does
	// not scroll.
	helpBack = key.NewBinding(key.WithKeys("q", "esc"), key.WithHelp("q/esc/any key", "close it"))
	// dialogWaitHelp is the key line while the dialog's type-ahead guard
	// holds: a key pressed then is ignored, so none is offered.
)

// dialogWaitHelp is the key line while the dialog's type-ahead guard
// holds: y and space are not taken yet, so they are not offered; what
// works at once is.
func (m *Model) dialogWaitHelp() []key.Binding {
	d := m.dkeys
	wait := key.NewBinding(key.WithKeys(""), key.WithHelp("…", "read the change first: "+keyName(d.Confirm)+" works in a moment"))
	return []key.Binding{wait, d.Cancel, d.Down}
}

// serverPaneHelp and helpPaneHelp are the key lines of the server pane
// and of the full help.
func (m *Model) serverPaneHelp() []key.Binding {
	if m.fleet.HasRefusal() {
		return []key.Binding{paneAllowKey, paneAdvisoryKey, paneScroll, paneRetryKey, backKeys, m.keys.QuitNow}
	}
	return []key.Binding{paneScroll, paneRetryKey, backKeys, m.keys.QuitNow}
}

func (m *Model) helpPaneHelp() []key.Binding {
	return []key.Binding{paneScroll, helpBack, m.keys.QuitNow}
}
