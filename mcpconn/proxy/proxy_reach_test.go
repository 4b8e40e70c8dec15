package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// msgHost is a host that speaks JSON-RPC messages to a proxy by hand, so that it
// can ask for any protocol version and see every message.
type msgHost struct {
	t    *testing.T
	conn mcp.Connection
	seq  int
	done chan error
}

// startMsgHost runs a proxy for command with src and opts' other fields;
// Timing is testTiming unless opts sets one.
func startMsgHost(t *testing.T, command []string, src RootSource, opts Options) *msgHost {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	h := &msgHost{t: t, done: make(chan error, 1)}
	opts.Command, opts.Source, opts.Logger = command, src, testproc.Logger(t)
	if opts.Timing == (mcpconn.Timing{}) {
		opts.Timing = testTiming
	}
	if opts.FetchHold == 0 {
		opts.FetchHold = testFetchHold
	}
	go func() { h.done <- Run(ctx, st, opts) }()
	conn, err := ct.Connect(ctx)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	h.conn = conn
	t.Cleanup(func() { testproc.EndRun(t, conn, cancel, h.done) })
	return h
}

func (h *msgHost) send(method string, params any, call bool) jsonrpc.ID {
	h.t.Helper()
	raw, _ := json.Marshal(params)
	req := &jsonrpc.Request{Method: method, Params: raw}
	if call {
		h.seq++
		req.ID, _ = jsonrpc.MakeID(float64(h.seq))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.conn.Write(ctx, req); err != nil {
		h.t.Fatal(err)
	}
	return req.ID
}

// next reads the next message, failing after 10 s.
func (h *msgHost) next() jsonrpc.Message {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := h.conn.Read(ctx)
	if err != nil {
		h.t.Fatalf("reading from the proxy: %v", err)
	}
	return m
}

// answer reads until the response to id, handing every other message to
// other (if set).
func (h *msgHost) answer(id jsonrpc.ID, other func(jsonrpc.Message)) *jsonrpc.Response {
	h.t.Helper()
	for {
		m := h.next()
		if r, ok := m.(*jsonrpc.Response); ok && r.ID == id {
			return r
		}
		if other != nil {
			other(m)
		}
	}
}

// initialize runs the handshake asking for version and returns the
// version the host got back.
func (h *msgHost) initialize(version string, other func(jsonrpc.Message)) string {
	h.t.Helper()
	id := h.send("initialize", map[string]any{"protocolVersion": version, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "raw-host", "version": "1"}}, true)
	r := h.answer(id, other)
	if r.Error != nil {
		h.t.Fatalf("initialize at %s: %v", version, r.Error)
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(r.Result, &res)
	h.send("notifications/initialized", map[string]any{}, false)
	return res.ProtocolVersion
}

// TestProxyKeepsTheHostsRootsVersion: a host asking for a revision that
// has roots (2024-11-05 to 2025-11-25) gets that revision back — the
// server is asked for it, not for the proxy's pin — and the server still
// takes the consent as roots; a host asking for a revision without roots
// (2026-07-28) or one unknown gets the pin, which it can accept.
func TestProxyKeepsTheHostsRootsVersion(t *testing.T) {
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	a := root(t, "a")
	for _, tt := range []struct{ asked, want string }{
		{"2024-11-05", "2024-11-05"},
		{"2025-03-26", "2025-03-26"},
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		{"2026-07-28", mcpconn.DefaultProtocolVersion},
		{"2099-01-01", mcpconn.DefaultProtocolVersion},
		{"", mcpconn.DefaultProtocolVersion},
	} {
		t.Run(tt.asked, func(t *testing.T) {
			src := testproc.NewSource()
			src.Set([]consent.Root{a}, nil)
			h := startMsgHost(t, []string{exe, testproc.UniqueMarker("version")}, src, Options{})
			if got := h.initialize(tt.asked, nil); got != tt.want {
				t.Fatalf("asked %q, got %q back; want %q", tt.asked, got, tt.want)
			}
			id := h.send("tools/call", map[string]any{"name": "list_roots", "arguments": map[string]any{}}, true)
			for deadline := time.Now().Add(10 * time.Second); ; {
				r := h.answer(id, nil)
				if strings.Contains(string(r.Result), a.URI) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("at %s the server never held the consent: %s", tt.asked, r.Result)
				}
				time.Sleep(20 * time.Millisecond)
				id = h.send("tools/call", map[string]any{"name": "list_roots", "arguments": map[string]any{}}, true)
			}
		})
	}
}

