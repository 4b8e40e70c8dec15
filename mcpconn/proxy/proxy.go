package proxy

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// RootSource is where a proxy gets the consented set: the consent store of
// a profile, which the picker writes.
type RootSource interface {
	// Roots reads the consented set. An error means "serve nothing".
	Roots() ([]consent.Root, error)
	// Changed delivers a value whenever the set may have changed.
	Changed() <-chan struct{}
}

// DroppingSource is a RootSource that also says which roots of the
// consent it did not admit, and why (StoreSource). A proxy logs them and
// shows them in its registry entry.
type DroppingSource interface {
	RootSource
	// Dropped is what the last call of Roots left out.
	Dropped() []consent.Dropped
}

// Options configure Run.
type Options struct {
	// Command is the real server, started as the proxy's child. A
	// {roots} argument expands to the consented paths.
	Command []string
	// Name is the server's name as its host's entry calls it (--name,
	// which hosts wrap writes), for the status: the picker shows the
	// server by it. "" leaves the status's Name empty.
	Name string
	// ProtocolVersion is what the child is asked for in initialize when
	// the host asks for a version without roots (one after
	// RootsVersions' last, or one unknown); "" means
	// DefaultProtocolVersion. A host asking for a version that has roots
	// keeps it, so that a host on an older SDK gets back a version it
	// accepts.
	ProtocolVersion string
	// Source is the consented set.
	Source RootSource
	// Logger receives the proxy's log and the child's stderr.
	Logger *slog.Logger
	// Timing: BackoffMin/BackoffMax bound the restarts of a crashed child,
	// Revalidate the re-check of the served folders.
	Timing mcpconn.Timing
	// Status, if set, is called with the proxy's state after every change
	// that the picker shows (host and server names, fetches, restarts).
	Status func(Status)
	// Enforce, AllowRead, AllowWrite and AllowSocket are the child's Spec settings:
	// whether the kernel enforces what it may open (the consented folders
	// and its runtime), and the folders it may read or write and the
	// sockets it may connect to on top.
	Enforce               launch.Enforce
	AllowRead, AllowWrite []string
	AllowSocket           []string
	Network               launch.Network
	// ReadOnly caps the child to reading, as Spec.ReadOnly does: every
	// consented folder is read-only for it, whatever the record says.
	ReadOnly bool
	// NoConsent, if set, turns why no consent is served (Source's error,
	// such as a missing record) into the warning the host is sent once,
	// as an MCP log message, after it has initialized: which profile,
	// which file, and the command that creates it.
	NoConsent func(problem string) string
	// FetchHold bounds how long the host's requests wait for the server
	// to fetch its roots after it connects, restarts or is told of a
	// change (proxy_hold.go); 0 means DefaultFetchHold.
	FetchHold time.Duration
	// InstallGrace bounds how long the proxy, when it ends (the host went
	// away, or a signal), lets a launcher that has not answered yet — npx,
	// uvx, pnpm dlx… still installing on a first start — finish before
	// it ends it (proxy_install.go); 0 means DefaultInstallGrace. Hurry,
	// when closed (a second signal), ends that wait at once.
	InstallGrace time.Duration
	Hurry        <-chan struct{}
	// Notice, when set, receives the lines a person should read (what a
	// slow first start waits for): the proxy's stderr, which hosts show in
	// their logs. They are logged too.
	Notice io.Writer

	// hooks are nil outside the tests; noticeEvery is how often a slow
	// first start is told (0: installNoticeEvery).
	hooks       proxyHooks
	noticeEvery time.Duration
}

// proxyHooks are pause points for tests (see hooks in hub.go).
type proxyHooks struct {
	// childStarted runs once a new child's process has started, before
	// it becomes the current child; prev is the current child then (nil
	// if there is none).
	childStarted func(prev *child)
}

