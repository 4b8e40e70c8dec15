package fleet

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/mcpconn/proxy"
	"github.com/rootpick/rootpick/ui/style"
)

// What the fleet is told: the hub's events about the picker's own
// servers, and the proxy registry's entries for the profile's proxies.

// Apply applies one hub event about a server, read at now; it reports
// whether a countdown or a start's seconds now need the clock to tick.
// A withdrawal is the sharing state's, not a server's: it changes
// nothing here.
func (f *Fleet) Apply(ev mcpconn.Event, now time.Time) (tick bool) {
	if ev.Kind == mcpconn.Withdrawn {
		return false
	}
	s := f.server(ev.Server)
	switch ev.Kind {
	case mcpconn.Stderr, mcpconn.ServerLog:
		s.addStderr(ev.Text)
	case mcpconn.Dropped:
		s.dropped += ev.Count
	case mcpconn.Connecting:
		if s.life != lifeRestarting || s.why == "" {
			s.life = lifeStarting
		}
		s.startedAt, s.startLine, s.final = now, "", false
		s.attempt = ev.Attempt // kept on screen until it is up: a crash loop never looks like a first start
		switch {
		case ev.Attempt > 1:
			s.addHistory(now, "restarted (attempt "+strconv.Itoa(ev.Attempt)+")")
		case len(s.history) > 0:
			s.addHistory(now, "restarted")
		default:
			s.addHistory(now, "starting")
		}
		return true
	case mcpconn.Progress:
		if s.life == lifeStarting || s.life == lifeRestarting && s.why != "" {
			s.startLine = safetext.EscapeMax(ev.Text, stderrLineCut)
		}
	case mcpconn.Connected:
		s.addHistory(now, "connected")
		s.startedAt, s.startLine, s.reason, s.final = time.Time{}, "", "", false
		s.life, s.err, s.why, s.attempt = lifeConnected, "", "", 0
		s.asked, s.fetched, s.verified, s.mismatch, s.notFetching = false, nil, nil, "", false
		s.protocol = ev.Text
		s.enf = ev.Enforcement
		s.version = safetext.EscapeMax(ev.ServerVersion, 30)
		if ev.ServerName != "" {
			s.name = safetext.EscapeMax(ev.ServerName, 40)
		}
	case mcpconn.Fetched:
		s.fetched, s.asked, s.notFetching = ev.URIs, true, false
		s.fetchedAt = now
	case mcpconn.NotFetching:
		s.notFetching = true
	case mcpconn.Verified:
		s.verified, s.mismatch = ev.URIs, ""
	case mcpconn.Mismatch:
		s.mismatch, s.verified = safetext.Escape(ev.Text), nil
	case mcpconn.Restarting:
		s.life, s.attempt = lifeRestarting, ev.Attempt
		s.restartAt = now.Add(ev.Delay)
		s.why = safetext.Escape(ev.Text)
		if s.why != "" {
			s.addHistory(now, "restarting: "+s.why)
		}
		if ev.Delay > 0 {
			return true
		}
	case mcpconn.Stuck:
		s.noteEnd(now)
		s.life = lifeStuck
		s.err, s.reason = errText(ev.Err), reasonText(ev)
		s.addHistory(now, endWords(verdictStuck.String(), s.reason, false))
	case mcpconn.Failed, mcpconn.Disconnected:
		if s.life != lifeStuck { // keep saying why it was stopped
			s.noteEnd(now)
			s.life = lifeExited
			if ev.Kind == mcpconn.Failed {
				s.life = lifeFailed
			}
			s.err, s.reason, s.final = errText(ev.Err), reasonText(ev), ev.Final
			word := verdictExited // as verdictOf says of a server down
			if s.life == lifeFailed {
				word = verdictFailed
			}
			s.addHistory(now, endWords(word.String(), s.reason, ev.Final))
		}
		s.startedAt, s.startLine = time.Time{}, ""
	case mcpconn.Refused:
		words := safetext.Escape(style.Home(ev.Path)) + " (" + safetext.Escape(ev.Text) + ")"
		if !slices.Contains(s.refused, words) {
			s.refused = append(s.refused, words)
			s.addHistory(now, "refused by enforcement: "+words)
		}
		if !slices.Contains(s.allowable, ev.Path) {
			s.allowable = append(s.allowable, ev.Path)
		}
	case mcpconn.Withdrawn: // handled above, before any server is looked up
	}
	return false
}

