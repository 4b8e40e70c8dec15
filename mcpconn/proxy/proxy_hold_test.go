package proxy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// The hold and the check (proxy_hold.go), seen from the child and from the
// host.

func init() { faultModes["lateasker"] = serveLateAsker }

// testFetchHold is the hold of the proxies the tests start, unless a test
// sets its own: most of their servers never ask roots/list.
const testFetchHold = 500 * time.Millisecond

// lateAskAfter is how long the late asker waits before it asks roots/list:
// long enough that a request the proxy did not hold would reach it first.
const lateAskAfter = 300 * time.Millisecond

// serveLateAsker speaks JSON-RPC by hand on stdio and records every line it
// reads to $ROOTPICK_RECORD, as the asker does (askerLine). It answers
// initialize, ping, the listings and every tools/call or resources/read
// with "ok", and lateAskAfter after initialized, and after each
// list_changed, asks roots/list with the id "roots-N".
func serveLateAsker() {
	f, err := os.OpenFile(os.Getenv("ROOTPICK_RECORD"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		os.Exit(1)
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	write := func(v any) {
		b, _ := json.Marshal(v)
		mu.Lock()
		defer mu.Unlock()
		_, _ = out.Write(append(b, '\n'))
		_ = out.Flush()
	}
	asks := 0
	ask := func() {
		mu.Lock()
		asks++
		id := fmt.Sprint("roots-", asks)
		mu.Unlock()
		time.AfterFunc(lateAskAfter, func() {
			write(map[string]any{"jsonrpc": "2.0", "id": id, "method": "roots/list"})
		})
	}
	answer := func(id json.RawMessage, result any) {
		write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		line := in.Bytes()
		msg := recordLine(f, line)
		switch msg.Method {
		case "initialize":
			answer(msg.ID, map[string]any{"protocolVersion": msg.Params.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "lateasker", "version": "1"}})
		case "notifications/initialized", "notifications/roots/list_changed":
			ask()
		case "ping":
			answer(msg.ID, map[string]any{})
		case "tools/list":
			answer(msg.ID, map[string]any{"tools": []any{}})
		case "tools/call", "resources/read", "resources/list":
			answer(msg.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}})
		}
	}
}

// recordIndex is the index in lines of the first line that is a request
// for method ("" for a response) with the id id ("" for any).
func recordIndex(lines []askerLine, method, id string) int {
	return slices.IndexFunc(lines, func(l askerLine) bool {
		m, i := methodOf(l)
		return m == method && (id == "" || i == id)
	})
}

// recordText shows recorded lines, one a line.
func recordText(lines []askerLine) string {
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "\n#%d %s", i, l.Line)
	}
	return b.String()
}

// answerAll reads until every id is answered and returns how long after
// start each answer came.
func answerAll(h *msgHost, start time.Time, ids ...jsonrpc.ID) map[jsonrpc.ID]time.Duration {
	h.t.Helper()
	after := map[jsonrpc.ID]time.Duration{}
	for len(after) < len(ids) {
		if r, ok := h.next().(*jsonrpc.Response); ok && slices.Contains(ids, r.ID) {
			after[r.ID] = time.Since(start)
		}
	}
	return after
}

// startLateAsker runs a proxy for the late asker (with extra arguments)
// and returns the host and the record file.
func startLateAsker(t *testing.T, src RootSource, opts Options, args ...string) (*msgHost, string) {
	t.Helper()
	record := filepath.Join(t.TempDir(), "lateasker.jsonl")
	cmd := append(selfServerEnv(t, "lateasker", testproc.UniqueMarker("lateasker"), "ROOTPICK_RECORD="+record), args...)
	return startMsgHost(t, cmd, src, opts), record
}

