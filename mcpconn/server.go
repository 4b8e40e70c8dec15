package mcpconn

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// server supervises one Spec: it starts the server, serves it, and restarts
// it with backoff when it ends, until the hub closes. Each server has its
// own goroutines, so nothing one server does can delay another.
type server struct {
	h        *Hub
	spec     Spec
	label    string
	usesArgs bool // the command holds {roots}

	retry   chan struct{} // skip the backoff (the R key)
	restart chan string   // restart now with the current set, and why

	first     chan struct{} // closed when the first start has an outcome
	firstErr  error
	firstOnce sync.Once

	// connectedOnce is set once a start has completed the handshake: a
	// package runner (npx) has then fetched the package, and later starts
	// get the usual initialize budget (see initBudget).
	connectedOnce atomic.Bool

	mu       sync.Mutex
	cur      *conn // the live connection, nil while down
	stopping bool  // the hub is closing: no new connection may register
	// allowed are paths the person let it read since it was added
	// (Hub.Allow), and advisory that it runs without enforcement from
	// now on (Hub.RunAdvisory): both change its next starts.
	allowed  []string
	advisory bool
}

func newServer(h *Hub, spec Spec) *server {
	return &server{
		h:        h,
		spec:     spec,
		label:    spec.Label(),
		usesArgs: spec.Demo == nil && spec.URL == "" && slices.Contains(spec.Command, launch.RootsPlaceholder),
		retry:    make(chan struct{}, 1),
		restart:  make(chan string, 1),
		first:    make(chan struct{}),
	}
}

func (s *server) current() *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// setCurrent registers c as the live connection (nil clears it). It fails
// once the hub is closing, so that shutdown cannot miss a connection.
func (s *server) setCurrent(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c != nil && s.stopping {
		return false
	}
	s.cur = c
	return true
}

// changed is called, under the hub's set lock, after the served set became
// set. revokeAll says the set just became empty.
func (s *server) changed(set *servedSet, revokeAll bool) {
	if f := s.h.hooks.notifying; f != nil {
		f(s, set)
	}
	switch {
	case s.usesArgs:
		s.requestRestart("the folders changed and this server takes them as arguments")
	case s.enforced():
		// The kernel cannot widen a running process's ruleset (nor be
		// trusted to narrow it by the server's own word): a new process
		// gets the new one.
		s.requestRestart(RestartEnforced)
	case revokeAll && s.spec.Demo == nil:
		// Some servers (server-filesystem) ignore an empty list and keep
		// their folders: only a fresh process really has none.
		s.requestRestart("every root was revoked; restarting it with none")
	default:
		if c := s.current(); c != nil {
			c.poke(c.wake)
		}
	}
}

// errPreempted is what start returns when a restart was asked while it
// was starting: the process is being ended, and the next start is due at
// once.
var errPreempted = errors.New("mcpconn: restarted while it started")

// RestartEnforced is why an enforced server is restarted on a change.
const RestartEnforced = "the consent changed; restarting it under the new ruleset"

// enforced reports whether the server's live (or starting) connection
// runs under a ruleset of the consent it was started with.
func (s *server) enforced() bool {
	c := s.current()
	return c != nil && c.enforcement.Enforced
}

func (s *server) requestRestart(why string) {
	select {
	case s.restart <- why:
	default: // one is already pending; it will serve the newest set
	}
}

func (s *server) signalFirst(err error) {
	s.firstOnce.Do(func() {
		s.firstErr = err
		close(s.first)
	})
}

