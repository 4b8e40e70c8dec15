package ui

// mode is what the screen is doing. It alone decides where keys go
// (handleKey) and what the body draws (render); each mode's keys and view
// live in the file named beside it.
type mode int

const (
	modeList    mode = iota // the list, its query line and the details pane: model.go, list.go, filter.go, details.go
	modeHelp                // the full help: help.go
	modeServers             // the server pane: servers.go
	modeDialog              // the consent dialog: dialog.go, consent.go
	modeAsk                 // a yes/no question on the status line (quit, check all): ask.go
)

// overlay says whether md opens over another mode and gives the screen
// back to it when it closes.
func (md mode) overlay() bool { return md == modeDialog || md == modeAsk }

// open enters mode md, remembering the mode under an overlay.
func (m *Model) open(md mode) {
	if md.overlay() && !m.mode.overlay() {
		m.under = m.mode
	}
	m.mode = md
}

// close leaves the current mode: an overlay gives the screen back to the
// mode it opened over, any other mode to the list.
func (m *Model) close() {
	if m.mode.overlay() {
		m.mode, m.under = m.under, modeList
		return
	}
	m.mode = modeList
}

// in says whether mode md is showing, as the current mode or under an
// overlay.
func (m *Model) in(md mode) bool {
	return m.mode == md || m.mode.overlay() && m.under == md
}

// bodyMode is the mode whose view fills the body: the quit question is a
// note on the status line, drawn over the mode it was asked from.
func (m *Model) bodyMode() mode {
	if m.mode == modeAsk {
		return m.under
	}
	return m.mode
}
