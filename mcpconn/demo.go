package mcpconn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/safetext"
)

// Demo is the built-in roots-aware MCP server. It asks roots/list after the
// client's initialized notification and again on every
// notifications/roots/list_changed, keeps what it was answered, and offers a
// list_roots tool that prints it. It lets rootpick show the whole flow with
// nothing installed, and lets tests check what a server really holds.
type Demo struct {
	server *mcp.Server
	logger *slog.Logger
	record io.Writer // JSON Lines of every answer, if set
	try    io.Writer // where each fetch's tries go (TryOpen), if set

	// fetchMu makes one session's fetches one at a time: each asks after
	// the previous answer was stored, so a later answer is never
	// overwritten by an earlier one. It is per session (a *sync.Mutex per
	// *mcp.ServerSession), so that a session that stopped answering cannot
	// hold up a new one.
	fetchMu sync.Map

	mu      sync.Mutex
	roots   []*mcp.Root
	fetches int
}

// NewDemo returns the demo server. If record is not nil, every roots/list
// answer is appended to it as one JSON line {"roots":[...],"fetch":N}.
func NewDemo(logger *slog.Logger, record io.Writer) *Demo {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	d := &Demo{logger: logger, record: record}
	d.server = mcp.NewServer(&mcp.Implementation{Name: "rootpick-demo", Version: Version}, &mcp.ServerOptions{
		Logger: logger,
		InitializedHandler: func(ctx context.Context, req *mcp.InitializedRequest) {
			go func() {
				defer panics.Guard()
				d.fetch(req.Session)
			}()
		},
		RootsListChangedHandler: func(ctx context.Context, req *mcp.RootsListChangedRequest) {
			go func() {
				defer panics.Guard()
				d.fetch(req.Session)
			}()
		},
	})
	mcp.AddTool(d.server, &mcp.Tool{
		Name:        "list_roots",
		Description: "List the roots this server was last given by the client.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, demoRoots, error) {
		roots := d.Roots()
		var b strings.Builder
		for _, r := range roots {
			b.WriteString(r.URI + "\n")
		}
		if len(roots) == 0 {
			b.WriteString("(no roots)\n")
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, demoRoots{Roots: roots}, nil
	})
	return d
}

type demoRoots struct {
	Roots []*mcp.Root `json:"roots"`
}

// Server returns the underlying go-sdk server, to be connected to a
// transport (in memory, or stdio for rootpick serve-demo).
func (d *Demo) Server() *mcp.Server { return d.server }

func (d *Demo) fetch(ss *mcp.ServerSession) {
	mu, _ := d.fetchMu.LoadOrStore(ss, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		d.logger.Warn("roots/list failed", "err", err)
		return
	}
	d.mu.Lock()
	d.roots = res.Roots
	d.fetches++
	n := d.fetches
	if d.record != nil {
		line, _ := json.Marshal(struct {
			Fetch int         `json:"fetch"`
			Roots []*mcp.Root `json:"roots"`
		}{n, orEmpty(res.Roots)})
		_, _ = d.record.Write(append(line, '\n'))
	}
	try := d.try
	d.mu.Unlock()
	d.logger.Info("roots updated", "count", len(res.Roots), "fetch", n)
	if try != nil {
		tryOpen(try, res.Roots)
	}
}

// TryOpen has the demo, after each roots/list answer, try to list its
// first root and the folder above it (which the consent does not hold)
// and say on w how each went: the first thing a newcomer sees of the
// boundary ("refused by the kernel" where the server is enforced). rootpick
// demo runs the demo server as a subprocess under the guard, with this on.
func (d *Demo) TryOpen(w io.Writer) *Demo {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.try = w
	return d
}

// tryOpen lists the first root of roots and the folder above it, and
// says on w how each went.
func tryOpen(w io.Writer, roots []*mcp.Root) {
	if len(roots) == 0 {
		return
	}
	inside, err := consent.URIToPath(roots[0].URI)
	if err != nil {
		return
	}
	inside = filepath.Clean(inside)
	for _, c := range []struct{ path, what string }{
		{inside, "consented"},
		{filepath.Dir(inside), "not consented"},
	} {
		_, err := os.ReadDir(c.path)
		verdict := "✓ listed"
		switch {
		case errors.Is(err, fs.ErrPermission):
			verdict = "✗ refused by the kernel"
		case err != nil:
			verdict = "✗ " + err.Error()
		}
		fmt.Fprintf(w, "demo tried %s (%s): %s\n", safetext.Escape(c.path), c.what, verdict)
	}
}

func orEmpty(r []*mcp.Root) []*mcp.Root {
	if r == nil {
		return []*mcp.Root{}
	}
	return r
}

// Roots returns the roots from the latest answer the server received.
func (d *Demo) Roots() []*mcp.Root {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.roots)
}

// Fetches returns how many roots/list answers the server has received.
func (d *Demo) Fetches() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.fetches
}

// ServeStdio runs the demo server on standard input and output until the
// client goes away or ctx is cancelled.
func (d *Demo) ServeStdio(ctx context.Context) error {
	return d.server.Run(ctx, &mcp.StdioTransport{})
}
