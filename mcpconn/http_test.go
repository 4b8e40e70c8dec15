package mcpconn

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
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
