package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn"
)

// The mrtr test server speaks 2026-07-28 (go-sdk v1.8.0 over stdio) and
// asks for roots the only way that revision allows: inside a tool's
// answer, as an input request (multi-round-trip requests, SEP-2322).
func init() { faultModes["mrtr"] = serveMRTR }

// mrtrAnswer is what the mrtr server's tools return once they have their
// input: the roots they were given, the elicited name, and the
// requestState of the retry that carried them.
type mrtrAnswer struct {
	Roots []string `json:"roots"`
	Name  string   `json:"name,omitempty"`
	State string   `json:"state"`
}

// mrtrResource is the mrtr server's resource that asks for roots.
const mrtrResource = "rootpick-test://roots"

// serveMRTR serves two stateless tools. "roots" asks for roots (when the
// request says the client has them) and returns them; "roots_and_name"
// asks for roots and, in the same result, for a name by elicitation, and
// returns both. Each sets a requestState, which the retry must echo.
func serveMRTR() {
	s := mcp.NewServer(&mcp.Implementation{Name: "mrtr-test", Version: "1"}, nil)
	answer := func(a mrtrAnswer) *mcp.CallToolResult {
		b, _ := json.Marshal(a)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
	}
	rootsIn := func(responses mcp.InputResponseMap) ([]string, bool) {
		r, ok := responses["roots"].(*mcp.ListRootsResult)
		if !ok {
			return nil, false
		}
		uris := []string{}
		for _, x := range r.Roots {
			uris = append(uris, x.URI)
		}
		return uris, true
	}
	rootsOf := func(req *mcp.CallToolRequest) ([]string, bool) { return rootsIn(req.Params.InputResponses) }
	// The prompt "roots" and the resource mrtrResource do what the tool
	// "roots" does, for the other two requests a server may answer
	// input_required.
	s.AddPrompt(&mcp.Prompt{Name: "roots"}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		uris, ok := rootsIn(req.Params.InputResponses)
		if !ok {
			return &mcp.GetPromptResult{InputRequests: mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}, RequestState: "asked-roots"}, nil
		}
		b, _ := json.Marshal(mrtrAnswer{Roots: uris, State: req.Params.RequestState})
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: string(b)}}}}, nil
	})
	s.AddResource(&mcp.Resource{URI: mrtrResource, Name: "roots"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uris, ok := rootsIn(req.Params.InputResponses)
		if !ok {
			// Contents empty, not nil: go-sdk v1.8.0's readResource refuses
			// nil contents before its middleware asks an older client.
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{}, InputRequests: mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}, RequestState: "asked-roots"}, nil
		}
		b, _ := json.Marshal(mrtrAnswer{Roots: uris, State: req.Params.RequestState})
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: mrtrResource, Text: string(b)}}}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "roots"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		if caps := req.ClientCapabilities(); caps == nil || caps.RootsV2 == nil {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "no roots capability"}}}, nil, nil
		}
		if uris, ok := rootsOf(req); ok {
			return answer(mrtrAnswer{Roots: uris, State: req.Params.RequestState}), nil, nil
		}
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}},
			RequestState:  "asked-roots",
		}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "roots_and_name"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		uris, haveRoots := rootsOf(req)
		el, haveName := req.Params.InputResponses["name"].(*mcp.ElicitResult)
		if haveRoots && haveName {
			name, _ := el.Content["name"].(string)
			return answer(mrtrAnswer{Roots: uris, Name: name, State: req.Params.RequestState}), nil, nil
		}
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{
				"roots": &mcp.ListRootsParams{},
				"name":  &mcp.ElicitParams{Message: "Your name?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}},
			},
			RequestState: "asked-both",
		}, nil, nil
	})
	// "greedy" asks for roots whatever it is given; "greedy_calls" says
	// how many times it was called.
	var greedy atomic.Int32
	mcp.AddTool(s, &mcp.Tool{Name: "greedy"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		greedy.Add(1)
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "greedy_calls"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(greedy.Load())}}}, nil, nil
	})
	// "wait" asks for roots, then, given them, says so by progress and
	// waits to be cancelled; "was_cancelled" says whether it was (waiting
	// up to 5 s for it).
	cancelled := make(chan struct{})
	mcp.AddTool(s, &mcp.Tool{Name: "wait"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		if _, ok := rootsOf(req); !ok {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}}, nil, nil
		}
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1})
		select {
		case <-ctx.Done():
			close(cancelled)
		case <-time.After(10 * time.Second):
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "not cancelled"}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "was_cancelled"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		answer := "no"
		select {
		case <-cancelled:
			answer = "yes"
		case <-time.After(5 * time.Second):
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: answer}}}, nil, nil
	})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}

