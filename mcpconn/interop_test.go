package mcpconn

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testskip"
)

// npmServer returns the command that starts an npm MCP server installed by
// .ci/run (npm ci --prefix .ci), or skips the test saying how to get it.
func npmServer(t *testing.T, pkg, bin string) []string {
	t.Helper()
	if testing.Short() {
		t.Skip("interop with npm servers is skipped in -short mode")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		testskip.Skip(t, "npm servers", "node not installed: bash .ci/run installs it and the servers")
	}
	dir := os.Getenv("ROOTPICK_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join("..", ".ci", "node_modules")
	}
	script, _ := filepath.Abs(filepath.Join(dir, "@modelcontextprotocol", pkg, "dist", bin))
	if _, err := os.Stat(script); err != nil {
		testskip.Skip(t, "npm servers", "not installed: npm ci --prefix .ci, or bash .ci/run")
	}
	return []string{node, script}
}

func realRoot(t *testing.T, path string) consent.Root {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := consent.NewRoot(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// eventually retries check until it passes or 15s have gone by.
func eventually(t *testing.T, what string, check func() (string, bool)) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		got, ok := check()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s; last saw:\n%s", what, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestInteropServerFilesystem checks, by asking the server itself
// (list_allowed_directories), that @modelcontextprotocol/server-filesystem
// ends up allowing exactly the consented roots, including a folder whose
// name needs percent-encoding, and that a change replaces them.
func TestInteropServerFilesystem(t *testing.T) {
	cmd := npmServer(t, "server-filesystem", "index.js")
	base := t.TempDir()
	a := realRoot(t, filepath.Join(base, "alpha"))
	b := realRoot(t, filepath.Join(base, "b #1 %é"))
	c := realRoot(t, filepath.Join(base, "gamma"))

	hub := NewHub(Options{})
	defer hub.Close()
	events := collect(hub)
	ctx := context.Background()
	spec := Spec{Name: "fs", Command: cmd}
	if err := hub.Connect(ctx, spec); err != nil {
		t.Fatal(err)
	}
	allowed := func(want ...consent.Root) func() (string, bool) {
		return func() (string, bool) {
			out, err := hub.CallTool(ctx, "fs", "list_allowed_directories", nil)
			if err != nil {
				return err.Error(), false
			}
			for _, r := range want {
				if !strings.Contains(out, r.Path+"\n") && !strings.HasSuffix(out, r.Path) {
					return out, false
				}
			}
			lines := strings.Count(strings.TrimSpace(out), "\n") // header line + one per folder
			return out, lines == len(want)
		}
	}

	hub.SetRoots([]consent.Root{a, b})
	eventually(t, "server-filesystem to allow alpha and 'b #1 %é'", allowed(a, b))

	hub.SetRoots([]consent.Root{c})
	eventually(t, "server-filesystem to allow only gamma", allowed(c))
	out, _ := hub.CallTool(ctx, "fs", "list_allowed_directories", nil)
	t.Logf("server-filesystem says: %q", out)
	// rootpick asked it too, and says so.
	eventually(t, "a verified event for gamma", func() (string, bool) {
		for _, e := range events() {
			if e.Kind == Verified && e.Server == "fs" && slices.Equal(e.URIs, []string{c.URI}) {
				return "", true
			}
		}
		return "no verified event", false
	})

	// Revoking everything is real: server-filesystem ignores an empty list
	// and would keep gamma, so it is restarted with none.
	hub.SetRoots(nil)
	eventually(t, "server-filesystem to allow nothing", allowed())
	out, _ = hub.CallTool(ctx, "fs", "list_allowed_directories", nil)
	t.Logf("after revoking all, server-filesystem says: %q", out)
	eventually(t, "a verified event for the empty set", func() (string, bool) {
		evs := events()
		for i := len(evs) - 1; i >= 0; i-- {
			if evs[i].Kind == Verified && evs[i].Server == "fs" {
				return fmt.Sprint(evs[i].URIs), len(evs[i].URIs) == 0
			}
		}
		return "no verified event", false
	})

	// It reports on stderr, which must reach us as events, not the terminal.
	eventually(t, "stderr relayed", func() (string, bool) {
		for _, e := range events() {
			if e.Kind == Stderr && strings.Contains(e.Text, "Updated allowed directories from MCP roots") {
				return "", true
			}
		}
		return "no stderr event", false
	})
}

// TestInteropServerEverything checks that server-everything fetches the
// roots after initialized and after each change (its get-roots-list tool
// prints what it holds).
func TestInteropServerEverything(t *testing.T) {
	cmd := npmServer(t, "server-everything", "index.js")
	base := t.TempDir()
	a := realRoot(t, filepath.Join(base, "one"))
	b := realRoot(t, filepath.Join(base, "two"))
	hub := NewHub(Options{})
	defer hub.Close()
	events := collect(hub)
	ctx := context.Background()
	if err := hub.Connect(ctx, Spec{Name: "everything", Command: append(cmd, "stdio")}); err != nil {
		t.Fatal(err)
	}
	holds := func(want []consent.Root, not []consent.Root) func() (string, bool) {
		return func() (string, bool) {
			out, err := hub.CallTool(ctx, "everything", "get-roots-list", nil)
			if err != nil {
				return err.Error(), false
			}
			for _, r := range want {
				if !strings.Contains(out, r.URI) {
					return out, false
				}
			}
			for _, r := range not {
				if strings.Contains(out, r.URI) {
					return out, false
				}
			}
			return out, true
		}
	}
	hub.SetRoots([]consent.Root{a})
	eventually(t, "server-everything to hold one", holds([]consent.Root{a}, []consent.Root{b}))
	hub.SetRoots([]consent.Root{b})
	eventually(t, "server-everything to hold only two", holds([]consent.Root{b}, []consent.Root{a}))
	eventually(t, "a verified event for two", func() (string, bool) {
		for _, e := range events() {
			if e.Kind == Verified && e.Server == "everything" && slices.Equal(e.URIs, []string{b.URI}) {
				return "", true
			}
		}
		return fmt.Sprint(events()), false
	})
}