// run is the supervisor loop.
func (s *server) run() {
	t := s.h.timing
	backoff, attempt := t.BackoffMin, 0
	for {
		select { // a restart requested while down is served by this start
		case <-s.restart:
		default:
		}
		started := time.Now()
		c, err := s.start(attempt + 1)
		if errors.Is(err, errPreempted) {
			continue // the set changed while it started: start again at once
		}
		s.signalFirst(err)
		if err == nil {
			restartNow := s.serve(c)
			if time.Since(started) >= t.HealthyAfter {
				backoff, attempt = t.BackoffMin, 0
			}
			if restartNow && s.h.ctx.Err() == nil {
				continue
			}
		}
		if s.h.ctx.Err() != nil {
			return
		}
		// A retry asked while the server was up was meant for others
		// that were down: it must not cut this server's wait short.
		select {
		case <-s.retry:
		default:
		}
		attempt++
		if launch.IsFinal(err) {
			// Starting again cannot help until something outside changes
			// (the program is installed, made executable): only a retry
			// the person asks for starts it.
			s.h.logger.Info("not restarting until a retry is asked", "server", s.label)
			select {
			case <-s.retry:
				continue
			case <-s.h.ctx.Done():
				return
			}
		}
		s.h.publish(Event{Server: s.label, Kind: Restarting, Attempt: attempt, Delay: backoff})
		s.h.logger.Info("restarting", "server", s.label, "in", backoff, "attempt", attempt)
		timer := time.NewTimer(backoff)
		select {
		case <-timer.C:
		case <-s.retry:
			timer.Stop()
		case <-s.h.ctx.Done():
			timer.Stop()
			return
		}
		backoff = min(backoff*2, t.BackoffMax)
	}
}

