package main

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// sweepGrace is how long what is left after the servers were stopped gets
// between SIGTERM and SIGKILL.
const sweepGrace = 500 * time.Millisecond

// stopServers ends every server and then every process still running below
// rootpick (a server's escaped grandchild re-parented here). It is safe to
// call more than once.
func stopServers(hub *mcpconn.Hub, logger *slog.Logger) {
	_ = hub.Close()
	if n := launch.EndDescendants(sweepGrace); n > 0 {
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
