package ui

import "charm.land/bubbles/v2/key"

// keyMap is every key rootpick answers to. The help line, the full help and
// the README's key table all come from these bindings.
type keyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Toggle, CheckAll, UncheckAll            key.Binding
	Filter, ClearFilter                     key.Binding
	Review, Sort, Rescan, Servers, Retry    key.Binding
	Help, Quit                              key.Binding
	Interrupt                               key.Binding
}

// filterKeys are the keys while typing a filter. As in fzf, the list
// answers while the query is open: other keys edit the query.
type filterKeys struct {
	Up, Down, Toggle, ToggleUp, Keep, Drop key.Binding
}

func defaultKeys() keyMap {
	return keyMap{
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:     key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Top:        key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:     key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		Toggle:     key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "toggle")),
		CheckAll:   key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "check all")),
		UncheckAll: key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "uncheck all")),
		Filter:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter"),
			key.WithDisabled()),
		Review:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "review & share")),
		Sort:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort: path, last commit, name")),
		Rescan:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "rescan")),
		Retry:     key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "retry servers now")),
		Servers:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "servers")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		Interrupt: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "abort (exit 130)")),
	}
}

func defaultFilterKeys() filterKeys {
	return filterKeys{
		Up:       key.NewBinding(key.WithKeys("up", "ctrl+k", "ctrl+p"), key.WithHelp("↑/ctrl+k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "ctrl+j", "ctrl+n"), key.WithHelp("↓/ctrl+j", "down")),
		Toggle:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "toggle, then down")),
		ToggleUp: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "toggle, then up")),
		Keep:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		Drop:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "drop filter")),
	}
}

// ShortHelp is the one-line help under the list.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Toggle, k.CheckAll, k.Filter, k.ClearFilter, k.Review, k.Help, k.Quit}
}

// FullHelp is the help shown with ?.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Toggle, k.CheckAll, k.UncheckAll, k.Filter, k.ClearFilter},
		{k.Review, k.Sort, k.Rescan, k.Servers, k.Retry, k.Help, k.Quit, k.Interrupt},
	}
}

// ShortHelp lists the filter's keys for the help line.
func (k filterKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Toggle, k.Keep, k.Drop}
}

// FullHelp lists every filter key.
func (k filterKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Toggle, k.ToggleUp, k.Keep, k.Drop}}
}

// KeyTable returns the key bindings as rows of (keys, action), in the order
// of the full help, for documentation (the README's key table is checked
// against it).
func KeyTable() [][2]string {
	var rows [][2]string
	for _, col := range defaultKeys().FullHelp() {
		for _, b := range col {
			rows = append(rows, [2]string{b.Help().Key, b.Help().Desc})
		}
	}
	d := defaultDialogKeys()
	for _, b := range d.all() {
		rows = append(rows, [2]string{b.Help().Key, "consent dialog: " + b.Help().Desc})
	}
	f := defaultFilterKeys()
	for _, b := range f.FullHelp()[0] {
		rows = append(rows, [2]string{b.Help().Key, "while filtering: " + b.Help().Desc})
	}
	return rows
}
