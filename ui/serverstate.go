package ui

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/ui/sharing"
)

// A server's state has two typed layers: life, where its process is (set
// only by the hub's events, hub.go, and the proxy registry, proxies.go),
// and verdict, what the status line says of it, which fleet.verdictOf
// derives from its life and its roots facts. fleet.stateView is the one
// place a state is drawn, at each width the screen asks for.

// fleet is the servers and proxies the picker shows, with what judging
// their states needs: the consented set (a change on its way leaves every
// server pending), the protocol the hub pins and the model's clock. It
// draws them: the status line's part (line), the server pane's lines and
// each state (stateView).
type fleet struct {
	*common
	list []*serverState
	// servingVer changes whenever what a proxy serves does (onProxies),
	// for the caches of the exposed set.
	servingVer uint64
	sh         *sharing.State[consentDialog]
	now        *time.Time // the model's clock, as of the last event or tick
	cfg        *Config    // the model's: the hub (its protocol), the scanned folder, the log named in the pane
}

// life is where a server's process is.
type life int

const (
	lifeStarting   life = iota // started, not connected yet
	lifeConnected              // connected: its roots facts say the rest
	lifeRestarting             // it stopped and is started again, after a pause or at once (why)
	lifeStuck                  // it stopped reading its input and was stopped
	lifeFailed                 // it could not start, or its connection failed
	lifeExited                 // it ended by itself
)

// down reports whether the process is not running and not about to be.
func (l life) down() bool { return l == lifeStuck || l == lifeFailed || l == lifeExited }

// verdict is what the status line says of a server, in one word.
type verdict int

// The verdicts, in the summary's order: good news first.
const (
	verdictVerified verdict = iota
	verdictSynced
	verdictReady
	verdictPending
	verdictStarting
	verdictNotFetching
	verdictNoConsent
	verdictMismatch
	verdictRestarting
	verdictStuck
	verdictFailed
	verdictExited
	numVerdicts
)

// verdictWords are each verdict's word and what it means, for the status
// line, the summary and the help (the help's lines are these).
// A meaning that names the retry key ends before it, and retry (the
// words around the key) says the rest: the help puts the bound key in.
var verdictWords = [numVerdicts]struct{ word, meaning, retry string }{
	verdictVerified:    {word: "verified", meaning: "asked, it says it holds exactly what is shared"},
	verdictSynced:      {word: "synced", meaning: "the last roots/list answer it received is exactly what is shared"},
	verdictReady:       {word: "ready", meaning: "connected, and nothing is shared: it holds no folder of yours (asked, or as its last roots/list answer)"},
	verdictPending:     {word: "pending", meaning: "connected; it has not yet asked for the roots shared now"},
	verdictStarting:    {word: "starting", meaning: "connecting to the server"},
	verdictNotFetching: {word: "not fetching", meaning: "it never asked for roots after the last change: pass it folders with {roots}"},
	verdictNoConsent:   {word: "no consent", meaning: "a proxy that reads no consent (no record for its profile, or one not believed): its server sees no folders"},
	verdictMismatch:    {word: "mismatch", meaning: "it holds something else than what you shared: what it holds beyond the consent or lacks follows"},
	verdictRestarting:  {word: "restarting", meaning: "it stopped and is started again after a pause (in Ns); ", retry: "%s retries now"},
	verdictStuck:       {word: "stuck", meaning: "it stopped reading its input for 2 s; it is stopped and restarted"},
	verdictFailed:      {word: "failed", meaning: "it could not start or its connection failed; the reason follows ", retry: "(a program that cannot start at all, not on PATH say, waits for %s)"},
	verdictExited:      {word: "exited", meaning: "it ended by itself"},
}

func (v verdict) String() string { return verdictWords[v].word }

// verdictOf is the one derivation of a server's verdict from what the hub
// said of it and from the sharing state (a change on its way is pending
// for every server).
func (f *fleet) verdictOf(s *serverState) verdict {
	switch s.life {
	case lifeStarting:
		return verdictStarting
	case lifeRestarting:
		return verdictRestarting
	case lifeStuck:
		return verdictStuck
	case lifeFailed:
		return verdictFailed
	case lifeExited:
		return verdictExited
	case lifeConnected:
	}
	switch {
	case s.mismatch != "" && !f.sh.Applying():
		// First: a server that holds more than the consent is the news,
		// even behind a proxy that serves it nothing.
		return verdictMismatch
	case s.noConsent:
		return verdictNoConsent
	case (f.isVerified(s) || f.synced(s)) && len(f.wantOf(s)) == 0:
		return verdictReady // nothing shared: no green "verified" for holding nothing
	case f.isVerified(s):
		return verdictVerified
	case f.synced(s):
		return verdictSynced
	case s.notFetching:
		return verdictNotFetching
	}
	return verdictPending
}

