// Package fleet is the servers and proxies the picker shows: what the
// hub's events and the proxy registry said of each ([Fleet.Apply],
// [Fleet.SetProxies]), the one derivation of each server's state word
// from that and the consented set (verdictOf), and every place a state
// becomes words: the status line's part ([Fleet.Line]), the server
// pane's lines ([Fleet.PaneLines]) and the sentences the consent dialog
// says of who a confirmation reaches ([Fleet.ServerNames],
// [Fleet.AccessSentence]).
//
// It is a room of its own because it was the part of ui that every other
// part reached into and that reached back: it kept pointers to the
// model's sharing state, clock and config. Here it keeps only the servers
// it was told of; what it reads of the rest of the picker (the sharing
// state, read only, the time, the settings it names) is handed to it on
// each call as a [View], so a judgement is a function of what the call
// passed and of the events applied, and the compiler holds that nothing
// here writes the model. It draws with the picker's inks ([Styles],
// package ui/style) and names keys as the picker binds them ([Keys]); it
// knows nothing of Bubble Tea: the I/O it asks for (allowing a refused
// path) is the model's to run ([Fleet.TakeRefusal]).
//
// A server's state has two typed layers: life, where its process is (set
// only by the hub's events and the proxy registry), and verdict, what
// the status line says of it, which verdictOf derives from its life and
// its roots facts. stateView is the one place a state is drawn, at each
// width the screen asks for.
package fleet

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/ui/style"
)

// Fleet is the servers and proxies the picker shows, in the order they
// came. The zero Fleet has none and draws with no style.
type Fleet struct {
	list []*serverState
	// servingVer changes whenever what a proxy serves does (SetProxies),
	// for the caches of the exposed set.
	servingVer uint64
}

// Sharing is what the fleet reads of the consented set: what the hub
// serves, and whether a confirmed change is still on its way to it
// (every server is then pending). sharing.State is one; the fleet only
// reads it.
type Sharing interface {
	Served() []consent.Root
	Applying() bool
}

// View is what judging and drawing the servers reads of the rest of the
// picker, handed on each call: the fleet keeps none of it.
type View struct {
	Sharing   Sharing   // the consented set, read only
	Now       time.Time // the model's clock, as of the last event or tick
	Dir       string    // the scanned folder: roots inside it are shown relative to it
	LogPath   string    // the log file, named in the pane
	Protocol  string    // the protocol version the hub pins
	AsRoot    bool      // rootpick runs as root: what an enforced server still reads
	Consumers []string  // who consumes the profile's consent when the picker runs no server
	Styles    Styles    // the inks of the palette now
	Keys      Keys      // the keys' names as bound now
}

// Styles are the inks the fleet draws with, from the picker's palette.
type Styles struct {
	Title, Dim, OK, Pending, Warn, Err style.Ink
}

// Keys are the names of the keys the fleet's texts name, as the picker
// binds them: retry the servers, open the server pane, go back from it,
// and the pane's answers to a refusal (allow it, run advisory).
type Keys struct {
	Retry, Pane, Back, Allow, Advisory string
}

// New returns a fleet of the servers labelled labels (the picker's own,
// started by the hub), none of them connected yet.
func New(labels ...string) *Fleet {
	f := &Fleet{}
	for _, l := range labels {
		f.list = append(f.list, &serverState{label: l})
	}
	return f
}

// Line is the status line's part: how many roots are exposed, then each
// server's state, in the most words that fit width w.
func (f *Fleet) Line(v View, w int) string { return f.at(v).line(w) }

// PaneLines are the server pane's lines at width w, unscrolled.
func (f *Fleet) PaneLines(v View, w int) []string { return f.at(v).serverLines(w) }

// ServerNames names who a confirmation reaches: the connected servers,
// and how many will be served when they connect.
func (f *Fleet) ServerNames(v View) string { return f.at(v).serverNames() }

// AccessSentence says what sharing means for what the servers can open,
// and what else the enforced ones can read (both "" while no server has
// said).
func (f *Fleet) AccessSentence(v View) (sentence, beyond string) { return f.at(v).accessSentence() }

// ProxyServed is what the profile's proxies serve now, each root once:
// exposed as much as what the picker serves.
func (f *Fleet) ProxyServed() []consent.Root { return f.proxyServed() }

// ServingNames names the proxies that serve path, joined.
func (f *Fleet) ServingNames(path string) string { return f.servingNames(path) }

// ServingVersion changes whenever what a proxy serves does, for the
// caches of the exposed set.
func (f *Fleet) ServingVersion() uint64 { return f.servingVer }

// AnyProxy reports whether a proxy of the profile is shown.
func (f *Fleet) AnyProxy() bool {
	return slices.ContainsFunc(f.list, func(s *serverState) bool { return s.proxy })
}

// Names are the servers as the audit log records them, in order.
func (f *Fleet) Names() []string {
	out := make([]string, len(f.list))
	for i, s := range f.list {
		out[i] = s.display()
	}
	return out
}

// StateWords are every state word and what it means, in the summary's
// order, for the help: the verdicts' own table, with retryKey, the name
// of the key that retries, where a meaning names it.
func StateWords(retryKey string) [][2]string {
	out := make([][2]string, 0, len(verdictWords))
	for _, w := range verdictWords {
		meaning := w.meaning
		if w.retry != "" {
			meaning += fmt.Sprintf(w.retry, retryKey)
		}
		out = append(out, [2]string{w.word, meaning})
	}
	return out
}

// at is the fleet as a call sees it: its servers and what the call
// handed it.
type at struct {
	*Fleet
	View
}

func (f *Fleet) at(v View) at { return at{f, v} }

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

	enf     *launch.Enforcement // whether the kernel holds it to its folders (as of its last start; nil: not said)
	serving []string            // a proxy's: the URIs it serves its server now (the profile's remembered consent)

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

// HistoryKept is how many entries of a server's history the pane shows.
const HistoryKept = 8

func (s *serverState) addHistory(at time.Time, text string) {
	s.history = append(s.history, historyEntry{at: at, text: text})
	if len(s.history) > HistoryKept {
		s.history = append(s.history[:0:0], s.history[len(s.history)-HistoryKept:]...)
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

func (f *Fleet) server(label string) *serverState {
	for _, s := range f.list {
		if s.label == label {
			return s
		}
	}
	s := &serverState{label: label}
	f.list = append(f.list, s)
	return s
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
func (f *Fleet) displayName(s *serverState) string {
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
		return name + " #" + strconv.Itoa(nth)
	}
	return name
}

// connected lists the servers that are connected now.
func (f *Fleet) connected() []*serverState {
	var out []*serverState
	for _, s := range f.list {
		if s.life == lifeConnected {
			out = append(out, s)
		}
	}
	return out
}

// proxyServed is what the profile's proxies serve now, each root once:
// exposed as much as what the picker serves.
func (f *Fleet) proxyServed() []consent.Root {
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
func (f *Fleet) servingNames(path string) string {
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
func (f *Fleet) proxyCount() int {
	n := 0
	for _, s := range f.list {
		if s.proxy && len(s.serving) > 0 {
			n++
		}
	}
	return n
}

// pathOfURI shows a file URI as its path.
func pathOfURI(u string) string {
	if p, err := consent.URIToPath(u); err == nil {
		return p
	}
	return u
}

func sameSet(want, got []string) bool {
	return slices.Equal(want, sortedSet(slices.Clone(got)))
}

// sortedSet sorts s in place and drops its repeats: a set of URIs in the
// form sameSet compares.
func sortedSet(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
