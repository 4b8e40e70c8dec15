package mcpconn

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// watchedTransport wraps a server's transport so that the watchdog can see
// a write that does not complete: the sign of a server that stopped reading
// its input. It changes nothing that goes over the wire.
//
// A Streamable HTTP connection is not wrapped: the SDK tells it the
// session's state through an unexported method that a wrapper would hide.
// Its writes are HTTP requests with their own timeouts.
type watchedTransport struct {
	inner       mcp.Transport
	passthrough bool // hand out the inner connection unwrapped

	mu      sync.Mutex
	conn    mcp.Connection
	writing int       // writes in progress
	since   time.Time // when the oldest write in progress started
	// started gets a token when a write starts with none in progress: the
	// watchdog sleeps on it while nothing is written, so a server at rest
	// costs no wake-up.
	started chan struct{}
	looks   int // how often blocked was asked (tests: a server at rest is not looked at)
}

// newWatchedTransport wraps inner; passthrough hands out its connection
// unwrapped (its writes are not watched).
func newWatchedTransport(inner mcp.Transport, passthrough bool) *watchedTransport {
	return &watchedTransport{inner: inner, passthrough: passthrough, started: make(chan struct{}, 1)}
}

// Connect connects the inner transport and keeps its connection.
func (t *watchedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.conn = c
	t.mu.Unlock()
	if t.passthrough {
		return c, nil
	}
	return &watchedConn{Connection: c, t: t}, nil
}

// blocked reports how long the current write has been in progress, or 0.
func (t *watchedTransport) blocked() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.looks++
	if t.writing == 0 {
		return 0
	}
	return time.Since(t.since)
}

// closeConn closes the connection, which fails a blocked write.
func (t *watchedTransport) closeConn() {
	t.mu.Lock()
	c := t.conn
	t.mu.Unlock()
	if c != nil {
		_ = c.Close()
	}
}

type watchedConn struct {
	mcp.Connection
	t *watchedTransport
}

func (c *watchedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	t := c.t
	t.mu.Lock()
	if t.writing == 0 {
		t.since = time.Now()
		select {
		case t.started <- struct{}{}:
		default: // the watchdog has one to take already
		}
	}
	t.writing++
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		t.writing--
		// Another write may still be waiting: its clock starts now, so a
		// steady stream of completing writes is never taken as stuck.
		t.since = time.Now()
		t.mu.Unlock()
	}()
	return c.Connection.Write(ctx, msg)
}