// detail is how much of a state a place on screen has room for.
type detail int

const (
	inWord  detail = iota // the verdict's word, unstyled: the summary counts these
	inShort               // the word with its short reason ("restarting in 4s: exited with status 1")
	inFull                // the whole story, for the status line when it fits
	inPane                // the server pane: as inFull, but a failure's reason in short, since its whole error follows
)

// stateView draws server s's state at detail d: the one place a state
// becomes words.
func (f *fleet) stateView(s *serverState, d detail) string {
	v := f.verdictOf(s)
	if d == inWord {
		return v.String()
	}
	word := v.String()
	dim := f.st.dim.Render
	switch v {
	case verdictVerified, verdictSynced:
		return f.st.ok.Render(word) + f.loopNote(s, d) + f.protocolNote(s, d)
	case verdictPending:
		return f.st.pending.Render(word) + f.loopNote(s, d) + f.protocolNote(s, d)
	case verdictReady:
		return word + f.loopNote(s, d) + f.protocolNote(s, d)
	case verdictNoConsent:
		out := f.st.warn.Render(word)
		if d != inShort {
			out += dim(" (it serves nothing: " + f.paneKeyName() + " for why)")
		}
		return out + f.protocolNote(s, d)
	case verdictMismatch:
		if d != inShort {
			word += ": " + s.mismatch
		}
		return f.st.warn.Render(word) + f.protocolNote(s, d)
	case verdictNotFetching:
		out := f.st.warn.Render(word)
		if d != inShort {
			out += dim(" (it never asks for roots: pass folders with {roots})")
		}
		return out + f.protocolNote(s, d)
	case verdictRestarting:
		return f.restartingView(s, d)
	case verdictStuck, verdictFailed, verdictExited:
		return f.downView(s, d)
	case verdictStarting:
		return f.startingView(s, d)
	case numVerdicts:
	}
	return word
}

// restartingView is a restarting server's state at detail d: why, or the
// countdown with its attempt and reason.
func (f *fleet) restartingView(s *serverState, d detail) string {
	word, dim := verdictRestarting.String(), f.st.dim.Render
	if s.why != "" { // at once, for a reason (a consent change, a stuck server)
		if d == inShort {
			return f.st.pending.Render(word)
		}
		return f.st.pending.Render(word) + dim(": "+s.why)
	}
	out := f.st.pending.Render(f.restartIn(s))
	if d != inShort {
		out += dim(" (attempt " + itoa(s.attempt) + ", " + f.retryKeyName() + " retries now)")
	}
	if why := s.reason; d == inFull && s.err != "" || why != "" && d != inFull {
		if d == inFull {
			why = s.err
		}
		out += dim(": " + why)
	}
	if len(s.allowable) > 0 && d == inFull {
		out += dim(" (" + f.paneKeyName() + " to allow it)")
	}
	return out
}

// downView is a stuck, failed or exited server's state at detail d.
func (f *fleet) downView(s *serverState, d detail) string {
	dim := f.st.dim.Render
	why := s.reason
	if d == inFull && s.err != "" {
		why = s.err
	}
	out := f.downState(s, why)
	if len(s.allowable) > 0 && d == inFull {
		out += dim(" (" + f.paneKeyName() + " to allow it)")
	}
	switch {
	case !s.final || d == inPane: // the pane says it on a line of its own
	case d == inFull:
		out += dim(" (not restarted until you press " + f.retryKeyName() + ")")
	default:
		out += dim(" (" + f.retryKeyName() + " retries)")
	}
	return out
}

// startingView is a starting server's state at detail d: the seconds, the
// attempt after a failure, and its last stderr line or last reason.
func (f *fleet) startingView(s *serverState, d detail) string {
	word, dim := verdictStarting.String(), f.st.dim.Render
	switch {
	case s.startedAt.IsZero() && d == inShort:
		return f.st.pending.Render(word)
	case s.startedAt.IsZero():
		return f.st.pending.Render(word + "…")
	}
	out := f.st.pending.Render(f.startingFor(s))
	switch {
	case d == inShort:
	case s.startLine != "":
		out += dim(" — " + s.startLine)
	case s.attempt > 1 && s.reason != "":
		out += dim(" — last: " + s.reason)
	}
	return out
}

// crashWindow is how far back a connected server's ends count, and how
// long it must stay up before it reads healthy again: the hub's own
// measure of a healthy run (Timing.HealthyAfter), which resets its
// backoff.
const crashWindow = time.Minute

