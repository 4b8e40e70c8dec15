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
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// DefaultProtocolVersion is the MCP revision sessions are pinned to: the last
// one in which a server may ask roots/list on its own and the client sends
// notifications/roots/list_changed.
const DefaultProtocolVersion = "2025-11-25"

// DefaultInitTimeout bounds a server's start and initialize handshake.
const DefaultInitTimeout = 15 * time.Second

// FirstRunInitTimeout bounds the start and handshake of a server run
// through a package runner (npx, uvx, bunx, pnpm dlx, npm exec) until it
// has connected once: its first start may download the package.
const FirstRunInitTimeout = 2 * time.Minute

// Version is rootpick's version, reported to servers as clientInfo.
var Version = "0.1.0-dev"

// Options configure a Hub. The zero value is ready to use.
type Options struct {
	// ProtocolVersion is sent in initialize; "" means DefaultProtocolVersion.
	ProtocolVersion string
	// InitTimeout bounds each start and handshake. 0 means
	// DefaultInitTimeout, and FirstRunInitTimeout for a server run through
	// a package runner (npx, uvx, …) until it has connected once; a value
	// set here applies to every start.
	InitTimeout time.Duration
	// Logger receives connection logs and servers' stderr. Nil discards.
	Logger *slog.Logger
	// Timing overrides the supervision delays (tests shorten them); the zero
	// value means the defaults.
	Timing Timing
}

// Timing holds the delays of supervision. Zero fields take the defaults.
type Timing struct {
	// BackoffMin and BackoffMax bound the wait before a restart: it starts
	// at BackoffMin (0.5 s), doubles on each failure up to BackoffMax (30 s),
	// and is reset once a connection has stayed up for HealthyAfter (1 min).
	BackoffMin, BackoffMax, HealthyAfter time.Duration
	// StuckAfter is how long a write to a stdio or in-process server may
	// block before the server is declared stuck and stopped (2 s).
	StuckAfter time.Duration
	// NotFetchingAfter is how long after a change a server may go without
	// asking roots/list before it is reported as not fetching (3 s).
	NotFetchingAfter time.Duration
	// Revalidate is the period of the availability re-check that backs up
	// file-system events (500 ms).
	Revalidate time.Duration
	// DefaultInit and FirstRunInit are the initialize budgets used when
	// Options.InitTimeout is 0 (DefaultInitTimeout, FirstRunInitTimeout).
	DefaultInit, FirstRunInit time.Duration
}

// WithDefaults is t with each unset (zero) field set to its default: the
// hub's and rootpick proxy's supervision share them.
func (t Timing) WithDefaults() Timing {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&t.BackoffMin, 500*time.Millisecond)
	def(&t.BackoffMax, 30*time.Second)
	def(&t.HealthyAfter, time.Minute)
	def(&t.StuckAfter, 2*time.Second)
	def(&t.NotFetchingAfter, 3*time.Second)
	def(&t.Revalidate, 500*time.Millisecond)
	def(&t.DefaultInit, DefaultInitTimeout)
	def(&t.FirstRunInit, FirstRunInitTimeout)
	return t
}

// servedSet is one consented set as it is answered to roots/list. It is
// never modified after it is published, so every reader sees one whole set.
type servedSet struct {
	version int // increases with every change
	roots   []consent.Root
	mcp     []*mcp.Root
}

// Hub serves one consented set of roots to every connected server.
type Hub struct {
	opts   Options
	timing Timing
	logger *slog.Logger
	events *queue

	// ctx is cancelled by Close: supervisors stop, starts are aborted.
	ctx    context.Context
	cancel context.CancelFunc
	// setMu serialises changes of the set (SetRoots and withdrawals), so
	// that they reach every server in the order they were made.
	setMu sync.Mutex
	// served is what every roots/list is answered from: swapping it is the
	// moment a change takes effect, for every server at once.
	served atomic.Pointer[servedSet]
	// running counts supervisors and watchers; Close waits for them so that
	// no server outlives it.
	running sync.WaitGroup

	mu      sync.Mutex
	servers []*server
	closed  bool
	watch   *availability

	// hooks are nil in production; a test sets them before the first
	// SetRoots.
	hooks hooks
}

