// Package mcpconn connects rootpick to MCP servers and serves them roots.
//
// It owns the client sessions (a stdio command, a Streamable HTTP URL or the
// built-in demo server in the same process), the roots capability, the
// consented set that is served, and the record of what each server has
// fetched. Background events reach the caller through one channel (Events),
// so a UI can turn them into messages without this package knowing about it.
package mcpconn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
)

// DefaultProtocolVersion is the MCP revision sessions are pinned to: the last
// one in which a server may ask roots/list on its own and the client sends
// notifications/roots/list_changed.
const DefaultProtocolVersion = "2025-11-25"

// Version is rootpick's version, reported to servers as clientInfo.
var Version = "0.1.0-dev"

// Options configure a Hub. The zero value is ready to use.
type Options struct {
	// ProtocolVersion is sent in initialize; "" means DefaultProtocolVersion.
	ProtocolVersion string
	// Logger receives connection logs and servers' stderr. Nil discards.
	Logger *slog.Logger
}

// Hub serves one consented set of roots to every connected server.
type Hub struct {
	opts   Options
	logger *slog.Logger
	events *queue

	// ctx is cancelled by Close, aborting connections still starting.
	ctx    context.Context
	cancel context.CancelFunc
	// setMu serialises SetRoots, so that two quick confirmations reach every
	// client in the order they were made.
	setMu sync.Mutex
	// running counts the goroutines that watch a session; Close waits for
	// them so that no server outlives it.
	running sync.WaitGroup

	mu     sync.Mutex
	roots  []consent.Root
	conns  []*conn // registered before their handshake, so Close can stop them
	closed bool
}

// NewHub returns a Hub that serves no roots until SetRoots is called.
func NewHub(opts Options) *Hub {
	if opts.ProtocolVersion == "" {
		opts.ProtocolVersion = DefaultProtocolVersion
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Hub{opts: opts, logger: logger, events: newQueue(), ctx: ctx, cancel: cancel}
}

// Events delivers what happens on the connections, in order. The channel is
// closed by Close. Events are queued without limit, so a slow reader never
// stalls a server's roots/list.
func (h *Hub) Events() <-chan Event { return h.events.out }

// Roots returns the set currently served.
func (h *Hub) Roots() []consent.Root {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.roots)
}

// SetRoots replaces the served set and notifies every connected server with
// notifications/roots/list_changed. Roots that leave the set are withdrawn
// before new ones are added, so no server is ever answered with a root that
// is being revoked. It may block while a server reads its notification, so
// call it off the UI goroutine.
func (h *Hub) SetRoots(roots []consent.Root) {
	h.setMu.Lock()
	defer h.setMu.Unlock()
	h.mu.Lock()
	old := h.roots
	h.roots = slices.Clone(roots)
	conns := slices.Clone(h.conns)
	h.mu.Unlock()

	change := consent.Review(old, roots)
	removed := make([]string, len(change.Removed))
	for i, r := range change.Removed {
		removed[i] = r.URI
	}
	added := toMCP(change.Added)
	for _, c := range conns {
		// One change, one notification: when roots are added, the removal
		// is silent and the addition announces the final set.
		c.quiet.Store(len(added) > 0)
		c.client.RemoveRoots(removed...)
		c.quiet.Store(false)
		c.client.AddRoots(added...)
	}
	h.logger.Info("roots set", "count", len(roots), "added", len(change.Added), "removed", len(change.Removed))
}

func toMCP(roots []consent.Root) []*mcp.Root {
	out := make([]*mcp.Root, len(roots))
	for i, r := range roots {
		out[i] = &mcp.Root{URI: r.URI, Name: r.Name}
	}
	return out
}

// conn is one server connection and the client that speaks to it. Each server
// gets its own mcp.Client so that the roots/list it asks can be attributed to
// it; every client mirrors the Hub's set.
type conn struct {
	spec    Spec
	client  *mcp.Client
	session *mcp.ClientSession
	stop    func()      // ends the process group or in-process server, if any
	quiet   atomic.Bool // drop roots list_changed notifications while set
}

