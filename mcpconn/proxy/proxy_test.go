package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// testHost runs a proxy for command and connects a go-sdk client to it as
// a host would; the host has roots of its own, which must never count.
type testHost struct {
	session  *mcp.ClientSession
	client   *mcp.Client
	done     chan error
	cancel   context.CancelFunc
	progress atomic.Int32
	statuses func() []Status
}

func startTestHost(t *testing.T, command []string, src RootSource) *testHost {
	return startTestHostWith(t, command, src, true)
}

// startTestHostWith is startTestHost; hostRoots false makes a host that
// does not declare the roots capability at all (the proxy must declare it
// for the server).
func startTestHostWith(t *testing.T, command []string, src RootSource, hostRoots bool) *testHost {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	h := &testHost{done: make(chan error, 1), cancel: cancel}
	var mu sync.Mutex
	var statuses []Status
	h.statuses = func() []Status {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(statuses)
	}
	go func() {
		h.done <- Run(ctx, st, Options{Command: command, Source: src, Timing: testTiming, Logger: testproc.Logger(t), FetchHold: testFetchHold,
			Status: func(s Status) {
				mu.Lock()
				statuses = append(statuses, s)
				mu.Unlock()
			}})
	}()
	h.client = mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "1"}, h.clientOpts())
	if hostRoots {
		h.client.AddRoots(&mcp.Root{URI: "file:///etc", Name: "host's own"})
	} else {
		opts := *h.clientOpts()
		opts.Capabilities = &mcp.ClientCapabilities{}
		h.client = mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "1"}, &opts)
	}
	cs, err := h.client.Connect(ctx, ct, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	h.session = cs
	t.Cleanup(func() { testproc.EndRun(t, cs, cancel, h.done) })
	return h
}

func (h *testHost) clientOpts() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { h.progress.Add(1) },
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &mcp.TextContent{Text: "sampled by the host"}}, nil
		},
	}
}

func (h *testHost) call(t *testing.T, tool string, args map[string]any) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return mcpconn.CallTool(ctx, h.session, tool, args)
}

// TestProxyServerFilesystem: a host ↔ proxy ↔ server-filesystem. The host
// reads files inside the consented root only, its own roots never count,
// and revoking everything leaves the server with nothing while the host's
// session lives on.
func TestProxyServerFilesystem(t *testing.T) {
	cmd := testproc.NPMServer(t, "server-filesystem", "index.js")
	base := tempDir(t)
	a := testproc.Root(t, filepath.Join(base, "a"))
	outside := filepath.Join(base, "outside")
	must(t, os.MkdirAll(outside, 0o755))
	must(t, os.WriteFile(filepath.Join(a.Path, "in.txt"), []byte("inside"), 0o600))
	must(t, os.WriteFile(filepath.Join(outside, "out.txt"), []byte("secret"), 0o600))
	src := testproc.NewSource()
	h := startTestHostWith(t, cmd, src, false)

	allowed := func() []string {
		out, err := h.call(t, "list_allowed_directories", nil)
		if err != nil {
			return []string{"error: " + err.Error()}
		}
		pr, _ := mcpconn.ProberFor("secure-filesystem-server")
		return pr.Parse(out)
	}
	if got := allowed(); len(got) != 0 {
		t.Fatalf("before consent the server allows %v", got)
	}
	src.Set([]consent.Root{a}, nil)
	testproc.Eventually(t, "the server to allow a", func() (string, bool) {
		got := allowed()
		return strings.Join(got, ","), slices.Equal(got, []string{a.Path})
	})
	if out, err := h.call(t, "read_text_file", map[string]any{"path": filepath.Join(a.Path, "in.txt")}); err != nil || out != "inside" {
		t.Errorf("reading inside the root: %q, %v", out, err)
	}
	if out, err := h.call(t, "read_text_file", map[string]any{"path": filepath.Join(outside, "out.txt")}); err == nil || strings.Contains(out, "secret") {
		t.Errorf("reading outside the root was allowed: %q", out)
	}

	// Revoke all: the server ignores an empty list, so it is restarted.
	src.Set(nil, nil)
	testproc.Eventually(t, "the server to allow nothing", func() (string, bool) {
		got := allowed()
		return strings.Join(got, ","), len(got) == 0
	})
	if _, err := h.call(t, "read_text_file", map[string]any{"path": filepath.Join(a.Path, "in.txt")}); err == nil {
		t.Error("after revoking all the host can still read inside a")
	}
	sts := h.statuses()
	last := sts[len(sts)-1]
	if last.Host != "test-host" || last.Server != "secure-filesystem-server" || !last.Asked || len(last.Fetched) != 0 {
		t.Errorf("last status %+v", last)
	}
}

