package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
)

// hubEventMsg is one event from the hub's single event channel.
type hubEventMsg struct{ ev mcpconn.Event }

// connectDoneMsg says a connection attempt returned; how it went reaches
// the model as hub events (Connected or Failed), so it carries nothing.
type connectDoneMsg struct{}

// consentReadyMsg is a proposal built from the checked folders: the roots
// that y would serve, and the folders that cannot be shared.
type consentReadyMsg struct {
	proposed []consent.Root
	problems []string
}

// consentArmMsg ends the dialog's type-ahead guard for one opening.
type consentArmMsg struct{ id int }

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
		return hubEventMsg{ev: ev}
	}
}

// connectTimeout bounds the start and handshake of one server.
const connectTimeout = 60 * time.Second

func connect(hub *mcpconn.Hub, spec mcpconn.Spec) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		_ = hub.Connect(ctx, spec) // a failure is published as a Failed event
		return connectDoneMsg{}
	}
}

// prepareConsent resolves the checked folders into roots (this reads the
// disk: symlinks, permissions), off the UI goroutine.
func prepareConsent(paths []string) tea.Cmd {
	return func() tea.Msg {
		roots, errs := consent.Roots(paths)
		msg := consentReadyMsg{proposed: roots}
		for _, err := range errs {
			msg.problems = append(msg.problems, "skipped: "+err.Error())
		}
		consent.SortRoots(msg.proposed)
		return msg
	}
}

func serveRoots(hub *mcpconn.Hub, roots []consent.Root) tea.Cmd {
	return func() tea.Msg {
		if hub != nil {
			hub.SetRoots(roots)
		}
		return rootsServedMsg{roots: roots}
	}
}
