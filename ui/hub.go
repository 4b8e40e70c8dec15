package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/consent"
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