// Connect starts (or dials) the server described by spec, completes the MCP
// handshake and keeps the session open in the background. It returns once the
// server is initialized; the server may ask roots/list right away and gets the
// current set. When the server goes away, a Disconnected event is published.
func (h *Hub) Connect(ctx context.Context, spec Spec) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(h.ctx, cancel)()

	name := spec.Label()
	c := &conn{spec: spec, stop: func() {}}
	c.client = mcp.NewClient(&mcp.Implementation{Name: "rootpick", Version: Version}, &mcp.ClientOptions{
		Logger: h.logger.With("server", name),
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			h.logger.Info("server log", "server", name, "level", req.Params.Level, "data", req.Params.Data)
			h.events.publish(Event{Server: name, Kind: ServerLog, Text: fmt.Sprint(req.Params.Data)})
		},
	})
	c.client.AddReceivingMiddleware(h.recordFetches(name))
	c.client.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/roots/list_changed" && c.quiet.Load() {
				return nil, nil
			}
			return next(ctx, method, req)
		}
	})

	h.events.publish(Event{Server: name, Kind: Connecting})
	transport, stop, err := spec.transport(ctx, h.logger.With("server", name), func(line string) {
		h.events.publish(Event{Server: name, Kind: Stderr, Text: line})
	})
	if err != nil {
		return h.fail(name, spec.redactError(err))
	}
	c.stop = stop

	// Register before the handshake: from here on SetRoots keeps this
	// client's roots current and Close stops the server. The client has no
	// session yet, so adding roots sends nothing.
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		stop()
		return errors.New("mcpconn: hub is closed")
	}
	c.client.AddRoots(toMCP(h.roots)...)
	h.conns = append(h.conns, c)
	h.mu.Unlock()

	session, err := c.client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: h.opts.ProtocolVersion})
	if err != nil {
		h.forget(c)
		stop()
		return h.fail(name, fmt.Errorf("connecting to %s: %w", name, spec.redactError(err)))
	}
	h.mu.Lock()
	closed := h.closed
	if !closed {
		c.session = session
	}
	h.mu.Unlock()
	if closed { // Close ran during the handshake and could not see the session
		_ = session.Close()
		stop()
		return errors.New("mcpconn: hub is closed")
	}

	info := session.InitializeResult()
	ev := Event{Server: name, Kind: Connected}
	if info != nil && info.ServerInfo != nil {
		ev.ServerName = info.ServerInfo.Name
		ev.ServerVersion = info.ServerInfo.Version
	}
	if info != nil {
		ev.Text = info.ProtocolVersion
	}
	h.events.publish(ev)
	h.logger.Info("connected", "server", name, "name", ev.ServerName, "protocol", ev.Text)

	h.running.Add(1)
	go func() {
		defer h.running.Done()
		err := session.Wait()
		h.forget(c)
		c.stop()
		err = spec.redactError(err)
		h.logger.Info("disconnected", "server", name, "err", err)
		h.events.publish(Event{Server: name, Kind: Disconnected, Err: err})
	}()
	return nil
}

// fail logs and publishes a failure of server name, and returns err.
func (h *Hub) fail(name string, err error) error {
	h.logger.Warn("server failed", "server", name, "err", err)
	h.events.publish(Event{Server: name, Kind: Failed, Err: err})
	return err
}

// forget drops c from the connections.
func (h *Hub) forget(c *conn) {
	h.mu.Lock()
	h.conns = slices.DeleteFunc(h.conns, func(x *conn) bool { return x == c })
	h.mu.Unlock()
}

// recordFetches wraps the client's request handling so that every roots/list
// answer is published with the exact URIs the server received.
func (h *Hub) recordFetches(name string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method != "roots/list" {
				return res, err
			}
			if err != nil {
				// The session lives on: say it, but do not mark the server failed.
				h.logger.Warn("answering roots/list failed", "server", name, "err", err)
				h.events.publish(Event{Server: name, Kind: ServerLog, Text: "rootpick could not answer roots/list: " + err.Error()})
				return res, err
			}
			if lr, ok := res.(*mcp.ListRootsResult); ok {
				uris := make([]string, len(lr.Roots))
				for i, r := range lr.Roots {
					uris[i] = r.URI
				}
				h.logger.Info("roots/list answered", "server", name, "count", len(uris))
				h.events.publish(Event{Server: name, Kind: Fetched, URIs: uris})
			}
			return res, err
		}
	}
}

// Close ends every session, stops the servers rootpick started (their whole
// process groups) and closes the Events channel.
func (h *Hub) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	h.cancel()
	conns := h.conns
	h.conns = nil
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(c.close)
	}
	wg.Wait()
	h.running.Wait() // every session watcher has ended its server
	h.events.close()
	return nil
}

// close ends the session, if the handshake finished, and the server. The
// hub is closed by then, so c.session can no longer change.
func (c *conn) close() {
	if c.session != nil {
		_ = c.session.Close()
	}
	c.stop()
}

// CallTool calls a tool on the connected server labelled server and returns
// the text of its result. It lets a script or test ask a server what it
// holds (server-filesystem's list_allowed_directories, the demo's
// list_roots) without a second client.
func (h *Hub) CallTool(ctx context.Context, server, tool string, args map[string]any) (string, error) {
	h.mu.Lock()
	var session *mcp.ClientSession
	for _, c := range h.conns {
		if c.spec.Label() == server {
			session = c.session
		}
	}
	h.mu.Unlock()
	if session == nil {
		return "", fmt.Errorf("mcpconn: no connected server %q", server)
	}
	if args == nil {
		args = map[string]any{} // servers reject a null arguments object
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	if res.IsError {
		return b.String(), fmt.Errorf("mcpconn: tool %s failed: %s", tool, b.String())
	}
	return b.String(), nil
}
