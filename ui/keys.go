package ui

import "charm.land/bubbles/v2/key"

// keyMap is every key the list answers to. The help line, the full help and
// the README's key table all come from these bindings.
//
// The scheme, as in fzf: the list always has a query line, and whatever can
// be typed in a repository's name goes into it (letters, digits, - _ . /,
// and space between terms). Every command is a key that cannot be typed in
// a name: arrows, enter, esc, tab, ctrl chords, and ? for help. So a word
// typed in the list only ever filters: it never checks, sorts or rescans.
type keyMap struct {
	navKeys
	Toggle, MarkDown, MarkUp             key.Binding
	ReadOnly                             key.Binding // the highlighted checked row: read-only ↔ read and write
	CheckAll, UncheckAll, RevokeAll      key.Binding
	ClearQuery                           key.Binding
	Review, Sort, Rescan, Servers, Retry key.Binding
	Help, Quit                           key.Binding
	QuitNow                              key.Binding // Quit's chord, which also quits from the help, the pane and the quit question
	Interrupt                            key.Binding
}

func defaultKeys() keyMap {
	return keyMap{
		navKeys:    defaultNavKeys(false),
		Toggle:     key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "check / uncheck (in a query, space separates terms)")),
		MarkDown:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "check / uncheck, then down")),
		MarkUp:     key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "check / uncheck, then up")),
		ReadOnly:   key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "read-only / read and write (the highlighted checked row)")),
		CheckAll:   key.NewBinding(key.WithKeys("ctrl+a"), key.WithHelp("ctrl+a", "check every row shown (asks if some are off screen)")),
		UncheckAll: key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "uncheck every row shown (asks if some are off screen)")),
		RevokeAll:  key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "stop sharing everything (ignores the filter; asks first)")),
		ClearQuery: key.NewBinding(key.WithKeys("esc", "alt+esc"), key.WithHelp("esc", "clear the query"), key.WithDisabled()),
		Review:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "review & share (nothing checked: the highlighted row)")),
		Sort:       key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "sort: path, last commit, name")),
		Rescan:     key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "rescan")),
		Retry:      key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "retry servers now")),
		Servers:    key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "servers")),
		Help:       key.NewBinding(key.WithKeys("?", "f1"), key.WithHelp("?", "help")),
		Quit:       key.NewBinding(key.WithKeys("esc", "alt+esc", "ctrl+q"), key.WithHelp("esc/ctrl+q", "quit (esc clears a query first)")),
		QuitNow:    key.NewBinding(key.WithKeys("ctrl+q"), key.WithHelp("ctrl+q", "quit")),
		Interrupt:  key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "abort (exit 130)")),
	}
}

// ShortHelp is the one-line help under the list: short words, the details
// are in ?.
func (k keyMap) ShortHelp() []key.Binding {
	// Short words, each binding's keys as bound (the first of them: the
	// one a person presses).
	short := func(b key.Binding, desc string, also ...key.Binding) key.Binding {
		keys := b.Keys()[0]
		for _, a := range also {
			keys += "/" + a.Keys()[0]
		}
		c := b
		c.SetHelp(keys, desc)
		return c
	}
	quit := short(k.Quit, "quit")
	quit.SetEnabled(!k.ClearQuery.Enabled())
	check := short(k.Toggle, "check", k.MarkDown)
	if k.ClearQuery.Enabled() { // in a query, space separates terms
		check = short(k.MarkDown, "check")
	}
	return []key.Binding{
		check, short(k.Review, "review & share"),
		short(k.ClearQuery, "clear query"), short(k.Servers, "servers"), k.Help, quit,
	}
}

// FullHelp is the help shown with ?.
func (k keyMap) FullHelp() [][]key.Binding {
	clear := k.ClearQuery
	clear.SetEnabled(true)
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Toggle, k.MarkDown, k.MarkUp, k.ReadOnly, k.CheckAll, k.UncheckAll, k.RevokeAll},
		{k.Review, clear, k.Sort, k.Rescan, k.Servers, k.Retry, k.Help, k.Quit, k.Interrupt},
	}
}

// navKeys move through a list or scroll a view: one set, embedded in the
// list's keys and in the dialog's, and used by the help and the server
// pane. Where nothing is typed (the dialog, the help, the server pane)
// j, k, g and G move too; in the list, where letters type into the query,
// the ctrl chords do.
type navKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

func defaultNavKeys(letters bool) navKeys {
	if letters {
		return navKeys{
			Up:       key.NewBinding(key.WithKeys("up", "k", "ctrl+k", "ctrl+p"), key.WithHelp("↑/k", "up")),
			Down:     key.NewBinding(key.WithKeys("down", "j", "ctrl+j", "ctrl+n"), key.WithHelp("↓/j", "down")),
			PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
			PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
			Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
			Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		}
	}
	return navKeys{
		Up:       key.NewBinding(key.WithKeys("up", "ctrl+k", "ctrl+p"), key.WithHelp("↑/ctrl+k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "ctrl+j", "ctrl+n"), key.WithHelp("↓/ctrl+j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "bottom")),
	}
}

// backKeys close the help and the server pane, as q closes man and less;
// paneRetryKey is r in the server pane, where nothing is typed: the Retry
// key's letter.
var (
	backKeys     = key.NewBinding(key.WithKeys("q", "esc"), key.WithHelp("q/esc", "back"))
	paneRetryKey = key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "retry now"))
	// paneAllowKey and paneAdvisoryKey answer a refusal by enforcement
	// (fleet.Fleet.TakeRefusal): allow the path it was refused, or run the
	// server unenforced until rootpick quits.
	paneAllowKey    = key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "allow what enforcement refused"))
	paneAdvisoryKey = key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "run it advisory"))
)

// keyName is how texts name a binding's keys: its help's key text, so
// that a text cannot disagree with the binding.
func keyName(b key.Binding) string { return b.Help().Key }