// Status is what a proxy tells the picker about itself.
type Status struct {
	Host      string    `json:"host"`               // the host's clientInfo.name
	Name      string    `json:"name,omitempty"`     // the server's name in its host's entry (Options.Name)
	Server    string    `json:"server"`             // the child's serverInfo.name
	Command   string    `json:"command"`            // the child's program
	State     string    `json:"state"`              // starting, connected, restarting
	Fetched   []string  `json:"fetched"`            // URIs of the last roots/list answer
	FetchedAt time.Time `json:"fetched_at"`         // when it was answered
	Asked     bool      `json:"asked"`              // the child asked roots/list since it started
	Error     string    `json:"error,omitempty"`    // why it last restarted
	Served    []string  `json:"served,omitempty"`   // URIs the proxy serves now
	Dropped   []string  `json:"dropped,omitempty"`  // consented roots not served: "path": why
	Problem   string    `json:"problem,omitempty"`  // why no consent is served at all (no record, an untrusted one)
	Protocol  string    `json:"protocol,omitempty"` // the protocol version the server answered
	// NotFetching says the server did not ask roots/list within
	// Timing.NotFetchingAfter of connecting or of a change: it takes no
	// roots, and needs its folders as arguments ({roots}).
	NotFetching bool `json:"not_fetching,omitempty"`
	// RetryIn is the wait before the next start of a server that ended
	// (State restarting): it doubles from Timing.BackoffMin up to
	// BackoffMax, and starts over after a run of HealthyAfter.
	RetryIn time.Duration `json:"retry_in,omitempty"`
	// Enforcement is "enforced" (the kernel enforces what the server may
	// open: Access, with LandlockABI) or "advisory" (Advisory says why).
	Enforcement string              `json:"enforcement,omitempty"`
	LandlockABI int                 `json:"landlock_abi,omitempty"`
	Advisory    string              `json:"advisory,omitempty"`
	Access      []launch.PolicyPath `json:"access,omitempty"`
	// Verified is what the server said it holds when the proxy last
	// asked it, after a fetch (proxy_hold.go): the folders as file URIs,
	// like Fetched and Served (a path the server gave is turned into its
	// URI), escaped. A server is asked only
	// when rootpick knows how (probers: server-filesystem's
	// list_allowed_directories, server-everything's get-roots-list,
	// rootpick's demo). VerifiedAt is when it answered; zero means it was
	// not asked or could not answer (then Verified is empty too, and an
	// empty Verified with a VerifiedAt means it holds nothing). Both are
	// cleared when the server is restarted.
	Verified   []string  `json:"verified,omitempty"`
	VerifiedAt time.Time `json:"verified_at,omitzero"`
	// Mismatch, when not "", says how Verified differs from the consent
	// the server was served, in the words of the hub's Mismatch event:
	// "holds /a, /b beyond the consent", "lacks /c"
	// (consented, not held), or both joined by "; ". "" with a VerifiedAt
	// means the server holds exactly the consent. The host is sent a
	// warning (notifications/message) once for each new Mismatch.
	Mismatch string `json:"mismatch,omitempty"`
	// Refused are the paths the server said enforcement refused it
	// (refused.go), newest last, at most maxRefusedShown: "refused:
	// /home/me/.config/x/settings.json (read)", escaped.
	Refused []string `json:"refused,omitempty"`
}

// RootsVersions are the MCP revisions in which a server may ask the client
// roots/list and the client announces changes with
// notifications/roots/list_changed: the proxy passes a host's request for
// one of them on to the server unchanged. From 2026-07-28 roots only travel
// inside a request's input requests (SEP-2577).
var RootsVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

// childVersion is the protocol version the child is asked for when the
// host asked for asked: the host's own when it has roots, else the pin.
func childVersion(asked, pin string) string {
	if slices.Contains(RootsVersions, asked) {
		return asked
	}
	return pin
}

// restartedCode is the JSON-RPC error code of the answers to the host's
// requests that were in flight when the child was restarted.
const restartedCode = -32000

