package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
)

// serversKey handles a key in the server pane: q, esc or the pane's own
// key go back to the list, r (or the list's retry key) retries the
// servers waiting to restart, ctrl+q quits.
func (m *Model) serversKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.QuitNow):
		return m.quit()
	case key.Matches(msg, m.keys.Retry, paneRetry):
		return m.retry()
	case key.Matches(msg, m.keys.Servers, backKeys):
		m.page = pageList
	case key.Matches(msg, m.dkeys.Up):
		m.srvPane.scroll(-1)
	case key.Matches(msg, m.dkeys.Down):
		m.srvPane.scroll(1)
	case key.Matches(msg, m.dkeys.PageUp):
		m.srvPane.scroll(-m.srvPane.page())
	case key.Matches(msg, m.dkeys.PageDown):
		m.srvPane.scroll(m.srvPane.page())
	case key.Matches(msg, m.dkeys.Top):
		m.srvPane.top = 0
	case key.Matches(msg, m.dkeys.Bottom):
		m.srvPane.scroll(1 << 30)
	}
	return nil
}

// serverPane is the server pane (ctrl+o) as a component: it owns its
// size and its scroll. Its lines come from the model (Model.serverLines:
// one block per server and per proxy of the profile, with everything the
// status line has no room for); when they are taller than the pane it
// scrolls (↑/↓, pgup/pgdn, g/G, the wheel), and its last line says so.
type serverPane struct {
	*common
	w, h  int
	top   int                  // the first line shown
	lines func(w int) []string // the pane's lines at width w, unscrolled
}

var _ component = (*serverPane)(nil)

// SetSize gives the pane its area.
func (p *serverPane) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the lines in view, and where they do not all fit, a last line
// that says which are shown.
func (p *serverPane) View() string {
	lines := p.lines(p.w)
	if len(lines) <= p.h || p.h < 2 {
		return strings.Join(lines, "\n")
	}
	top := min(p.top, len(lines)-(p.h-1))
	more := "↑/↓ scroll · " + itoa(top+1) + "–" + itoa(top+p.h-1) + " of " + itoa(len(lines)) + " lines"
	return strings.Join(lines[top:top+p.h-1], "\n") + "\n" + p.st.dim.Render(ansi.Truncate(more, max(p.w, 1), "…"))
}

// scroll moves the pane by delta lines, within its length.
func (p *serverPane) scroll(delta int) {
	maxTop := max(len(p.lines(p.w))-(p.h-1), 0)
	p.top = max(0, min(p.top+delta, maxTop))
}

// page is how far pgup/pgdn scroll: the pane's height less one line.
func (p *serverPane) page() int { return max(p.h-1, 1) }

// serverLines are the server pane's lines, unscrolled: for each server its
// state, the roots it fetched, the whole error (wrapped, never cut), what
// happened to it lately with the time (the last historyKept events: a
// crash it recovered from stays in view) and its last stderr lines.
func (f *fleet) serverLines(width int) []string {
	w := max(width, 1)
	line := func(s string) string { return ansi.Truncate(s, w, "…") }
	var out []string
	// wrapped is a labelled field shown whole (an error, the roots
	// fetched): wrapped under its label instead of cut at the edge.
	wrapped := func(label, text string) {
		indent := strings.Repeat(" ", ansi.StringWidth(label))
		if w-len(indent) < 20 {
			out = append(out, line(label+text))
			return
		}
		for i, l := range strings.Split(ansi.Wrap(text, w-len(indent), " /,"), "\n") {
			if i == 0 {
				out = append(out, label+l)
			} else {
				out = append(out, indent+l)
			}
		}
	}
	if len(f.list) == 0 {
		out = append(out, f.st.dim.Render("No server. Name one after -- or with --server/--url; rootpick proxy shows up here too."))
	}
	want := f.exposedURIs()
	for i, s := range f.list {
		if i > 0 {
			out = append(out, "")
		}
		head := "● " + f.displayName(s)
		if s.version != "" {
			head += " " + s.version
		}
		if s.name != "" && s.label != s.name && !s.proxy {
			head += f.st.dim.Render("  (" + safetext.Escape(s.label) + ")")
		}
		out = append(out, line(f.st.title.Render(head)))
		state := f.stateView(s, inPane)
		if s.protocol != "" {
			state += f.st.dim.Render("  · protocol " + safetext.Escape(s.protocol))
		}
		wrapped("  state     ", state)
		switch {
		case !s.asked:
			out = append(out, line(f.st.dim.Render("  roots     not asked yet")))
		default:
			got := make([]string, len(s.fetched))
			for i, u := range s.fetched {
				got[i] = safetext.Escape(relPath(f.cfg.Dir, pathOfURI(u)))
			}
			when := ""
			if !s.fetchedAt.IsZero() {
				when = " at " + s.fetchedAt.Format("15:04:05")
			}
			text := plural(len(s.fetched), "root", "roots") + " fetched" + when
			if len(got) > 0 {
				text += ": " + strings.Join(got, ", ")
			}
			if sameSet(want, s.fetched) {
				text += f.st.ok.Render("  = the consent")
			}
			wrapped("  roots     ", text)
		}
		if s.err != "" {
			wrapped("  error     ", f.st.err.Render(s.err))
		}
		if s.final {
			wrapped("            ", f.st.dim.Render("It is not restarted until you press "+f.retryKeyName()+
				": starting it again cannot help until the program is installed, made executable or the command corrected."))
		}
		for j, d := range s.withheld {
			label := "  withheld  "
			if j > 0 {
				label = "            "
			}
			wrapped(label, f.st.err.Render(d))
		}
		for j, e := range s.history {
			label := "  history   "
			if j > 0 {
				label = "            "
			}
			wrapped(label, f.st.dim.Render(e.at.Format("15:04:05")+" ")+e.text)
		}
		if s.dropped > 0 {
			out = append(out, line(f.st.dim.Render("  stderr    "+itoa(s.dropped)+" lines came faster than they could be read (the log has them)")))
		}
		for j, l := range s.stderr {
			label := "  stderr    "
			if j > 0 {
				label = "            "
			}
			out = append(out, line(f.st.dim.Render(label+l)))
		}
	}
	if f.cfg.LogPath != "" {
		out = append(out, "", line(f.st.dim.Render("log: "+safetext.Escape(f.cfg.LogPath))))
	}
	wrapped("", f.st.dim.Render(f.retryKeyName()+" retries servers that are down now · "+keyName(backKeys)+" or "+f.paneKeyName()+" goes back to the list"))
	return out
}

// pathOfURI shows a file URI as its path.
func pathOfURI(u string) string {
	if p, err := consent.URIToPath(u); err == nil {
		return p
	}
	return u
}
