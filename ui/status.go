package ui

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn"
)

// stderrKept is how many of a server's last stderr lines the UI keeps for
// the server pane; longer lines are cut (at stderrLineCut runes).
const (
	stderrKept    = 5
	stderrLineCut = 300
)

func (s *serverState) addStderr(line string) {
	line = safetext.EscapeMax(line, stderrLineCut) // an escape or a rune is never cut in half
	s.stderr = append(s.stderr, line)
	if len(s.stderr) > stderrKept {
		s.stderr = append(s.stderr[:0:0], s.stderr[len(s.stderr)-stderrKept:]...)
	}
}

func (m *Model) server(label string) *serverState {
	for _, s := range m.servers {
		if s.label == label {
			return s
		}
	}
	s := &serverState{label: label}
	m.servers = append(m.servers, s)
	return s
}

// exposedURIs is the exposed set as sorted, unique URIs.
func (m *Model) exposedURIs() []string {
	want := make([]string, len(m.sh.Served()))
	for i, r := range m.sh.Served() {
		want[i] = r.URI
	}
	slices.Sort(want)
	return slices.Compact(want)
}

func sameSet(want, got []string) bool {
	got = slices.Clone(got)
	slices.Sort(got)
	return slices.Equal(want, slices.Compact(got))
}

// synced reports whether the server's last roots/list answer is exactly the
// exposed set (and no change is still on its way).
func (m *Model) synced(s *serverState) bool {
	return s.asked && !m.sh.Applying() && sameSet(m.exposedURIs(), s.fetched)
}

// isVerified reports whether the server, asked, said it holds exactly the
// exposed set.
func (m *Model) isVerified(s *serverState) bool {
	return s.verified != nil && !m.sh.Applying() && sameSet(m.exposedURIs(), s.verified)
}

func (s *serverState) display() string {
	if s.name != "" {
		return s.name
	}
	return safetext.Escape(s.label)
}

// displayName is how server s is named on screen: its own name once known,
// with " #2", " #3"… when another server shows the same name, so that two
// servers are never confused.
func (m *Model) displayName(s *serverState) string {
	name, n, nth := s.display(), 0, 0
	for _, o := range m.servers {
		if o.display() == name {
			n++
			if o == s {
				nth = n
			}
		}
	}
	if nth > 1 {
		return name + " #" + itoa(nth)
	}
	return name
}

// connected lists the servers that are connected now.
func (m *Model) connected() []*serverState {
	var out []*serverState
	for _, s := range m.servers {
		if s.life == lifeConnected {
			out = append(out, s)
		}
	}
	return out
}