// TestProxyHoldsUntilFetched: the host's calls that could read the
// person's files reach the server only after the server has been
// answered its roots/list; the listings pass at once; the calls keep
// their order.
func TestProxyHoldsUntilFetched(t *testing.T) {
	src := testproc.NewSource()
	src.Set([]consent.Root{root(t, "a")}, nil)
	h, record := startLateAsker(t, src, Options{FetchHold: 10 * time.Second})
	h.initialize("2025-11-25", nil)
	start := time.Now()
	call := h.send("tools/call", map[string]any{"name": "read", "arguments": map[string]any{}}, true)
	list := h.send("tools/list", map[string]any{}, true)
	h.send("notifications/cancelled", map[string]any{"requestId": call.Raw()}, false)
	read := h.send("resources/read", map[string]any{"uri": "file:///x"}, true)
	after := answerAll(h, start, call, list, read)
	t.Logf("tools/list answered after %v, tools/call after %v", after[list], after[call])
	if after[list] >= lateAskAfter {
		t.Errorf("tools/list waited %v: listing must pass at once", after[list])
	}

	pids, lines := askerRecord(t, record)
	if len(pids) != 1 {
		t.Fatalf("children: %v", pids)
	}
	got := lines[pids[0]]
	fetched := recordIndex(got, "", `"roots-1"`)
	iCall, iList, iRead := recordIndex(got, "tools/call", ""), recordIndex(got, "tools/list", ""), recordIndex(got, "resources/read", "")
	iCancel := recordIndex(got, "notifications/cancelled", "")
	if fetched < 0 {
		t.Fatalf("the server answered the host's calls before it was answered its roots/list; it read: %s", recordText(got))
	}
	if iCall < 0 || iRead < 0 || iList < 0 || iCancel < 0 {
		t.Fatalf("the server read: %s", recordText(got))
	}
	if iCancel < iCall || iRead < iCancel {
		t.Errorf("the cancellation overtook the call it cancels, or was overtaken (tools/call #%d, cancelled #%d, resources/read #%d)", iCall, iCancel, iRead)
	}
	if iCall < fetched || iRead < fetched {
		t.Errorf("a call reached the server before its roots/list was answered (roots answer #%d, tools/call #%d, resources/read #%d)", fetched, iCall, iRead)
	}
	if iList > fetched {
		t.Errorf("tools/list was held until the fetch (#%d after #%d)", iList, fetched)
	}
	if iRead < iCall {
		t.Error("the held calls reached the server out of order")
	}
}

// TestProxyHoldsARestartedServer: a server restarted for a consent change
// (it takes the folders as arguments) is held again until it fetched.
func TestProxyHoldsARestartedServer(t *testing.T) {
	src := testproc.NewSource()
	a, b := root(t, "a"), root(t, "b")
	src.Set([]consent.Root{a}, nil)
	h, record := startLateAsker(t, src, Options{FetchHold: 10 * time.Second}, launch.RootsPlaceholder)
	h.initialize("2025-11-25", nil)
	h.answer(h.send("tools/call", map[string]any{"name": "first"}, true), nil)

	src.Set([]consent.Root{a, b}, nil)
	var second int
	waitFor(t, "the restarted server to read its replayed initialize", func() bool {
		pids, _ := askerRecord(t, record)
		if len(pids) == 2 {
			second = pids[1]
		}
		return second != 0
	})
	call := h.send("tools/call", map[string]any{"name": "second"}, true)
	h.answer(call, nil)
	_, lines := askerRecord(t, record)
	got := lines[second]
	fetched, iCall := recordIndex(got, "", `"roots-1"`), recordIndex(got, "tools/call", "")
	if fetched < 0 || iCall < 0 || iCall < fetched {
		t.Errorf("the restarted server read a call before its roots (roots answer #%d, tools/call #%d): %s", fetched, iCall, recordText(got))
	}
}

// TestProxyHoldIsBounded: a server that never asks roots/list holds the
// host's calls FetchHold at most, and only once.
func TestProxyHoldIsBounded(t *testing.T) {
	const hold = 400 * time.Millisecond
	h := startMsgHost(t, testproc.SelfServer(t, "nofetch", testproc.UniqueMarker("holdnofetch")), testproc.NewSource(), Options{FetchHold: hold})
	h.initialize("2025-11-25", nil)
	start := time.Now()
	h.answer(h.send("tools/call", map[string]any{"name": "none"}, true), nil)
	first := time.Since(start)
	start = time.Now()
	h.answer(h.send("tools/call", map[string]any{"name": "none"}, true), nil)
	second := time.Since(start)
	t.Logf("first call answered after %v, the next after %v", first, second)
	if first < hold/2 || first > hold+time.Second {
		t.Errorf("the first call was answered after %v: the hold is %v", first, hold)
	}
	if second > hold/2 {
		t.Errorf("the next call waited %v: the hold is once per fetch", second)
	}
}

