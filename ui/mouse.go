package ui

import tea "charm.land/bubbletea/v2"

// Mouse, unless Config.NoMouse: in the list (and while a query is typed,
// as in fzf) the wheel moves the cursor, a click on a row moves the
// cursor to it and a click on its box toggles it; in the help, the server
// pane and the consent dialog the wheel scrolls. Other input is ignored.

// wheelStep is how many rows a wheel notch moves the cursor.
const wheelStep = 1

// boxCols are the columns of a row's checkbox: "› [x] name".
const boxFirst, boxLast = 2, 4

func (m *Model) onMouse(msg tea.MouseMsg) {
	if m.cfg.NoMouse {
		return
	}
	switch m.mode() {
	case modeDialog: // the wheel scrolls it; clicks answer nothing
		if w, ok := msg.(tea.MouseWheelMsg); ok {
			switch w.Button {
			case tea.MouseWheelUp:
				m.review.sh.Dialog().Wheel(true)
			case tea.MouseWheelDown:
				m.review.sh.Dialog().Wheel(false)
			}
		}
		return
	case modeHelp:
		if _, ok := msg.(tea.MouseWheelMsg); ok {
			m.helpVP, _ = m.helpVP.Update(msg) // the viewport scrolls itself
		}
		return
	case modeServers:
		if w, ok := msg.(tea.MouseWheelMsg); ok {
			switch w.Button {
			case tea.MouseWheelUp:
				m.srvPane.scroll(-3, len(m.paneLines()))
			case tea.MouseWheelDown:
				m.srvPane.scroll(3, len(m.paneLines()))
			}
		}
		return
	case modeList:
	case modeAsk:
		return
	}
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.picker.Move(-wheelStep)
		case tea.MouseWheelDown:
			m.picker.Move(wheelStep)
		}
		m.list.follow(m.picker.Cursor(), m.picker.ShownLen())
	case tea.MouseClickMsg:
		if msg.Button != tea.MouseLeft || m.filterPending() || m.early.waiting() {
			// A click while the query is matched would land on a row of
			// the result about to be replaced: it does nothing.
			return
		}
		i, ok := m.rowAt(msg.X, msg.Y)
		if !ok {
			return
		}
		m.picker.MoveTo(i)
		if msg.X >= boxFirst && msg.X <= boxLast {
			m.toggle()
		}
	}
}

// rowAt is the index, among the shown rows, of the list row drawn at
// screen cell (x, y).
func (m *Model) rowAt(x, y int) (int, bool) {
	top := 1 // the header
	if _, ok := m.filterLine(); ok {
		top++
	}
	if y < top || y >= top+m.list.height || x < 0 || x >= m.list.width {
		return 0, false
	}
	i := m.list.offset + y - top
	if i >= m.picker.ShownLen() {
		return 0, false
	}
	return i, true
}
