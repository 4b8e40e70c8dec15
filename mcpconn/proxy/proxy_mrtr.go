package proxy

// Roots in 2026-07-28 sessions. From that revision a server may not send
// roots/list on its own: it answers a tools/call, prompts/get or
// resources/read with an input-required result, and the client retries the
// same request with the answers (multi-round-trip requests, SEP-2322). On
// the wire (go-sdk v1.8.0 mcp/protocol.go, mcp/mrtr.go):
//
//	result: {"resultType": "input_required",
//	         "inputRequests": {"<key>": {"method": "roots/list", "params": {}}, …},
//	         "requestState": "<opaque>"}
//	retry:  the original params plus
//	        "inputResponses": {"<key>": {"roots": [...]}, …},
//	        "requestState": "<opaque, echoed>"
//
// The proxy keeps the consent the only source of roots, as it does for
// older revisions:
//
//   - A result whose input requests are all roots requests never reaches
//     the host: the proxy answers them from the consent and retries the
//     request to the child itself, under an id of its own, and hands the
//     host the final answer under the host's id.
//   - A result that also asks for something only the host can give
//     (elicitation, sampling) goes to the host with the roots requests
//     taken out. Which keys were roots is written into the requestState,
//     which the host must echo and cannot use otherwise: the proxy keeps no
//     memory between the rounds, and when the host retries it puts the
//     child's own requestState back and adds the consent's answers (read
//     then, so a change in between counts).
//   - A roots answer the host sends of its own (any input response with a
//     "roots" member) is replaced by the consent's.
//   - A cancellation of a request the proxy retried is pointed at the
//     retry, the request the child is working on.
//   - A 2026-07-28 request declares its client's capabilities in _meta
//     (SEP-2575); the proxy adds roots to them, as it does in initialize,
//     so that a server which asks only clients with roots asks this one.
//
// None of this happens for older revisions: their results are never
// input_required and their requests carry no input responses. It does not
// depend on --protocol either, since the host's own roots must never pass.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
)

// inputMethods are the requests a server may answer input_required.
var inputMethods = []string{"tools/call", "prompts/get", "resources/read"}

// maxRootsRounds bounds the retries the proxy makes alone for one request,
// so that a server which asks for roots whatever it is given cannot keep
// the proxy busy for ever.
const maxRootsRounds = 10

// rootsStatePrefix marks a requestState the proxy wrapped: base64url JSON
// of rootsState.
const rootsStatePrefix = "rootpick-roots:"

// rootsState is what a wrapped requestState carries: the child's own state
// and the keys of the roots requests the proxy took out.
type rootsState struct {
	State string   `json:"state,omitempty"`
	Roots []string `json:"roots"`
}

// inputCall is a host request the child may answer input_required, as last
// sent to the child: what the proxy needs to retry it.
type inputCall struct {
	hostID jsonrpc.ID
	sent   jsonrpc.ID // the id it has at the child: the host's, or the proxy's for a retry
	method string
	params json.RawMessage
	rounds int // retries the proxy made alone
}

// rootsAnswer is the consent as an input response, and the consent it
// came from.
func (p *proxy) rootsAnswer() (json.RawMessage, []consent.Root) {
	p.mu.Lock()
	served := p.served
	p.mu.Unlock()
	b, _ := json.Marshal(&mcp.ListRootsResult{Roots: mcpconn.MCPRoots(served)})
	return b, served
}

// noteFetch shows in the status that the child was given served.
func (p *proxy) noteFetch(served []consent.Root) {
	p.report(func(s *Status) {
		s.Fetched, s.FetchedAt, s.Asked, s.NotFetching = uriList(served), time.Now(), true, false
	})
}

