package ui

import "charm.land/bubbles/v2/key"

// dialogKeys are the keys of the consent dialog. The dialog handles them
// itself and returns a decision (see consentDialog.Update).
type dialogKeys struct {
	Confirm, Cancel, Grant, Expand key.Binding
	// List packs the plain added roots into columns, several a line, so
	// that a large confirmation can be read (and y taken) in a few pages.
	List key.Binding
	navKeys
}

func defaultDialogKeys() dialogKeys {
	return dialogKeys{
		Confirm: key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "confirm")),
		Cancel:  key.NewBinding(key.WithKeys("n", "N", "esc", "q"), key.WithHelp("n/esc", "cancel")),
		Grant:   key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "grant a warned root")),
		Expand:  key.NewBinding(key.WithKeys("e", "right"), key.WithHelp("e/→", "what a root brings in")),
		List:    key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "pack the added roots, several a line")),
		navKeys: defaultNavKeys(true),
	}
}

// all lists the dialog's keys for the README's key table.
func (k dialogKeys) all() []key.Binding {
	return []key.Binding{k.Confirm, k.Cancel, k.Grant, k.Expand, k.List}
}

// ShortHelp lists the dialog's keys.
func (k dialogKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Confirm, k.Cancel, k.Grant, k.Expand, k.Down}
}

// FullHelp lists the dialog's keys.
func (k dialogKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Confirm, k.Cancel, k.Grant, k.Expand, k.List},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
	}
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
	rows = append(rows, [2]string{backKeys.Help().Key, "help and server pane: back to the list"})
	return rows
}
