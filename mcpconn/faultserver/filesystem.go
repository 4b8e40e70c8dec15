package faultserver

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FilesystemName is the name Filesystem gives in serverInfo: the one
// server-filesystem gives, by which rootpick knows to ask it what it holds
// with list_allowed_directories.
const FilesystemName = "secure-filesystem-server"

// FilesystemApplyDelay is how long Filesystem takes, after it was answered
// its roots/list, to put the folders in place. server-filesystem checks
// every root on the disk (realpath, stat) before it swaps the set in, so
// fetching a list and holding it are two moments; so they are here, and a
// proxy that let the host's calls through at the fetch, not once the server
// says it holds the consent, would be seen.
const FilesystemApplyDelay = 50 * time.Millisecond

// Filesystem stands in for @modelcontextprotocol/server-filesystem (npm,
// 2026.8.31) where rootpick depends on what it does, so that the tests of
// the hold and of the mismatch run on a machine without node:
//
//   - its folder arguments are its allowed folders at the start (every
//     argument that is an absolute path; the others, such as a test's
//     marker, are ignored); one that is not a folder ends it, as it ends
//     server-filesystem;
//   - when its client has roots it asks roots/list once after initialized
//     and again on every notifications/roots/list_changed;
//   - the valid roots of an answer (file:// URIs of existing folders,
//     symlinks resolved) replace its allowed folders, FilesystemApplyDelay
//     later;
//   - an empty answer, or one with no valid root, is ignored: it keeps the
//     folders it had, so revoking everything takes a restart;
//   - one root whose URI is not file:// voids the whole answer;
//   - its tool list_allowed_directories answers "Allowed directories:"
//     and one folder a line, as server-filesystem does.
//
// What it does is logged on stderr, one line each.
func Filesystem() {
	fs := &fakeFS{}
	for _, a := range os.Args[1:] {
		if !filepath.IsAbs(a) {
			continue
		}
		dir, ok := validDir(a)
		if !ok {
			fmt.Fprintf(os.Stderr, "Error accessing directory %s\n", a)
			os.Exit(1)
		}
		fs.dirs = append(fs.dirs, dir)
	}
	fetch := func(ss *mcp.ServerSession) {
		if p := ss.InitializeParams(); p == nil || p.Capabilities == nil || p.Capabilities.RootsV2 == nil {
			fmt.Fprintln(os.Stderr, "the client has no roots: keeping the folder arguments")
			return
		}
		go func() {
			res, err := ss.ListRoots(context.Background(), nil)
			if err != nil {
				fmt.Fprintln(os.Stderr, "roots/list failed:", err)
				return
			}
			fs.apply(res.Roots)
		}()
	}
	s := mcp.NewServer(&mcp.Implementation{Name: FilesystemName, Version: "fake"}, &mcp.ServerOptions{
		InitializedHandler:      func(_ context.Context, r *mcp.InitializedRequest) { fetch(r.Session) },
		RootsListChangedHandler: func(_ context.Context, r *mcp.RootsListChangedRequest) { fetch(r.Session) },
	})
	mcp.AddTool(s, &mcp.Tool{Name: "list_allowed_directories", Description: "Returns the list of directories this server is allowed to access."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			text := "Allowed directories:\n" + strings.Join(fs.allowed(), "\n")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}

// fakeFS is Filesystem's set of allowed folders.
type fakeFS struct {
	mu   sync.Mutex
	dirs []string
}

func (f *fakeFS) allowed() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.dirs)
}

// apply replaces the allowed folders with the valid ones of roots, unless
// there is none or one root is not a file:// URI.
func (f *fakeFS) apply(roots []*mcp.Root) {
	var dirs []string
	for _, r := range roots {
		u, err := url.Parse(r.URI)
		if err != nil || u.Scheme != "file" {
			fmt.Fprintf(os.Stderr, "ignoring the roots: %q is not a file:// URI\n", r.URI)
			return
		}
		if dir, ok := validDir(u.Path); ok {
			dirs = append(dirs, dir)
		}
	}
	if len(dirs) == 0 {
		fmt.Fprintln(os.Stderr, "no valid root directories provided by the client: keeping the current ones")
		return
	}
	time.Sleep(FilesystemApplyDelay)
	f.mu.Lock()
	f.dirs = dirs
	f.mu.Unlock()
	fmt.Fprintf(os.Stderr, "Updated allowed directories from MCP roots: %d valid directories\n", len(dirs))
}

// validDir is path with its symlinks resolved, if it is a folder.
func validDir(path string) (string, bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return "", false
	}
	return real, true
}