// TestProxyTellsTheHostWhenNoConsent: with no consent to read, the host
// is told once, after it initialized, with a warning log message naming
// what NoConsent says; a later change of the problem is told again, the
// same problem never twice.
func TestProxyTellsTheHostWhenNoConsent(t *testing.T) {
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	src := testproc.NewSource()
	src.Set(nil, errors.New("no record at /state/consent/p.json"))
	var statusMu sync.Mutex
	var problems []string // the problem of each status, in order
	h := startMsgHost(t, []string{exe, testproc.UniqueMarker("noconsent")}, src, Options{
		NoConsent: func(problem string) string { return "NO CONSENT: " + problem },
		Status: func(s Status) {
			statusMu.Lock()
			defer statusMu.Unlock()
			problems = append(problems, s.Problem)
		},
	})
	// waitProblem waits until the proxy has read the source and found
	// problem ("" for a consent read well).
	waitProblem := func(problem string) {
		t.Helper()
		waitFor(t, fmt.Sprintf("the proxy to read %q", problem), func() bool {
			statusMu.Lock()
			defer statusMu.Unlock()
			return len(problems) > 0 && problems[len(problems)-1] == problem
		})
	}
	var told []string
	note := func(m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Request); ok && r.Method == "notifications/message" {
			var p struct {
				Level string `json:"level"`
				Data  string `json:"data"`
			}
			_ = json.Unmarshal(r.Params, &p)
			told = append(told, p.Level+" "+p.Data)
		}
	}
	h.initialize("2025-06-18", func(m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Request); ok && r.Method == "notifications/message" {
			t.Errorf("told before initialized: %s", r.Params)
		}
	})
	// A ping's answer comes after the warning, which is sent as the
	// initialized notification is handled.
	h.answer(h.send("ping", map[string]any{}, true), note)
	// The same problem read again (as on every re-read) is not told
	// again; the source's changes are handled in order, so once the next
	// problem is told, this one has been read.
	src.Set(nil, errors.New("no record at /state/consent/p.json"))
	src.Set(nil, errors.New("record not believed"))
	waitFor(t, "the second problem told", func() bool {
		h.answer(h.send("ping", map[string]any{}, true), note)
		return len(told) >= 2
	})
	// A host that says initialized again, and a problem that comes back
	// after the consent was read well for a while, are not told again:
	// the warning is the same problem's. The third problem, told, shows
	// that all of it was handled.
	h.send("notifications/initialized", map[string]any{}, false)
	h.answer(h.send("ping", map[string]any{}, true), note) // a warning would come before
	src.Set([]consent.Root{root(t, "a")}, nil)
	waitProblem("")
	src.Set(nil, errors.New("record not believed"))
	waitProblem("record not believed")
	src.Set(nil, errors.New("no folder is consented"))
	waitFor(t, "the third problem told", func() bool {
		h.answer(h.send("ping", map[string]any{}, true), note)
		return len(told) >= 3
	})
	want := []string{"warning NO CONSENT: no record at /state/consent/p.json", "warning NO CONSENT: record not believed",
		"warning NO CONSENT: no folder is consented"}
	if !slices.Equal(told, want) {
		t.Errorf("the host was told %q, want %q", told, want)
	}
}

