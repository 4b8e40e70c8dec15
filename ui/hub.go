package ui

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn"
)

// hubEventMsg is one event from the hub's single event channel.
// It carries the time it was read, so that countdowns need no clock in
// Update.
type hubEventMsg struct {
	ev mcpconn.Event
	at time.Time
}

// tickMsg redraws countdowns (a server restarting in N s) once a second.
type tickMsg struct{ now time.Time }

// rootsServedMsg says the hub now serves roots and has notified the servers.
type rootsServedMsg struct{ roots []consent.Root }

// waitEvent reads the next hub event; it is re-issued after each one. A
// closed channel yields nothing more.
func waitEvent(ch <-chan mcpconn.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return nil
		}
		return hubEventMsg{ev: ev, at: time.Now()}
	}
}

// addServer hands spec to the hub, whose supervisor starts it and keeps it
// served; how it goes reaches the model as hub events.
func addServer(hub *mcpconn.Hub, spec mcpconn.Spec) tea.Cmd {
	return func() tea.Msg {
		hub.Add(spec)
		return nil
	}
}

// retryServers skips the backoff of every server waiting to restart.
func retryServers(hub *mcpconn.Hub) tea.Cmd {
	return func() tea.Msg {
		hub.Retry("")
		return nil
	}
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg{now: t} })
}

func serveRoots(hub *mcpconn.Hub, roots []consent.Root) tea.Cmd {
	return func() tea.Msg {
		if hub != nil {
			hub.SetRoots(roots)
		}
		return rootsServedMsg{roots: roots}
	}
}

// onHubEvent applies one hub event; it may ask for a tick to keep a
// countdown moving.
func (m *Model) onHubEvent(ev mcpconn.Event) tea.Cmd {
	if ev.Kind == mcpconn.Withdrawn {
		m.onWithdrawn(ev)
		return nil
	}
	s := m.fleet.server(ev.Server)
	switch ev.Kind {
	case mcpconn.Stderr, mcpconn.ServerLog:
		s.addStderr(ev.Text)
	case mcpconn.Dropped:
		s.dropped += ev.Count
	case mcpconn.Connecting:
		if s.life != lifeRestarting || s.why == "" {
			s.life = lifeStarting
		}
		s.startedAt, s.startLine, s.final = m.now, "", false
		s.attempt = ev.Attempt // kept on screen until it is up: a crash loop never looks like a first start
		switch {
		case ev.Attempt > 1:
			s.addHistory(m.now, "restarted (attempt "+itoa(ev.Attempt)+")")
		case len(s.history) > 0:
			s.addHistory(m.now, "restarted")
		default:
			s.addHistory(m.now, "starting")
		}
		return m.startTicking()
	case mcpconn.Progress:
		if s.life == lifeStarting || s.life == lifeRestarting && s.why != "" {
			s.startLine = safetext.EscapeMax(ev.Text, stderrLineCut)
		}
	case mcpconn.Connected:
		s.addHistory(m.now, "connected")
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
		s.fetchedAt = m.now
	case mcpconn.NotFetching:
		s.notFetching = true
	case mcpconn.Verified:
		s.verified, s.mismatch = ev.URIs, ""
	case mcpconn.Mismatch:
		s.mismatch, s.verified = safetext.Escape(ev.Text), nil
	case mcpconn.Restarting:
		s.life, s.attempt = lifeRestarting, ev.Attempt
		s.restartAt = m.now.Add(ev.Delay)
		s.why = safetext.Escape(ev.Text)
		if s.why != "" {
			s.addHistory(m.now, "restarting: "+s.why)
		}
		if ev.Delay > 0 {
			return m.startTicking()
		}
	case mcpconn.Stuck:
		s.noteEnd(m.now)
		s.life = lifeStuck
		s.err, s.reason = errText(ev.Err), reasonText(ev)
		s.addHistory(m.now, endWords(verdictStuck.String(), s.reason, false))
	case mcpconn.Failed, mcpconn.Disconnected:
		if s.life != lifeStuck { // keep saying why it was stopped
			s.noteEnd(m.now)
			s.life = lifeExited
			if ev.Kind == mcpconn.Failed {
				s.life = lifeFailed
			}
			s.err, s.reason, s.final = errText(ev.Err), reasonText(ev), ev.Final
			s.addHistory(m.now, endWords(m.fleet.verdictOf(s).String(), s.reason, ev.Final))
		}
		s.startedAt, s.startLine = time.Time{}, ""
	case mcpconn.Refused:
		words := safetext.Escape(home(ev.Path)) + " (" + safetext.Escape(ev.Text) + ")"
		if !slices.Contains(s.refused, words) {
			s.refused = append(s.refused, words)
			s.addHistory(m.now, "refused by enforcement: "+words)
		}
		if !slices.Contains(s.allowable, ev.Path) {
			s.allowable = append(s.allowable, ev.Path)
		}
	case mcpconn.Withdrawn: // handled above, before any server is looked up
	}
	return nil
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

// onWithdrawn drops a root the hub withdrew: it is no longer exposed, and
// only a new consent may share it again.
func (m *Model) onWithdrawn(ev mcpconn.Event) {
	m.sh.Withdraw(ev.Path, ev.Text)
	m.setNote("Withdrawn "+safetext.Escape(relPath(m.cfg.Dir, ev.Path))+": "+safetext.Escape(ev.Text), true)
}

// onTick moves countdowns and the seconds a start has taken; ticking
// stops when nothing counts.
func (m *Model) onTick(now time.Time) tea.Cmd {
	m.now = now
	m.ticking = false
	for _, s := range m.fleet.list {
		if s.life == lifeRestarting && !s.restartAt.IsZero() || !s.startedAt.IsZero() {
			return m.startTicking()
		}
	}
	return nil
}

func (m *Model) startTicking() tea.Cmd {
	if m.ticking {
		return nil
	}
	m.ticking = true
	return tick()
}

func (m *Model) retry() tea.Cmd {
	if m.cfg.Hub == nil {
		return nil
	}
	for _, s := range m.fleet.list {
		if s.life == lifeRestarting || s.life.down() {
			m.setNote("Retrying now…", false)
			return retryServers(m.cfg.Hub)
		}
	}
	return nil
}