// Run relays MCP between the host (on hostTransport, usually a
// HostTransport on stdio, which answers the host's malformed lines itself)
// and a child server it starts, unchanged except for roots: the child is
// told the client supports roots with listChanged, its roots/list is
// answered from Source and never reaches the host, the host's own
// roots/list_changed is dropped, and a change of Source is announced to the
// child with one list_changed — or, when every root is revoked (or the
// command takes {roots}), by restarting the child with the host's
// initialize replayed. In a 2026-07-28 session, where the child asks for
// roots inside a request's input-required result instead, the proxy
// answers those from Source too and retries the request itself; only the
// other input requests reach the host (proxy_mrtr.go). Run returns
// when the host goes away or ctx ends, after ending the child and its
// descendants — a launcher that is still installing (npx on a first start,
// not yet answered) is let finish first, for InstallGrace at most
// (proxy_install.go), so that its cache is never left half-written.
func Run(ctx context.Context, hostTransport mcp.Transport, opts Options) error {
	if len(opts.Command) == 0 {
		return errors.New("mcpconn: proxy needs a server command")
	}
	if opts.ProtocolVersion == "" {
		opts.ProtocolVersion = mcpconn.DefaultProtocolVersion
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	opts.Timing = opts.Timing.WithDefaults()
	if opts.FetchHold <= 0 {
		opts.FetchHold = DefaultFetchHold
	}
	if opts.InstallGrace <= 0 {
		opts.InstallGrace = DefaultInstallGrace
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	host, err := hostTransport.Connect(ctx)
	if err != nil {
		return err
	}
	defer host.Close()
	p := &proxy{
		crashed:     make(chan *child, 4),
		ctx:         ctx,
		opts:        opts,
		log:         opts.Logger,
		host:        host,
		hostPending: map[jsonrpc.ID]*child{},
		usesArgs:    slices.Contains(opts.Command, launch.RootsPlaceholder),
		nonce:       newNonce(),
		status:      Status{Command: launch.CommandLabel(opts.Command), Name: opts.Name, State: "starting"},
	}
	if l, ok := prefetch.Of(opts.Command); ok {
		p.launcher = &l
	}
	p.served = p.load()
	if err := p.startChild(); err != nil {
		return err
	}
	defer p.stopAll()

	hostDone := make(chan error, 1)
	go func() {
		defer panics.Guard()
		hostDone <- p.readHost()
	}()
	tick := time.NewTicker(opts.Timing.Revalidate)
	defer tick.Stop()
	var changed <-chan struct{}
	if opts.Source != nil {
		changed = opts.Source.Changed()
	}
	for {
		select {
		case err := <-hostDone:
			p.log.Info("host went away", "err", err)
			p.mu.Lock()
			p.ending = "the host went away"
			p.mu.Unlock()
			return nil
		case <-ctx.Done():
			p.mu.Lock()
			p.ending = "rootpick proxy was told to stop"
			p.mu.Unlock()
			return ctx.Err()
		case <-changed:
			p.apply(p.load())
		case <-tick.C:
			p.apply(p.load())
		case c := <-p.crashed:
			p.onCrash(c)
		}
	}
}

// child is one run of the real server.
type child struct {
	conn    mcp.Connection
	stop    func()
	done    chan struct{} // closed when its reader ends
	started time.Time
	stopped bool             // ended on purpose: not a crash
	refused *launch.Refusals // the paths it said enforcement refused

	// ready is false while a replayed initialize is under way; messages
	// from the host wait in queue until it is done.
	ready    bool
	queue    []jsonrpc.Message
	replayID any // the id of the replayed initialize, whose answer is swallowed

	pending map[any]bool // ids of its requests the host has yet to answer

	// calls are the host's requests it may answer input_required, by the
	// id it knows them by (proxy_mrtr.go).
	calls map[any]*inputCall

	// enforcement says whether the kernel enforces what it may open.
	enforcement launch.Enforcement

	// server and protocol are from its answer to initialize.
	server, protocol string

	// The hold (proxy_hold.go): while holding, the host's requests wait
	// in held until it fetches its roots (fetched), for FetchHold at most.
	holding   bool
	held      []jsonrpc.Message
	holdSince time.Time
	holdTimer *time.Timer
	fetched   bool

	// verifyWake wakes its verifier after a fetch; asks are the proxy's
	// own requests to it, by id, waiting for their answers.
	verifyWake chan struct{}
	asks       map[any]chan *jsonrpc.Response

	// spoke is closed when it first writes a message: a launcher is done
	// installing then (proxy_install.go); exited is closed when its
	// process has exited (nil for a server that is no process).
	spoke     chan struct{}
	spokeOnce sync.Once
	exited    <-chan struct{}
}

type proxy struct {
	ctx      context.Context
	opts     Options
	log      *slog.Logger
	host     mcp.Connection
	usesArgs bool

	crashed chan *child // children that ended on their own

	mu          sync.Mutex
	cur         *child
	served      []consent.Root
	initReq     *jsonrpc.Request      // the host's initialize, as sent to the child
	initialized *jsonrpc.Request      // the host's initialized notification
	hostPending map[jsonrpc.ID]*child // host request id → the child it went to
	replays     int
	retries     int // the proxy's own retries of input-required requests
	backoff     time.Duration
	status      Status
	fetchTimer  *time.Timer // NotFetching's check after a connect or change
	hostReady   bool        // the host sent initialized: it may be sent notifications
	told        string      // the no-consent problem the host was last told of

	nonce        string // in the ids of the proxy's own requests (proxy_hold.go)
	asks         int    // the proxy's own requests so far
	toldMismatch string // the mismatch the host was last told of

	// launcher is the command read as a package runner (npx…), nil when
	// it is none; ending says why the proxy ends, once it does
	// (proxy_install.go).
	launcher *prefetch.Launcher
	ending   string
	retiring sync.WaitGroup // children replaced while installing (retireInstall)
}

// load reads the consented set and keeps the folders that still validate.
func (p *proxy) load() []consent.Root {
	if p.opts.Source == nil {
		return nil
	}
	roots, err := p.opts.Source.Roots()
	problem := ""
	if err != nil {
		problem, roots = err.Error(), nil // an error serves nothing
	}
	var dropped []string
	if ds, ok := p.opts.Source.(DroppingSource); ok && err == nil {
		for _, d := range ds.Dropped() {
			dropped = append(dropped, d.String())
		}
	}
	var ok []consent.Root
	for _, r := range roots {
		if why := consent.Recheck(r); why != "" {
			dropped = append(dropped, consent.Dropped{Root: r, Why: why}.String())
			continue
		}
		ok = append(ok, r)
	}
	p.mu.Lock()
	changed := p.status.Problem != problem || !slices.Equal(p.status.Dropped, dropped)
	p.status.Problem, p.status.Dropped = problem, dropped
	p.mu.Unlock()
	if changed {
		// Said once per change, not on every re-read.
		if problem != "" {
			p.log.Warn("cannot read the consented set; serving none", "err", problem)
			p.tellNoConsent()
		}
		for _, d := range dropped {
			p.log.Warn("consented root not served", "root", d)
		}
		p.report(func(*Status) {})
	}
	return ok
}

// readOnlyList says of each of roots, in order, whether it is read-only
// for a child (launch.ReadOnlyFor), capped or not.
func readOnlyList(roots []consent.Root, capped bool) []bool {
	out := make([]bool, len(roots))
	for i, r := range roots {
		out[i] = launch.ReadOnlyFor(r, capped)
	}
	return out
}

func uriList(roots []consent.Root) []string {
	out := make([]string, len(roots))
	for i, r := range roots {
		out[i] = r.URI
	}
	return out
}

// report sends the status to the picker.
func (p *proxy) report(change func(*Status)) {
	p.mu.Lock()
	change(&p.status)
	p.status.Served = uriList(p.served)
	st := p.status
	st.Fetched = slices.Clone(st.Fetched)
	st.Verified = slices.Clone(st.Verified)
	st.Refused = slices.Clone(st.Refused)
	p.mu.Unlock()
	if p.opts.Status != nil {
		p.opts.Status(st)
	}
}

// defaultEnforce is what an unset Options.Enforce stands for when
// the child is started: launch.EnforceDefault (on). Only tests change it
// (main_test.go: their children that are not about enforcement run
// advisory, notified of a change rather than restarted under a new
// ruleset; the enforcement tests ask for it).
var defaultEnforce = launch.EnforceDefault

// startChild starts the real server; if the host has initialized already,
// the initialize is replayed to it first.
func (p *proxy) startChild() error {
	p.mu.Lock()
	command := p.opts.Command
	served := p.served
	if p.usesArgs {
		command = launch.ExpandRoots(command, served)
	}
	p.mu.Unlock()
	logger := p.log.With("server", "child")
	access := launch.ServerAccess{Enforce: p.opts.Enforce, AllowRead: p.opts.AllowRead, AllowWrite: p.opts.AllowWrite, AllowSocket: p.opts.AllowSocket,
		Network: p.opts.Network, Outlive: p.outliveBound()}
	if access.Enforce == launch.EnforceDefault {
		access.Enforce = defaultEnforce
	}
	access.Consented, access.ReadOnly = launch.SplitConsented(served, p.opts.ReadOnly)
	refused := &launch.Refusals{}
	pt, err := launch.NewProcess(command, access, logger, func(_ string, r *launch.Refusal) {
		if r != nil && refused.Note(*r) {
			p.noticeRefused(*r)
		}
	})
	if err != nil {
		return err
	}
	conn, err := pt.Connect(p.ctx)
	if err != nil {
		pt.Stop()
		return err
	}
	c := &child{conn: conn, stop: pt.Stop, done: make(chan struct{}), started: time.Now(), ready: true, refused: refused, pending: map[any]bool{}, calls: map[any]*inputCall{},
		verifyWake: make(chan struct{}, 1), asks: map[any]chan *jsonrpc.Response{}, spoke: make(chan struct{}),
		enforcement: pt.Enforcement, exited: pt.Waited}
	p.mu.Lock()
	if f := p.opts.hooks.childStarted; f != nil {
		f(p.cur)
	}
	p.cur = c
	var replay *jsonrpc.Request
	if p.initReq != nil {
		p.replays++
		id, _ := jsonrpc.MakeID(fmt.Sprintf("rootpick-replay-%d", p.replays))
		replay = &jsonrpc.Request{ID: id, Method: "initialize", Params: p.initReq.Params}
		c.ready, c.replayID = false, id.Raw()
	}
	p.mu.Unlock()
	go func() {
		defer panics.Guard()
		p.readChild(c)
	}()
	go func() {
		defer panics.Guard()
		p.verifier(c)
	}()
	if w := p.installWatch(); w != noWatch {
		go func() {
			defer panics.Guard()
			p.watchInstall(c, w)
		}()
	}
	if replay != nil {
		if err := c.conn.Write(p.ctx, replay); err != nil {
			p.log.Warn("replaying initialize", "err", err)
		}
	}
	p.report(func(s *Status) {
		s.State, s.Asked, s.RetryIn = "starting", false, 0
		s.Verified, s.VerifiedAt, s.Mismatch = nil, time.Time{}, ""
		e := c.enforcement
		s.Enforcement, s.LandlockABI, s.Advisory, s.Access = e.Mode(), e.ABI, e.Advisory, nil
		if e.Policy != nil {
			s.Access = slices.Clone(e.Policy.Paths)
		}
	})
	return nil
}

// readHost relays the host's messages until it goes away: a Read error
// means the host's side ended, since a HostTransport answers a bad line
// and reads on.
func (p *proxy) readHost() error {
	for {
		msg, err := p.host.Read(p.ctx)
		if err != nil {
			return err
		}
		switch m := msg.(type) {
		case *jsonrpc.Request:
			p.fromHost(m)
		case *jsonrpc.Response:
			p.mu.Lock()
			c := p.cur
			ok := c != nil && c.pending[m.ID.Raw()]
			if ok {
				delete(c.pending, m.ID.Raw())
			}
			p.mu.Unlock()
			if !ok {
				p.log.Info("dropping the host's answer to a request of a server that was restarted", "id", m.ID.Raw())
				continue
			}
			p.toChild(c, m)
		}
	}
}

func (p *proxy) fromHost(m *jsonrpc.Request) {
	p.log.Debug("host → server", "method", m.Method, "id", m.ID.Raw())
	if err := checkParamKeys(m.Params); err != nil {
		// The server would read these params otherwise than the proxy
		// does (hostkeys.go): nothing of them may reach it.
		p.log.Warn("refused a request from the host", "method", m.Method, "why", err)
		if m.IsCall() {
			p.toHost(&jsonrpc.Response{ID: m.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "rootpick proxy: " + err.Error()}})
		}
		return
	}
	switch m.Method {
	case "notifications/roots/list_changed":
		p.log.Info("dropping the host's roots/list_changed: rootpick's consent decides the roots")
		return
	case "server/discover":
		// From 2026-07-28 a host may skip initialize (SEP-2575), and servers
		// may no longer ask roots/list. Unless told to serve that revision,
		// decline, so that the host falls back to initialize at the pinned one.
		if p.opts.ProtocolVersion < "2026-07-28" {
			p.log.Info("declining server/discover: the session is pinned", "protocol", p.opts.ProtocolVersion)
			p.toHost(&jsonrpc.Response{ID: m.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
				Message: "rootpick proxy pins protocol " + p.opts.ProtocolVersion + ": use initialize"}})
			return
		}
	case "initialize":
		m = p.rewriteInitialize(m)
	case "notifications/initialized":
		p.mu.Lock()
		p.initialized = m
		p.mu.Unlock()
		defer func() {
			p.mu.Lock()
			p.hostReady = true
			p.mu.Unlock()
			p.tellNoConsent()
			p.tellMismatch()
		}()
	}
	m = p.rewriteInputs(m)
	p.mu.Lock()
	c := p.cur
	if m.IsCall() {
		p.hostPending[m.ID] = c
		if c != nil && slices.Contains(inputMethods, m.Method) {
			c.calls[m.ID.Raw()] = &inputCall{hostID: m.ID, sent: m.ID, method: m.Method, params: m.Params}
		}
	}
	if c != nil && !c.ready {
		c.queue = append(c.queue, m)
		p.mu.Unlock()
		return
	}
	if c != nil && mustWaitLocked(c, m) {
		// Until the server has fetched its roots (proxy_hold.go). A
		// cancellation waits unchanged: what it cancels waits too, and the
		// proxy retries requests only in sessions that are never held.
		c.held = append(c.held, m)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	if c == nil {
		p.answerHostError(m, "the server is restarting; retry")
		return
	}
	if m.Method == "notifications/cancelled" {
		m = p.rewriteCancelled(c, m)
	}
	p.toChild(c, m)
}

// tellNoConsent sends the host, once it has initialized, one warning per
// distinct reason no consent is served (Options.NoConsent).
func (p *proxy) tellNoConsent() {
	if p.opts.NoConsent == nil {
		return
	}
	p.mu.Lock()
	problem := p.status.Problem
	if !p.hostReady || problem == "" || problem == p.told {
		p.mu.Unlock()
		return
	}
	p.told = problem
	p.mu.Unlock()
	params, _ := json.Marshal(map[string]any{"level": "warning", "logger": "rootpick", "data": p.opts.NoConsent(problem)})
	p.toHost(&jsonrpc.Request{Method: "notifications/message", Params: params})
}

// expectFetch marks the server not fetching unless it asks roots/list
// within NotFetchingAfter: called when it has connected and when it is
// told of a change.
func (p *proxy) expectFetch() {
	armed := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fetchTimer != nil {
		p.fetchTimer.Stop()
	}
	p.fetchTimer = time.AfterFunc(p.opts.Timing.NotFetchingAfter, func() {
		if p.ctx.Err() != nil {
			return
		}
		p.mu.Lock()
		late := p.cur != nil && p.status.FetchedAt.Before(armed)
		p.mu.Unlock()
		if late {
			p.report(func(s *Status) { s.NotFetching = true })
		}
	})
}

// rewriteInitialize declares roots with listChanged and pins the protocol
// version; it remembers the result for replays and the host's name.
func (p *proxy) rewriteInitialize(m *jsonrpc.Request) *jsonrpc.Request {
	var params map[string]any
	if err := json.Unmarshal(m.Params, &params); err != nil || params == nil {
		params = map[string]any{}
	}
	caps, _ := params["capabilities"].(map[string]any)
	if caps == nil {
		caps = map[string]any{}
	}
	caps["roots"] = map[string]any{"listChanged": true}
	params["capabilities"] = caps
	asked, _ := params["protocolVersion"].(string)
	params["protocolVersion"] = childVersion(asked, p.opts.ProtocolVersion)
	host := ""
	if ci, ok := params["clientInfo"].(map[string]any); ok {
		host, _ = ci["name"].(string)
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return m
	}
	out := &jsonrpc.Request{ID: m.ID, Method: m.Method, Params: raw}
	p.mu.Lock()
	p.initReq = out
	p.mu.Unlock()
	p.log.Info("host initialize", "host", host, "asked", asked, "asking the server for", params["protocolVersion"])
	p.report(func(s *Status) { s.Host = safetext.EscapeMax(host, 60) })
	return out
}

func (p *proxy) toChild(c *child, m jsonrpc.Message) {
	if err := c.conn.Write(p.ctx, m); err != nil {
		p.log.Warn("writing to the server", "err", err)
	}
}

func (p *proxy) toHost(m jsonrpc.Message) {
	if err := p.host.Write(p.ctx, m); err != nil {
		p.log.Warn("writing to the host", "err", err)
	}
}

func (p *proxy) answerHostError(m *jsonrpc.Request, text string) {
	if !m.IsCall() {
		return
	}
	p.mu.Lock()
	delete(p.hostPending, m.ID)
	p.mu.Unlock()
	p.toHost(&jsonrpc.Response{ID: m.ID, Error: &jsonrpc.Error{Code: restartedCode, Message: text}})
}

// readChild relays one child's messages until it ends.
func (p *proxy) readChild(c *child) {
	defer close(c.done)
	for {
		msg, err := c.conn.Read(p.ctx)
		if err != nil {
			p.mu.Lock()
			stopped := c.stopped
			p.mu.Unlock()
			if !stopped && p.ctx.Err() == nil {
				p.log.Warn("the server ended", "err", err)
				p.crashed <- c
			}
			return
		}
		c.spokeOnce.Do(func() { close(c.spoke) })
		switch m := msg.(type) {
		case *jsonrpc.Request:
			p.log.Debug("server → host", "method", m.Method, "id", m.ID.Raw())
			if m.Method == "roots/list" && m.IsCall() {
				p.answerRoots(c, m)
				continue
			}
			if m.IsCall() {
				p.mu.Lock()
				c.pending[m.ID.Raw()] = true
				p.mu.Unlock()
			}
			p.toHost(m)
		case *jsonrpc.Response:
			p.fromChildResponse(c, m)
		}
	}
}

func (p *proxy) answerRoots(c *child, m *jsonrpc.Request) {
	p.mu.Lock()
	served := p.served
	p.mu.Unlock()
	roots := mcpconn.MCPRoots(served)
	res, _ := json.Marshal(&mcp.ListRootsResult{Roots: roots})
	p.toChild(c, &jsonrpc.Response{ID: m.ID, Result: res})
	uris := uriList(served)
	p.log.Debug("roots/list answered", "count", len(roots), "uris", uris)
	p.report(func(s *Status) {
		s.Fetched, s.FetchedAt, s.Asked, s.NotFetching = uris, time.Now(), true, false
	})
	p.fetchedBy(c)
}

func (p *proxy) fromChildResponse(c *child, m *jsonrpc.Response) {
	if p.askAnswered(c, m) {
		return // the answer to the proxy's own question (proxy_hold.go)
	}
	if m = p.answerChildInputs(c, m); m == nil {
		return // the proxy gave the server its roots and asked again
	}
	p.mu.Lock()
	replay := c.replayID != nil && m.ID.Raw() == c.replayID
	if !replay {
		delete(p.hostPending, m.ID)
	}
	p.mu.Unlock()
	p.noteServerName(c, m)
	if !replay {
		p.toHost(m)
		return
	}
	// The replayed initialize is answered: finish the handshake, then let
	// the host's waiting messages through, in order.
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.initialized != nil {
		p.toChild(c, p.initialized)
	}
	for _, q := range c.queue {
		if r, ok := q.(*jsonrpc.Request); ok && mustWaitLocked(c, r) {
			c.held = append(c.held, q) // until it fetched (proxy_hold.go)
			continue
		}
		p.toChild(c, q)
	}
	c.queue, c.ready, c.replayID = nil, true, nil
}

// noteServerName records serverInfo.name from c's initialize answer, and
// makes the host's requests wait until c has fetched its roots. A server
// that asked roots/list before it answered (against the protocol, which
// wants initialized first, but it happens) has fetched: it is neither held
// nor watched for not fetching.
func (p *proxy) noteServerName(c *child, m *jsonrpc.Response) {
	if m.Error != nil || len(m.Result) == 0 {
		return
	}
	var res struct {
		ServerInfo *struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(m.Result, &res) != nil || res.ServerInfo == nil || res.ProtocolVersion == "" {
		return
	}
	p.mu.Lock()
	c.server, c.protocol = res.ServerInfo.Name, res.ProtocolVersion
	fetched := c.fetched
	if !fetched {
		p.holdLocked(c)
	}
	p.mu.Unlock()
	p.report(func(s *Status) {
		s.Server, s.State, s.Error = safetext.EscapeMax(res.ServerInfo.Name, 60), "connected", ""
		s.Protocol = safetext.EscapeMax(res.ProtocolVersion, 20)
	})
	if !fetched {
		p.expectFetch()
	}
}

// apply serves roots from now on and tells the child.
func (p *proxy) apply(roots []consent.Root) {
	p.mu.Lock()
	old := p.served
	folders := !slices.Equal(uriList(old), uriList(roots))
	if !folders && slices.Equal(readOnlyList(old, false), readOnlyList(roots, false)) {
		p.mu.Unlock()
		return
	}
	// What the child's ruleset would grant differently: under the cap, a
	// root's own access changes nothing.
	access := !slices.Equal(readOnlyList(old, p.opts.ReadOnly), readOnlyList(roots, p.opts.ReadOnly))
	p.served = roots
	c := p.cur
	p.mu.Unlock()
	p.log.Info("consented set changed", "count", len(roots), "access alone", !folders)
	p.report(func(*Status) {})
	switch {
	case c == nil:
	case !folders:
		// The same folders with another access: roots/list has no word
		// for access, so only the kernel holds a server to it, and only
		// under a new ruleset, in a new process. An advisory server is
		// held to no access, and a capped one's ruleset stays the same:
		// neither is told.
		if access && c.enforcement.Enforced {
			p.restart(c, mcpconn.RestartEnforced)
		}
	case p.usesArgs:
		p.restart(c, "the folders changed and the server takes them as arguments")
	case c.enforcement.Enforced:
		p.restart(c, mcpconn.RestartEnforced)
	case len(roots) == 0 && len(old) > 0:
		p.restart(c, "every root was revoked; restarting the server with none")
	default:
		p.mu.Lock()
		ready := c.ready
		if ready && !p.status.NotFetching {
			p.holdLocked(c) // until it fetched the new set (proxy_hold.go)
		}
		p.mu.Unlock()
		if ready { // a replay in progress will fetch the new set anyway
			p.toChild(c, &jsonrpc.Request{Method: "notifications/roots/list_changed", Params: json.RawMessage(`{}`)})
			p.expectFetch()
		}
	}
}

// restart ends child c and starts a new one, failing the host's requests
// that were in flight.
//
// The new child is started first, so that the host's messages never find
// the proxy without a server: they wait for the replayed handshake instead.
func (p *proxy) restart(c *child, why string) {
	p.log.Info("restarting the server", "why", why)
	err := p.startChild()
	p.endChild(c, why)
	if err != nil {
		p.log.Warn("restarting the server failed", "err", err)
		p.scheduleRetry(nil)
	}
}

// endChild stops c and answers the host's requests it had with an error.
func (p *proxy) endChild(c *child, why string) {
	p.mu.Lock()
	c.stopped = true
	if p.cur == c {
		p.cur = nil
	}
	c.holding, c.held = false, nil // failed below with the other requests it had
	if c.holdTimer != nil {
		c.holdTimer.Stop()
	}
	replaced := p.cur != nil // a new child runs already
	var failed []jsonrpc.ID
	for id, to := range p.hostPending {
		if to == c {
			failed = append(failed, id)
			delete(p.hostPending, id)
		}
	}
	p.mu.Unlock()
	p.log.Info("server ended", "why", why, "failing requests", len(failed))
	// The host hears first: ending the processes may take a second or two.
	for _, id := range failed {
		p.toHost(&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: restartedCode,
			Message: "rootpick restarted the server (" + why + "); retry the request"}})
	}
	if !p.retireInstall(c, "the server is restarted ("+why+")") {
		c.stop()
		_ = c.conn.Close()
	}
	p.report(func(s *Status) {
		s.Error = why
		if !replaced {
			s.State = "restarting"
		}
	})
}

