package proxy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// What the proxy does to its child, seen from the child: a fault server
// that records every line it reads needs nothing installed (the npm tests
// in proxy_test.go check the same with real servers, when they are).

func init() { faultModes["asker"] = serveAsker }

// askerLine is one line the asker read, with its pid.
type askerLine struct {
	Pid  int             `json:"pid"`
	Line json.RawMessage `json:"line"`
}

// fakeMsg is what the hand-written fake servers read of a line.
type fakeMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string `json:"protocolVersion"`
	} `json:"params"`
}

// recordLine appends line to the record f (one askerLine, one write: O_APPEND
// keeps lines whole) and decodes what a fake server needs of it.
func recordLine(f *os.File, line []byte) fakeMsg {
	b, _ := json.Marshal(askerLine{Pid: os.Getpid(), Line: json.RawMessage(line)})
	_, _ = f.Write(append(b, '\n'))
	var msg fakeMsg
	_ = json.Unmarshal(line, &msg)
	return msg
}

// serveAsker speaks JSON-RPC by hand on stdio: it records every line it
// reads to $ROOTPICK_RECORD (one askerLine each), answers initialize and
// ping, and once initialized asks the host for a sample with the request
// id "ask-PID", which it never needs answered.
func serveAsker() {
	f, err := os.OpenFile(os.Getenv("ROOTPICK_RECORD"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		os.Exit(1)
	}
	write, in := stdioLines()
	for in.Scan() {
		line := in.Bytes()
		msg := recordLine(f, line)
		switch msg.Method {
		case "initialize":
			write(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{
				"protocolVersion": msg.Params.ProtocolVersion, "capabilities": map[string]any{},
				"serverInfo": map[string]any{"name": "asker", "version": "1"}}})
		case "ping":
			write(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{}})
		case "notifications/initialized":
			write(map[string]any{"jsonrpc": "2.0", "id": fmt.Sprint("ask-", os.Getpid()), "method": "sampling/createMessage",
				"params": map[string]any{"messages": []any{}, "maxTokens": 1}})
		}
	}
}

// askerRecord reads what the askers recorded: the pids in the order they
// first wrote, and each pid's lines.
func askerRecord(t *testing.T, file string) (pids []int, lines map[int][]askerLine) {
	t.Helper()
	lines = map[int][]askerLine{}
	f, err := os.Open(file)
	if err != nil {
		return nil, lines
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l askerLine
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		if _, ok := lines[l.Pid]; !ok {
			pids = append(pids, l.Pid)
		}
		lines[l.Pid] = append(lines[l.Pid], l)
	}
	return pids, lines
}

// methodOf is a recorded line's method ("" for a response), and its id.
func methodOf(l askerLine) (method, id string) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(l.Line, &m)
	return m.Method, string(m.ID)
}

func startAsker(t *testing.T, src RootSource) (*msgHost, string) {
	t.Helper()
	record := filepath.Join(t.TempDir(), "asker.jsonl")
	h := startMsgHost(t, selfServerEnv(t, "asker", testproc.UniqueMarker("asker"), "ROOTPICK_RECORD="+record), src, Options{})
	return h, record
}

// selfServerEnv is selfServer with more environment entries.
func selfServerEnv(t *testing.T, name, marker string, env ...string) []string {
	t.Helper()
	cmd := testproc.SelfServer(t, name, marker)
	return slices.Insert(cmd, 1, env...)
}

// TestProxyDeclaresRootsListChanged: whatever the host declares (no
// roots capability, or roots without listChanged), the child is told in
// initialize that its client has roots with listChanged: the proxy sends
// it list_changed on every change of the consent.
func TestProxyDeclaresRootsListChanged(t *testing.T) {
	for _, hostCaps := range []map[string]any{{}, {"roots": map[string]any{"listChanged": false}}} {
		t.Run(fmt.Sprint(hostCaps), func(t *testing.T) {
			h, record := startAsker(t, testproc.NewSource())
			id := h.send("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": hostCaps,
				"clientInfo": map[string]any{"name": "raw-host", "version": "1"}}, true)
			if r := h.answer(id, nil); r.Error != nil {
				t.Fatal(r.Error)
			}
			_, lines := askerRecord(t, record)
			var init struct {
				Params struct {
					Capabilities struct {
						Roots *struct {
							ListChanged *bool `json:"listChanged"`
						} `json:"roots"`
					} `json:"capabilities"`
				} `json:"params"`
			}
			for _, ls := range lines {
				for _, l := range ls {
					if m, _ := methodOf(l); m == "initialize" {
						must(t, json.Unmarshal(l.Line, &init))
					}
				}
			}
			roots := init.Params.Capabilities.Roots
			if roots == nil || roots.ListChanged == nil || !*roots.ListChanged {
				said, _ := json.Marshal(roots)
				t.Errorf("the child was told the client's roots capability is %s; want listChanged true", said)
			}
		})
	}
}

