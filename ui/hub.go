package ui

import (
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

// onHubEvent applies one hub event: a withdrawal to the sharing state,
// any other to the fleet; it may ask for a tick to keep a countdown
// moving.
func (m *Model) onHubEvent(ev mcpconn.Event) tea.Cmd {
	if ev.Kind == mcpconn.Withdrawn {
		m.onWithdrawn(ev)
		return nil
	}
	if m.fleet.Apply(ev, m.now) {
		return m.startTicking()
	}
	return nil
}

// onWithdrawn drops a root the hub withdrew: it is no longer exposed, and
// only a new consent may share it again.
func (m *Model) onWithdrawn(ev mcpconn.Event) {
	m.review.sh.Withdraw(ev.Path, ev.Text)
	m.setNote("Withdrawn "+safetext.Escape(relPath(m.cfg.Dir, ev.Path))+": "+safetext.Escape(ev.Text), true)
}

// onTick moves countdowns and the seconds a start has taken; ticking
// stops when nothing counts.
func (m *Model) onTick(now time.Time) tea.Cmd {
	m.now = now
	m.ticking = false
	if m.fleet.Counting() {
		return m.startTicking()
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
	if m.fleet.AnyDown() {
		m.setNote("Retrying now…", false)
		return retryServers(m.cfg.Hub)
	}
	return nil
}

// noteMsg is a note for the status line, from a command that did I/O.
type noteMsg struct {
	text  string
	isErr bool
}

// answerRefusal answers a refusal the pane's allow key took
// (fleet.Fleet.TakeRefusal): it allows server label to read path (the hub
// starts it again with it; remember keeps it) or, with allow false, runs
// the server advisory.
func answerRefusal(hub *mcpconn.Hub, remember func(server, path string) (string, error), label, path string, allow bool) tea.Cmd {
	shown := safetext.Escape(home(path))
	if !allow {
		return func() tea.Msg {
			if hub == nil || !hub.RunAdvisory(label) {
				return noteMsg{text: safetext.Escape(label) + " is not run advisory: it requires enforcement (enforce = require).", isErr: true}
			}
			return noteMsg{text: safetext.Escape(label) + " runs advisory until rootpick quits: the kernel does not hold it to the consent."}
		}
	}
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
