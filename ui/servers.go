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
		m.scrollServers(-1)
	case key.Matches(msg, m.dkeys.Down):
		m.scrollServers(1)
	case key.Matches(msg, m.dkeys.PageUp):
		m.scrollServers(-max(m.bodyHeight()-1, 1))
	case key.Matches(msg, m.dkeys.PageDown):
		m.scrollServers(max(m.bodyHeight()-1, 1))
	case key.Matches(msg, m.dkeys.Top):
		m.serversTop = 0
	case key.Matches(msg, m.dkeys.Bottom):
		m.scrollServers(1 << 30)
	}
	return nil
}

// serversView is the server pane (tab): one block per server and per proxy
// of the profile, with everything the status line has no room for. When
// it is taller than the body it scrolls (↑/↓, pgup/pgdn, g/G, the wheel),
// and its last line says so.
func (m *Model) serversView() string {
	lines := m.serverLines()
	h := m.bodyHeight()
	if len(lines) <= h || h < 2 {
		return strings.Join(lines, "\n")
	}
	top := min(m.serversTop, len(lines)-(h-1))
	more := "↑/↓ scroll · " + itoa(top+1) + "–" + itoa(top+h-1) + " of " + itoa(len(lines)) + " lines"
	return strings.Join(lines[top:top+h-1], "\n") + "\n" + m.st.dim.Render(ansi.Truncate(more, max(m.width, 1), "…"))
}

// scrollServers moves the server pane by delta lines, within its length.
func (m *Model) scrollServers(delta int) {
	h := m.bodyHeight()
	maxTop := max(len(m.serverLines())-(h-1), 0)
	m.serversTop = max(0, min(m.serversTop+delta, maxTop))
}

// serverLines are the server pane's lines, unscrolled: for each server its
// state, the roots it fetched, the whole error (wrapped, never cut), what
// happened to it lately with the time (the last historyKept events: a
// crash it recovered from stays in view) and its last stderr lines.
func (m *Model) serverLines() []string {
	w := max(m.width, 1)
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
	if len(m.servers) == 0 {
		out = append(out, m.st.dim.Render("No server. Name one after -- or with --server/--url; rootpick proxy shows up here too."))
	}
	want := m.exposedURIs()
	for i, s := range m.servers {
		if i > 0 {
			out = append(out, "")
		}
		head := "● " + m.displayName(s)
		if s.version != "" {
			head += " " + s.version
		}
		if s.name != "" && s.label != s.name && !s.proxy {
			head += m.st.dim.Render("  (" + safetext.Escape(s.label) + ")")
		}
		out = append(out, line(m.st.title.Render(head)))
		state := m.paneState(s)
		if s.protocol != "" {
			state += m.st.dim.Render("  · protocol " + safetext.Escape(s.protocol))
		}
		wrapped("  state     ", state)
		switch {
		case !s.asked:
			out = append(out, line(m.st.dim.Render("  roots     not asked yet")))
		default:
			got := make([]string, len(s.fetched))
			for i, u := range s.fetched {
				got[i] = safetext.Escape(relPath(m.cfg.Dir, pathOfURI(u)))
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
				text += m.st.ok.Render("  = the consent")
			}
			wrapped("  roots     ", text)
		}
		if s.err != "" {
			wrapped("  error     ", m.st.err.Render(s.err))
		}
		if s.final {
			wrapped("            ", m.st.dim.Render("It is not restarted until you press "+m.retryKeyName()+
				": starting it again cannot help until the program is installed, made executable or the command corrected."))
		}
		for j, d := range s.withheld {
			label := "  withheld  "
			if j > 0 {
				label = "            "
			}
			wrapped(label, m.st.err.Render(d))
		}
		for j, e := range s.history {
			label := "  history   "
			if j > 0 {
				label = "            "
			}
			wrapped(label, m.st.dim.Render(e.at.Format("15:04:05")+" ")+e.text)
		}
		if s.dropped > 0 {
			out = append(out, line(m.st.dim.Render("  stderr    "+itoa(s.dropped)+" lines came faster than they could be read (the log has them)")))
		}
		for j, l := range s.stderr {
			label := "  stderr    "
			if j > 0 {
				label = "            "
			}
			out = append(out, line(m.st.dim.Render(label+l)))
		}
	}
	if m.cfg.LogPath != "" {
		out = append(out, "", line(m.st.dim.Render("log: "+safetext.Escape(m.cfg.LogPath))))
	}
	wrapped("", m.st.dim.Render(m.retryKeyName()+" retries servers that are down now · q, esc or "+m.paneKeyName()+" goes back to the list"))
	return out
}

// paneState is a server's state in the pane: as on the status line, but a
// failure's reason in short, since its whole error follows.
func (m *Model) paneState(s *serverState) string {
	switch s.state {
	case "restarting":
		if s.why == "" {
			out := m.st.pending.Render(m.restartIn(s))
			out += m.st.dim.Render(" (attempt " + itoa(s.attempt) + ", " + m.retryKeyName() + " retries now)")
			if s.reason != "" {
				out += m.st.dim.Render(": " + s.reason)
			}
			return out
		}
	case "stuck", "failed", "exited":
		return m.downState(s, s.reason)
	}
	return m.stateText(s)
}

// pathOfURI shows a file URI as its path.
func pathOfURI(u string) string {
	if p, err := consent.URIToPath(u); err == nil {
		return p
	}
	return u
}
