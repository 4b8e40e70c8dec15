// Package faultserver holds small stdio MCP servers that misbehave on
// purpose, and stand-ins for servers from npm where a test depends on how
// they behave (Filesystem), for tests: a test binary becomes one of them
// when an environment variable names it (see Run). It has its own folder because the tests of
// two packages (mcpconn, and the end-to-end tests in e2e/, which run
// the built binary against them) use the same servers; it is imported by
// tests only.
package faultserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// servers maps a name to the server's main function.
var servers = map[string]func(){
	"wedge":   Wedge,
	"nofetch": NoFetch,
	"liar":    Liar,
	"args":    Args,
	"fetcher": Fetcher,
	"slow":    Slow,
	// Not a fault: server-filesystem's behaviour, for machines without node.
	"filesystem": Filesystem,
}

// Serve makes a test binary the server ROOTPICK_TEST_SERVE names — one
// of extra (the test package's own), else one of this package's — and
// exits when that server ends. It returns at once when none is named, for
// the binary to run its tests: every TestMain that starts servers calls
// it.
func Serve(extra map[string]func()) {
	name := os.Getenv("ROOTPICK_TEST_SERVE")
	if f := extra[name]; f != nil {
		f()
		os.Exit(0)
	}
	if Run(name) {
		os.Exit(0)
	}
}

// Run runs the server called name, if there is one, and reports whether
// it did (it returns when the server ends).
func Run(name string) bool {
	f := servers[name]
	if f == nil {
		return false
	}
	f()
	return true
}

// Wedge answers initialize, then, at the first list_changed, stops reading
// its input for good while it keeps asking roots/list: the answers fill the
// pipe and the client's writes block. It ignores SIGTERM, SIGHUP and a
// closed pipe, and outlives the end of its input: only SIGKILL ends it.
func Wedge() {
	signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	linger := func() {
		for {
			time.Sleep(time.Hour)
		}
	}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	write := func(v any) {
		b, _ := json.Marshal(v)
		_, _ = out.Write(append(b, '\n'))
		if out.Flush() != nil {
			linger()
		}
	}
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			linger()
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(line, &msg)
		switch msg.Method {
		case "initialize":
			write(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{
				"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
				"serverInfo": map[string]any{"name": "wedge", "version": "1"}}})
		case "notifications/roots/list_changed":
			fmt.Fprintln(os.Stderr, "wedged")
			for i := 0; ; i++ {
				write(map[string]any{"jsonrpc": "2.0", "id": fmt.Sprint("w", i), "method": "roots/list"})
				if i > 5000 {
					time.Sleep(time.Millisecond)
				}
			}
		}
	}
}

// NoFetch is a server that never asks roots/list.
func NoFetch() {
	s := mcp.NewServer(&mcp.Implementation{Name: "nofetch", Version: "1"}, nil)
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}

// fetching returns server options that ask roots/list after initialized and
// on every list_changed, as roots-aware servers do; got receives each answer.
func fetching(got func([]*mcp.Root)) *mcp.ServerOptions {
	fetch := func(ss *mcp.ServerSession) {
		go func() {
			res, err := ss.ListRoots(context.Background(), nil)
			if err == nil && got != nil {
				got(res.Roots)
			}
		}()
	}
	return &mcp.ServerOptions{
		InitializedHandler:      func(_ context.Context, r *mcp.InitializedRequest) { fetch(r.Session) },
		RootsListChangedHandler: func(_ context.Context, r *mcp.RootsListChangedRequest) { fetch(r.Session) },
	}
}

// Liar fetches roots like rootpick's demo server and claims its name, but
// its list_roots tool always says it holds /etc.
func Liar() {
	s := mcp.NewServer(&mcp.Implementation{Name: "rootpick-demo", Version: "1"}, fetching(nil))
	mcp.AddTool(s, &mcp.Tool{Name: "list_roots"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "file:///etc\n"}}}, nil, nil
	})
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}

// Args prints its arguments on stderr as "args:" and a JSON array, then
// serves as Fetcher does.
func Args() {
	b, _ := json.Marshal(os.Args[1:])
	fmt.Fprintln(os.Stderr, "args:"+string(b))
	Fetcher()
}

// Fetcher asks roots/list like a roots-aware server and prints each answer
// on stderr as "roots:" and the URIs separated by spaces.
func Fetcher() {
	s := mcp.NewServer(&mcp.Implementation{Name: "fetcher", Version: "1"}, fetching(func(roots []*mcp.Root) {
		uris := make([]string, len(roots))
		for i, r := range roots {
			uris[i] = r.URI
		}
		fmt.Fprintln(os.Stderr, "roots:"+strings.Join(uris, " "))
	}))
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}

// Slow has a tool "slow" that appends "called" to the file named by
// ROOTPICK_RECORD when a call arrives (a test waits for it, not for a
// guess at how long the call takes to get there), waits until the call is
// cancelled and then appends "cancelled": it shows that a cancellation
// reached the server.
func Slow() {
	record := func(line string) {
		if f, err := os.OpenFile(os.Getenv("ROOTPICK_RECORD"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
			fmt.Fprintln(f, line)
			f.Close()
		}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		record("called")
		select {
		case <-ctx.Done():
			record("cancelled")
			return nil, nil, ctx.Err()
		case <-time.After(time.Minute):
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
		}
	})
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}