// TestProxyKeepsTheHostOutOfTheChildsRoots: the host's own
// roots/list_changed never reaches the child (the consent decides its
// roots); a change of the consent does, as one list_changed; and revoking
// every root restarts the child rather than telling it (a server may keep
// its folders on an empty list), its requests to the host answered by
// nobody: the host's late answer to the old child's request reaches
// neither child.
func TestProxyKeepsTheHostOutOfTheChildsRoots(t *testing.T) {
	src := testproc.NewSource()
	h, record := startAsker(t, src)
	var asks []jsonrpc.ID // the ids of the children's requests, as the host got them
	note := func(m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Request); ok && r.Method == "sampling/createMessage" {
			asks = append(asks, r.ID)
		}
	}
	h.initialize("2025-11-25", note)
	ping := func() { h.answer(h.send("ping", map[string]any{}, true), note) } // the child answers: all before it has reached it
	h.send("notifications/roots/list_changed", map[string]any{}, false)
	ping()
	waitFor(t, "the first child's request", func() bool {
		ping()
		return len(asks) == 1
	})
	pids, lines := askerRecord(t, record)
	if len(pids) != 1 {
		t.Fatalf("children %v, want one", pids)
	}
	first := pids[0]
	if got := fmt.Sprint(asks[0].Raw()); got != fmt.Sprint("ask-", first) {
		t.Fatalf("the host got the request %s, want ask-%d", got, first)
	}
	for _, l := range lines[first] {
		if m, _ := methodOf(l); m == "notifications/roots/list_changed" {
			t.Errorf("the host's roots/list_changed reached the child: %s", l.Line)
		}
	}

	// A consent is told; revoking it all restarts the child.
	src.Set([]consent.Root{root(t, "a")}, nil)
	waitFor(t, "the consent told to the child", func() bool {
		_, lines := askerRecord(t, record)
		return slices.ContainsFunc(lines[first], func(l askerLine) bool {
			m, _ := methodOf(l)
			return m == "notifications/roots/list_changed"
		})
	})
	src.Set(nil, nil)
	waitFor(t, "a second child, and its request", func() bool {
		ping()
		return len(asks) == 2
	})
	pids, lines = askerRecord(t, record)
	if len(pids) != 2 {
		t.Fatalf("children %v, want two", pids)
	}
	second := pids[1]
	changed := 0
	for _, l := range lines[first] {
		if m, _ := methodOf(l); m == "notifications/roots/list_changed" {
			changed++
		}
	}
	if changed != 1 {
		t.Errorf("the first child was sent %d list_changed; want 1, for the consent, and none for the revocation (it is restarted)", changed)
	}
	// The host answers both requests, the old child's first: only the
	// second reaches a child, the new one.
	for _, id := range asks {
		h.reply(id)
	}
	newAnswer := fmt.Sprintf(`"ask-%d"`, second)
	waitFor(t, "the new child to get the answer to its request", func() bool {
		_, lines := askerRecord(t, record)
		return slices.ContainsFunc(lines[second], func(l askerLine) bool {
			m, id := methodOf(l)
			return m == "" && id == newAnswer
		})
	})
	_, lines = askerRecord(t, record)
	for _, pid := range pids {
		for _, l := range lines[pid] {
			if m, id := methodOf(l); m == "" && id != newAnswer {
				t.Errorf("child %d got the answer %s, meant for the restarted child %d", pid, l.Line, first)
			}
		}
	}
}

// reply answers the request id with an empty sample.
func (h *msgHost) reply(id jsonrpc.ID) {
	h.t.Helper()
	res, _ := json.Marshal(map[string]any{"model": "m", "role": "assistant", "content": map[string]any{"type": "text", "text": "x"}})
	if err := h.conn.Write(h.t.Context(), &jsonrpc.Response{ID: id, Result: res}); err != nil {
		h.t.Fatal(err)
	}
}

// TestProxyRestartStartsTheNewChildFirst: when every root is revoked the
// proxy starts the new child before it ends the old one, so that the
// host's messages never find it without a server (they wait for the
// replayed handshake instead): as the new child's process has started,
// the old child is still the current one, not stopped, its process
// running.
func TestProxyRestartStartsTheNewChildFirst(t *testing.T) {
	src := testproc.NewSource()
	record := filepath.Join(t.TempDir(), "asker.jsonl")
	var firstPid atomic.Int64
	type seen struct {
		prev           bool // there was a current child
		stopped, alive bool
	}
	starts := make(chan seen, 4)
	opts := Options{hooks: proxyHooks{childStarted: func(prev *child) {
		s := seen{prev: prev != nil}
		if prev != nil {
			s.stopped = prev.stopped
			s.alive = faultserver.Running(int(firstPid.Load()))
		}
		starts <- s
	}}}
	h := startMsgHost(t, selfServerEnv(t, "asker", testproc.UniqueMarker("asker"), "ROOTPICK_RECORD="+record), src, opts)
	if s := <-starts; s.prev {
		t.Fatalf("the first child started with a current one: %+v", s)
	}
	h.initialize("2025-11-25", nil)
	waitFor(t, "the first child's pid", func() bool {
		pids, _ := askerRecord(t, record)
		if len(pids) > 0 {
			firstPid.Store(int64(pids[0]))
		}
		return len(pids) > 0
	})
	src.Set([]consent.Root{root(t, "a")}, nil)
	waitFor(t, "the consent told to the child", func() bool {
		_, lines := askerRecord(t, record)
		return slices.ContainsFunc(lines[int(firstPid.Load())], func(l askerLine) bool {
			m, _ := methodOf(l)
			return m == "notifications/roots/list_changed"
		})
	})
	src.Set(nil, nil)
	select {
	case s := <-starts:
		if !s.prev || s.stopped || !s.alive {
			t.Errorf("as the new child started, the old one: current %v, stopped %v, its process running %v; want current, not stopped, running", s.prev, s.stopped, s.alive)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no new child 30 s after every root was revoked")
	}
}

// stdioLines is a hand-written stdio server's two ends: write sends one
// JSON message a line on stdout, in reads stdin a line at a time.
func stdioLines() (write func(v any), in *bufio.Scanner) {
	out := bufio.NewWriter(os.Stdout)
	write = func(v any) {
		b, _ := json.Marshal(v)
		_, _ = out.Write(append(b, '\n'))
		_ = out.Flush()
	}
	in = bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	return write, in
}