// start starts (or dials) the server and completes the handshake within
// its initialize budget. attempt numbers the start (see Connecting).
func (s *server) start(attempt int) (*conn, error) {
	h := s.h
	if f := h.hooks.starting; f != nil {
		f(s)
	}
	budget := initBudget(s.spec, h.opts.InitTimeout, h.timing, s.connectedOnce.Load())
	ctx, cancel := context.WithTimeout(h.ctx, budget)
	defer cancel()
	set := h.served.Load()
	spec := s.spec
	s.mu.Lock()
	spec.AllowRead = slices.Concat(spec.AllowRead, s.allowed)
	if s.advisory {
		spec.Enforce = launch.EnforceOff
	}
	s.mu.Unlock()
	if s.usesArgs {
		spec.Command = launch.ExpandRoots(spec.Command, set.roots)
	}
	c := newConn(s, set.version)
	h.publish(Event{Server: s.label, Kind: Connecting, Attempt: attempt, Timeout: budget})
	logger := h.logger.With("server", s.label)
	transport, stop, err := spec.transport(ctx, logger, func(line string, refused *launch.Refusal) {
		// What a server writes is shown (the pane, a failure's reason)
		// without the secrets it may print: a URL's password, a token.
		line = redact.Text(line)
		c.tail.Add(line)
		h.publish(Event{Server: s.label, Kind: Stderr, Text: line})
		c.progress(line)
		if refused != nil && c.refused.Note(*refused) {
			h.publish(Event{Server: s.label, Kind: Refused, Path: refused.Path, Text: refused.Need.String(), Reason: refused.String()})
		}
	}, set.roots)
	if err != nil {
		var fe *launch.FinalError
		if errors.As(err, &fe) {
			return nil, s.fail(c, fe, fe.Reason)
		}
		return nil, s.fail(c, spec.redactError(err), "")
	}
	c.enforcement = spec.advisory()
	if pt, ok := transport.(*launch.Process); ok {
		c.exited, c.startFailure, c.abandon = pt.Exited, pt.GuardStartFailure, pt.Abandon
		c.enforcement = pt.Enforcement
	}
	c.stop = stop
	// Set before c is published: shutdown (another goroutine) reads it
	// through kill as soon as setCurrent has made c the current one.
	c.wc = newWatchedTransport(transport, spec.URL != "")
	if !s.setCurrent(c) {
		stop()
		return nil, errors.New("mcpconn: hub is closed")
	}
	// A restart asked while the handshake is under way (every root
	// revoked, or the set changed for a server started with it as its
	// arguments or its ruleset) cuts the handshake short: the process was
	// made for a set that is no longer the consent. It is ended beside the
	// next start, which begins at once; waiting for the handshake first
	// would hold the new consent back by as long as the server takes to
	// answer initialize, seconds on a loaded machine.
	preempted := make(chan string, 1)
	connecting, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer panics.Guard()
		defer close(watched)
		select {
		case why := <-s.restart:
			preempted <- why
			c.abandon() // the handshake's end need not wait for the process
			cancel()
		case <-connecting:
		}
	}()
	session, err := c.client.Connect(ctx, c.wc, &mcp.ClientSessionOptions{ProtocolVersion: h.opts.ProtocolVersion})
	close(connecting)
	<-watched
	select {
	case why := <-preempted:
		if err == nil {
			s.requestRestart(why) // connected all the same: serve restarts it
			break
		}
		c.endStarting()
		h.logger.Info("restarting at once, while it started", "server", s.label, "why", why)
		s.retire(c, why)
		return nil, errPreempted
	default:
	}
	if err != nil {
		s.setCurrent(nil)
		c.kill()
		if h.ctx.Err() != nil {
			return nil, errors.New("mcpconn: hub is closed")
		}
		var fe *launch.FinalError
		var reason string
		if errors.As(err, &fe) || errors.As(c.startFailure(), &fe) {
			// The program could not be started at all.
			return nil, s.fail(c, fe, fe.Reason)
		}
		switch {
		case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
			reason = fmt.Sprintf("no answer to initialize within %s", budget)
			err = errors.New(reason)
		default:
			if end, ok := c.exited(); ok {
				// The process ended on its own: that is why, not the
				// EOF the handshake met.
				h.logger.Info("the server's process ended while it started", "server", s.label, "end", end, "transport", err)
				reason = c.refused.Explain(end)
				err = &launch.ExitedError{Reason: reason, While: "before it answered initialize", Cause: err}
				return nil, s.fail(c, err, reason)
			}
			reason = spec.redactError(err).Error()
		}
		err = fmt.Errorf("connecting to %s: %w", s.label, spec.redactError(err))
		return nil, s.fail(c, err, reason)
	}
	s.connectedOnce.Store(true)
	c.endStarting()
	s.mu.Lock()
	c.session = session
	s.mu.Unlock()
	go func() {
		defer panics.Guard()
		c.endErr = session.Wait()
		close(c.done)
	}()

	info := session.InitializeResult()
	enforcement := c.enforcement
	ev := Event{Server: s.label, Kind: Connected, Enforcement: &enforcement}
	if info != nil && info.ServerInfo != nil {
		ev.ServerName = info.ServerInfo.Name
		ev.ServerVersion = info.ServerInfo.Version
		c.serverName = info.ServerInfo.Name
	}
	if info != nil {
		ev.Text = info.ProtocolVersion
	}
	h.publish(ev)
	h.logger.Info("connected", "server", s.label, "name", ev.ServerName, "protocol", ev.Text, "access", enforcement.String())
	for _, f := range []func(){c.notifier, c.watchdog, c.verifier} {
		go func() {
			defer panics.Guard()
			f()
		}()
	}
	c.expectFetch(set.version)
	if (s.usesArgs || c.enforcement.Enforced) && h.served.Load().version != set.version {
		s.requestRestart("the folders changed while it started")
	} else {
		c.poke(c.wake) // a change made during the handshake
	}
	return c, nil
}

// fail publishes why a start failed, with the last lines the server wrote
// on stderr in this attempt, which usually say why. reason is the short
// form ("" for the error's own text).
func (s *server) fail(c *conn, err error, reason string) error {
	c.endStarting()
	if reason == "" {
		reason = err.Error()
	}
	final := launch.IsFinal(err)
	// A program that never started wrote nothing; a line its guard wrote
	// (on Linux) says what err says already.
	if tail := c.tail.Tail(0); len(tail) > 0 && !final {
		err = fmt.Errorf("%w (stderr: %s)", err, strings.Join(tail, " | "))
	}
	s.h.logger.Warn("server failed", "server", s.label, "err", err, "final", final)
	s.h.publish(Event{Server: s.label, Kind: Failed, Err: err, Reason: reason, Final: final})
	return err
}

