package main

import (
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/mcpconn"
)

// sweepGrace is how long what is left after the servers were stopped gets
// between SIGTERM and SIGKILL.
const sweepGrace = 500 * time.Millisecond

// stopServers ends every server and then every process still running below
// rootpick (a server's escaped grandchild re-parented here). It is safe to
// call more than once.
func stopServers(hub *mcpconn.Hub, logger *slog.Logger) {
	_ = hub.Close()
	if n := mcpconn.EndDescendants(sweepGrace); n > 0 {
		logger.Warn("ended processes left behind by servers", "count", n)
	}
}

// endOnPanic, deferred in the goroutine that runs the UI, ends the servers
// when that goroutine panics, then lets the panic go on. (A panic inside
// Bubble Tea's Update, View or a command is caught by Bubble Tea, which
// restores the terminal and returns tea.ErrProgramPanic; run re-raises it
// after stopping the servers.)
func endOnPanic(hub *mcpconn.Hub, logger *slog.Logger) {
	r := recover()
	if r == nil {
		return
	}
	logger.Error("panic", "value", fmt.Sprint(r), "stack", string(debug.Stack()))
	stopServers(hub, logger)
	panic(r)
}

// panicKeyModel panics in Update when F12 is pressed, and on a goroutine
// of its own when F11 is. It wraps the UI only
// when ROOTPICK_TEST_PANIC=1, so that the end-to-end tests can check that a
// panic restores the terminal and leaves no server behind.
type panicKeyModel struct{ tea.Model }

func (m panicKeyModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "f12" {
		panic("test panic (ROOTPICK_TEST_PANIC)")
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "f11" {
		go func() { // as a walker or a server's reader would
			defer panics.Guard()
			panic("test panic on a goroutine (ROOTPICK_TEST_PANIC)")
		}()
	}
	inner, cmd := m.Model.Update(msg)
	return panicKeyModel{inner}, cmd
}

// withTestPanic returns m, wrapped in panicKeyModel if ROOTPICK_TEST_PANIC=1.
func withTestPanic(m tea.Model) tea.Model {
	if os.Getenv("ROOTPICK_TEST_PANIC") == "1" {
		return panicKeyModel{m}
	}
	return m
}
