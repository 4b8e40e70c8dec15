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

// serverState is what the UI knows of one server, built only from hub events.
type serverState struct {
	label    string
	name     string // the server's own name, once connected
	state    string // starting, connected, restarting, stuck, failed, exited
	err      string
	protocol string   // the protocol version it answered
	fetched  []string // URIs of the last roots/list answer
	asked    bool     // it has asked roots/list since it connected

	notFetching bool      // it did not ask roots/list after the last change
	verified    []string  // URIs it said it holds, when asked (nil: not asked)
	mismatch    string    // what it holds that differs from the consent
	restartAt   time.Time // when a restart is due (state restarting)
	attempt     int       // failures in a row
	why         string    // why it is restarting at once
	proxy       bool      // a rootpick proxy run by an agent host
	withheld    []string  // a proxy's consented roots it does not serve, with why (escaped)
	noConsent   bool      // a proxy that reads no consent (no record, or one not believed): it serves nothing
	version     string    // its serverInfo.version
	fetchedAt   time.Time // when it last asked roots/list
	stderr      []string  // its last stderr lines and log messages, escaped
	dropped     int       // lines it wrote faster than they could be read

	reason    string         // why it failed, ended or is stuck, in short (escaped)
	final     bool           // it failed in a way only a retry (the Retry key) can get past
	startedAt time.Time      // when its current start began (state starting)
	startLine string         // the last stderr line of the current start, escaped
	history   []historyEntry // what happened to it lately, oldest first
}

// historyEntry is one thing that happened to a server, with when.
type historyEntry struct {
	at   time.Time
	text string // escaped
}

// historyKept is how many entries of a server's history the pane shows.
const historyKept = 8

func (s *serverState) addHistory(at time.Time, text string) {
	s.history = append(s.history, historyEntry{at: at, text: text})
	if len(s.history) > historyKept {
		s.history = append(s.history[:0:0], s.history[len(s.history)-historyKept:]...)
	}
}

// endWords is a history entry for a server that failed, ended or was
// stopped: an exit or a signal speaks for itself ("exited with status 1"),
// other reasons follow what happened.
func endWords(what, reason string, final bool) string {
	text := what + ": " + reason
	switch {
	case speaksForItself(reason):
		text = reason
	case reason == "":
		text = what
	}
	if final {
		text += " (final)"
	}
	return text
}

// speaksForItself reports whether a reason says how a process ended
// ("exited with status 1", "killed by signal 9 (SIGKILL)"): after the
// state word "exited" it would say the same thing twice.
func speaksForItself(reason string) bool {
	for _, p := range []string{"exited with ", "killed by ", "terminated by "} {
		if strings.HasPrefix(reason, p) {
			return true
		}
	}
	return false
}