// serverNames names who a confirmation reaches: the connected servers, and
// how many will be served when they connect.
func (m *Model) serverNames() string {
	conn := m.connected()
	names := make([]string, len(conn))
	for i, s := range conn {
		names[i] = m.displayName(s)
	}
	out := strings.Join(names, ", ")
	if len(conn) == 0 {
		out = "no connected server"
	}
	if waiting := len(m.servers) - len(conn); waiting > 0 {
		out += " (" + plural(waiting, "more server", "more servers") + " will be served when it connects)"
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}

// restartIn counts down to a restart: "restarting in 4s".
func (m *Model) restartIn(s *serverState) string {
	secs := int(s.restartAt.Sub(m.now).Round(time.Second) / time.Second)
	return "restarting in " + itoa(max(secs, 0)) + "s"
}

// startingFor counts the seconds a start has taken: "starting (12s)".
func (m *Model) startingFor(s *serverState) string {
	return "starting (" + itoa(max(int(m.now.Sub(s.startedAt)/time.Second), 0)) + "s)"
}

// retryKeyName and paneKeyName name the keys that retry the servers and open
// the server pane, as the key map binds them.
func (m *Model) retryKeyName() string { return m.keys.Retry.Help().Key }
func (m *Model) paneKeyName() string  { return m.keys.Servers.Help().Key }

// needsDetails reports whether a server is down with a reason the server
// pane tells in full.
func (m *Model) needsDetails() bool {
	for _, s := range m.servers {
		if s.life.down() || s.life == lifeRestarting && s.err != "" {
			return true
		}
	}
	return false
}

func (m *Model) protocol() string {
	if m.cfg.Hub != nil {
		return m.cfg.Hub.ProtocolVersion()
	}
	return mcpconn.DefaultProtocolVersion
}

// statusLine is the status line as a component: it owns its width and
// the note of the last action; the line about the roots and the servers
// comes from its source (the model). The note follows that line when it
// fits, else on lines of its own below, wrapped: a result or a reason is
// never cut. A question takes the whole line.
type statusLine struct {
	*common
	w       int
	note    string // one-line feedback on the last action, or the question asked
	noteErr bool
	src     statusSource
}

// statusSource is what the status line shows beside its note.
type statusSource interface {
	// serversLine is how many roots are exposed, then each server's
	// state, fitted to width w.
	serversLine(w int) string
	// asking reports whether the note is a question (ask.go).
	asking() bool
}

var _ component = (*statusLine)(nil)

// SetSize gives the line its width; its height is what it needs.
func (l *statusLine) SetSize(w, _ int) { l.w = w }

// set shows note, as an error (or question) when isErr.
func (l *statusLine) set(note string, isErr bool) { l.note, l.noteErr = note, isErr }

// View draws the line and its note.
func (l *statusLine) View() string {
	if l.src.asking() { // the question takes the whole line, wrapped
		return l.st.err.Render(wrapText(l.note, l.w))
	}
	line := l.src.serversLine(l.w)
	if l.note == "" {
		return ansi.Truncate(line, l.w, "…")
	}
	st := l.st.dim
	if l.noteErr {
		st = l.st.err
	}
	if ansi.StringWidth(line)+2+ansi.StringWidth(l.note) <= l.w {
		return line + "  " + st.Render(l.note)
	}
	return ansi.Truncate(line, l.w, "…") + "\n" + st.Render(wrapText(l.note, l.w))
}

func (m *Model) asking() bool { return m.question != askNone }

// serversLine is one line: how many roots are exposed, then each server's
// state, in the most words that fit width w. A root counts as exposed
// only while a server is connected to be served it.
func (m *Model) serversLine(w int) string {
	n := len(m.sh.Served())
	var exposed string
	shortExposed := itoa(n) + " exposed" // for a narrow line
	switch {
	case len(m.connected()) == 0 && n > 0:
		exposed = plural(n, "root", "roots") + " consented, served when a server connects"
		shortExposed = itoa(n) + " consented"
	case n == 1:
		exposed = "1 root exposed"
	default:
		exposed = itoa(n) + " roots exposed"
	}
	// The count comes first so that no server error can push it off. The
	// line is the first of these that fits, from the whole story to the
	// fewest words: every server's state in full, then each one's state
	// word with its short reason ("restarting in 4s: exited with status
	// 1"), then
	// one word each, then (several servers) counted by state. Where a
	// server is down, " — tab for details" follows while there is room.
	var line string
	if len(m.servers) == 0 {
		line = exposed + "  " + m.st.dim.Render("no server")
	} else {
		hint := ""
		if m.needsDetails() {
			hint = m.st.dim.Render(" — " + m.paneKeyName() + " for details")
		}
		each := func(head string, state func(*serverState) string) string {
			parts := []string{head}
			for _, s := range m.servers {
				parts = append(parts, "● "+m.displayName(s)+" "+state(s))
			}
			return strings.Join(parts, "  ")
		}
		tries := []string{
			each(exposed, m.fullState) + hint,
			each(exposed, m.fullState),
		}
		tries = append(tries, m.startingCut(exposed, w)...)
		tries = append(tries,
			each(exposed, m.shortState)+hint,
			each(exposed, m.shortState))
		if len(m.servers) == 1 {
			// One server: the short count, then its name is what gets
			// cut, down to a few letters while its reason fits, and to
			// one letter before its state word is.
			s := m.servers[0]
			tries = append(tries, each(shortExposed, m.shortState)+hint, each(shortExposed, m.shortState))
			for _, state := range []string{m.shortState(s), m.wordState(s)} {
				head, tail := shortExposed+"  ● ", " "+state
				room := w - ansi.StringWidth(head+tail)
				if state == m.wordState(s) || room >= min(ansi.StringWidth(m.displayName(s)), nameKept) {
					tries = append(tries, head+ansi.Truncate(m.displayName(s), max(room, 1), "…")+tail)
				}
			}
		} else {
			// Never hide a server: when they do not fit, one word each,
			// then count them: with the hint while it fits, then
			// without; at the narrowest, the count of roots in short and
			// the worst states first, so what is cut at the edge is good
			// news.
			tries = append(tries,
				each(exposed, m.wordState)+hint,
				each(exposed, m.wordState),
				exposed+"  "+m.serverSummary(true, false),
				exposed+"  "+m.serverSummary(false, false),
				shortExposed+"  "+m.serverSummary(false, true))
		}
		for _, try := range tries {
			line = try
			if ansi.StringWidth(line) <= w {
				break
			}
		}
	}
	return line
}

func itoa(n int) string { return strconv.Itoa(n) }

// relPath shows p relative to dir when it is inside it.
func relPath(dir, p string) string {
	if rel, err := filepath.Rel(dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return rel
	}
	return p
}

// nameKept is the fewest cells of a server's name the status line keeps
// to show its short reason; below it the reason goes, not the name.
const nameKept = 6

// startingCut is, when the one server is starting and has written on
// stderr, its line with that last stderr line cut to fit: what a slow
// start is busy with is worth more than the rest of the line.
func (m *Model) startingCut(exposed string, w int) []string {
	if len(m.servers) != 1 {
		return nil
	}
	s := m.servers[0]
	if s.life != lifeStarting || s.startedAt.IsZero() || s.startLine == "" {
		return nil
	}
	head := exposed + "  ● " + m.displayName(s) + " " + m.st.pending.Render(m.startingFor(s)) + m.st.dim.Render(" — ")
	room := w - ansi.StringWidth(head)
	if room < 10 {
		return nil
	}
	return []string{head + m.st.dim.Render(ansi.Truncate(s.startLine, room, "…"))}
}

// serverSummary counts the servers by state: "3 servers: 2 verified, 1
// failed", and " — tab for details" (the server pane's key) with hint;
// worst puts the states that need attention first.
func (m *Model) serverSummary(hint, worst bool) string {
	var counts [numVerdicts]int
	for _, s := range m.servers {
		counts[m.verdictOf(s)]++
	}
	var parts []string
	for i := range numVerdicts {
		v := i
		if worst {
			v = numVerdicts - 1 - i
		}
		if n := counts[v]; n > 0 {
			parts = append(parts, itoa(n)+" "+v.String())
		}
	}
	line := itoa(len(m.servers)) + " servers: " + strings.Join(parts, ", ")
	if hint {
		line += m.st.dim.Render(" — " + m.paneKeyName() + " for details")
	}
	return line
}