// hooks are pause points for tests. Two orderings keep the served set
// honest, and no amount of running proves them: the set is stored before
// any server is told of it, and a withdrawal decides and swaps under setMu
// in one piece. A hook runs at the very point between the two steps, so a
// test can look (and act) there every time, not only when the scheduler
// happens to interleave. Another marks a decision that leaves no trace
// when it goes right.
type hooks struct {
	// notifying runs as s is about to be told of set (its list_changed,
	// or its restart), under setMu.
	notifying func(s *server, set *servedSet)
	// withdrawing runs once a withdrawal has decided to serve keep, before
	// it swaps keep in.
	withdrawing func(keep []consent.Root)
	// fetchChecked runs once the not-fetching check of version on c has
	// decided, reported or not: a test that expects no report waits for
	// it, not for a guess at when the check runs.
	fetchChecked func(c *conn, version int, reported bool)
	// starting runs as s begins a start, before its process is made.
	starting func(s *server)
	// retiring runs as c, retired by a restart, begins to be ended.
	retiring func(c *conn)
}

// NewHub returns a Hub that serves no roots until SetRoots is called.
func NewHub(opts Options) *Hub {
	if opts.ProtocolVersion == "" {
		opts.ProtocolVersion = DefaultProtocolVersion
	}
	if opts.InitTimeout < 0 {
		opts.InitTimeout = 0
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &Hub{opts: opts, timing: opts.Timing.WithDefaults(), logger: logger, events: newQueue(), ctx: ctx, cancel: cancel}
	h.served.Store(&servedSet{mcp: []*mcp.Root{}})
	h.watch = newAvailability(h)
	return h
}

// Events delivers what happens on the connections, in order. The channel is
// closed by Close.
func (h *Hub) Events() <-chan Event { return h.events.out }

// Roots returns the set currently served.
func (h *Hub) Roots() []consent.Root { return slices.Clone(h.served.Load().roots) }

// ProtocolVersion is the MCP revision sessions ask for.
func (h *Hub) ProtocolVersion() string { return h.opts.ProtocolVersion }

// SetRoots replaces the served set. From the moment it returns every
// roots/list is answered with the new set; each server is then notified
// (notifications/roots/list_changed) by its own supervisor, so a server that
// does not read cannot delay the others. When the set becomes empty, or a
// server takes its folders as arguments ({roots}), the server is restarted:
// some servers ignore an empty list and keep their old folders. An
// enforced server is restarted on every call, a change of access alone
// (the same folders, one switched read-only) included: only a new process
// gets the new ruleset. Its new process starts at once, while the old one
// is ended beside it. SetRoots never blocks on a server.
func (h *Hub) SetRoots(roots []consent.Root) {
	h.setMu.Lock()
	defer h.setMu.Unlock()
	change := h.swap(roots)
	h.logger.Info("roots set", "count", len(roots), "added", len(change.Added), "removed", len(change.Removed), "access changed", len(change.Changed))
}

// swap publishes roots as the served set and tells every server; the caller
// holds setMu.
func (h *Hub) swap(roots []consent.Root) consent.Change {
	old := h.served.Load()
	set := &servedSet{version: old.version + 1, roots: slices.Clone(roots), mcp: MCPRoots(roots)}
	// Stored before any server is told: a notifier woken before the store
	// would find no new version and send nothing, and the server would
	// keep the old set (TestSetRootsServesBeforeNotifying).
	h.served.Store(set)
	change := consent.Review(old.roots, roots)
	revokeAll := len(roots) == 0 && len(old.roots) > 0
	h.mu.Lock()
	servers := slices.Clone(h.servers)
	h.mu.Unlock()
	for _, s := range servers {
		s.changed(set, revokeAll)
	}
	h.watch.update(roots)
	return change
}

// MCPRoots are roots as roots/list answers them (URI and name), in order.
func MCPRoots(roots []consent.Root) []*mcp.Root {
	out := make([]*mcp.Root, len(roots))
	for i, r := range roots {
		out[i] = &mcp.Root{URI: r.URI, Name: r.Name}
	}
	return out
}

// Add starts serving the server described by spec: its supervisor starts
// (or dials) it, completes the handshake, keeps it served and restarts it
// when it fails, until Close. It returns at once; what happens is published
// as events.
func (h *Hub) Add(spec Spec) {
	h.add(spec)
}

func (h *Hub) add(spec Spec) *server {
	s := newServer(h, spec)
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.servers = append(h.servers, s)
	h.running.Add(1)
	h.mu.Unlock()
	go func() {
		defer panics.Guard()
		defer h.running.Done()
		s.run()
	}()
	return s
}

// Connect adds the server and waits for the outcome of its first start: nil
// once it is initialized, or why it failed (it is then retried in the
// background, as after Add, unless the failure is final: see Failed).
// ctx bounds only the wait.
func (h *Hub) Connect(ctx context.Context, spec Spec) error {
	s := h.add(spec)
	if s == nil {
		return errors.New("mcpconn: hub is closed")
	}
	select {
	case <-s.first:
		return s.firstErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Retry restarts at once every server that is waiting to be restarted, has
// failed or is stuck, skipping its backoff; it is the only way a server
// whose failure was final (a program not found) is started again. label
// "" means every server. A server that is up is not affected.
func (h *Hub) Retry(label string) {
	h.mu.Lock()
	servers := slices.Clone(h.servers)
	h.mu.Unlock()
	for _, s := range servers {
		if label == "" || s.label == label {
			select {
			case s.retry <- struct{}{}:
			default:
			}
		}
	}
}

// Allow lets the stdio server labelled label also read path (a file or a
// folder, absolute), on top of its spec's AllowRead, and starts it again
// at once under the wider ruleset: the way out of a refusal (Refused)
// the person agrees to, for as long as this hub runs (the caller keeps
// it in the config). It reports whether there is such a server.
func (h *Hub) Allow(label, path string) bool {
	return h.widen(label, "the person allowed it to read "+path, func(s *server) bool {
		if !slices.Contains(s.allowed, path) {
			s.allowed = append(s.allowed, path)
		}
		return true // started again even when allowed before: it asked
	})
}

// RunAdvisory starts the stdio server labelled label again without
// enforcement, and keeps it so for as long as this hub runs: the person's
// choice for a server the boundary breaks, said in its Connected event
// (advisory: enforce is off for this server). A server whose spec
// requires enforcement is not changed. It reports whether it was.
func (h *Hub) RunAdvisory(label string) bool {
	return h.widen(label, "the person chose to run it advisory", func(s *server) bool {
		if s.spec.Enforce.Resolve() == launch.EnforceRequire {
			return false
		}
		s.advisory = true
		return true
	})
}

// widen changes the stdio server labelled label with change (under its
// lock) and, when change reports it did, starts it again at once, whether
// it is up (a restart) or waiting to be started again (a retry). It
// reports whether it did.
func (h *Hub) widen(label, why string, change func(*server) bool) bool {
	h.mu.Lock()
	i := slices.IndexFunc(h.servers, func(s *server) bool { return s.label == label && len(s.spec.Command) > 0 })
	var s *server
	if i >= 0 {
		s = h.servers[i]
	}
	h.mu.Unlock()
	if s == nil {
		return false
	}
	s.mu.Lock()
	changed := change(s)
	s.mu.Unlock()
	if !changed {
		return false
	}
	h.logger.Info("widened", "server", label, "why", why)
	s.requestRestart(why)
	select {
	case s.retry <- struct{}{}:
	default:
	}
	return true
}

// publish sends an event to the Events channel.
func (h *Hub) publish(e Event) { h.events.publish(e) }

// Close ends every session, stops the servers rootpick started (all their
// processes), and closes the Events channel. It does not wait for a server
// that does not cooperate: a server is killed after a short grace period,
// so Close returns within a few seconds whatever the servers do.
func (h *Hub) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	servers := h.servers
	h.mu.Unlock()
	h.cancel()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(s.shutdown)
	}
	wg.Wait()
	h.watch.close()
	h.running.Wait() // every supervisor has ended its server
	h.events.close()
	return nil
}

func (h *Hub) isClosed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// CallTool calls a tool on the connected server labelled server and returns
// the text of its result. It lets a script or test ask a server what it
// holds (server-filesystem's list_allowed_directories, the demo's
// list_roots) without a second client.
func (h *Hub) CallTool(ctx context.Context, server, tool string, args map[string]any) (string, error) {
	h.mu.Lock()
	var session *mcp.ClientSession
	for _, s := range h.servers {
		if s.label == server {
			if c := s.current(); c != nil {
				session = c.liveSession()
			}
		}
	}
	h.mu.Unlock()
	if session == nil {
		return "", fmt.Errorf("mcpconn: no connected server %q", server)
	}
	return CallTool(ctx, session, tool, args)
}

// CallTool calls tool on session with args and returns the text of its
// result (ToolText): how the hub asks a server what it holds, and how a
// test asks a server through a session of its own.
func CallTool(ctx context.Context, session *mcp.ClientSession, tool string, args map[string]any) (string, error) {
	if args == nil {
		args = map[string]any{} // servers reject a null arguments object
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", err
	}
	return ToolText(res, tool)
}

// ToolText is the text a tool's result carries, its text contents in
// order; a result that is an error is an error that quotes it (escaped
// and cut: it is the server's text). rootpick proxy reads its child's
// answers with it too.
func ToolText(res *mcp.CallToolResult, tool string) (string, error) {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	if res.IsError {
		return b.String(), fmt.Errorf("tool %s failed: %s", tool, safetext.EscapeMax(b.String(), 200))
	}
	return b.String(), nil
}