// sendCounter is a host's transport that counts the tools/call requests
// the host writes: a retry the host made itself is one more.
type sendCounter struct {
	mcp.Transport
	calls *atomic.Int32
}

func (t sendCounter) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	return countingConn{c, t.calls}, err
}

type countingConn struct {
	mcp.Connection
	calls *atomic.Int32
}

func (c countingConn) Write(ctx context.Context, m jsonrpc.Message) error {
	if r, ok := m.(*jsonrpc.Request); ok && r.Method == "tools/call" {
		c.calls.Add(1)
	}
	return c.Connection.Write(ctx, m)
}

func parseMRTRAnswer(t *testing.T, text string) mrtrAnswer {
	t.Helper()
	var a mrtrAnswer
	if err := json.Unmarshal([]byte(text), &a); err != nil {
		t.Fatalf("the tool answered %q: %v", text, err)
	}
	return a
}

// TestProxyMRTRRoots: a go-sdk host at 2026-07-28 (server/discover, no
// initialize) calls, through a proxy pinned to 2026-07-28, a tool that asks
// for roots inside its result. The tool gets exactly the consent — never
// the host's own roots — with its requestState echoed, and after a change
// of the consent, the new set. A tool that asks for roots and a name in
// one result has the name asked of the host (once) and the roots answered
// by the proxy. A host at 2025-11-25 in front of the same server gets the
// consent through roots/list, as before.
func TestProxyMRTRRoots(t *testing.T) {
	a, b := root(t, "a"), root(t, "b")
	src := testproc.NewSource()
	src.Set([]consent.Root{a}, nil)
	var served atomic.Value // []string: the proxy's last Served
	served.Store([]string(nil))
	var elicited, sent atomic.Int32
	connect := func(t *testing.T, version string) *mcp.ClientSession {
		ct, st := mcp.NewInMemoryTransports()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- Run(ctx, st, Options{Command: testproc.SelfServer(t, "mrtr", testproc.UniqueMarker("mrtr")), Source: src,
				ProtocolVersion: "2026-07-28", Timing: testTiming, Logger: testproc.Logger(t), FetchHold: testFetchHold,
				Status: func(s Status) { served.Store(slices.Clone(s.Served)) }})
		}()
		client := mcp.NewClient(&mcp.Implementation{Name: "modern-host", Version: "1"}, &mcp.ClientOptions{
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				elicited.Add(1)
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "from-host"}}, nil
			},
		})
		client.AddRoots(&mcp.Root{URI: "file:///etc", Name: "host's own"})
		cs, err := client.Connect(ctx, sendCounter{ct, &sent}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		t.Cleanup(func() { testproc.EndRun(t, cs, cancel, done) })
		if got := cs.InitializeResult().ProtocolVersion; got != version {
			t.Fatalf("the session speaks %s, want %s", got, version)
		}
		return cs
	}
	// call calls tool and checks that the host sent it sends times: once,
	// unless the host had input of its own to give.
	call := func(t *testing.T, cs *mcp.ClientSession, tool string, sends int32) mrtrAnswer {
		t.Helper()
		sent.Store(0)
		defer func() {
			if n := sent.Load(); n != sends {
				t.Errorf("the host sent %s %d times, want %d", tool, n, sends)
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		out, err := mcpconn.CallTool(ctx, cs, tool, nil)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return parseMRTRAnswer(t, out)
	}

	t.Run("2026-07-28", func(t *testing.T) {
		cs := connect(t, "2026-07-28")
		if got := call(t, cs, "roots", 1); !slices.Equal(got.Roots, []string{a.URI}) || got.State != "asked-roots" {
			t.Fatalf("the tool got %+v, want roots [%s] and state asked-roots", got, a.URI)
		}
		src.Set([]consent.Root{b}, nil)
		waitFor(t, "the proxy to serve b", func() bool { return slices.Equal(served.Load().([]string), []string{b.URI}) })
		if got := call(t, cs, "roots", 1); !slices.Equal(got.Roots, []string{b.URI}) {
			t.Fatalf("after the change the tool got %v, want [%s]", got.Roots, b.URI)
		}
		got := call(t, cs, "roots_and_name", 2)
		if !slices.Equal(got.Roots, []string{b.URI}) || got.Name != "from-host" || got.State != "asked-both" {
			t.Fatalf("the tool got %+v, want roots [%s], the host's name and state asked-both", got, b.URI)
		}
		if n := elicited.Load(); n != 1 {
			t.Errorf("the host was asked for the name %d times, want 1", n)
		}
	})
	t.Run("2025-11-25", func(t *testing.T) {
		src.Set([]consent.Root{a}, nil)
		cs := connect(t, "2025-11-25")
		waitFor(t, "the proxy to serve a", func() bool { return slices.Equal(served.Load().([]string), []string{a.URI}) })
		if got := call(t, cs, "roots", 1); !slices.Equal(got.Roots, []string{a.URI}) {
			t.Fatalf("the tool got %v, want [%s]", got.Roots, a.URI)
		}
	})
}

// modernMeta is the per-request _meta of a 2026-07-28 host (SEP-2575)
// that declares elicitation but not roots.
var modernMeta = map[string]any{
	mcp.MetaKeyProtocolVersion:    "2026-07-28",
	mcp.MetaKeyClientInfo:         map[string]any{"name": "raw-host", "version": "1"},
	mcp.MetaKeyClientCapabilities: map[string]any{"elicitation": map[string]any{}},
}

// TestProxyMRTRRawHost: the same, seen on the wire by a host that speaks
// JSON-RPC by hand. The host never declares roots, yet the server is told
// the client has them; it never sees a roots/list, only the elicitation of
// a result that asked for both; the roots it sends of its own accord, in a
// retry or unasked, are replaced by the consent.
func TestProxyMRTRRawHost(t *testing.T) {
	a := root(t, "a")
	src := testproc.NewSource()
	src.Set([]consent.Root{a}, nil)
	h := startMsgHost(t, testproc.SelfServer(t, "mrtr", testproc.UniqueMarker("mrtr-raw")), src, Options{ProtocolVersion: "2026-07-28"})
	var mu sync.Mutex
	var seen []string // every message the host got, raw
	note := func(m jsonrpc.Message) {
		b, _ := jsonrpc.EncodeMessage(m)
		mu.Lock()
		seen = append(seen, string(b))
		mu.Unlock()
	}
	call := func(params map[string]any) *jsonrpc.Response {
		t.Helper()
		params["_meta"] = modernMeta
		r := h.answer(h.send("tools/call", params, true), note)
		note(r)
		if r.Error != nil {
			t.Fatalf("tools/call %v: %v", params["name"], r.Error)
		}
		return r
	}
	text := func(r *jsonrpc.Response) string {
		var res struct {
			Content []struct{ Text string } `json:"content"`
		}
		_ = json.Unmarshal(r.Result, &res)
		if len(res.Content) != 1 {
			t.Fatalf("not a complete result: %s", r.Result)
		}
		return res.Content[0].Text
	}

	if r := h.answer(h.send("server/discover", map[string]any{"_meta": modernMeta}, true), note); r.Error != nil {
		t.Fatalf("server/discover: %v", r.Error)
	}

	// A result that asks for roots and a name: the host sees the name only.
	r := call(map[string]any{"name": "roots_and_name", "arguments": map[string]any{}})
	var asked struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	must(t, json.Unmarshal(r.Result, &asked))
	if asked.ResultType != "input_required" || len(asked.InputRequests) != 1 ||
		!strings.Contains(string(asked.InputRequests["name"]), `"elicitation/create"`) {
		t.Fatalf("the host got %s; want an input_required result asking only for the name", r.Result)
	}
	// The retry, with the host's own roots slipped in.
	r = call(map[string]any{"name": "roots_and_name", "arguments": map[string]any{},
		"inputResponses": map[string]any{
			"name":  map[string]any{"action": "accept", "content": map[string]any{"name": "raw"}},
			"roots": map[string]any{"roots": []any{map[string]any{"uri": "file:///etc"}}},
		},
		"requestState": asked.RequestState})
	if got := parseMRTRAnswer(t, text(r)); !slices.Equal(got.Roots, []string{a.URI}) || got.Name != "raw" || got.State != "asked-both" {
		t.Fatalf("the tool got %+v; want roots [%s], name raw, state asked-both", got, a.URI)
	}

	// Roots the host sends unasked are replaced too.
	r = call(map[string]any{"name": "roots", "arguments": map[string]any{},
		"inputResponses": map[string]any{"roots": map[string]any{"roots": []any{map[string]any{"uri": "file:///etc"}}}}})
	if got := parseMRTRAnswer(t, text(r)); !slices.Equal(got.Roots, []string{a.URI}) {
		t.Fatalf("the tool got %v; want [%s], not the host's own", got.Roots, a.URI)
	}
	// A host without the roots capability: the server asks anyway, since
	// the proxy declares roots for it, and gets the consent.
	r = call(map[string]any{"name": "roots", "arguments": map[string]any{}})
	if got := parseMRTRAnswer(t, text(r)); !slices.Equal(got.Roots, []string{a.URI}) || got.State != "asked-roots" {
		t.Fatalf("the tool got %+v; want roots [%s] and state asked-roots", got, a.URI)
	}

	// A server that asks for roots whatever it gets is given up on.
	r = h.answer(h.send("tools/call", map[string]any{"name": "greedy", "arguments": map[string]any{}, "_meta": modernMeta}, true), note)
	if r.Error == nil || !strings.Contains(r.Error.Error(), fmt.Sprintf("asked for roots %d times", maxRootsRounds)) {
		t.Errorf("a server asking for roots for ever: the host got %v, %s; want an error", r.Error, r.Result)
	}
	// The host's call, then one retry for each of the rounds allowed.
	if got, want := text(call(map[string]any{"name": "greedy_calls", "arguments": map[string]any{}})), fmt.Sprint(1+maxRootsRounds); got != want {
		t.Errorf("the greedy tool was called %s times; want %s (the host's call and %d rounds)", got, want, maxRootsRounds)
	}

	mu.Lock()
	defer mu.Unlock()
	for _, m := range seen {
		if strings.Contains(m, `"roots/list"`) {
			t.Errorf("the host saw a roots request: %s", m)
		}
	}
}

// TestProxyMRTRCancel: the host cancels a request the proxy has retried
// under its own id; the cancellation reaches the request the server is
// working on.
func TestProxyMRTRCancel(t *testing.T) {
	src := testproc.NewSource()
	src.Set([]consent.Root{root(t, "a")}, nil)
	h := startMsgHost(t, testproc.SelfServer(t, "mrtr", testproc.UniqueMarker("mrtr-cancel")), src, Options{ProtocolVersion: "2026-07-28"})
	meta := maps.Clone(modernMeta)
	meta["progressToken"] = "w"
	id := h.send("tools/call", map[string]any{"name": "wait", "arguments": map[string]any{}, "_meta": meta}, true)
	// The progress says the retry, with the consent, is being worked on.
	for {
		if r, ok := h.next().(*jsonrpc.Request); ok && r.Method == "notifications/progress" {
			break
		}
	}
	h.send("notifications/cancelled", map[string]any{"requestId": id.Raw(), "reason": "test"}, false)
	r := h.answer(h.send("tools/call", map[string]any{"name": "was_cancelled", "arguments": map[string]any{}, "_meta": modernMeta}, true), nil)
	if !strings.Contains(string(r.Result), `"yes"`) {
		t.Fatalf("the server's request was not cancelled: %s", r.Result)
	}
}

// sendRaw sends a call whose params are raw as written, escapes and
// repeated keys included.
func (h *msgHost) sendRaw(method, raw string) jsonrpc.ID {
	h.t.Helper()
	h.seq++
	id, _ := jsonrpc.MakeID(float64(h.seq))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(raw)}); err != nil {
		h.t.Fatal(err)
	}
	return id
}