// serve waits until the connection ends or a restart is requested; it
// reports whether to start again at once.
func (s *server) serve(c *conn) (restartNow bool) {
	select {
	case <-c.done:
		s.setCurrent(nil)
		c.kill() // the session is over: nothing of the server may live on
		if s.h.ctx.Err() != nil {
			return false
		}
		err := s.spec.redactError(c.endErr)
		if err == nil {
			err = errors.New("the server closed the connection")
		}
		reason := err.Error()
		if end, ok := c.exited(); ok {
			// Its process ended on its own: the status (or the signal)
			// says more than the session's end.
			s.h.logger.Info("the server's process ended", "server", s.label, "end", end, "session", err)
			reason = c.refused.Explain(end)
			err = &launch.ExitedError{Reason: reason, Cause: err}
		}
		if why := c.stuck.Load(); why != nil {
			err, reason = *why, stuckReason
		}
		s.h.logger.Info("disconnected", "server", s.label, "err", err)
		s.h.publish(Event{Server: s.label, Kind: Disconnected, Err: err, Reason: reason})
		return false
	case why := <-s.restart:
		s.h.logger.Info("restarting at once", "server", s.label, "why", why)
		s.retire(c, why)
		return true
	case <-s.h.ctx.Done():
		return false // shutdown ends the connection
	}
}

// retire ends c in the background while the new connection starts. Ending
// a server takes up to politeClose, then termGrace and killGrace when it
// ignores its closed input and SIGTERM; the new process must not wait for
// that, or revoking every root would reach it seconds late (the proxy starts
// its new child first too). From now on c is answered no roots and reports
// nothing, so that the UI sees only the new connection's state: nothing
// of c's can follow the Restarting event (see report). The hub's Close
// waits for the retirement: the old tree is ended before it returns.
func (s *server) retire(c *conn, why string) {
	s.mu.Lock()
	s.cur = nil
	c.retired.Store(true)
	s.h.publish(Event{Server: s.label, Kind: Restarting, Text: why})
	s.mu.Unlock()
	s.h.running.Add(1) // this supervisor holds a count: Close cannot be past its Wait
	go func() {
		defer panics.Guard()
		defer s.h.running.Done()
		c.close()
	}()
}

// shutdown ends the live connection and keeps new ones from registering.
func (s *server) shutdown() {
	s.mu.Lock()
	s.stopping = true
	c := s.cur
	s.cur = nil
	s.mu.Unlock()
	if c != nil {
		c.close()
	}
}

// stuckReason is the short reason of a server stopped by the watchdog.
const stuckReason = "it stopped reading its input"

// PoliteClose is how long a closing server gets to exit on its own (its
// stdin closed, an HTTP session deleted) before its processes are ended.
const PoliteClose = 300 * time.Millisecond

// conn is one live connection to a server: an mcp.Client of its own, so
// that every roots/list can be attributed to it, and the goroutines that
// notify, watch and verify it.
type conn struct {
	s       *server
	client  *mcp.Client
	session *mcp.ClientSession
	wc      *watchedTransport
	stop    func() // ends the processes or in-process server, if any
	stopped sync.Once

	serverName  string
	enforcement launch.Enforcement // whether the kernel enforces what it may open
	tail        *launch.StderrRing // the last stderr lines of this attempt, for a failure
	done        chan struct{}      // closed when the session has ended
	endErr      error              // why, once done is closed

	// exited says how the server's process ended, once its connection is
	// closed, if it ended on its own (stdio servers only).
	exited func() (string, bool)
	// startFailure says why the program could not be started at all,
	// when a guard started it and the handshake failed (stdio servers
	// only).
	startFailure func() error
	// abandon makes closing the connection return without waiting for
	// the process to exit: it is about to be ended (stdio servers only).
	abandon func()
	// starting is true until the handshake has an outcome; while it is,
	// each stderr line is also published as Progress. startMu makes the
	// last Progress come before the outcome's event.
	startMu  sync.Mutex
	starting bool

	wake       chan struct{} // the served set changed: notify it
	verifyWake chan struct{} // the server fetched: ask what it holds

	quiet     atomic.Bool            // drop roots list_changed notifications while set
	retired   atomic.Bool            // being ended after a restart: answered nothing, reports nothing
	fetched   atomic.Int64           // the version of the set last answered
	stuck     atomic.Pointer[error]  // why the watchdog stopped it
	mirrored  []string               // URIs the client holds (notifier only)
	notified  int                    // the version last notified (notifier only)
	fetchWait atomic.Pointer[func()] // stops the pending not-fetching check

	refused launch.Refusals // the paths it said enforcement refused, this start
}