// downState is a server that is down, in words: its state word and why
// ("failed: not found on PATH"), or only why when that says it already
// ("exited with status 1" rather than "exited: exited with status 1").
func (m *Model) downState(s *serverState, why string) string {
	switch {
	case why == "":
		return m.st.err.Render(s.state)
	case s.state == "exited" && speaksForItself(why):
		return m.st.err.Render(why)
	}
	return m.st.err.Render(s.state) + m.st.dim.Render(": "+why)
}

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
	s := &serverState{label: label, state: "starting"}
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
		if s.state == "connected" {
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

// stateText is one server's state in words, styled.
func (m *Model) stateText(s *serverState) string {
	switch s.state {
	case "connected":
		var out string
		switch {
		case s.noConsent:
			out = m.st.warn.Render("no consent") + m.st.dim.Render(" (it serves nothing: "+m.paneKeyName()+" for why)")
		case s.mismatch != "" && !m.sh.Applying():
			out = m.st.warn.Render("mismatch: " + s.mismatch)
		case m.isVerified(s):
			out = m.st.ok.Render("verified")
		case m.synced(s):
			out = m.st.ok.Render("synced")
		case s.notFetching:
			out = m.st.warn.Render("not fetching") + m.st.dim.Render(" (it never asks for roots: pass folders with {roots})")
		default:
			out = m.st.pending.Render("pending")
		}
		// A proxy speaks the version its host asked for, which may well be
		// older than the picker's pin.
		if want := m.protocol(); s.protocol != "" && s.protocol != want && !s.proxy {
			out += m.st.warn.Render(" protocol " + safetext.Escape(s.protocol) + "≠" + want)
		}
		return out
	case "restarting":
		if s.why != "" {
			return m.st.pending.Render("restarting") + m.st.dim.Render(": "+s.why)
		}
		out := m.st.pending.Render(m.restartIn(s))
		out += m.st.dim.Render(" (attempt " + itoa(s.attempt) + ", " + m.retryKeyName() + " retries now)")
		if s.err != "" {
			out += m.st.dim.Render(": " + s.err)
		}
		return out
	case "stuck", "failed", "exited":
		why := s.err
		if why == "" {
			why = s.reason
		}
		out := m.downState(s, why)
		if s.final {
			out += m.st.dim.Render(" (not restarted until you press " + m.retryKeyName() + ")")
		}
		return out
	case "starting":
		if s.startedAt.IsZero() {
			break
		}
		out := m.st.pending.Render(m.startingFor(s))
		if s.startLine != "" {
			out += m.st.dim.Render(" — " + s.startLine)
		}
		return out
	}
	return m.st.pending.Render(s.state + "…")
}

// mediumState is one server's state word with its short reason: what the
// status line shows when the whole story does not fit.
func (m *Model) mediumState(s *serverState) string {
	switch s.state {
	case "restarting":
		if s.why != "" {
			return m.st.pending.Render("restarting")
		}
		out := m.st.pending.Render(m.restartIn(s))
		if s.reason != "" {
			out += m.st.dim.Render(": " + s.reason)
		}
		return out
	case "stuck", "failed", "exited":
		out := m.downState(s, s.reason)
		if s.final {
			out += m.st.dim.Render(" (" + m.retryKeyName() + " retries)")
		}
		return out
	case "starting":
		if !s.startedAt.IsZero() {
			return m.st.pending.Render(m.startingFor(s))
		}
	}
	return m.shortState(s)
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
		switch s.state {
		case "failed", "exited", "stuck":
			return true
		case "restarting":
			if s.err != "" {
				return true
			}
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

// statusView is one line: how many roots are exposed, then each server's
// state; a note from the last action follows, on lines of its own when
// it does not fit beside them. A root counts as exposed only
// while a server is connected to be served it.
func (m *Model) statusView() string {
	if m.asking != askNone { // the question takes the whole line, wrapped
		return m.st.err.Render(wrapText(m.note, m.width))
	}
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
			each(exposed, m.stateText) + hint,
			each(exposed, m.stateText),
		}
		tries = append(tries, m.startingCut(exposed)...)
		tries = append(tries,
			each(exposed, m.mediumState)+hint,
			each(exposed, m.mediumState))
		if len(m.servers) == 1 {
			// One server: the short count, then its name is what gets
			// cut, down to a few letters while its reason fits, and to
			// one letter before its state word is.
			s := m.servers[0]
			tries = append(tries, each(shortExposed, m.mediumState)+hint, each(shortExposed, m.mediumState))
			for _, state := range []string{m.mediumState(s), m.shortState(s)} {
				head, tail := shortExposed+"  ● ", " "+state
				room := m.width - ansi.StringWidth(head+tail)
				if state == m.shortState(s) || room >= min(ansi.StringWidth(m.displayName(s)), nameKept) {
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
				each(exposed, m.shortState)+hint,
				each(exposed, m.shortState),
				exposed+"  "+m.serverSummary(true, false),
				exposed+"  "+m.serverSummary(false, false),
				shortExposed+"  "+m.serverSummary(false, true))
		}
		for _, try := range tries {
			line = try
			if ansi.StringWidth(line) <= m.width {
				break
			}
		}
	}
	if m.note == "" {
		return ansi.Truncate(line, m.width, "…")
	}
	st := m.st.dim
	if m.noteErr {
		st = m.st.err
	}
	// The note follows on the same line when it fits, else on lines of
	// its own below, wrapped: a result or a reason is never cut.
	if ansi.StringWidth(line)+2+ansi.StringWidth(m.note) <= m.width {
		return line + "  " + st.Render(m.note)
	}
	return ansi.Truncate(line, m.width, "…") + "\n" + st.Render(wrapText(m.note, m.width))
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
func (m *Model) startingCut(exposed string) []string {
	if len(m.servers) != 1 {
		return nil
	}
	s := m.servers[0]
	if s.state != "starting" || s.startedAt.IsZero() || s.startLine == "" {
		return nil
	}
	head := exposed + "  ● " + m.displayName(s) + " " + m.st.pending.Render(m.startingFor(s)) + m.st.dim.Render(" — ")
	room := m.width - ansi.StringWidth(head)
	if room < 10 {
		return nil
	}
	return []string{head + m.st.dim.Render(ansi.Truncate(s.startLine, room, "…"))}
}

// shortState is one server's state in one word, for the summary.
func (m *Model) shortState(s *serverState) string {
	switch s.state {
	case "connected":
		switch {
		case s.noConsent:
			return "no consent"
		case s.mismatch != "" && !m.sh.Applying():
			return "mismatch"
		case m.isVerified(s):
			return "verified"
		case m.synced(s):
			return "synced"
		case s.notFetching:
			return "not fetching"
		}
		return "pending"
	case "starting":
		return "starting"
	}
	return s.state
}

// serverStateWords are the one-word states shortState returns, in the
// summary's order; ? explains each (TestHelpExplainsEveryState).
var serverStateWords = []string{"verified", "synced", "pending", "starting", "not fetching", "no consent", "mismatch", "restarting", "stuck", "failed", "exited"}

// serverSummary counts the servers by state: "3 servers: 2 verified, 1
// failed", and " — tab for details" (the server pane's key) with hint;
// worst puts the states that need attention first.
func (m *Model) serverSummary(hint, worst bool) string {
	order := serverStateWords
	if worst {
		order = slices.Clone(order)
		slices.Reverse(order)
	}
	counts := map[string]int{}
	for _, s := range m.servers {
		counts[m.shortState(s)]++
	}
	var parts []string
	for _, st := range order {
		if n := counts[st]; n > 0 {
			parts = append(parts, itoa(n)+" "+st)
		}
	}
	line := itoa(len(m.servers)) + " servers: " + strings.Join(parts, ", ")
	if hint {
		line += m.st.dim.Render(" — " + m.paneKeyName() + " for details")
	}
	return line
}
