package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn/proxy"
)

// proxyPoll is how often the picker looks for the proxies of its profile
// (rootpick proxy, run by an agent host) and what they fetched.
const proxyPoll = 500 * time.Millisecond

// proxiesMsg is the running proxies of the profile, as they registered,
// or why the registry was not read (a folder that is not the person's own).
type proxiesMsg struct {
	entries []proxy.Entry
	err     error
}

// pollProxies reads the proxy registry after d; it is re-issued after each
// answer.
func pollProxies(dir, profile string, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg {
		entries, err := proxy.List(dir, profile) // an unreadable registry shows no proxy
		return proxiesMsg{entries: entries, err: err}
	})
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
	m.fleet.SetProxies(msg.entries)
	if n := m.review.sh.RememberedCount(); n > 0 && strings.HasPrefix(m.status.note, "Remembered ") && len(m.fleet.ProxyServed()) > 0 {
		// The remembered consent is the profile's: its proxies serve it.
		m.setNote("Remembered "+plural(n, "root", "roots")+": the profile's proxies serve them now (✓ served); uncheck one and "+
			keyName(m.keys.Review)+" to stop.", false)
	}
	return pollProxies(m.cfg.ProxyDir, m.cfg.Store.Profile(), proxyPoll)
}