// proxyStatuses collects a proxy's statuses into the options.
func proxyStatuses(opts *Options) func() []Status {
	var mu sync.Mutex
	var all []Status
	opts.Status = func(s Status) {
		mu.Lock()
		all = append(all, s)
		mu.Unlock()
	}
	return func() []Status {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(all)
	}
}

// lastStatus is the latest status, or a zero one.
func lastStatus(statuses func() []Status) Status {
	all := statuses()
	if len(all) == 0 {
		return Status{}
	}
	return all[len(all)-1]
}

// warnings collects the host's warning messages from rootpick, handed to
// it by msgHost.answer.
type warnings struct{ texts []string }

func (w *warnings) see(m jsonrpc.Message) {
	r, ok := m.(*jsonrpc.Request)
	if !ok || r.Method != "notifications/message" {
		return
	}
	var p struct {
		Level  string `json:"level"`
		Logger string `json:"logger"`
		Data   string `json:"data"`
	}
	if json.Unmarshal(r.Params, &p) == nil && p.Level == "warning" && p.Logger == "rootpick" {
		w.texts = append(w.texts, p.Data)
	}
}

// verifiedHost initializes h and waits until the proxy has asked its server
// what it holds; it returns that status and the warnings the host got by
// then.
func verifiedHost(t *testing.T, h *msgHost, statuses func() []Status) (Status, []string) {
	t.Helper()
	w := &warnings{}
	h.initialize("2025-11-25", w.see)
	waitFor(t, "the server asked what it holds", func() bool { return !lastStatus(statuses).VerifiedAt.IsZero() })
	// The host is told before the status changes: a ping's answer comes
	// after any warning.
	h.answer(h.send("ping", map[string]any{}, true), w.see)
	return lastStatus(statuses), w.texts
}

// TestProxyVerifies: a server rootpick knows how to ask is asked what it
// holds after it fetched; what it holds beyond the consent is a mismatch
// in the status, and the host is warned of it once.
func TestProxyVerifies(t *testing.T) {
	a := root(t, "a")
	t.Run("holds the consent", func(t *testing.T) {
		src := testproc.NewSource()
		src.Set([]consent.Root{a}, nil)
		var opts Options
		statuses := proxyStatuses(&opts)
		h := startMsgHost(t, testproc.SelfServer(t, "demo", testproc.UniqueMarker("verifydemo")), src, opts)
		st, warned := verifiedHost(t, h, statuses)
		if !slices.Equal(st.Verified, []string{a.URI}) || st.Mismatch != "" {
			t.Errorf("verified %q, mismatch %q; want %q and none", st.Verified, st.Mismatch, a.URI)
		}
		if len(warned) > 0 {
			t.Errorf("the host was warned: %q", warned)
		}
	})
	t.Run("holds more", func(t *testing.T) {
		src := testproc.NewSource()
		src.Set([]consent.Root{a}, nil)
		var opts Options
		statuses := proxyStatuses(&opts)
		h := startMsgHost(t, testproc.SelfServer(t, "liar", testproc.UniqueMarker("verifyliar")), src, opts)
		st, warned := verifiedHost(t, h, statuses)
		if want := "holds /etc beyond the consent; lacks " + a.Path; st.Mismatch != want || !slices.Equal(st.Verified, []string{"file:///etc"}) {
			t.Errorf("verified %q, mismatch %q; want /etc and %q", st.Verified, st.Mismatch, want)
		}
		if len(warned) != 1 || !strings.Contains(warned[0], "holds /etc beyond the consent") || !strings.Contains(warned[0], a.Path) {
			t.Errorf("the host's warnings: %q", warned)
		}
		// A new mismatch is told too.
		b := root(t, "b")
		src.Set([]consent.Root{a, b}, nil)
		waitFor(t, "the new mismatch", func() bool { return strings.Contains(lastStatus(statuses).Mismatch, b.Path) })
		w := &warnings{}
		h.answer(h.send("ping", map[string]any{}, true), w.see)
		if len(w.texts) != 1 || !strings.Contains(w.texts[0], b.Path) {
			t.Errorf("after a change the host's warnings: %q", w.texts)
		}
	})
}

