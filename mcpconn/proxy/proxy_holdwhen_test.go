package proxy

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
)

// When the proxy holds the host's calls (proxy_hold.go), and when not: only
// at a revision in which the server asks roots/list, again after each
// list_changed, and never for a server that has fetched already.

func init() { faultModes["eagerasker"] = serveEagerAsker }

// serveEagerAsker speaks JSON-RPC by hand on stdio. When it is asked to
// initialize it first asks roots/list (id "eager-1"), then answers; it
// answers ping and every tools/call with "ok", and asks nothing more.
func serveEagerAsker() {
	write, in := stdioLines()
	for in.Scan() {
		var msg fakeMsg
		_ = json.Unmarshal(in.Bytes(), &msg)
		switch msg.Method {
		case "initialize":
			write(map[string]any{"jsonrpc": "2.0", "id": "eager-1", "method": "roots/list"})
			write(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{
				"protocolVersion": msg.Params.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "eagerasker", "version": "1"}}})
		case "ping":
			write(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{}})
		case "tools/call":
			write(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{
				"content": []any{map[string]any{"type": "text", "text": "ok"}}}})
		}
	}
}

// recordIndexWith is the index in lines of the first line that holds text.
func recordIndexWith(lines []askerLine, text string) int {
	return slices.IndexFunc(lines, func(l askerLine) bool { return strings.Contains(string(l.Line), text) })
}

// TestProxyHoldsOnlyAtARootsRevision: in a session at 2026-07-28, where a
// server may not ask roots/list (the roots travel inside each request),
// the host's calls are not held: they reach the server before it asks
// anything, even when the hold would last 10 s.
func TestProxyHoldsOnlyAtARootsRevision(t *testing.T) {
	src := testproc.NewSource()
	src.Set([]consent.Root{root(t, "a")}, nil)
	opts := Options{ProtocolVersion: "2026-07-28", FetchHold: 10 * time.Second}
	statuses := proxyStatuses(&opts)
	h, record := startLateAsker(t, src, opts)
	if got := h.initialize("2026-07-28", nil); got != "2026-07-28" {
		t.Fatalf("the session speaks %q, want 2026-07-28", got)
	}
	if got := lastStatus(statuses).Protocol; got != "2026-07-28" {
		t.Fatalf("the server answered %q, want 2026-07-28", got)
	}
	start := time.Now()
	call := h.send("tools/call", map[string]any{"name": "read", "arguments": map[string]any{}}, true)
	read := h.send("resources/read", map[string]any{"uri": "file:///x"}, true)
	after := answerAll(h, start, call, read)
	t.Logf("tools/call answered after %v, resources/read after %v", after[call], after[read])

	pids, lines := askerRecord(t, record)
	if len(pids) != 1 {
		t.Fatalf("children: %v", pids)
	}
	got := lines[pids[0]]
	fetched := recordIndex(got, "", `"roots-1"`)
	iCall, iRead := recordIndex(got, "tools/call", ""), recordIndex(got, "resources/read", "")
	if iCall < 0 || iRead < 0 {
		t.Fatalf("the server read: %s", recordText(got))
	}
	if fetched >= 0 && (iCall > fetched || iRead > fetched) {
		t.Errorf("a 2026-07-28 session was held until the server's roots/list was answered (roots answer #%d, tools/call #%d, resources/read #%d): %s",
			fetched, iCall, iRead, recordText(got))
	}
}

// TestProxyHoldsAfterAListChanged: when the consent changes, the proxy
// tells the server with list_changed and holds the host's calls until the
// server has fetched the new set; a call sent between the two reaches the
// server after its answer.
func TestProxyHoldsAfterAListChanged(t *testing.T) {
	src := testproc.NewSource()
	a, b := root(t, "a"), root(t, "b")
	src.Set([]consent.Root{a}, nil)
	timing := testTiming
	timing.NotFetchingAfter = time.Minute // the late asker is never taken for a server that does not fetch
	h, record := startLateAsker(t, src, Options{FetchHold: 10 * time.Second, Timing: timing})
	h.initialize("2025-11-25", nil)
	h.answer(h.send("tools/call", map[string]any{"name": "before the change"}, true), nil)

	src.Set([]consent.Root{a, b}, nil)
	waitFor(t, "the server to read list_changed", func() bool {
		pids, lines := askerRecord(t, record)
		return len(pids) == 1 && recordIndex(lines[pids[0]], "notifications/roots/list_changed", "") >= 0
	})
	// The server asks lateAskAfter after it read list_changed: the call is
	// sent well before.
	h.answer(h.send("tools/call", map[string]any{"name": "after the change"}, true), nil)
	pids, lines := askerRecord(t, record)
	if len(pids) != 1 {
		t.Fatalf("children: %v", pids)
	}
	got := lines[pids[0]]
	changed := recordIndex(got, "notifications/roots/list_changed", "")
	fetched := recordIndex(got, "", `"roots-2"`)
	iCall := recordIndexWith(got, "after the change")
	if changed < 0 || iCall < 0 {
		t.Fatalf("the server read: %s", recordText(got))
	}
	if fetched < 0 || iCall < fetched {
		t.Errorf("a call sent after list_changed reached the server before it fetched the new set (list_changed #%d, roots answer #%d, tools/call #%d): %s",
			changed, fetched, iCall, recordText(got))
	}
}

// TestProxyDoesNotHoldAServerThatFetched: a server that asks roots/list
// before it even answers initialize has fetched its roots: the host's
// calls pass at once, not after the hold's bound, and the server is not
// reported as one that does not fetch.
func TestProxyDoesNotHoldAServerThatFetched(t *testing.T) {
	const hold = 5 * time.Second
	src := testproc.NewSource()
	src.Set([]consent.Root{root(t, "a")}, nil)
	opts := Options{FetchHold: hold}
	statuses := proxyStatuses(&opts)
	h := startMsgHost(t, testproc.SelfServer(t, "eagerasker", testproc.UniqueMarker("eagerasker")), src, opts)
	h.initialize("2025-11-25", nil)
	if st := lastStatus(statuses); !st.Asked {
		t.Fatalf("the server's roots/list was not answered before its initialize: %+v", st)
	}
	start := time.Now()
	h.answer(h.send("tools/call", map[string]any{"name": "any", "arguments": map[string]any{}}, true), nil)
	took := time.Since(start)
	t.Logf("the call was answered after %v", took)
	if took > hold/2 {
		t.Errorf("the call waited %v: a server that has fetched is not held (the hold is %v)", took, hold)
	}
	time.Sleep(2 * testTiming.NotFetchingAfter)
	if st := lastStatus(statuses); st.NotFetching {
		t.Errorf("a server that fetched before it answered initialize is reported as not fetching: %+v", st)
	}
}