// TestProxyPassesEverythingElse: tools, resources, progress, sampling (a
// server→client request answered by the host) and cancellation pass
// through unchanged.
func TestProxyPassesEverythingElse(t *testing.T) {
	cmd := testproc.NPMServer(t, "server-everything", "index.js")
	src := testproc.NewSource()
	h := startTestHost(t, append(cmd, "stdio"), src)
	ctx := context.Background()

	tools, err := h.session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"echo", "get-roots-list", "trigger-long-running-operation", "trigger-sampling-request"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list through the proxy lacks %q: %v", want, names)
		}
	}
	if out, err := h.call(t, "echo", map[string]any{"message": "hi"}); err != nil || !strings.Contains(out, "hi") {
		t.Errorf("echo: %q, %v", out, err)
	}
	res, err := h.session.ListResources(ctx, nil)
	if err != nil || len(res.Resources) == 0 {
		t.Fatalf("resources/list: %v, %v", res, err)
	}
	read, err := h.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: res.Resources[0].URI})
	if err != nil || len(read.Contents) == 0 {
		t.Errorf("resources/read %s: %v, %v", res.Resources[0].URI, read, err)
	}
	params := &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 0.4, "steps": 2}}
	params.SetProgressToken("p1")
	if _, err := h.session.CallTool(ctx, params); err != nil {
		t.Fatal(err)
	}
	// The host handles notifications on its own goroutines: wait for both.
	waitFor(t, "two progress notifications at the host", func() bool { return h.progress.Load() == 2 })
	out, err := h.call(t, "trigger-sampling-request", map[string]any{"prompt": "hello", "maxTokens": 10})
	if err != nil || !strings.Contains(out, "sampled by the host") {
		t.Errorf("sampling through the proxy: %q, %v", out, err)
	}
	// The host's own roots never reach the server, even after the host
	// announces a change of its own: one consented change later, the
	// server has fetched once, and holds only what was consented.
	//
	// Checked after a barrier, not a pause. The proxy reads the host in
	// order, so once the echo sent after the host's announcement is
	// answered, the announcement was dropped (or relayed before the echo).
	// The server asks roots/list for each list_changed in the order they
	// came, and the proxy answers in that order: by the time it answers
	// the fetch of r, prompted by its own list_changed sent after the
	// echo, it has answered any fetch the host's announcement prompted.
	// server-everything sets up its list_changed handler with its first
	// fetch, 350 ms after initialized: wait for that one first.
	waitFor(t, "the server's first fetch", func() bool {
		sts := h.statuses()
		return sts[len(sts)-1].Asked
	})
	fetches := func() int { // roots/list answers: each has its own time
		var times []time.Time
		for _, st := range h.statuses() {
			if st.Asked && !slices.ContainsFunc(times, st.FetchedAt.Equal) {
				times = append(times, st.FetchedAt)
			}
		}
		return len(times)
	}
	before := fetches()
	h.client.AddRoots(&mcp.Root{URI: "file:///tmp", Name: "host's choice"})
	if out, err := h.call(t, "echo", map[string]any{"message": "barrier"}); err != nil || !strings.Contains(out, "barrier") {
		t.Fatalf("echo: %q, %v", out, err)
	}
	r := root(t, "consented")
	src.Set([]consent.Root{r}, nil)
	waitFor(t, "the server to fetch the consented root", func() bool {
		sts := h.statuses()
		return slices.Equal(sts[len(sts)-1].Fetched, []string{r.URI})
	})
	if n := fetches() - before; n != 1 {
		t.Errorf("the server fetched roots %d times for one consented change: the host's own list_changed reached it", n)
	}
	testproc.Eventually(t, "the server to hold only the consented root", func() (string, bool) {
		out, err := h.call(t, "get-roots-list", nil)
		if err != nil {
			return err.Error(), false
		}
		var held []string
		for _, line := range strings.Split(out, "\n") {
			if uri, ok := strings.CutPrefix(strings.TrimSpace(line), "URI: "); ok {
				held = append(held, uri)
			}
		}
		return out, slices.Equal(held, []string{r.URI})
	})
}