// maxEnds bounds serverState.ends.
const maxEnds = 16

// noteEnd records that s failed, exited or got stuck at now.
func (s *serverState) noteEnd(now time.Time) {
	s.ends = append(s.ends, now)
	if len(s.ends) > maxEnds {
		s.ends = s.ends[len(s.ends)-maxEnds:]
	}
}

// loopNote says, for a connected server that died twice or more in the
// last crashWindow (so it has not stayed up that long since), how often:
// " (restarted 4× in 30 s)" — a crash loop must not look healthy between
// two deaths.
func (f *fleet) loopNote(s *serverState, d detail) string {
	now := *f.now
	if s.proxy {
		return ""
	}
	n, first := 0, time.Time{}
	for _, t := range s.ends {
		if now.Sub(t) < crashWindow {
			if n == 0 {
				first = t
			}
			n++
		}
	}
	if n < 2 {
		return ""
	}
	if d == inShort {
		return f.st.warn.Render(" (restarted " + itoa(n) + "×)")
	}
	return f.st.warn.Render(" (restarted " + itoa(n) + "× in " + itoa(int(max(now.Sub(first), time.Second).Seconds())) + " s)")
}

// protocolNote says that a connected server answered another protocol
// version than the picker's pin, where there is room. A proxy speaks the
// version its host asked for, which may well be older.
func (f *fleet) protocolNote(s *serverState, d detail) string {
	if d == inShort || s.proxy || s.protocol == "" || s.protocol == f.protocol() {
		return ""
	}
	return f.st.warn.Render(" protocol " + safetext.Escape(s.protocol) + "≠" + f.protocol())
}

