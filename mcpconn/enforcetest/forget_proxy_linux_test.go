package enforcetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/mcpconn/proxy"

	"github.com/rootpick/rootpick/internal/testproc"
)

// forgetBound is how long after store.Forget (what rootpick forget
// does) the server behind a proxy may still hold a folder: a catch-all,
// well above the promise (a revoke-all within 1 s, docs/performance.md),
// so that a loaded machine does not fail the test, and far below
// "never".
const forgetBound = 3 * time.Second

// TestForgetEmptiesProxyServer: a proxy serves a consented folder from
// the profile's store (proxy.NewStoreSource, as rootpick proxy does); after
// store.Forget — what rootpick forget calls — the server behind the proxy
// holds nothing within forgetBound: server-filesystem lists no folder
// (enforced, and advisory where a revoke-all restarts it with none) and
// cannot read the folder it held; the go-sdk demo holds no root.
func TestForgetEmptiesProxyServer(t *testing.T) {
	exe, err := os.Executable()
	must(t, err)
	type server struct {
		name    string
		command func(t *testing.T) []string
		enforce launch.Enforce
		// holds returns what the server holds now, by its own account
		// (nil, nil: nothing), and whether it can read file.
		holds func(call func(string, map[string]any) (string, error), file string) ([]string, bool, error)
	}
	fsHolds := func(call func(string, map[string]any) (string, error), file string) ([]string, bool, error) {
		out, err := call("list_allowed_directories", nil)
		if err != nil {
			return nil, false, err
		}
		got, err := call("read_text_file", map[string]any{"path": file})
		return allowedDirs(out), err == nil && got == "private", nil
	}
	fs := func(t *testing.T) []string { return testproc.NPMServer(t, "server-filesystem", "index.js") }
	demo := func(t *testing.T) []string {
		return []string{"env", "ROOTPICK_TEST_SERVE=demo", exe, testproc.UniqueMarker("forget-demo")}
	}
	demoHolds := func(call func(string, map[string]any) (string, error), _ string) ([]string, bool, error) {
		out, err := call("list_roots", nil)
		if err != nil {
			return nil, false, err
		}
		var held []string
		for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
			if line != "(no roots)" && line != "" {
				held = append(held, line)
			}
		}
		return held, false, nil
	}
	for _, s := range []server{
		{"server-filesystem enforced", fs, launch.EnforceRequire, fsHolds},
		{"server-filesystem advisory", fs, launch.EnforceOff, fsHolds},
		{"go-sdk demo enforced", demo, launch.EnforceRequire, demoHolds},
	} {
		t.Run(s.name, func(t *testing.T) {
			if s.enforce == launch.EnforceRequire {
				needLandlock(t)
			}
			cmd := s.command(t)
			h := plantHome(t)
			t.Setenv("XDG_STATE_HOME", filepath.Join(tempDir(t), "state"))
			store, err := consent.OpenStore("default")
			must(t, err)
			a := testproc.Root(t, h.a)
			must(t, store.Save(consent.Record{Dir: filepath.Dir(h.home), Roots: []consent.Root{a}}))
			src := proxy.NewStoreSource(t.Context(), store)
			host := startEnforcedHost(t, proxy.Options{Command: cmd, Source: src, Enforce: s.enforce})
			call := func(tool string, args map[string]any) (string, error) {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				return host.call(ctx, tool, args)
			}
			file := filepath.Join(h.a, "f")
			// What the server holds of the remembered consent, by its own
			// account: a alone (a folder or a file URI).
			wantA := []string{h.a}
			if cmd[0] == "env" {
				wantA = []string{a.URI}
			}
			testproc.Eventually(t, "the server behind the proxy to hold a", func() (string, bool) {
				held, _, err := s.holds(call, file)
				return fmt.Sprint(held, err), err == nil && slices.Equal(held, wantA)
			})

			start := time.Now()
			must(t, store.Forget())
			var held []string
			var reads bool
			var lastErr error
			for {
				held, reads, lastErr = s.holds(call, file)
				if lastErr == nil && len(held) == 0 && !reads {
					break
				}
				if time.Since(start) > hangBound {
					t.Fatalf("after forget the server still holds %v (reads a: %v, %v) after %v", held, reads, lastErr, hangBound)
				}
				time.Sleep(10 * time.Millisecond)
			}
			took := time.Since(start)
			t.Logf("forget → the server behind the proxy holds nothing: %v", took.Round(time.Millisecond))
			if bound := testproc.LoadScaled(forgetBound); took > bound {
				t.Errorf("forget → the server holds nothing took %v; the bound is %v (%v idle, scaled by the load)", took, bound, forgetBound)
			}
			sts := host.statuses()
			if last := sts[len(sts)-1]; slices.ContainsFunc(last.Access, func(pp launch.PolicyPath) bool { return pp.Why == launch.WhyConsented }) {
				t.Errorf("after forget the proxy's status still grants a consented folder: %+v", last.Access)
			}
		})
	}
}