// maxRefusedShown bounds Status.Refused.
const maxRefusedShown = 5

// noticeRefused says on stderr (the host's log of the server) and in the
// status that the server was refused r, and how to allow it: a server
// that exits for it otherwise reads like one with a bug.
func (p *proxy) noticeRefused(r launch.Refusal) {
	flag := "--allow-read="
	if r.Need&launch.AccessWrite != 0 {
		flag = "--allow-write="
	}
	p.notice(fmt.Sprintf("rootpick proxy: enforcement refused the server %s (%s); if it needs it, add %s%s to the proxy's arguments in the host's entry (rootpick policy -- COMMAND shows what it may open)",
		safetext.EscapeMax(r.Path, 300), r.Need, flag, safetext.EscapeMax(r.Path, 300)))
	words := safetext.EscapeMax(r.String(), 400)
	p.report(func(s *Status) {
		if !slices.Contains(s.Refused, words) {
			s.Refused = append(s.Refused, words)
			if n := len(s.Refused); n > maxRefusedShown {
				s.Refused = s.Refused[n-maxRefusedShown:]
			}
		}
	})
}

// onCrash restarts a child that ended on its own, with backoff.
func (p *proxy) onCrash(c *child) {
	p.mu.Lock()
	current := p.cur == c
	p.mu.Unlock()
	if !current {
		return
	}
	p.endChild(c, c.refused.Explain("the server exited"))
	p.scheduleRetry(c)
}

