package fleet

import (
	"slices"
	"strconv"
	"time"

	"github.com/rootpick/rootpick/internal/safetext"
)

// A server's state, from what it was told to what it says: life, verdict
// (verdictOf), and stateView, the one place a state becomes words.

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
func (f at) verdictOf(s *serverState) verdict {
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
	case s.mismatch != "" && !f.Sharing.Applying():
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
func (f at) stateView(s *serverState, d detail) string {
	v := f.verdictOf(s)
	if d == inWord {
		return v.String()
	}
	word := v.String()
	dim := f.Styles.Dim.Render
	switch v {
	case verdictVerified, verdictSynced:
		return f.Styles.OK.Render(word) + f.loopNote(s, d) + f.protocolNote(s, d)
	case verdictPending:
		return f.Styles.Pending.Render(word) + f.loopNote(s, d) + f.protocolNote(s, d)
	case verdictReady:
		return word + f.loopNote(s, d) + f.protocolNote(s, d)
	case verdictNoConsent:
		out := f.Styles.Warn.Render(word)
		if d != inShort {
			out += dim(" (it serves nothing: " + f.Keys.Pane + " for why)")
		}
		return out + f.protocolNote(s, d)
	case verdictMismatch:
		if d != inShort {
			word += ": " + s.mismatch
		}
		return f.Styles.Warn.Render(word) + f.protocolNote(s, d)
	case verdictNotFetching:
		out := f.Styles.Warn.Render(word)
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
func (f at) restartingView(s *serverState, d detail) string {
	word, dim := verdictRestarting.String(), f.Styles.Dim.Render
	if s.why != "" { // at once, for a reason (a consent change, a stuck server)
		if d == inShort {
			return f.Styles.Pending.Render(word)
		}
		return f.Styles.Pending.Render(word) + dim(": "+s.why)
	}
	out := f.Styles.Pending.Render(f.restartIn(s))
	if d != inShort {
		out += dim(" (attempt " + strconv.Itoa(s.attempt) + ", " + f.Keys.Retry + " retries now)")
	}
	if why := s.reason; d == inFull && s.err != "" || why != "" && d != inFull {
		if d == inFull {
			why = s.err
		}
		out += dim(": " + why)
	}
	if len(s.allowable) > 0 && d == inFull {
		out += dim(" (" + f.Keys.Pane + " to allow it)")
	}
	return out
}

// downView is a stuck, failed or exited server's state at detail d.
func (f at) downView(s *serverState, d detail) string {
	dim := f.Styles.Dim.Render
	why := s.reason
	if d == inFull && s.err != "" {
		why = s.err
	}
	out := f.downState(s, why)
	if len(s.allowable) > 0 && d == inFull {
		out += dim(" (" + f.Keys.Pane + " to allow it)")
	}
	switch {
	case !s.final || d == inPane: // the pane says it on a line of its own
	case d == inFull:
		out += dim(" (not restarted until you press " + f.Keys.Retry + ")")
	default:
		out += dim(" (" + f.Keys.Retry + " retries)")
	}
	return out
}

// startingView is a starting server's state at detail d: the seconds, the
// attempt after a failure, and its last stderr line or last reason.
func (f at) startingView(s *serverState, d detail) string {
	word, dim := verdictStarting.String(), f.Styles.Dim.Render
	switch {
	case s.startedAt.IsZero() && d == inShort:
		return f.Styles.Pending.Render(word)
	case s.startedAt.IsZero():
		return f.Styles.Pending.Render(word + "…")
	}
	out := f.Styles.Pending.Render(f.startingFor(s))
	switch {
	case d == inShort:
	case s.startLine != "":
		out += dim(" — " + s.startLine)
	case s.attempt > 1 && s.reason != "":
		out += dim(" — last: " + s.reason)
	}
	return out
}

// loopNote says, for a connected server that died twice or more in the
// last crashWindow (so it has not stayed up that long since), how often:
// " (restarted 4× in 30 s)" — a crash loop must not look healthy between
// two deaths.
func (f at) loopNote(s *serverState, d detail) string {
	now := f.Now
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
		return f.Styles.Warn.Render(" (restarted " + strconv.Itoa(n) + "×)")
	}
	return f.Styles.Warn.Render(" (restarted " + strconv.Itoa(n) + "× in " + strconv.Itoa(int(max(now.Sub(first), time.Second).Seconds())) + " s)")
}

// protocolNote says that a connected server answered another protocol
// version than the picker's pin, where there is room. A proxy speaks the
// version its host asked for, which may well be older.
func (f at) protocolNote(s *serverState, d detail) string {
	if d == inShort || s.proxy || s.protocol == "" || s.protocol == f.Protocol {
		return ""
	}
	return f.Styles.Warn.Render(" protocol " + safetext.Escape(s.protocol) + "≠" + f.Protocol)
}

// downState is a server that is down, in words: its state word and why
// ("failed: not found on PATH"), or only why when that says it already
// ("exited with status 1" rather than "exited: exited with status 1").
func (f at) downState(s *serverState, why string) string {
	word := f.verdictOf(s).String()
	switch {
	case why == "":
		return f.Styles.Err.Render(word)
	case s.life == lifeExited && speaksForItself(why):
		return f.Styles.Err.Render(why)
	}
	return f.Styles.Err.Render(word) + f.Styles.Dim.Render(": "+why)
}

// fullState, shortState and wordState are stateView at one detail, for
// the status line's tries.
func (f at) fullState(s *serverState) string  { return f.stateView(s, inFull) }
func (f at) shortState(s *serverState) string { return f.stateView(s, inShort) }
func (f at) wordState(s *serverState) string  { return f.stateView(s, inWord) }

// exposedURIs is the exposed set as sorted, unique URIs.
func (f at) exposedURIs() []string {
	want := make([]string, len(f.Sharing.Served()))
	for i, r := range f.Sharing.Served() {
		want[i] = r.URI
	}
	return sortedSet(want)
}

// synced reports whether the server's last roots/list answer is exactly the
// exposed set (and no change is still on its way).
func (f at) synced(s *serverState) bool {
	return s.asked && !f.Sharing.Applying() && sameSet(f.wantOf(s), s.fetched)
}

// wantOf is what server s should hold, as sorted unique URIs: what the
// picker serves, or for a proxy what it serves its server.
func (f at) wantOf(s *serverState) []string {
	if !s.proxy {
		return f.exposedURIs()
	}
	return sortedSet(slices.Clone(s.serving))
}

// isVerified reports whether the server, asked, said it holds exactly the
// exposed set.
func (f at) isVerified(s *serverState) bool {
	return s.verified != nil && !f.Sharing.Applying() && sameSet(f.wantOf(s), s.verified)
}

// restartIn counts down to a restart: "restarting in 4s".
func (f at) restartIn(s *serverState) string {
	secs := int(s.restartAt.Sub(f.Now).Round(time.Second) / time.Second)
	return "restarting in " + strconv.Itoa(max(secs, 0)) + "s"
}

// startingFor counts the seconds a start has taken: "starting (12s)".
func (f at) startingFor(s *serverState) string {
	secs := strconv.Itoa(max(int(f.Now.Sub(s.startedAt)/time.Second), 0)) + "s"
	if s.attempt > 1 {
		return "starting (" + secs + ", attempt " + strconv.Itoa(s.attempt) + ")"
	}
	return "starting (" + secs + ")"
}