func newConn(s *server, version int) *conn {
	c := &conn{
		s:            s,
		stop:         func() {},
		exited:       func() (string, bool) { return "", false },
		startFailure: func() error { return nil },
		abandon:      func() {},
		starting:     true,
		done:         make(chan struct{}),
		tail:         launch.NewStderrRing(3, 200),
		wake:         make(chan struct{}, 1),
		verifyWake:   make(chan struct{}, 1),
		notified:     version,
	}
	c.fetched.Store(-1)
	h := s.h
	c.client = mcp.NewClient(&mcp.Implementation{Name: "rootpick", Version: Version}, &mcp.ClientOptions{
		Logger: h.logger.With("server", s.label),
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			text := fmt.Sprint(req.Params.Data)
			h.logger.Debug("server log", "server", s.label, "level", req.Params.Level, "data", text)
			h.publish(Event{Server: s.label, Kind: ServerLog, Text: text})
		},
	})
	// The set it mirrors starts as the served one, so that the first
	// notification replaces exactly it.
	for _, r := range h.served.Load().mcp {
		c.mirrored = append(c.mirrored, r.URI)
	}
	c.client.AddRoots(h.served.Load().mcp...)
	c.client.AddReceivingMiddleware(c.answerRoots)
	c.client.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/roots/list_changed" && c.quiet.Load() {
				return nil, nil
			}
			return next(ctx, method, req)
		}
	})
	return c
}

// answerRoots answers roots/list from the hub's served set, so that every
// server always gets the newest consented set, whole, and records what it
// was answered.
func (c *conn) answerRoots(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "roots/list" {
			return next(ctx, method, req)
		}
		if c.retired.Load() {
			// A process being ended is replaced by one that holds what is
			// consented; it gets nothing more, whatever the set becomes.
			return &mcp.ListRootsResult{Roots: []*mcp.Root{}}, nil
		}
		set := c.s.h.served.Load()
		c.fetched.Store(int64(set.version))
		uris := make([]string, len(set.mcp))
		for i, r := range set.mcp {
			uris[i] = r.URI
		}
		c.s.h.logger.Debug("roots/list answered", "server", c.s.label, "count", len(uris))
		c.report(Event{Server: c.s.label, Kind: Fetched, URIs: uris})
		c.poke(c.verifyWake)
		return &mcp.ListRootsResult{Roots: set.mcp}, nil
	}
}

// progress publishes line as the server's Progress while it starts.
func (c *conn) progress(line string) {
	c.startMu.Lock()
	defer c.startMu.Unlock()
	if c.starting {
		c.s.h.publish(Event{Server: c.s.label, Kind: Progress, Text: line})
	}
}

// endStarting stops the Progress events: the start has an outcome, which
// is published next.
func (c *conn) endStarting() {
	c.startMu.Lock()
	defer c.startMu.Unlock()
	c.starting = false
}

