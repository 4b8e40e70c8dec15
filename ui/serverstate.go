package ui

import (
	"strings"
	"time"

	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/ui/sharing"
)

// A server's state has two typed layers: life, where its process is (set
// only by the hub's events, hub.go, and the proxy registry, proxies.go),
// and verdict, what the status line says of it, which Model.verdictOf
// derives from its life and its roots facts. Model.stateView is the one
// place a state is drawn, at each width the screen asks for.

// fleet is the servers and proxies the picker shows, with what judging
// their states needs: the consented set (a change on its way leaves every
// server pending), the protocol the hub pins and the model's clock. It
// draws them: the status line's part (line), the server pane's lines and
// each state (stateView).
type fleet struct {
	*common
	list []*serverState
	sh   *sharing.State[consentDialog]
	now  *time.Time // the model's clock, as of the last event or tick
	cfg  *Config    // the model's: the hub (its protocol), the scanned folder, the log named in the pane
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
var verdictWords = [numVerdicts]struct{ word, meaning string }{
	verdictVerified:    {"verified", "asked, it says it holds exactly what is shared"},
	verdictSynced:      {"synced", "the last roots/list answer it received is exactly what is shared"},
	verdictPending:     {"pending", "connected; it has not yet asked for the roots shared now"},
	verdictStarting:    {"starting", "connecting to the server"},
	verdictNotFetching: {"not fetching", "it never asked for roots after the last change: pass it folders with {roots}"},
	verdictNoConsent:   {"no consent", "a proxy that reads no consent (no record for its profile, or one not believed): its server sees no folders"},
	verdictMismatch:    {"mismatch", "it holds something else than what you shared: what it still allows or lacks follows"},
	verdictRestarting:  {"restarting", "it stopped and is started again after a pause (in Ns); RETRY retries now"},
	verdictStuck:       {"stuck", "it stopped reading its input for 2 s; it is stopped and restarted"},
	verdictFailed:      {"failed", "it could not start or its connection failed; the reason follows (a program that cannot start at all, not on PATH say, waits for RETRY)"},
	verdictExited:      {"exited", "it ended by itself"},
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
	case s.noConsent:
		return verdictNoConsent
	case s.mismatch != "" && !f.sh.Applying():
		return verdictMismatch
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
		return f.st.ok.Render(word) + f.protocolNote(s, d)
	case verdictPending:
		return f.st.pending.Render(word) + f.protocolNote(s, d)
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
		return out
	case verdictStuck, verdictFailed, verdictExited:
		why := s.reason
		if d == inFull && s.err != "" {
			why = s.err
		}
		out := f.downState(s, why)
		switch {
		case !s.final || d == inPane: // the pane says it on a line of its own
		case d == inFull:
			out += dim(" (not restarted until you press " + f.retryKeyName() + ")")
		default:
			out += dim(" (" + f.retryKeyName() + " retries)")
		}
		return out
	case verdictStarting:
		switch {
		case s.startedAt.IsZero() && d == inShort:
			return f.st.pending.Render(word)
		case s.startedAt.IsZero():
			return f.st.pending.Render(word + "…")
		}
		out := f.st.pending.Render(f.startingFor(s))
		if d != inShort && s.startLine != "" {
			out += dim(" — " + s.startLine)
		}
		return out
	case numVerdicts:
	}
	return word
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