// serverState is what the UI knows of one server, built only from hub events.
type serverState struct {
	label    string
	name     string // the server's own name, once connected
	life     life   // where its process is, as the hub's events say
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

	enf     *mcpconn.Enforcement // whether the kernel holds it to its folders (as of its last start; nil: not said)
	serving []string             // a proxy's: the URIs it serves its server now (the profile's remembered consent)

	// refused are the paths it said enforcement refused it, with what it
	// tried ("~/.config/x/settings.json (read)", escaped); allowable the
	// raw paths, for the pane's allow key (the picker's own servers only:
	// a proxy's are allowed in its host's entry).
	refused   []string
	allowable []string

	// ends are when it last failed, exited or got stuck (the newest
	// maxEnds): a server that keeps dying reads as such while it is up
	// between two deaths (loopNote).
	ends []time.Time

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
func (f *fleet) downState(s *serverState, why string) string {
	word := f.verdictOf(s).String()
	switch {
	case why == "":
		return f.st.err.Render(word)
	case s.life == lifeExited && speaksForItself(why):
		return f.st.err.Render(why)
	}
	return f.st.err.Render(word) + f.st.dim.Render(": "+why)
}

// fullState, shortState and wordState are stateView at one detail, for
// the status line's tries.
func (f *fleet) fullState(s *serverState) string  { return f.stateView(s, inFull) }
func (f *fleet) shortState(s *serverState) string { return f.stateView(s, inShort) }
func (f *fleet) wordState(s *serverState) string  { return f.stateView(s, inWord) }

// troubleFirst is the servers in the order the pane shows them: those in
// trouble first (down, stuck, restarting, refused by enforcement, holding
// something else than the consent, never fetching, crash-looping), then
// those starting, then the healthy ones; each group in the order they
// came.
func (f *fleet) troubleFirst() []*serverState {
	rank := func(s *serverState) int {
		switch v := f.verdictOf(s); {
		case v == verdictFailed || v == verdictExited || v == verdictStuck || v == verdictRestarting,
			len(s.refused) > 0, v == verdictMismatch, v == verdictNotFetching, v == verdictNoConsent,
			f.loopNote(s, inShort) != "":
			return 0
		case v == verdictStarting:
			return 1
		}
		return 2
	}
	out := slices.Clone(f.list)
	slices.SortStableFunc(out, func(a, b *serverState) int { return rank(a) - rank(b) })
	return out
}

// serverLines are the server pane's lines, unscrolled: for each server its
// state, the roots it fetched, the whole error (wrapped, never cut), what
// happened to it lately with the time (the last historyKept events: a
// crash it recovered from stays in view) and its last stderr lines.
func (f *fleet) serverLines(width int) []string {
	p := &paneWriter{w: max(width, 1)}
	if len(f.list) == 0 {
		p.add(f.st.dim.Render("No server. Name one after -- or with --server/--url; rootpick proxy shows up here too."))
	}
	for i, s := range f.troubleFirst() {
		if i > 0 {
			p.out = append(p.out, "")
		}
		f.serverBlock(p, s, f.wantOf(s))
	}
	if f.cfg.LogPath != "" {
		p.out = append(p.out, "")
		p.add(f.st.dim.Render("log: " + safetext.Escape(f.cfg.LogPath)))
	}
	p.wrapped("", f.st.dim.Render(f.retryKeyName()+" retries servers that are down now · "+keyName(backKeys)+" or "+f.paneKeyName()+" goes back to the list"))
	return p.out
}

// paneWriter writes the server pane's lines at width w: a line cut at the
// edge, or a labelled field shown whole.
type paneWriter struct {
	w   int
	out []string
}

// add is one line, cut at the edge.
func (p *paneWriter) add(s string) { p.out = append(p.out, cut(s, p.w, "…")) }

// wrapped is a labelled field shown whole (an error, the roots fetched):
// wrapped under its label instead of cut at the edge.
func (p *paneWriter) wrapped(label, text string) {
	indent := strings.Repeat(" ", cellWidth(label))
	if p.w-len(indent) < 20 {
		p.add(label + text)
		return
	}
	for i, l := range strings.Split(ansi.Wrap(text, p.w-len(indent), " /,"), "\n") {
		if i == 0 {
			p.out = append(p.out, label+l)
		} else {
			p.out = append(p.out, indent+l)
		}
	}
}

// list is a labelled list of fields, the label on the first only.
func (p *paneWriter) list(label string, items []string) {
	blank := strings.Repeat(" ", len(label))
	for j, it := range items {
		l := label
		if j > 0 {
			l = blank
		}
		p.wrapped(l, it)
	}
}

// enforcedLines are an enforced server's lines of the pane: every path it
// may open, its sockets, network and metadata (the guard's walls beside
// the files), root's warning, and what its environment asked and did not
// get. Nothing for a server that is not enforced.
func (f *fleet) enforcedLines(p *paneWriter, s *serverState) {
	if s.enf == nil || !s.enf.Enforced || s.enf.Policy == nil {
		return
	}
	// The doors beside the files (the guard's seccomp filter): said,
	// so that a refused socket or chmod reads as the boundary's.
	sockets := s.enf.Policy.UnixSockets(s.enf.ABI)
	if s.enf.Policy.AnySocket(s.enf.ABI) {
		sockets = f.st.warn.Render(safetext.Escape(sockets))
	} else {
		sockets = f.st.dim.Render(safetext.Escape(sockets))
	}
	// Every path it may open, with its access and why: what the
	// kernel holds it to, not a summary (rootpick policy prints the
	// same for a command not running).
	paths := make([]string, len(s.enf.Policy.Paths))
	for i, pp := range s.enf.Policy.Paths {
		why := safetext.Escape(pp.Why)
		if note := pp.Note(func(p string) string { return safetext.Escape(home(p)) }, safetext.Escape); note != "" {
			why += "; " + note // read-only, or what widens it
		}
		paths[i] = f.st.dim.Render(safetext.Escape(home(pp.Path)) + "  " + pp.Access.String() + " (" + why + ")")
	}
	p.list("  may open  ", paths)
	p.wrapped("  sockets   ", sockets)
	p.wrapped("  network   ", f.st.dim.Render(s.enf.Policy.NetworkWords()))
	p.wrapped("  metadata  ", f.st.dim.Render("mode and times only where it may write; owner and extended attributes nowhere"))
	if f.cfg.AsRoot {
		p.wrapped("  as root   ", f.st.warn.Render(asRootWarning))
	}
	// What its environment or command asked of the boundary and did
	// not get (a cache variable pointing at ~/.ssh): the reason a
	// server may fail, said where the person looks.
	refused := make([]string, len(s.enf.Policy.Refused))
	for i, r := range s.enf.Policy.Refused {
		refused[i] = f.st.warn.Render(r.Subject(func(p string) string { return safetext.Escape(home(p)) }, safetext.Escape) + ": " + safetext.Escape(r.Why))
	}
	p.list("  refused   ", refused)
}

// serverBlock is one server's block in the pane: its name, state, roots,
// error, withheld roots, history and last stderr lines.
func (f *fleet) serverBlock(p *paneWriter, s *serverState, want []string) {
	head := f.st.title.Render("● " + f.displayName(s))
	if !s.proxy && s.name != "" {
		// What it calls itself (serverInfo), as a detail: the name the
		// person gave it stays the name everywhere.
		switch {
		case s.name != safetext.Escape(s.label) && s.version != "":
			head += f.st.dim.Render("  (" + s.name + " " + s.version + ")")
		case s.name != safetext.Escape(s.label):
			head += f.st.dim.Render("  (" + s.name + ")")
		case s.version != "":
			head += f.st.dim.Render(" " + s.version) // its own name is the one given
		}
	}
	p.add(head)
	state := f.stateView(s, inPane)
	if s.protocol != "" {
		state += f.st.dim.Render("  · protocol " + safetext.Escape(s.protocol))
	}
	if e := f.enforcementText(s); e != "" {
		state += f.st.dim.Render("  · ") + e
	}
	p.wrapped("  state     ", state)
	if s.asked {
		p.wrapped("  roots     ", f.fetchedText(s, want))
	} else {
		p.add(f.st.dim.Render("  roots     not asked yet"))
	}
	if s.verified != nil || s.mismatch != "" {
		// What it said it holds, asked: for a proxy the only word on what
		// its server can open beside the roots it was sent.
		p.wrapped("  holds     ", f.holdsText(s))
	}
	if allowed := allowedPaths(s); len(allowed) > 0 {
		p.wrapped("  allowed   ", f.st.dim.Render(strings.Join(allowed, ", ")))
	}
	f.enforcedLines(p, s)
	f.refusedLines(p, s)
	if s.err != "" {
		p.wrapped("  error     ", f.st.err.Render(s.err))
	}
	if s.final {
		p.wrapped("            ", f.st.dim.Render("It is not restarted until you press "+f.retryKeyName()+
			": starting it again cannot help until the program is installed, made executable or the command corrected."))
	}
	withheld := make([]string, len(s.withheld))
	for j, d := range s.withheld {
		withheld[j] = f.st.err.Render(d)
	}
	p.list("  withheld  ", withheld)
	history := make([]string, len(s.history))
	for j, e := range s.history {
		history[j] = f.st.dim.Render(e.at.Format("15:04:05")+" ") + e.text
	}
	p.list("  history   ", history)
	if s.dropped > 0 {
		p.add(f.st.dim.Render("  stderr    " + itoa(s.dropped) + " lines came faster than they could be read (the log has them)"))
	}
	for j, l := range s.stderr {
		label := "  stderr    "
		if j > 0 {
			label = "            "
		}
		p.add(f.st.dim.Render(label + l))
	}
}

// refusedLines say what enforcement refused the server, and the way out:
// the allow key and the advisory key for the picker's own servers, the
// flag for a proxy's (its host's entry holds its arguments).
func (f *fleet) refusedLines(p *paneWriter, s *serverState) {
	if len(s.refused) == 0 {
		return
	}
	lines := make([]string, len(s.refused))
	for i, r := range s.refused {
		lines[i] = f.st.warn.Render(r)
	}
	p.list("  refused   ", lines)
	switch {
	case len(s.allowable) > 0:
		p.wrapped("            ", f.st.dim.Render(keyName(paneAllowKey)+" lets it read "+safetext.Escape(home(s.allowable[0]))+
			" (for this server, kept in the config when it is the config's) and starts it again · "+
			keyName(paneAdvisoryKey)+" runs it advisory, unenforced, until rootpick quits"))
	case s.proxy:
		p.wrapped("            ", f.st.dim.Render("allow it in the host's entry: add --allow-read=PATH to the proxy's arguments (its stderr says the same)"))
	}
}

// refusedServer is the first of the picker's own servers with a refusal
// the allow key can allow, or nil.
func (f *fleet) refusedServer() *serverState {
	for _, s := range f.list {
		if len(s.allowable) > 0 {
			return s
		}
	}
	return nil
}

// answerRefusal answers the first refusal the allow key can allow
// (refusedServer): allow its path (the hub starts the server again with
// it; RememberAllow keeps it) or run the server advisory. The server's
// refusals are cleared: a new start says its own.
func (f *fleet) answerRefusal(allow bool) tea.Cmd {
	s := f.refusedServer()
	if s == nil {
		return nil
	}
	label, path := s.label, s.allowable[0]
	s.refused, s.allowable = nil, nil
	hub, remember := f.cfg.Hub, f.cfg.RememberAllow
	shown := safetext.Escape(home(path))
	if !allow {
		s.addHistory(*f.now, "run advisory, unenforced, until rootpick quits (you chose it)")
		return func() tea.Msg {
			if hub == nil || !hub.RunAdvisory(label) {
				return noteMsg{text: safetext.Escape(label) + " is not run advisory: it requires enforcement (enforce = require).", isErr: true}
			}
			return noteMsg{text: safetext.Escape(label) + " runs advisory until rootpick quits: the kernel does not hold it to the consent."}
		}
	}
	s.addHistory(*f.now, "allowed to read "+shown)
	return func() tea.Msg {
		if hub != nil {
			hub.Allow(label, path)
		}
		if remember == nil {
			return noteMsg{text: safetext.Escape(label) + " may read " + shown + " until rootpick quits."}
		}
		where, err := remember(label, path)
		if err != nil {
			return noteMsg{text: safetext.Escape(label) + " may read " + shown + " until rootpick quits; not kept: " + safetext.Escape(err.Error()), isErr: true}
		}
		return noteMsg{text: safetext.Escape(label) + " may read " + shown + "; " + safetext.Escape(where) + "."}
	}
}

// noteMsg is a note for the status line, from a command that did I/O.
type noteMsg struct {
	text  string
	isErr bool
}

// fetchedText is the roots a server last fetched, when, and whether they
// are the consent (want).
func (f *fleet) fetchedText(s *serverState, want []string) string {
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
	return text
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
	return sortedSet(want)
}

// synced reports whether the server's last roots/list answer is exactly the
// exposed set (and no change is still on its way).
func (f *fleet) synced(s *serverState) bool {
	return s.asked && !f.sh.Applying() && sameSet(f.wantOf(s), s.fetched)
}

// wantOf is what server s should hold, as sorted unique URIs: what the
// picker serves, or for a proxy what it serves its server.
func (f *fleet) wantOf(s *serverState) []string {
	if !s.proxy {
		return f.exposedURIs()
	}
	return sortedSet(slices.Clone(s.serving))
}

// isVerified reports whether the server, asked, said it holds exactly the
// exposed set.
func (f *fleet) isVerified(s *serverState) bool {
	return s.verified != nil && !f.sh.Applying() && sameSet(f.wantOf(s), s.verified)
}

func (s *serverState) display() string {
	if s.proxy && s.name != "" {
		return s.name // "Claude Code → fs (proxy)": its label is a pid
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
		if c := f.consumers(); c != "" {
			return c + " (" + consumersLater + ")"
		}
		out = "no connected server"
	}
	switch waiting := len(f.list) - len(conn); {
	case waiting == 1:
		out += " (1 more server will be served when it connects)"
	case waiting > 1:
		out += " (" + itoa(waiting) + " more servers will be served when they connect)"
	}
	return out
}

// consumersLater says when the profile's consumers (Config.Consumers)
// get the folders: none of them is running.
const consumersLater = "not running now: each gets the folders when its host starts it"

// consumers names the profile's consumers (Config.Consumers), escaped and
// joined, or "".
func (f *fleet) consumers() string {
	names := make([]string, len(f.cfg.Consumers))
	for i, c := range f.cfg.Consumers {
		names[i] = safetext.Escape(c)
	}
	return strings.Join(names, ", ")
}

// restartIn counts down to a restart: "restarting in 4s".
func (f *fleet) restartIn(s *serverState) string {
	secs := int(s.restartAt.Sub((*f.now)).Round(time.Second) / time.Second)
	return "restarting in " + itoa(max(secs, 0)) + "s"
}

// startingFor counts the seconds a start has taken: "starting (12s)".
func (f *fleet) startingFor(s *serverState) string {
	secs := itoa(max(int((*f.now).Sub(s.startedAt)/time.Second), 0)) + "s"
	if s.attempt > 1 {
		return "starting (" + secs + ", attempt " + itoa(s.attempt) + ")"
	}
	return "starting (" + secs + ")"
}

// retryKeyName and paneKeyName name the keys that retry the servers and open
// the server pane, as the key map binds them.
func (f *fleet) retryKeyName() string { return f.keys.Retry.Help().Key }

func (f *fleet) paneKeyName() string { return f.keys.Servers.Help().Key }

// needsDetails reports whether a server is down with a reason the server
// pane tells in full.
func (f *fleet) needsDetails() bool {
	for _, s := range f.list {
		if s.life.down() || s.life == lifeRestarting && s.err != "" || s.life == lifeStarting && s.attempt > 1 && s.reason != "" {
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

// line is one line: how many roots are exposed, then each server's
// state, in the most words that fit width w. A root counts as exposed
// only while a server is connected to be served it.
func (f *fleet) line(w int) string {
	n := len(f.sh.Served())
	var exposed string
	shortExposed := itoa(n) + " exposed" // for a narrow line
	proxied, proxies := f.proxyServed(), f.proxyCount()
	switch {
	case n == 0 && len(proxied) > 0:
		// The picker serves nothing, but the profile's proxies serve its
		// remembered consent: that is exposed too.
		exposed = plural(len(proxied), "root", "roots") + " served by " + plural(proxies, "proxy", "proxies")
		shortExposed = itoa(len(proxied)) + " via proxy"
	case len(f.connected()) == 0 && n > 0:
		exposed = plural(n, "root", "roots") + " consented, served when a server connects"
		shortExposed = itoa(n) + " consented"
	case n == 0:
		exposed, shortExposed = "nothing shared", "0 shared"
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
	if len(f.list) == 0 {
		if c := f.consumers(); c != "" {
			return exposed + "  " + f.st.dim.Render("for "+c+" ("+consumersLater+")")
		}
		return exposed + "  " + f.st.dim.Render("no server")
	}
	tries := f.lineTries(exposed, shortExposed, w)
	for _, try := range tries {
		if cellWidth(try) <= w {
			return try
		}
	}
	return tries[len(tries)-1]
}

// lineTries are the status line's forms, from the whole story to the
// fewest words (fleet.line takes the first that fits).
func (f *fleet) lineTries(exposed, shortExposed string, w int) []string {
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
	if len(f.list) > 1 {
		// Never hide a server: when they do not fit, one word each,
		// then count them: with the hint while it fits, then without;
		// at the narrowest, the count of roots in short and the worst
		// states first, so what is cut at the edge is good news.
		return append(tries,
			each(exposed, f.wordState)+hint,
			each(exposed, f.wordState),
			exposed+"  "+f.serverSummary(true, false),
			exposed+"  "+f.serverSummary(false, false),
			shortExposed+"  "+f.serverSummary(false, true))
	}
	// One server: the short count, then its name is what gets cut, down
	// to a few letters while its reason fits, and to one letter before
	// its state word is.
	s := f.list[0]
	tries = append(tries, each(shortExposed, f.shortState)+hint, each(shortExposed, f.shortState))
	for _, state := range []string{f.shortState(s), f.wordState(s)} {
		head, tail := shortExposed+"  ● ", " "+state
		room := w - cellWidth(head+tail)
		if state == f.wordState(s) || room >= min(cellWidth(f.displayName(s)), nameKept) {
			tries = append(tries, head+cut(f.displayName(s), max(room, 1), "…")+tail)
		}
	}
	return tries
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
	room := w - cellWidth(head)
	if room < 10 {
		return nil
	}
	return []string{head + f.st.dim.Render(cut(s.startLine, room, "…"))}
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

// accessSentence says what sharing means for what the servers can open:
// the kernel's boundary where every server that said runs under it, else
// who may read anything the person can; beyond names what else the
// enforced servers can read. Both are "" while no server has said.
func (f *fleet) accessSentence() (sentence, beyond string) {
	var enforced, advisory, anySocket, netOff []string
	var whys []string
	for _, s := range f.list {
		switch {
		case s.enf == nil:
		case s.enf.Enforced:
			enforced = append(enforced, f.displayName(s))
			if s.enf.Policy != nil && s.enf.Policy.AnySocket(s.enf.ABI) {
				anySocket = append(anySocket, f.displayName(s))
			}
			if s.enf.Policy != nil && s.enf.Policy.NoNetwork {
				netOff = append(netOff, f.displayName(s))
			}
			if s.enf.Policy != nil {
				for _, p := range s.enf.Policy.Beyond() {
					if w := beyondWords(p); !slices.Contains(whys, w) {
						whys = append(whys, w)
					}
				}
			}
		default:
			advisory = append(advisory, f.displayName(s))
		}
	}
	switch {
	case len(enforced)+len(advisory) == 0:
		return "", ""
	case len(advisory) == 0:
		sentence = "Enforced: the kernel lets " + noun(len(enforced), "the server", "the servers") + " open only these folders, and what " + noun(len(enforced), "it needs", "they need") + " to run."
	case len(enforced) == 0:
		sentence = "Advisory: " + noun(len(advisory), "the server", "the servers") + " may read anything you can; the consent is a request, not a boundary."
	default:
		sentence = "Advisory for " + strings.Join(advisory, ", ") + ": may read anything you can. Enforced for the others: only these folders."
	}
	if len(whys) > 0 {
		beyond = "Also readable where enforced: " + strings.Join(whys, ", ") + "."
	}
	switch {
	case len(enforced) == 0:
	case len(netOff) == len(enforced):
		beyond = strings.TrimSpace(beyond + " Network: off.")
	case len(netOff) > 0:
		beyond = strings.TrimSpace(beyond + " Network: off for " + strings.Join(netOff, ", ") + "; on for the others.")
	default:
		beyond = strings.TrimSpace(beyond + " Network: on.")
	}
	if len(enforced) > 0 && f.cfg.AsRoot {
		beyond = strings.TrimSpace(beyond + " " + asRootWarning)
	}
	if len(anySocket) > 0 {
		// allow-socket below Landlock ABI 9 opens every socket, not one.
		beyond = strings.TrimSpace(beyond + " Any unix socket for " + strings.Join(anySocket, ", ") + ": --allow-socket needs Landlock ABI 9 to hold it to one.")
	}
	return sentence, beyond
}

// asRootWarning is what an enforced server run as root can still read.
const asRootWarning = "rootpick runs as root: an enforced server still reads all that root can in its runtime (/etc/shadow, other processes' /proc). Run rootpick as yourself."

// beyondWords names why a server may open a path beyond the consent; a
// folder the person allowed is named itself, with how.
func beyondWords(p mcpconn.PolicyPath) string {
	switch p.Why {
	case mcpconn.WhySystem:
		return "system folders"
	case mcpconn.WhyDevice:
		return "devices"
	case mcpconn.WhyProgram:
		return "its program"
	case mcpconn.WhyInterpreter:
		return "its interpreter"
	case mcpconn.WhyPackage:
		return "its package"
	case mcpconn.WhyTmp:
		return "a private temporary folder"
	case mcpconn.WhyAllowRead:
		return safetext.Escape(home(p.Path)) + " (--allow-read)"
	case mcpconn.WhyAllowWrite:
		return safetext.Escape(home(p.Path)) + " (--allow-write)"
	case mcpconn.WhyAllowSocket:
		return "the socket " + safetext.Escape(home(p.Path)) + " (--allow-socket)"
	}
	return p.Why // a launcher's cache: "npm cache", "uv cache", …
}

// enforcementText is a server's enforcement for the pane: "enforced
// (Landlock ABI 7)" or "advisory: why"; "" while it has not said.
func (f *fleet) enforcementText(s *serverState) string {
	if s.enf == nil {
		return ""
	}
	if s.enf.Enforced {
		return f.st.ok.Render(s.enf.String())
	}
	return f.st.warn.Render(safetext.Escape(s.enf.String()))
}

// proxyServed is what the profile's proxies serve now, each root once:
// exposed as much as what the picker serves.
func (f *fleet) proxyServed() []consent.Root {
	var out []consent.Root
	seen := map[string]bool{}
	for _, s := range f.list {
		if !s.proxy {
			continue
		}
		for _, u := range s.serving {
			if seen[u] {
				continue
			}
			seen[u] = true
			p := pathOfURI(u)
			out = append(out, consent.Root{URI: u, Path: p, Name: filepath.Base(p)})
		}
	}
	return out
}

// servingNames names the proxies that serve path, joined.
func (f *fleet) servingNames(path string) string {
	var names []string
	u := consent.PathToURI(path)
	for _, s := range f.list {
		if s.proxy && slices.Contains(s.serving, u) {
			names = append(names, f.displayName(s))
		}
	}
	return strings.Join(names, ", ")
}

// proxyCount is how many proxies serve something.
func (f *fleet) proxyCount() int {
	n := 0
	for _, s := range f.list {
		if s.proxy && len(s.serving) > 0 {
			n++
		}
	}
	return n
}

// holdsText is what a server said it holds when asked, or how that
// differs from the consent.
func (f *fleet) holdsText(s *serverState) string {
	if s.mismatch != "" {
		return f.st.warn.Render(s.mismatch)
	}
	if len(s.verified) == 0 {
		return "nothing"
	}
	held := make([]string, len(s.verified))
	for i, u := range s.verified {
		held[i] = safetext.Escape(relPath(f.cfg.Dir, pathOfURI(u)))
	}
	return strings.Join(held, ", ")
}

// allowedPaths are the folders and sockets the person allowed an enforced
// server beyond the consent (--allow-read, --allow-write, --allow-socket),
// for the pane.
func allowedPaths(s *serverState) []string {
	if s.enf == nil || s.enf.Policy == nil {
		return nil
	}
	var out []string
	for _, p := range s.enf.Policy.Paths {
		switch p.Why {
		case mcpconn.WhyAllowRead:
			out = append(out, safetext.Escape(home(p.Path))+" (read)")
		case mcpconn.WhyAllowWrite:
			out = append(out, safetext.Escape(home(p.Path))+" (read, write)")
		case mcpconn.WhyAllowSocket:
			out = append(out, safetext.Escape(home(p.Path))+" (connect)")
		}
	}
	return out
}