// TestProxyCancellation: a host's cancellation reaches the server.
// (It timed out once in a loaded full run: the call was cancelled while
// the proxy still held it for the server's first fetch.)
func TestProxyCancellation(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "rec")
	t.Setenv("ROOTPICK_RECORD", rec)
	h := startTestHost(t, testproc.SelfServer(t, "slow", "slow"), testproc.NewSource())
	// The call must reach the server before it is cancelled. The proxy
	// holds calls until the server's first roots fetch, or the hold's
	// bound (this server never fetches), which a loaded machine can make
	// longer than the call's 300 ms, and a call cancelled while held
	// never reaches the server. So first a request the proxy holds too
	// (resources/list): its answer, whatever it is, means the hold is over.
	_, _ = h.session.ListResources(context.Background(), nil) // held like a call; any answer means the hold is over
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := h.session.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}}); err == nil {
		t.Fatal("the slow call returned")
	}
	waitFor(t, "the server to see the cancellation", func() bool {
		b, _ := os.ReadFile(rec)
		return string(b) == "called\ncancelled\n"
	})
}

// TestProxyChildCrash: the child is killed; the proxy restarts it and
// replays the host's initialize, so the host's session goes on.
func TestProxyChildCrash(t *testing.T) {
	marker := testproc.UniqueMarker("proxy-crash")
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	src := testproc.NewSource()
	a := root(t, "a")
	src.Set([]consent.Root{a}, nil)
	h := startTestHost(t, []string{exe, marker}, src)
	holds := func(want string) func() (string, bool) {
		return func() (string, bool) {
			out, err := h.call(t, "list_roots", nil)
			if err != nil {
				return err.Error(), false
			}
			return out, out == want
		}
	}
	testproc.Eventually(t, "the demo to hold a", holds(a.URI+"\n"))
	for i := range 3 {
		pids := faultserver.ServerPids(marker)
		if len(pids) != 1 {
			t.Fatalf("kill %d: processes %v", i, pids)
		}
		var pid int
		_, _ = fmt.Sscan(pids[0], &pid)
		must(t, testproc.Kill(pid, syscall.SIGKILL))
		// Calls made while the child restarts are answered — by the new
		// child once its handshake is replayed, or with an error — never
		// left hanging.
		for range 5 {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			_, err := mcpconn.CallTool(ctx, h.session, "list_roots", nil)
			cancel()
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("kill %d: a call during the restart was never answered", i)
			}
			time.Sleep(10 * time.Millisecond)
		}
		waitFor(t, "the old child gone", func() bool { return !slices.Contains(faultserver.ServerPids(marker), pids[0]) })
		testproc.Eventually(t, "the new child to hold a, through the same host session", holds(a.URI+"\n"))
	}
}

// TestProxyHostGoesAway: when the host closes its side, the proxy returns
// and the child is gone.
func TestProxyHostGoesAway(t *testing.T) {
	marker := testproc.UniqueMarker("proxy-host")
	ct, st := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	go func() { done <- Run(context.Background(), st, Options{Command: []string{exe, marker}}) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "h"}, nil)
	cs, err := client.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the child", func() bool { return len(faultserver.ServerPids(marker)) == 1 })
	_ = cs.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Logf("the proxy returned: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the proxy did not return after the host went away")
	}
	if pids := faultserver.ServerPids(marker); len(pids) > 0 {
		t.Fatalf("the child %v outlived the proxy", pids)
	}
}

