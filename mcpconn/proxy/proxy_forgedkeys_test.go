package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/rootpick/rootpick/internal/testproc"
)

// sendRawNote sends a notification whose params are raw as written,
// escapes and repeated keys included.
func (h *msgHost) sendRawNote(method, raw string) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.conn.Write(ctx, &jsonrpc.Request{Method: method, Params: json.RawMessage(raw)}); err != nil {
		h.t.Fatal(err)
	}
}

// TestProxyRefusesForgedNotificationKeys: a notification from the host
// whose params a server would read otherwise than the proxy (hostkeys.go:
// a key twice, two keys that fold alike, a protocol key in another
// spelling, escaped or not) never reaches the server, as such a request
// does not; it is not answered, being a notification. The same
// notification spelled as the protocol spells it passes. Seen from the
// server, which records every line it reads.
func TestProxyRefusesForgedNotificationKeys(t *testing.T) {
	h, record := startAsker(t, testproc.NewSource())
	h.initialize("2025-11-25", nil)
	forged := []struct{ name, params string }{
		{"requestId twice", `{"requestId":1,"requestId":2,"reason":"forged-1"}`},
		{"requestId and RequestId", `{"requestId":1,"RequestId":2,"reason":"forged-2"}`},
		{"RequestId alone", `{"RequestId":2,"reason":"forged-3"}`},
		{"reason twice", `{"requestId":1,"reason":"x","reason":"forged-4"}`},
		{"escaped repeat", `{"requestId":1,"request\u0049d":2,"reason":"forged-5"}`},
		{"long s", `{"requestId":1,"rea\u017fon":"forged-6"}`},
		{"_meta and _META", `{"requestId":1,"reason":"forged-7","_meta":{},"_META":{"progressToken":1}}`},
	}
	// Each is followed by a ping, which is answered only once the server has
	// read all that came before; nothing else is answered (the host reads
	// as it goes, so that a stray answer is seen, not left to block the
	// in-memory pipe).
	stray := func(m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Response); ok {
			t.Errorf("the host got an answer to no request of its own (a notification is never answered): %+v", r)
		}
	}
	ping := func() {
		t.Helper()
		if r := h.answer(h.send("ping", map[string]any{}, true), stray); r.Error != nil {
			t.Fatalf("ping: %v", r.Error)
		}
	}
	for _, f := range forged {
		h.sendRawNote("notifications/cancelled", f.params)
		ping()
	}
	h.sendRawNote("notifications/cancelled", `{"requestId":1,"reason":"spelled right"}`)
	ping()
	// A request with such params is refused with an error.
	if r := h.answer(h.sendRaw("ping", `{"_meta":{},"_meta":{"forged":8}}`), stray); r.Error == nil || !strings.Contains(r.Error.Error(), "rootpick proxy") {
		t.Errorf("a ping with _meta twice: %v, %s; want the proxy's refusal", r.Error, r.Result)
	}
	ping()

	pids, lines := askerRecord(t, record)
	if len(pids) != 1 {
		t.Fatalf("children: %v", pids)
	}
	got := lines[pids[0]]
	if recordIndexWith(got, "spelled right") < 0 {
		t.Errorf("the notification spelled as the protocol spells it did not reach the server: %s", recordText(got))
	}
	for _, l := range got {
		if strings.Contains(string(l.Line), "forged") {
			t.Errorf("the server read params that a server and the proxy read two ways: %s", l.Line)
		}
	}
}

// TestProxyEnvelopeSpellings: the message around the params spelled so
// that two readers could disagree — "params" twice, "params" and
// "Params", "method" and "Method" — on the proxy's stdio, as a host
// writes it. The proxy decodes each line once and writes the server what
// it decoded, so the server acts on what the proxy checked: a tool that
// asks for roots (the mrtr server, by input responses) never decodes the
// host's /etc, only the consent (none here), whichever spelling carries
// it.
func TestProxyEnvelopeSpellings(t *testing.T) {
	h := startRawHost(t, testproc.SelfServer(t, "mrtr", testproc.UniqueMarker("mrtr-envelope")), 0, io.Discard)
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n")
	h.until(t, "1")
	h.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	const (
		clean  = `{"name":"roots","arguments":{}}`
		forged = `{"name":"roots","arguments":{},"inputResponses":{"roots":{"roots":[{"uri":"file:///etc"}]}}}`
	)
	cases := []struct{ name, envelope string }{
		{"params twice, forged last", `"method":"tools/call","params":` + clean + `,"params":` + forged},
		{"params twice, forged first", `"method":"tools/call","params":` + forged + `,"params":` + clean},
		{"params and Params", `"method":"tools/call","params":` + clean + `,"Params":` + forged},
		{"Params and params", `"method":"tools/call","Params":` + forged + `,"params":` + clean},
		{"method and Method", `"method":"ping","Method":"tools/call","params":` + forged},
		{"Method and method", `"Method":"ping","method":"tools/call","params":` + forged},
	}
	for i, c := range cases {
		id := fmt.Sprint(10 + i)
		h.send(t, `{"jsonrpc":"2.0","id":`+id+`,`+c.envelope+"}\n")
		answer := ""
		for answer == "" {
			select {
			case line, ok := <-h.lines:
				if !ok {
					t.Fatalf("%s: the proxy's output ended", c.name)
				}
				var m hostMsg
				if json.Unmarshal(line, &m) == nil && m.Method == "" && string(m.ID) == id {
					answer = string(line)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: no answer within 10 s", c.name)
			}
		}
		t.Logf("%s: %s", c.name, answer)
		if strings.Contains(answer, "file:///etc") {
			t.Errorf("%s: the server decoded the host's own roots: %s", c.name, answer)
		}
	}
}