// rewriteInputs prepares a host request for the child: it declares roots in
// a 2026-07-28 request's capabilities, and in a request that may carry
// input responses it unwraps the proxy's requestState and puts the
// consent in place of every roots answer. m is returned as is when nothing
// changes.
func (p *proxy) rewriteInputs(m *jsonrpc.Request) *jsonrpc.Request {
	if !m.IsCall() || len(m.Params) == 0 {
		return m
	}
	input := slices.Contains(inputMethods, m.Method)
	// Other requests need nothing unless they declare a 2026-07-28
	// client: spare them the parse. A request that may carry input
	// responses is always parsed: a byte search misses an escaped key
	// ("input\u0052esponses"), which the server decodes all the same.
	if !input && !bytes.Contains(m.Params, []byte(mcp.MetaKeyProtocolVersion)) {
		return m
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(m.Params, &params) != nil || params == nil {
		return m
	}
	changed := declareRoots(params)
	if input && p.answerHostInputs(params) {
		changed = true
	}
	if !changed {
		return m
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return m
	}
	return &jsonrpc.Request{ID: m.ID, Method: m.Method, Params: raw}
}

// declareRoots adds roots to the clientCapabilities of a 2026-07-28
// request's _meta, and reports whether it did.
func declareRoots(params map[string]json.RawMessage) bool {
	var meta map[string]json.RawMessage
	if json.Unmarshal(params["_meta"], &meta) != nil || meta == nil {
		return false
	}
	var version string
	if json.Unmarshal(meta[mcp.MetaKeyProtocolVersion], &version) != nil || version < "2026-07-28" {
		return false
	}
	var caps map[string]json.RawMessage
	if json.Unmarshal(meta[mcp.MetaKeyClientCapabilities], &caps) != nil || caps == nil {
		return false // the server refuses such a request anyway
	}
	if _, ok := caps["roots"]; ok {
		return false
	}
	caps["roots"] = json.RawMessage(`{}`)
	meta[mcp.MetaKeyClientCapabilities], _ = json.Marshal(caps)
	params["_meta"], _ = json.Marshal(meta)
	return true
}

// answerHostInputs replaces the roots answers of a retry by the consent's,
// adds them for the keys a wrapped requestState names and unwraps it; it
// reports whether params changed.
func (p *proxy) answerHostInputs(params map[string]json.RawMessage) bool {
	var responses map[string]json.RawMessage
	_ = json.Unmarshal(params["inputResponses"], &responses)
	var keys []string
	for k, v := range responses {
		if isRootsAnswer(v) {
			keys = append(keys, k)
		}
	}
	var state string
	wrapped := json.Unmarshal(params["requestState"], &state) == nil && strings.HasPrefix(state, rootsStatePrefix)
	var rs rootsState
	if wrapped {
		b, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(state, rootsStatePrefix))
		if err != nil || json.Unmarshal(b, &rs) != nil {
			wrapped = false // not ours after all: the child's own, passed on
		}
	}
	if len(keys) > 0 {
		p.log.Info("replacing the host's own roots in its input responses with the consent", "count", len(keys))
	}
	if wrapped {
		keys = append(keys, rs.Roots...)
		if rs.State == "" {
			delete(params, "requestState")
		} else {
			params["requestState"], _ = json.Marshal(rs.State)
		}
	}
	if len(keys) == 0 {
		return wrapped
	}
	if responses == nil {
		responses = map[string]json.RawMessage{}
	}
	answer, served := p.rootsAnswer()
	for _, k := range keys {
		responses[k] = answer
	}
	params["inputResponses"], _ = json.Marshal(responses)
	p.noteFetch(served)
	return true
}