// TestProxyUnreadableStore: a store that cannot be read serves nothing.
func TestProxyUnreadableStore(t *testing.T) {
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	src := testproc.NewSource()
	src.Set([]consent.Root{root(t, "a")}, errors.New("corrupt state file"))
	h := startTestHost(t, []string{exe, testproc.UniqueMarker("proxy-store")}, src)
	testproc.Eventually(t, "the demo to hold nothing", func() (string, bool) {
		out, err := h.call(t, "list_roots", nil)
		return out, err == nil && out == "(no roots)\n"
	})
}

// TestFileSourceSeesAtomicReplace: a store file replaced by rename is
// noticed by the watch. The bound is generous: what matters is that the
// signal comes at all (a proxy's periodic re-read would otherwise hide a
// watch that misses renames); the time it took is logged.
func TestFileSourceSeesAtomicReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "default.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := NewFileSource(ctx, path, func() ([]consent.Root, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var roots []consent.Root
		return roots, json.Unmarshal(b, &roots)
	})
	// NewFileSource returns once the folder is watched: no pause needed.
	tmp := filepath.Join(dir, ".tmp")
	must(t, os.WriteFile(tmp, []byte(`[{"path":"/x","uri":"file:///x","name":"x"}]`), 0o600))
	start := time.Now()
	must(t, os.Rename(tmp, path))
	select {
	case <-src.Changed():
		t.Logf("change seen %v after the rename", time.Since(start))
	case <-time.After(5 * time.Second):
		t.Fatal("no change seen within 5 s")
	}
	roots, err := src.Roots()
	if err != nil || len(roots) != 1 || roots[0].Path != "/x" {
		t.Fatalf("roots %v, %v", roots, err)
	}
}

// TestProxyRootsPlaceholder: {roots} in the proxied command expands to the
// consented paths, and a change restarts the server with the new ones.
func TestProxyRootsPlaceholder(t *testing.T) {
	var log testproc.Buffer
	ct, st := mcp.NewInMemoryTransports()
	src := testproc.NewSource()
	a, b := root(t, "a"), root(t, "b")
	src.Set([]consent.Root{a}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, st, Options{Command: testproc.SelfServer(t, "args", "x", launch.RootsPlaceholder), Source: src,
			Timing: testTiming, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "h"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	args := func(paths ...string) string {
		j, _ := json.Marshal(append([]string{"x"}, paths...))
		return strconv.Quote("args:" + string(j))
	}
	waitFor(t, "started with a", func() bool { return strings.Contains(log.String(), args(a.Path)) })
	src.Set([]consent.Root{a, b}, nil)
	waitFor(t, "restarted with a and b", func() bool { return strings.Contains(log.String(), args(a.Path, b.Path)) })
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("the host session after the restart: %v", err)
	}
}

// TestProxyInFlightCallFailsOnRestart: a call the server never answers
// gets a clear JSON-RPC error when the server dies, not silence.
func TestProxyInFlightCallFailsOnRestart(t *testing.T) {
	marker := testproc.UniqueMarker("proxy-inflight")
	rec := filepath.Join(t.TempDir(), "rec")
	t.Setenv("ROOTPICK_RECORD", rec)
	h := startTestHost(t, testproc.SelfServer(t, "slow", marker), testproc.NewSource())
	errc := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := h.session.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{}})
		errc <- err
	}()
	waitFor(t, "the call to reach the server", func() bool {
		b, _ := os.ReadFile(rec)
		return string(b) == "called\n"
	})
	pids := faultserver.ServerPids(marker)
	if len(pids) != 1 {
		t.Fatalf("processes %v", pids)
	}
	var pid int
	_, _ = fmt.Sscan(pids[0], &pid)
	start := time.Now()
	must(t, testproc.Kill(pid, syscall.SIGKILL))
	select {
	case err := <-errc:
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != restartedCode || !strings.Contains(werr.Message, "restarted the server") {
			t.Fatalf("the in-flight call ended with %v, want the proxy's restart error", err)
		}
		t.Logf("in-flight call answered %v after the server died: %v", time.Since(start), err)
	case <-time.After(3 * time.Second):
		t.Fatal("the in-flight call was not answered within 3 s of the server dying")
	}
}