// TestProxyOneListChangedPerChange: one change of the consent is one
// list_changed to the server (one fetch), however often the source says
// it may have changed (a rename is several file events; the set is
// re-read every Revalidate).
func TestProxyOneListChangedPerChange(t *testing.T) {
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	a, b, c := root(t, "a"), root(t, "b"), root(t, "c")
	src := testproc.NewSource()
	src.Set([]consent.Root{a}, nil)
	h := startTestHost(t, []string{exe, testproc.UniqueMarker("onechange")}, src)
	fetches := func() []string {
		var out []string
		var last time.Time
		for _, s := range h.statuses() {
			if !s.FetchedAt.IsZero() && s.FetchedAt != last {
				last = s.FetchedAt
				out = append(out, strings.Join(s.Fetched, ","))
			}
		}
		return out
	}
	holds := func(r consent.Root) func() bool {
		return func() bool {
			f := fetches()
			return len(f) > 0 && f[len(f)-1] == r.URI
		}
	}
	waitFor(t, "the first fetch", holds(a))
	src.Set([]consent.Root{b}, nil)
	for range 3 { // the same set, said to have changed again
		src.Again()
	}
	waitFor(t, "the fetch of b", holds(b))
	// Barrier: a later change whose fetch must come after any the first
	// change caused, and a tool call after that.
	src.Set([]consent.Root{c}, nil)
	waitFor(t, "the fetch of c", holds(c))
	if _, err := h.call(t, "list_roots", nil); err != nil {
		t.Fatal(err)
	}
	if got, want := fetches(), []string{a.URI, b.URI, c.URI}; !slices.Equal(got, want) {
		t.Errorf("the server fetched %q, want one fetch per change: %q", got, want)
	}
}

// TestProxyBackoffResetsAfterHealth: a server that crashes at once is
// restarted after BackoffMin, then twice that; one that ran HealthyAfter
// before it crashed is restarted after BackoffMin again.
func TestProxyBackoffResetsAfterHealth(t *testing.T) {
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	const healthy = 2 * time.Second
	marker := testproc.UniqueMarker("proxyhealth")
	src := testproc.NewSource()
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var statuses = make(chan Status, 100)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, st, Options{Command: []string{exe, marker}, Source: src, Logger: testproc.Logger(t),
			Timing: mcpconn.Timing{BackoffMin: 20 * time.Millisecond, BackoffMax: time.Second, HealthyAfter: healthy},
			Status: func(s Status) { statuses <- s }})
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "h", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	j := testproc.NewBackoffJudge(t, 20*time.Millisecond, time.Second, healthy)
	restart := func(sleep time.Duration) {
		t.Helper()
		var connected time.Time
		for connected.IsZero() {
			select {
			case s := <-statuses:
				if s.State == "connected" {
					connected = time.Now()
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the server did not connect within 10 s")
			}
		}
		time.Sleep(sleep)
		killed := time.Now()
		faultserver.KillServer(t, marker)
		for deadline := time.After(10 * time.Second); ; {
			select {
			case s := <-statuses:
				if s.State == "restarting" && s.RetryIn > 0 {
					j.Judge(connected, killed, time.Now(), s.RetryIn)
					return
				}
			case <-deadline:
				t.Fatal("the server was not restarted within 10 s")
			}
		}
	}
	j.Run(restart)
}

// TestProxyNotFetching: a server that never asks roots/list is shown not
// fetching, after NotFetchingAfter, so the picker can say to pass it its
// folders with {roots}.
func TestProxyNotFetching(t *testing.T) {
	src := testproc.NewSource()
	src.Set([]consent.Root{root(t, "a")}, nil)
	h := startTestHost(t, testproc.SelfServer(t, "nofetch", "proxy-nofetch"), src)
	waitFor(t, "not fetching", func() bool {
		st := h.statuses()
		return len(st) > 0 && st[len(st)-1].NotFetching
	})
}
