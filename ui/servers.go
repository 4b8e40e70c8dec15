package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// serverPane is the server pane (ctrl+o) as a component: it owns its
// size and its scroll. Its lines are handed to it on each frame and key
// (Model.paneLines, from fleet.Fleet.PaneLines: one block per server and
// per proxy of the profile, with everything the status line has no room
// for, at the pane's width, unscrolled); when they are taller than the
// pane it scrolls (↑/↓, pgup/pgdn, g/G, the wheel), and its last line
// says so.
type serverPane struct {
	*common
	w, h int
	top  int // the first line shown
}

var _ framed[[]string] = (*serverPane)(nil)

// SetSize gives the pane its area.
func (p *serverPane) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the lines in view, and where they do not all fit, a last line
// that says which are shown.
func (p *serverPane) View(lines []string) string {
	if len(lines) <= p.h || p.h < 2 {
		return strings.Join(lines, "\n")
	}
	top := min(p.top, len(lines)-(p.h-1))
	more := "↑/↓ scroll · " + itoa(top+1) + "–" + itoa(top+p.h-1) + " of " + itoa(len(lines)) + " lines"
	return strings.Join(lines[top:top+p.h-1], "\n") + "\n" + p.st.dim.Render(cut(more, max(p.w, 1), "…"))
}

// scroll moves the pane of n lines by delta lines, within its length.
func (p *serverPane) scroll(delta, n int) {
	maxTop := max(n-(p.h-1), 0)
	p.top = max(0, min(p.top+delta, maxTop))
}

// page is how far pgup/pgdn scroll: the pane's height less one line.
func (p *serverPane) page() int { return max(p.h-1, 1) }

// paneAction is what a key in the server pane asks of the model; the pane
// scrolls itself.
type paneAction int

const (
	paneNone     paneAction = iota // scrolled, or nothing
	paneClose                      // back to the list: q, esc or the pane's own key
	paneRetry                      // retry the servers waiting to restart: r or the list's retry key
	paneQuit                       // quit: ctrl+q
	paneAllow                      // allow what enforcement refused a server: a
	paneAdvisory                   // run that server advisory: o
)

// Update takes a key, with the n lines drawn: it scrolls (↑/↓, pgup/pgdn,
// g/G) or says what the model should do.
func (p *serverPane) Update(msg tea.KeyPressMsg, n int) paneAction {
	switch {
	case key.Matches(msg, p.keys.QuitNow):
		return paneQuit
	case key.Matches(msg, p.keys.Retry, paneRetryKey):
		return paneRetry
	case key.Matches(msg, paneAllowKey):
		return paneAllow
	case key.Matches(msg, paneAdvisoryKey):
		return paneAdvisory
	case key.Matches(msg, p.keys.Servers, backKeys):
		return paneClose
	case key.Matches(msg, p.dkeys.Up):
		p.scroll(-1, n)
	case key.Matches(msg, p.dkeys.Down):
		p.scroll(1, n)
	case key.Matches(msg, p.dkeys.PageUp):
		p.scroll(-p.page(), n)
	case key.Matches(msg, p.dkeys.PageDown):
		p.scroll(p.page(), n)
	case key.Matches(msg, p.dkeys.Top):
		p.top = 0
	case key.Matches(msg, p.dkeys.Bottom):
		p.scroll(1<<30, n)
	}
	return paneNone
}