// answerChildInputs handles the child's answer m to a request of the host:
// it returns the answer to give the host, under the host's id, or nil when
// the proxy answered the child's roots requests and retried the request
// itself.
func (p *proxy) answerChildInputs(c *child, m *jsonrpc.Response) *jsonrpc.Response {
	p.mu.Lock()
	call := c.calls[m.ID.Raw()]
	delete(c.calls, m.ID.Raw())
	p.mu.Unlock()
	if call == nil {
		return m
	}
	out := &jsonrpc.Response{ID: call.hostID, Result: m.Result, Error: m.Error}
	if m.Error != nil || !bytes.Contains(m.Result, []byte(`"input_required"`)) {
		return out // not worth parsing: results can be large
	}
	var res map[string]json.RawMessage
	var resultType string
	if json.Unmarshal(m.Result, &res) != nil || json.Unmarshal(res["resultType"], &resultType) != nil || resultType != "input_required" {
		return out
	}
	var requests map[string]json.RawMessage
	if json.Unmarshal(res["inputRequests"], &requests) != nil {
		return out
	}
	var rootsKeys []string
	for k, v := range requests {
		var r struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(v, &r) == nil && r.Method == "roots/list" {
			rootsKeys = append(rootsKeys, k)
			delete(requests, k)
		}
	}
	if len(rootsKeys) == 0 {
		return out
	}
	slices.Sort(rootsKeys)
	var state string
	_ = json.Unmarshal(res["requestState"], &state)

	if len(requests) > 0 {
		// The host has its part to give: it gets the rest, and the
		// requestState says which keys the proxy will answer on its retry.
		p.log.Debug("passing the server's input requests on without its roots requests", "roots", len(rootsKeys), "others", len(requests))
		res["inputRequests"], _ = json.Marshal(requests)
		wrapped, _ := json.Marshal(rootsState{State: state, Roots: rootsKeys})
		res["requestState"], _ = json.Marshal(rootsStatePrefix + base64.RawURLEncoding.EncodeToString(wrapped))
		out.Result, _ = json.Marshal(res)
		return out
	}

	call.rounds++
	if call.rounds > maxRootsRounds {
		p.log.Warn("the server keeps asking for roots; giving up", "rounds", maxRootsRounds)
		return &jsonrpc.Response{ID: call.hostID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("rootpick: the server asked for roots %d times in a row for one request", maxRootsRounds)}}
	}
	answer, served := p.rootsAnswer()
	var params map[string]json.RawMessage
	_ = json.Unmarshal(call.params, &params)
	if params == nil {
		params = map[string]json.RawMessage{}
	}
	// As a client retries: the same request, this round's answers only,
	// and the state echoed (an earlier round's answers live in it).
	responses := map[string]json.RawMessage{}
	for _, k := range rootsKeys {
		responses[k] = answer
	}
	params["inputResponses"], _ = json.Marshal(responses)
	delete(params, "requestState")
	if st, ok := res["requestState"]; ok {
		params["requestState"] = st
	}
	call.params, _ = json.Marshal(params)
	p.mu.Lock()
	p.retries++
	id, _ := jsonrpc.MakeID(fmt.Sprintf("rootpick-mrtr-%d", p.retries))
	call.sent = id
	c.calls[id.Raw()] = call // before the write: the answer may come at once
	p.mu.Unlock()
	p.log.Debug("answering the server's roots requests from the consent and retrying", "method", call.method, "roots", len(served), "round", call.rounds)
	p.toChild(c, &jsonrpc.Request{ID: id, Method: call.method, Params: call.params})
	p.noteFetch(served)
	return nil
}

// retriedID is the id under which the child knows the host's request id,
// for a cancellation: the proxy's own when it retried the request.
func (p *proxy) retriedID(c *child, hostID jsonrpc.ID) (jsonrpc.ID, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, call := range c.calls {
		if call.hostID == hostID {
			return call.sent, call.sent != hostID
		}
	}
	return jsonrpc.ID{}, false
}

// rewriteCancelled points the host's notifications/cancelled at the
// request the child is working on, when the proxy retried it.
func (p *proxy) rewriteCancelled(c *child, m *jsonrpc.Request) *jsonrpc.Request {
	var params map[string]json.RawMessage
	if c == nil || json.Unmarshal(m.Params, &params) != nil {
		return m
	}
	var raw any
	if json.Unmarshal(params["requestId"], &raw) != nil {
		return m
	}
	hostID, err := jsonrpc.MakeID(raw)
	if err != nil {
		return m
	}
	id, ok := p.retriedID(c, hostID)
	if !ok {
		return m
	}
	params["requestId"], _ = json.Marshal(id.Raw())
	b, err := json.Marshal(params)
	if err != nil {
		return m
	}
	return &jsonrpc.Request{Method: m.Method, Params: b}
}
