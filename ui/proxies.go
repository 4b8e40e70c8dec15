package ui

import (
	"cmp"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn"
)

// proxyPoll is how often the picker looks for the proxies of its profile
// (rootpick proxy, run by an agent host) and what they fetched.
const proxyPoll = 500 * time.Millisecond

// proxiesMsg is the running proxies of the profile, as they registered,
// or why the registry was not read (a folder that is not the person's own).
type proxiesMsg struct {
	entries []mcpconn.ProxyEntry
	err     error
}

// pollProxies reads the proxy registry after d; it is re-issued after each
// answer.
func pollProxies(dir, profile string, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg {
		entries, err := mcpconn.ListProxies(dir, profile) // an unreadable registry shows no proxy
		return proxiesMsg{entries: entries, err: err}
	})
}

// fromProxy sets s from what its proxy registered, e; a change of what
// it serves changes fleet.servingVer.
func (f *fleet) fromProxy(s *serverState, e mcpconn.ProxyEntry) {
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
		s.enf = &mcpconn.Enforcement{Enforced: e.Enforcement == "enforced", ABI: e.LandlockABI, Advisory: e.Advisory,
			Policy: &mcpconn.Policy{Paths: e.Access}}
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

// onProxies shows each proxy as a server: "Host → Server (proxy)", in the
// same states as rootpick's own servers.
func (m *Model) onProxies(msg proxiesMsg) tea.Cmd {
	if msg.err != nil {
		why := "Proxies not shown: " + safetext.Escape(msg.err.Error())
		if why != m.registryProblem {
			m.registryProblem = why
			if !m.status.noteErr { // an earlier problem (the record's) says more
				m.setNote(why, true)
			}
		}
	} else {
		m.registryProblem = ""
	}
	seen := map[string]bool{}
	for _, e := range msg.entries {
		label := "proxy " + itoa(e.PID)
		seen[label] = true
		m.fleet.fromProxy(m.fleet.server(label), e)
	}
	for i := 0; i < len(m.fleet.list); i++ {
		if s := m.fleet.list[i]; s.proxy && !seen[s.label] {
			if len(s.serving) > 0 {
				m.fleet.servingVer++
			}
			m.fleet.list = append(m.fleet.list[:i], m.fleet.list[i+1:]...)
			i--
		}
	}
	if n := m.sh.RememberedCount(); n > 0 && strings.HasPrefix(m.status.note, "Remembered ") && len(m.fleet.proxyServed()) > 0 {
		// The remembered consent is the profile's: its proxies serve it.
		m.setNote("Remembered "+plural(n, "root", "roots")+": the profile's proxies serve them now (✓ served); uncheck one and "+
			keyName(m.keys.Review)+" to stop.", false)
	}
	return pollProxies(m.cfg.ProxyDir, m.cfg.Store.Profile(), proxyPoll)
}
