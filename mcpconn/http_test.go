package mcpconn

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
)

// TestStreamableHTTP serves the demo server over Streamable HTTP on loopback
// and checks that roots set on the hub reach it, and that a change replaces
// them.
func TestStreamableHTTP(t *testing.T) {
	demo := NewDemo(nil, nil)
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return demo.Server() }, nil))
	defer srv.Close()

	hub := NewHub(Options{})
	defer hub.Close()
	if err := hub.Connect(context.Background(), Spec{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	for _, set := range [][]consent.Root{{root(t, "one"), root(t, "two")}, {root(t, "three")}} {
		hub.SetRoots(set)
		var want []string
		for _, r := range set {
			want = append(want, r.URI)
		}
		waitFor(t, "HTTP server to hold the set", func() bool { return slices.Equal(uris(demo.Roots()), want) })
	}
}

// TestStreamableHTTPRevokeAllReopens: revoking everything closes the HTTP
// session and opens a new one, which fetches the empty set.
func TestStreamableHTTPRevokeAllReopens(t *testing.T) {
	demo := NewDemo(nil, nil)
	var sessions atomic.Int32
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return demo.Server() }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			sessions.Add(1) // an initialize: a new session
		}
		handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	hub := NewHub(Options{Timing: testTiming})
	defer hub.Close()
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Name: "http", URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	a := root(t, "a")
	hub.SetRoots([]consent.Root{a})
	waitFor(t, "a held", func() bool { return slices.Equal(uris(demo.Roots()), []string{a.URI}) })
	if n := sessions.Load(); n != 1 {
		t.Fatalf("%d sessions before revoking", n)
	}
	hub.SetRoots(nil)
	defer func() {
		if t.Failed() {
			for _, e := range events() {
				t.Logf("event %v %+v", e.Kind, e)
			}
			t.Logf("sessions %d, demo holds %v", sessions.Load(), uris(demo.Roots()))
		}
	}()
	waitFor(t, "a new session holding nothing", func() bool {
		return sessions.Load() == 2 && len(demo.Roots()) == 0 && has(events(), Restarting, "http")
	})
}
