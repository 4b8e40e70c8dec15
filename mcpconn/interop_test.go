package mcpconn

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
)

// TestInteropServerFilesystem checks, by asking the server itself
// (list_allowed_directories), that @modelcontextprotocol/server-filesystem
// ends up allowing exactly the consented roots, including a folder whose
// name needs percent-encoding, and that a change replaces them.
func TestInteropServerFilesystem(t *testing.T) {
	cmd := testproc.NPMServer(t, "server-filesystem", "index.js")
	base := t.TempDir()
	a := testproc.Root(t, filepath.Join(base, "alpha"))
	b := testproc.Root(t, filepath.Join(base, "b #1 %é"))
	c := testproc.Root(t, filepath.Join(base, "gamma"))

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
	testproc.Eventually(t, "server-filesystem to allow alpha and 'b #1 %é'", allowed(a, b))

	hub.SetRoots([]consent.Root{c})
	testproc.Eventually(t, "server-filesystem to allow only gamma", allowed(c))
	out, _ := hub.CallTool(ctx, "fs", "list_allowed_directories", nil)
	t.Logf("server-filesystem says: %q", out)
	// rootpick asked it too, and says so.
	testproc.Eventually(t, "a verified event for gamma", func() (string, bool) {
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
	testproc.Eventually(t, "server-filesystem to allow nothing", allowed())
	out, _ = hub.CallTool(ctx, "fs", "list_allowed_directories", nil)
	t.Logf("after revoking all, server-filesystem says: %q", out)
	testproc.Eventually(t, "a verified event for the empty set", func() (string, bool) {
		evs := events()
		for i := len(evs) - 1; i >= 0; i-- {
			if evs[i].Kind == Verified && evs[i].Server == "fs" {
				return fmt.Sprint(evs[i].URIs), len(evs[i].URIs) == 0
			}
		}
		return "no verified event", false
	})

	// It reports on stderr, which must reach us as events, not the terminal.
	testproc.Eventually(t, "stderr relayed", func() (string, bool) {
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
	cmd := testproc.NPMServer(t, "server-everything", "index.js")
	base := t.TempDir()
	a := testproc.Root(t, filepath.Join(base, "one"))
	b := testproc.Root(t, filepath.Join(base, "two"))
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
	testproc.Eventually(t, "server-everything to hold one", holds([]consent.Root{a}, []consent.Root{b}))
	hub.SetRoots([]consent.Root{b})
	testproc.Eventually(t, "server-everything to hold only two", holds([]consent.Root{b}, []consent.Root{a}))
	testproc.Eventually(t, "a verified event for two", func() (string, bool) {
		for _, e := range events() {
			if e.Kind == Verified && e.Server == "everything" && slices.Equal(e.URIs, []string{b.URI}) {
				return "", true
			}
		}
		return fmt.Sprint(events()), false
	})
}
