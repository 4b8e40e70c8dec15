package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
)

// serversKey handles a key in the server pane: q quits, R retries the
// servers waiting to restart, tab or esc goes back to the list.
func (m *Model) serversKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m.quit()
	case key.Matches(msg, m.keys.Retry):
		return m.retry()
	case key.Matches(msg, m.keys.Servers), msg.String() == "esc":
		m.close()
	}
	return nil
}

// serversView is the server pane (tab): one block per server and per proxy
// of the profile, with everything the status line has no room for.
func (m *Model) serversView() string {
	w := max(m.width, 1)
	line := func(s string) string { return ansi.Truncate(s, w, "…") }
	var out []string
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
		state := "  state     " + m.stateText(s)
		if s.protocol != "" {
			state += m.st.dim.Render("  · protocol " + safetext.Escape(s.protocol))
		}
		out = append(out, line(state))
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
			out = append(out, line("  roots     "+text))
		}
		if s.err != "" {
			out = append(out, line("  error     "+m.st.err.Render(s.err)))
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
	out = append(out, line(m.st.dim.Render("R retries servers that are down now · tab or esc goes back to the list")))
	return strings.Join(out, "\n")
}

// pathOfURI shows a file URI as its path.
func pathOfURI(u string) string {
	if p, err := consent.URIToPath(u); err == nil {
		return p
	}
	return u
}