// report publishes an event about the state of this connection, unless it
// was retired: the server's state is then its new connection's, and a late
// word from the old one (stuck, not fetching, what it held) would overwrite
// it in the UI.
func (c *conn) report(e Event) {
	c.s.mu.Lock() // so that retire's Restarting cannot overtake it
	defer c.s.mu.Unlock()
	if !c.retired.Load() {
		c.s.h.publish(e)
	}
}

func (c *conn) poke(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// notifier sends notifications/roots/list_changed for each new set. A send
// may block while the server does not read; the watchdog then stops it.
func (c *conn) notifier() {
	for {
		select {
		case <-c.wake:
		case <-c.done:
			return
		}
		set := c.s.h.served.Load()
		if set.version == c.notified {
			continue
		}
		c.notified = set.version
		uris := make([]string, len(set.mcp))
		for i, r := range set.mcp {
			uris[i] = r.URI
		}
		// One change, one notification: when roots remain, the removal is
		// silent and the addition announces the whole set.
		c.quiet.Store(len(set.mcp) > 0)
		c.client.RemoveRoots(c.mirrored...)
		c.quiet.Store(false)
		c.client.AddRoots(set.mcp...)
		c.mirrored = uris
		c.expectFetch(set.version)
	}
}

// expectFetch reports the server as not fetching if it has not asked
// roots/list for version (or later) after NotFetchingAfter.
func (c *conn) expectFetch(version int) {
	t := time.AfterFunc(c.s.h.timing.NotFetchingAfter, func() {
		select {
		case <-c.done:
			return
		default:
		}
		reported := c.fetched.Load() < int64(version) && c.s.h.served.Load().version == version
		if reported {
			c.report(Event{Server: c.s.label, Kind: NotFetching})
		}
		if f := c.s.h.hooks.fetchChecked; f != nil {
			f(c, version, reported)
		}
	})
	stop := func() { t.Stop() }
	if old := c.fetchWait.Swap(&stop); old != nil {
		(*old)()
	}
}

// watchdog stops the server once a write to it has been blocked longer
// than StuckAfter: it is not reading, and would otherwise hold answers and
// notifications (and the session's write lock) forever. It looks every
// eighth of that while a write is in progress, and sleeps until the next
// one starts while none is: a server at rest wakes nothing.
func (c *conn) watchdog() {
	bound := c.s.h.timing.StuckAfter
	every := max(bound/8, 10*time.Millisecond)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if c.wc.blocked() == 0 {
			tick.Stop()
			select {
			case <-c.done:
				return
			case <-c.wc.started: // a token left by a write already done only loops once more
			}
			tick.Reset(every)
		}
		select {
		case <-c.done:
			return
		case <-tick.C:
		}
		if c.retired.Load() {
			return // being ended already
		}
		if d := c.wc.blocked(); d > bound {
			err := fmt.Errorf("stuck: a write was blocked for %s (the server is not reading its input); stopped", d.Round(100*time.Millisecond))
			c.stuck.Store(&err)
			c.s.h.logger.Warn("server stuck", "server", c.s.label, "blocked", d)
			c.report(Event{Server: c.s.label, Kind: Stuck, Err: err, Reason: stuckReason})
			c.kill()
			return
		}
	}
}

// liveSession is the session once the handshake is done, else nil.
func (c *conn) liveSession() *mcp.ClientSession {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.session
}

// kill ends the server's processes (or in-process server) and its
// connection, at once.
func (c *conn) kill() {
	c.stopped.Do(func() {
		c.stop()
		if c.wc != nil {
			go func() {
				defer panics.Guard()
				c.wc.closeConn() // unblocks a write to an HTTP server
			}()
		}
	})
}

// close ends the session politely, then kills what is left after a short
// grace period. It never waits on the server beyond that.
func (c *conn) close() {
	if f := c.s.h.hooks.retiring; f != nil && c.retired.Load() {
		f(c)
	}
	if session := c.liveSession(); session != nil {
		done := make(chan struct{})
		go func() {
			defer panics.Guard()
			_ = session.Close()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(PoliteClose):
		}
	}
	c.kill()
}
