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

func (f *fleet) server(label string) *serverState {
	for _, s := range f.list {
		if s.label == label {
			return s
		}
	}
	s := &serverState{label: label}
	f.list = append(f.list, s)
	return s
}

// exposedURIs is the exposed set as sorted, unique URIs.
func (f *fleet) exposedURIs() []string {
	want := make([]string, len(f.sh.Served()))
	for i, r := range f.sh.Served() {
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
func (f *fleet) synced(s *serverState) bool {
	return s.asked && !f.sh.Applying() && sameSet(f.exposedURIs(), s.fetched)
}

// isVerified reports whether the server, asked, said it holds exactly the
// exposed set.
func (f *fleet) isVerified(s *serverState) bool {
	return s.verified != nil && !f.sh.Applying() && sameSet(f.exposedURIs(), s.verified)
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
func (f *fleet) displayName(s *serverState) string {
	name, n, nth := s.display(), 0, 0
	for _, o := range f.list {
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
func (f *fleet) connected() []*serverState {
	var out []*serverState
	for _, s := range f.list {
		if s.life == lifeConnected {
			out = append(out, s)
		}
	}
	return out
}

// serverNames names who a confirmation reaches: the connected servers, and
// how many will be served when they connect.
func (f *fleet) serverNames() string {
	conn := f.connected()
	names := make([]string, len(conn))
	for i, s := range conn {
		names[i] = f.displayName(s)
	}
	out := strings.Join(names, ", ")
	if len(conn) == 0 {
		out = "no connected server"
	}
	if waiting := len(f.list) - len(conn); waiting > 0 {
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
func (f *fleet) restartIn(s *serverState) string {
	secs := int(s.restartAt.Sub((*f.now)).Round(time.Second) / time.Second)
	return "restarting in " + itoa(max(secs, 0)) + "s"
}

// startingFor counts the seconds a start has taken: "starting (12s)".
func (f *fleet) startingFor(s *serverState) string {
	return "starting (" + itoa(max(int((*f.now).Sub(s.startedAt)/time.Second), 0)) + "s)"
}

// retryKeyName and paneKeyName name the keys that retry the servers and open
// the server pane, as the key map binds them.
func (f *fleet) retryKeyName() string { return f.keys.Retry.Help().Key }
func (f *fleet) paneKeyName() string  { return f.keys.Servers.Help().Key }

// needsDetails reports whether a server is down with a reason the server
// pane tells in full.
func (f *fleet) needsDetails() bool {
	for _, s := range f.list {
		if s.life.down() || s.life == lifeRestarting && s.err != "" {
			return true
		}
	}
	return false
}

func (f *fleet) protocol() string {
	if f.cfg.Hub != nil {
		return f.cfg.Hub.ProtocolVersion()
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
	fleet   *fleet      // the servers, whose line the note follows
	asking  func() bool // whether the note is a question (ask.go)
}

var _ component = (*statusLine)(nil)

// SetSize gives the line its width; its height is what it needs.
func (l *statusLine) SetSize(w, _ int) { l.w = w }

// set shows note, as an error (or question) when isErr.
func (l *statusLine) set(note string, isErr bool) { l.note, l.noteErr = note, isErr }

// View draws the line and its note.
func (l *statusLine) View() string {
	if l.asking() { // the question takes the whole line, wrapped
		return l.st.err.Render(wrapText(l.note, l.w))
	}
	line := l.fleet.line(l.w)
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

// line is one line: how many roots are exposed, then each server's
// state, in the most words that fit width w. A root counts as exposed
// only while a server is connected to be served it.
func (f *fleet) line(w int) string {
	n := len(f.sh.Served())
	var exposed string
	shortExposed := itoa(n) + " exposed" // for a narrow line
	switch {
	case len(f.connected()) == 0 && n > 0:
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
	if len(f.list) == 0 {
		line = exposed + "  " + f.st.dim.Render("no server")
	} else {
		hint := ""
		if f.needsDetails() {
			hint = f.st.dim.Render(" — " + f.paneKeyName() + " for details")
		}
		each := func(head string, state func(*serverState) string) string {
			parts := []string{head}
			for _, s := range f.list {
				parts = append(parts, "● "+f.displayName(s)+" "+state(s))
			}
			return strings.Join(parts, "  ")
		}
		tries := []string{
			each(exposed, f.fullState) + hint,
			each(exposed, f.fullState),
		}
		tries = append(tries, f.startingCut(exposed, w)...)
		tries = append(tries,
			each(exposed, f.shortState)+hint,
			each(exposed, f.shortState))
		if len(f.list) == 1 {
			// One server: the short count, then its name is what gets
			// cut, down to a few letters while its reason fits, and to
			// one letter before its state word is.
			s := f.list[0]
			tries = append(tries, each(shortExposed, f.shortState)+hint, each(shortExposed, f.shortState))
			for _, state := range []string{f.shortState(s), f.wordState(s)} {
				head, tail := shortExposed+"  ● ", " "+state
				room := w - ansi.StringWidth(head+tail)
				if state == f.wordState(s) || room >= min(ansi.StringWidth(f.displayName(s)), nameKept) {
					tries = append(tries, head+ansi.Truncate(f.displayName(s), max(room, 1), "…")+tail)
				}
			}
		} else {
			// Never hide a server: when they do not fit, one word each,
			// then count them: with the hint while it fits, then
			// without; at the narrowest, the count of roots in short and
			// the worst states first, so what is cut at the edge is good
			// news.
			tries = append(tries,
				each(exposed, f.wordState)+hint,
				each(exposed, f.wordState),
				exposed+"  "+f.serverSummary(true, false),
				exposed+"  "+f.serverSummary(false, false),
				shortExposed+"  "+f.serverSummary(false, true))
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
func (f *fleet) startingCut(exposed string, w int) []string {
	if len(f.list) != 1 {
		return nil
	}
	s := f.list[0]
	if s.life != lifeStarting || s.startedAt.IsZero() || s.startLine == "" {
		return nil
	}
	head := exposed + "  ● " + f.displayName(s) + " " + f.st.pending.Render(f.startingFor(s)) + f.st.dim.Render(" — ")
	room := w - ansi.StringWidth(head)
	if room < 10 {
		return nil
	}
	return []string{head + f.st.dim.Render(ansi.Truncate(s.startLine, room, "…"))}
}

// serverSummary counts the servers by state: "3 servers: 2 verified, 1
// failed", and " — tab for details" (the server pane's key) with hint;
// worst puts the states that need attention first.
func (f *fleet) serverSummary(hint, worst bool) string {
	var counts [numVerdicts]int
	for _, s := range f.list {
		counts[f.verdictOf(s)]++
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
	line := itoa(len(f.list)) + " servers: " + strings.Join(parts, ", ")
	if hint {
		line += f.st.dim.Render(" — " + f.paneKeyName() + " for details")
	}
	return line
}