// scheduleRetry starts a new child after the backoff; c is the one that
// ended (nil after a failed start): one that ran for HealthyAfter resets
// the backoff.
func (p *proxy) scheduleRetry(c *child) {
	p.mu.Lock()
	t := p.opts.Timing
	if c != nil && time.Since(c.started) >= t.HealthyAfter {
		p.backoff = 0
	}
	if p.backoff == 0 {
		p.backoff = t.BackoffMin
	}
	d := p.backoff
	p.backoff = min(p.backoff*2, t.BackoffMax)
	p.mu.Unlock()
	p.log.Info("restarting the server", "in", d)
	p.report(func(s *Status) { s.State, s.RetryIn = "restarting", d })
	time.AfterFunc(d, func() {
		if p.ctx.Err() != nil {
			return
		}
		p.mu.Lock()
		running := p.cur != nil
		p.mu.Unlock()
		if running {
			return
		}
		if err := p.startChild(); err != nil {
			p.log.Warn("restarting the server failed", "err", err)
			p.scheduleRetry(nil)
		}
	})
}

// stopAll ends the current child and its descendants.
func (p *proxy) stopAll() {
	p.mu.Lock()
	c := p.cur
	p.cur = nil
	p.mu.Unlock()
	if c != nil {
		p.mu.Lock()
		c.stopped = true
		why := cmp.Or(p.ending, "the proxy is ending")
		p.mu.Unlock()
		p.letInstallFinish(c, why)
		_ = c.conn.Close() // stdin closed: a polite end
		select {
		case <-c.done:
		case <-time.After(mcpconn.PoliteClose):
		}
		c.stop()
	}
	p.retiring.Wait() // restarted launchers still installing: bounded alike
}