// mrtrKind is one of the three requests a server may answer
// input_required (inputMethods), made to ask the mrtr server for roots:
// its params before the input responses, and where its answer's text is.
type mrtrKind struct {
	method, params string
	text           func(result json.RawMessage) (string, bool)
}

// mrtrKinds are tools/call of the tool "roots", prompts/get of the prompt
// "roots" and resources/read of mrtrResource.
var mrtrKinds = []mrtrKind{
	{"tools/call", `"name":"roots","arguments":{}`, func(r json.RawMessage) (string, bool) {
		var res struct {
			Content []struct{ Text string } `json:"content"`
		}
		_ = json.Unmarshal(r, &res)
		if len(res.Content) != 1 {
			return "", false
		}
		return res.Content[0].Text, true
	}},
	{"prompts/get", `"name":"roots"`, func(r json.RawMessage) (string, bool) {
		var res struct {
			Messages []struct {
				Content struct{ Text string } `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(r, &res)
		if len(res.Messages) != 1 {
			return "", false
		}
		return res.Messages[0].Content.Text, true
	}},
	{"resources/read", `"uri":"` + mrtrResource + `"`, func(r json.RawMessage) (string, bool) {
		var res struct {
			Contents []struct{ Text string } `json:"contents"`
		}
		_ = json.Unmarshal(r, &res)
		if len(res.Contents) != 1 {
			return "", false
		}
		return res.Contents[0].Text, true
	}},
}

// TestProxyMRTRForgedSpellings: a host slips roots of its own into a retry
// in every spelling a go-sdk server decodes as roots (encoding/json folds
// keys, takes the last of two, and decodes escapes). The server (go-sdk
// v1.8.0, asking for roots by MRTR) reports what it decoded: never the
// host's /etc or /, only the consent — or the proxy refuses the request
// outright when its params could be read two ways. A request with no input
// responses is answered the consent by the proxy, which retries it itself.
// For each of the three requests a server may answer input_required
// (tools/call, prompts/get, resources/read), both in a session pinned to
// 2026-07-28 and in the default one.
func TestProxyMRTRForgedSpellings(t *testing.T) {
	a := root(t, "a")
	src := testproc.NewSource()
	src.Set([]consent.Root{a}, nil)
	const forged = `[{"uri":"file:///etc"},{"uri":"file:///"}]`
	replaced := []struct{ name, inputs string }{
		{"none: the proxy answers", ""},
		{"exact", `"inputResponses":{"roots":{"roots":` + forged + `}}`},
		{"Roots", `"inputResponses":{"roots":{"Roots":` + forged + `}}`},
		{"ROOTS", `"inputResponses":{"roots":{"ROOTS":` + forged + `}}`},
		{"long s", `"inputResponses":{"roots":{"root\u017f":` + forged + `}}`},
		{"long s raw", `"inputResponses":{"roots":{"rootſ":` + forged + `}}`},
		{"escaped roots", `"inputResponses":{"roots":{"r\u006f\u006fts":` + forged + `}}`},
		{"escaped inputResponses", `"input\u0052esponses":{"roots":{"roots":` + forged + `}}`},
		{"roots then Roots", `"inputResponses":{"roots":{"roots":[],"Roots":` + forged + `}}`},
		{"repeated response key", `"inputResponses":{"roots":{"roots":[]},"roots":{"roots":` + forged + `}}`},
		{"with an action", `"inputResponses":{"roots":{"action":"accept","Roots":` + forged + `}}`},
	}
	refused := []struct{ name, inputs string }{
		{"InputResponses", `"InputResponses":{"roots":{"roots":` + forged + `}}`},
		{"INPUTRESPONSES", `"INPUTRESPONSES":{"roots":{"roots":` + forged + `}}`},
		{"two spellings", `"inputResponses":{},"inputresponses":{"roots":{"roots":` + forged + `}}`},
		{"repeated", `"inputResponses":{},"inputResponses":{"roots":{"roots":` + forged + `}}`},
		{"escaped repeat", `"inputResponses":{},"input\u0052esponses":{"roots":{"roots":` + forged + `}}`},
		{"RequestState", `"inputResponses":{"roots":{"roots":` + forged + `}},"RequestState":"x"`},
	}
	for _, mode := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(mode, func(t *testing.T) {
			h := startMsgHost(t, testproc.SelfServer(t, "mrtr", testproc.UniqueMarker("mrtr-forged")), src, Options{ProtocolVersion: mode})
			meta := ""
			if mode == "2026-07-28" {
				if r := h.answer(h.send("server/discover", map[string]any{"_meta": modernMeta}, true), nil); r.Error != nil {
					t.Fatalf("server/discover: %v", r.Error)
				}
				b, _ := json.Marshal(modernMeta)
				meta = `,"_meta":` + string(b)
			} else {
				h.initialize(mode, nil)
			}
			for _, kind := range mrtrKinds {
				call := func(inputs string) *jsonrpc.Response {
					if inputs != "" {
						inputs = "," + inputs
					}
					return h.answer(h.sendRaw(kind.method, `{`+kind.params+meta+inputs+`}`), nil)
				}
				for _, c := range replaced {
					r := call(c.inputs)
					if r.Error != nil {
						t.Errorf("%s %s: %v", kind.method, c.name, r.Error)
						continue
					}
					text, ok := kind.text(r.Result)
					if !ok {
						t.Errorf("%s %s: not a complete result: %s", kind.method, c.name, r.Result)
						continue
					}
					if got := parseMRTRAnswer(t, text); !slices.Equal(got.Roots, []string{a.URI}) {
						t.Errorf("%s %s: the server decoded roots %v; want the consent [%s]", kind.method, c.name, got.Roots, a.URI)
					}
				}
				for _, c := range refused {
					r := call(c.inputs)
					if r.Error == nil {
						t.Errorf("%s %s: relayed, the server answered %s; want the proxy to refuse it", kind.method, c.name, r.Result)
					} else if !strings.Contains(r.Error.Error(), "rootpick proxy") {
						t.Errorf("%s %s: %v; want the proxy's refusal", kind.method, c.name, r.Error)
					}
				}
			}
		})
	}
}
