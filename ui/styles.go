package ui

import "charm.land/lipgloss/v2"

// styles is the palette. Colours are ANSI 256 so they read on dark and light
// terminals alike; the renderer downsamples them for lesser terminals and
// drops them for NO_COLOR.
type styles struct {
	title, dim, cursor, checked, branch, kind, added, removed, warn, ok, pending, err, dialog, filter lipgloss.Style
}

func defaultStyles() styles {
	return styles{
		title:   lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("212")),
		dim:     lipgloss.NewStyle().Foreground(lipgloss.Color("245")),
		cursor:  lipgloss.NewStyle().Foreground(lipgloss.Color("212")).Bold(true),
		checked: lipgloss.NewStyle().Foreground(lipgloss.Color("42")),
		branch:  lipgloss.NewStyle().Foreground(lipgloss.Color("110")),
		kind:    lipgloss.NewStyle().Foreground(lipgloss.Color("179")),
		added:   lipgloss.NewStyle().Foreground(lipgloss.Color("42")),
		removed: lipgloss.NewStyle().Foreground(lipgloss.Color("203")),
		warn:    lipgloss.NewStyle().Foreground(lipgloss.Color("214")),
		ok:      lipgloss.NewStyle().Foreground(lipgloss.Color("42")),
		pending: lipgloss.NewStyle().Foreground(lipgloss.Color("214")),
		err:     lipgloss.NewStyle().Foreground(lipgloss.Color("203")).Bold(true),
		dialog: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).
			BorderForeground(lipgloss.Color("212")).Padding(0, 1),
		filter: lipgloss.NewStyle().Foreground(lipgloss.Color("212")),
	}
}