// TestProxyVerifiesServerFilesystem: server-filesystem behind the proxy,
// asked with list_allowed_directories (serverFilesystemCases). The same
// cases run on every machine against its stand-in,
// TestProxyVerifiesFakeFilesystem; these check the real one, when node and
// the npm servers are installed.
func TestProxyVerifiesServerFilesystem(t *testing.T) {
	serverFilesystemCases(t, testproc.NPMServer(t, "server-filesystem", "index.js"))
}

// TestProxyVerifiesFakeFilesystem: serverFilesystemCases against
// faultserver.Filesystem, which behaves as server-filesystem does where
// the hold and the check depend on it, and needs nothing installed.
func TestProxyVerifiesFakeFilesystem(t *testing.T) {
	serverFilesystemCases(t, fakeFilesystem(t))
}

// fakeFilesystem is the command of faultserver.Filesystem, with args.
func fakeFilesystem(t *testing.T, args ...string) []string {
	t.Helper()
	return testproc.SelfServer(t, "filesystem", testproc.UniqueMarker("fakefs"), args...)
}

// serverFilesystemCases: server-filesystem (cmd, or its stand-in) behind
// the proxy, asked with list_allowed_directories. Started with a folder
// argument and served no consent, it keeps the folder (it ignores an empty
// list): a mismatch, and the host is warned; started with {roots}, it
// holds the consent: verified, no warning. A call the host sends at once
// is answered from the consent, not from what the server started with.
func serverFilesystemCases(t *testing.T, cmd []string) {
	base := tempDir(t)
	a := testproc.Root(t, filepath.Join(base, "a"))
	arg := testproc.Root(t, filepath.Join(base, "arg"))
	t.Run("a folder argument", func(t *testing.T) {
		var opts Options
		statuses := proxyStatuses(&opts)
		h := startMsgHost(t, append(slices.Clone(cmd), arg.Path), testproc.NewSource(), opts)
		st, warned := verifiedHost(t, h, statuses)
		if st.Mismatch != "holds "+arg.Path+" beyond the consent" || !slices.Equal(st.Verified, []string{arg.URI}) {
			t.Errorf("verified %q, mismatch %q", st.Verified, st.Mismatch)
		}
		if len(warned) != 1 || !strings.Contains(warned[0], "holds "+arg.Path+" beyond the consent") {
			t.Errorf("the host's warnings: %q", warned)
		}
	})
	t.Run("{roots}", func(t *testing.T) {
		src := testproc.NewSource()
		src.Set([]consent.Root{a}, nil)
		var opts Options
		statuses := proxyStatuses(&opts)
		h := startMsgHost(t, append(slices.Clone(cmd), launch.RootsPlaceholder), src, opts)
		st, warned := verifiedHost(t, h, statuses)
		if st.Mismatch != "" || !slices.Equal(st.Verified, []string{a.URI}) {
			t.Errorf("verified %q, mismatch %q", st.Verified, st.Mismatch)
		}
		if len(warned) > 0 {
			t.Errorf("the host was warned: %q", warned)
		}
	})
	for _, enforce := range []launch.Enforce{launch.EnforceOff, launch.EnforceRequire} {
		t.Run("a call at once, enforce "+string(enforce), func(t *testing.T) {
			if e := launch.WouldEnforce(launch.EnforceOn); enforce == launch.EnforceRequire && !e.Enforced {
				t.Skip(e.Advisory)
			}
			src := testproc.NewSource()
			src.Set([]consent.Root{a}, nil)
			h := startMsgHost(t, slices.Clone(cmd), src, Options{FetchHold: DefaultFetchHold, Enforce: enforce})
			h.initialize("2025-11-25", nil)
			start := time.Now()
			r := h.answer(h.send("tools/call", map[string]any{"name": "list_allowed_directories", "arguments": map[string]any{}}, true), nil)
			first := time.Since(start)
			if r.Error != nil || !strings.Contains(string(r.Result), a.Path) {
				t.Errorf("the first call was answered from something else than the consent: %s %v", r.Result, r.Error)
			}
			start = time.Now()
			h.answer(h.send("tools/call", map[string]any{"name": "list_allowed_directories", "arguments": map[string]any{}}, true), nil)
			t.Logf("server-filesystem: the first call, sent right after initialized, was answered after %v; the next after %v", first, time.Since(start))
		})
	}
}