// reasonText is an event's short reason, escaped; the whole error when
// the event has none.
func reasonText(ev mcpconn.Event) string {
	if ev.Reason != "" {
		return safetext.Escape(ev.Reason)
	}
	return errText(ev.Err)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return safetext.Escape(err.Error())
}

// SetProxies shows each proxy the registry lists as a server: "Host →
// Server (proxy)", in the same states as the picker's own servers; a
// proxy no longer listed is gone. Each is labelled "proxy PID".
func (f *Fleet) SetProxies(entries []proxy.Entry) {
	seen := map[string]bool{}
	for _, e := range entries {
		label := "proxy " + strconv.Itoa(e.PID)
		seen[label] = true
		f.fromProxy(f.server(label), e)
	}
	f.list = slices.DeleteFunc(f.list, func(s *serverState) bool {
		gone := s.proxy && !seen[s.label]
		if gone && len(s.serving) > 0 {
			f.servingVer++
		}
		return gone
	})
}

// fromProxy sets s from what its proxy registered, e; a change of what
// it serves changes Fleet.servingVer.
func (f *Fleet) fromProxy(s *serverState, e proxy.Entry) {
	s.proxy = true
	// The server's name in its host's entry first (what the person
	// calls it), what it calls itself, its program.
	host, srv := cmp.Or(e.Host, "a host"), cmp.Or(e.Name, e.Server, e.Command)
	s.name = safetext.Escape(host + " → " + srv + " (proxy)")
	switch e.State {
	case "connected":
		s.life, s.why = lifeConnected, ""
	case "restarting":
		s.life, s.why = lifeRestarting, safetext.Escape(e.Error)
	default:
		s.life = lifeStarting
	}
	s.fetched, s.fetchedAt, s.asked, s.notFetching = e.Fetched, e.FetchedAt, e.Asked, e.NotFetching
	s.protocol = safetext.Escape(e.Protocol)
	s.noConsent = e.Problem != ""
	if !slices.Equal(s.serving, e.Served) {
		f.servingVer++
	}
	s.serving = e.Served
	// What its server said it holds, when the proxy could ask: the
	// same verified / mismatch as the picker's own servers.
	s.verified, s.mismatch = nil, safetext.Escape(e.Mismatch)
	if !e.VerifiedAt.IsZero() && e.Mismatch == "" {
		s.verified = append([]string{}, e.Verified...)
	}
	s.enf = nil
	if e.Enforcement != "" {
		s.enf = &launch.Enforcement{Enforced: e.Enforcement == "enforced", ABI: e.LandlockABI, Advisory: e.Advisory,
			Policy: &launch.Policy{Paths: e.Access}}
	}
	s.err = safetext.Escape(e.Problem)
	s.refused = s.refused[:0]
	for _, r := range e.Refused {
		s.refused = append(s.refused, safetext.Escape(strings.TrimPrefix(r, "refused: ")))
	}
	s.withheld = s.withheld[:0]
	for _, d := range e.Dropped {
		s.withheld = append(s.withheld, safetext.Escape(d))
	}
}

// Counting reports whether a countdown (a restart due) or a start's
// seconds are on screen: the clock must keep ticking.
func (f *Fleet) Counting() bool {
	for _, s := range f.list {
		if s.life == lifeRestarting && !s.restartAt.IsZero() || !s.startedAt.IsZero() {
			return true
		}
	}
	return false
}

// AnyDown reports whether a server waits to restart or is down: what the
// retry key can help.
func (f *Fleet) AnyDown() bool {
	for _, s := range f.list {
		if s.life == lifeRestarting || s.life.down() {
			return true
		}
	}
	return false
}
