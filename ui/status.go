package ui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/mcpconn"
)

// serverState is what the UI knows of one server, built only from hub events.
type serverState struct {
	label   string
	name    string // the server's own name, once connected
	state   string // starting, connected, failed, exited
	err     string
	fetched []string // URIs of the last roots/list answer
	asked   bool     // it has asked roots/list at least once
}

func (m *Model) onHubEvent(ev mcpconn.Event) {
	s := m.server(ev.Server)
	switch ev.Kind {
	case mcpconn.Connecting:
		s.state = "starting"
	case mcpconn.Connected:
		s.state, s.err = "connected", ""
		if ev.ServerName != "" {
			s.name = ev.ServerName
		}
	case mcpconn.Fetched:
		s.fetched, s.asked = ev.URIs, true
	case mcpconn.Stderr, mcpconn.ServerLog:
		// Logged by the hub; shown once there is a server pane.
	case mcpconn.Failed:
		s.state = "failed"
		if ev.Err != nil {
			s.err = clean(ev.Err.Error())
		}
	case mcpconn.Disconnected:
		s.state = "exited"
		if ev.Err != nil {
			s.err = clean(ev.Err.Error())
		}
	}
}

func (m *Model) server(label string) *serverState {
	for _, s := range m.servers {
		if s.label == label {
			return s
		}
	}
	s := &serverState{label: label, state: "starting"}
	m.servers = append(m.servers, s)
	return s
}

// synced reports whether the server's last roots/list answer is exactly the
// exposed set (and no change is still on its way).
func (m *Model) synced(s *serverState) bool {
	if !s.asked || m.applying {
		return false
	}
	want := make([]string, len(m.exposed))
	for i, r := range m.exposed {
		want[i] = r.URI
	}
	got := slices.Clone(s.fetched)
	slices.Sort(want)
	slices.Sort(got)
	return slices.Equal(slices.Compact(want), slices.Compact(got))
}

func (s *serverState) display() string {
	if s.name != "" {
		return clean(s.name)
	}
	return clean(s.label)
}

func (m *Model) serverNames() string {
	if len(m.servers) == 0 {
		return "no server"
	}
	names := make([]string, len(m.servers))
	for i, s := range m.servers {
		names[i] = s.display()
	}
	return strings.Join(names, ", ")
}

// statusView is one line: each server's state, how many roots are exposed,
// and whether the server has fetched the current set (synced) or not yet
// (pending); a note from the last action follows.
func (m *Model) statusView() string {
	n := len(m.exposed)
	exposed := itoa(n) + " roots exposed"
	if n == 1 {
		exposed = "1 root exposed"
	}
	// The count comes first so that no server error can push it off.
	parts := []string{exposed}
	for _, s := range m.servers {
		var state string
		switch s.state {
		case "connected":
			if m.synced(s) {
				state = m.st.ok.Render("synced")
			} else {
				state = m.st.pending.Render("pending")
			}
		case "failed", "exited":
			state = m.st.err.Render(s.state)
			if s.err != "" {
				state += m.st.dim.Render(": " + ansi.Truncate(s.err, 40, "…"))
			}
		default:
			state = m.st.pending.Render(s.state + "…")
		}
		parts = append(parts, "● "+s.display()+" "+state)
	}
	if len(m.servers) == 0 {
		parts = append(parts, m.st.dim.Render("no server"))
	}
	line := strings.Join(parts, "  ")
	if m.note != "" {
		if m.noteErr {
			line += "  " + m.st.err.Render(m.note)
		} else {
			line += "  " + m.st.dim.Render(m.note)
		}
	}
	return ansi.Truncate(line, m.width, "…")
}

func itoa(n int) string { return strconv.Itoa(n) }
