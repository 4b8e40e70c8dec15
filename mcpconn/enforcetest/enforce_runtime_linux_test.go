package enforcetest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// The runtime set (BuildPolicy) against real runtimes, enforce =
// require: a Python server (standard library only, testdata/pyserver)
// and server-filesystem through npx with a cold npm cache (its first
// download included) start under the ruleset, fetch the consented roots,
// read inside them and are refused outside. server-everything and a
// go-sdk server: TestEnforcedRealServersWork.

// connectedPolicy waits for server's latest Connected event that grants
// want (a consented folder; "" for any) and returns its Enforcement.
func connectedPolicy(t *testing.T, events func() []mcpconn.Event, server, want string) *launch.Enforcement {
	t.Helper()
	var last *launch.Enforcement
	waitFor(t, server+"'s Connected event", func() bool {
		last = nil
		for _, e := range events() {
			if e.Kind == mcpconn.Connected && e.Server == server {
				last = e.Enforcement
			}
		}
		return last != nil && last.Policy != nil && (want == "" || slices.ContainsFunc(last.Policy.Paths, func(pp launch.PolicyPath) bool { return pp.Path == want }))
	})
	return last
}

// TestEnforcedPythonServer: a stdio server in Python, started as
// "python3 server.py" with python3 found through PATH — the first one on
// this machine's PATH (a version manager's shim, say) and /usr/bin's
// (a link to python3.X, its standard library in /usr/lib) — starts
// enforced, fetches the consented roots (again on every change) and
// reads a file inside a consented folder; a file of a sibling folder,
// the key in ~/.ssh and a file in home are refused with EACCES.
func TestEnforcedPythonServer(t *testing.T) {
	needLandlock(t)
	first, err := exec.LookPath("python3")
	if err != nil {
		testskip.Skip(t, "python", "python3 not installed: install python3 to run the enforced Python server")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "pyserver", "server.py"))
	must(t, err)
	paths := []struct{ name, path string }{{"PATH's python3 " + first, os.Getenv("PATH")}}
	if fi, err := os.Lstat("/usr/bin/python3"); err == nil && first != "/usr/bin/python3" && fi.Mode()&os.ModeType != os.ModeDir {
		paths = append(paths, struct{ name, path string }{"/usr/bin/python3", "/usr/bin:/bin"})
	}
	for _, p := range paths {
		t.Run(strings.ReplaceAll(p.name, "/", "∕"), func(t *testing.T) {
			t.Setenv("PATH", p.path)
			checkPythonServer(t, script)
		})
	}
}

func checkPythonServer(t *testing.T, script string) {
	h := plantHome(t)
	hub := mcpconn.NewHub(mcpconn.Options{Timing: testTiming})
	events := collect(hub)
	defer hub.Close()
	ctx := context.Background()
	start := time.Now()
	if err := hub.Connect(ctx, mcpconn.Spec{Name: "python", Command: []string{"python3", script}, Enforce: launch.EnforceRequire}); err != nil {
		for _, e := range events() {
			if e.Kind == mcpconn.Stderr {
				t.Logf("stderr: %s", e.Text)
			}
		}
		t.Fatalf("python3 %s enforced: %v", script, err)
	}
	t.Logf("started enforced in %v", time.Since(start).Round(time.Millisecond))
	e := connectedPolicy(t, events, "python", "")
	if !e.Enforced {
		t.Fatalf("Connected says %+v; want enforced", e)
	}
	for _, pp := range e.Policy.Beyond() {
		if pp.Why != launch.WhySystem && pp.Why != launch.WhyDevice {
			t.Logf("runtime: %s %s (%s)", pp.Path, pp.Access, pp.Why)
		}
		if within(pp.Path, h.home) || within(h.home, pp.Path) {
			t.Errorf("may open %s (%s, %s): home beyond the consent", pp.Path, pp.Access, pp.Why)
		}
	}
	call := func(tool string, args map[string]any) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return hub.CallTool(ctx, "python", tool, args)
	}
	readFirst := func(p string) (string, error) { return call("read_first", map[string]any{"path": p}) }
	roots := func() ([]string, error) {
		out, err := call("roots", nil)
		if err != nil {
			return nil, err
		}
		var rs []struct{ URI string }
		if err := json.Unmarshal([]byte(out), &rs); err != nil {
			return nil, fmt.Errorf("roots answered %q: %w", out, err)
		}
		var got []string
		for _, r := range rs {
			got = append(got, r.URI)
		}
		if rs == nil {
			return nil, fmt.Errorf("not fetched yet")
		}
		return got, nil
	}
	refused := func(step string, files ...string) {
		t.Helper()
		for _, f := range files {
			out, err := readFirst(f)
			if err == nil || !strings.HasPrefix(out, "EACCES:") {
				t.Errorf("%s: reading %s: %q, %v; want EACCES", step, f, out, err)
			}
		}
	}

	testproc.Eventually(t, "the Python server to fetch its (empty) roots", func() (string, bool) {
		got, err := roots()
		return fmt.Sprint(got, err), err == nil && len(got) == 0
	})
	refused("before consent", filepath.Join(h.a, "f"), filepath.Join(h.b, "f"), h.key, h.secret)

	a := testproc.Root(t, h.a)
	hub.SetRoots([]consent.Root{a})
	testproc.Eventually(t, "the Python server to fetch a", func() (string, bool) {
		got, err := roots()
		return fmt.Sprint(got, err), err == nil && slices.Equal(got, []string{a.URI})
	})
	testproc.Eventually(t, "the Python server to read a file in a", func() (string, bool) {
		out, err := readFirst(filepath.Join(h.a, "f"))
		return fmt.Sprint(out, err), err == nil && out == "private"
	})
	refused("consented a", filepath.Join(h.b, "f"), h.key, h.secret, filepath.Join(h.arg, "f"))
	if !slices.ContainsFunc(events(), func(e mcpconn.Event) bool {
		return e.Kind == mcpconn.Fetched && e.Server == "python" && slices.Equal(e.URIs, []string{a.URI})
	}) {
		t.Errorf("no Fetched event with exactly a (%s)", a.URI)
	}
	if e := connectedPolicy(t, events, "python", h.a); !e.Enforced {
		t.Errorf("the start that grants a: %+v; want enforced", e)
	}
}

// TestEnforcedNpxColdCache: server-filesystem through npx -y with an
// empty npm cache (npm_config_cache), enforce = require: npx downloads
// the package into that cache under the ruleset, the server answers
// within the first-start budget (FirstRunInitTimeout), then lists exactly
// the consented folder and cannot read outside it.
func TestEnforcedNpxColdCache(t *testing.T) {
	needLandlock(t)
	if testing.Short() {
		t.Skip("downloads server-filesystem from the npm registry: not in -short mode")
	}
	npx, err := exec.LookPath("npx")
	if err != nil {
		testskip.Skip(t, "npm servers", "npx not installed: bash .ci/run installs node and npm")
	}
	testskip.NpmRegistry(t)
	h := plantHome(t)
	cache := filepath.Join(tempDir(t), "npm-cache")
	must(t, os.Mkdir(cache, 0o700))
	t.Setenv("npm_config_cache", cache)

	hub := mcpconn.NewHub(mcpconn.Options{Timing: testTiming, Logger: testproc.Logger(t)}) // the default budgets: FirstRunInitTimeout for the first start
	events := collect(hub)
	defer hub.Close()
	ctx := context.Background()
	spec := mcpconn.Spec{Name: "fs", Command: []string{npx, "-y", "@modelcontextprotocol/server-filesystem"}, Enforce: launch.EnforceRequire}
	start := time.Now()
	err = hub.Connect(ctx, spec)
	took := time.Since(start)
	if err != nil {
		for _, e := range events() {
			if e.Kind == mcpconn.Stderr {
				t.Logf("stderr: %s", e.Text)
			}
		}
		t.Fatalf("npx -y server-filesystem, enforced, cold cache: %v (after %v)", err, took.Round(time.Millisecond))
	}
	e := connectedPolicy(t, events, "fs", "")
	var budgets []time.Duration // one a start: a retry would show here
	for _, ev := range events() {
		if ev.Kind == mcpconn.Connecting && ev.Server == "fs" {
			budgets = append(budgets, ev.Timeout)
		}
	}
	t.Logf("cold npx start (download included), enforced: %v; server %s %s; starts with their budgets %v", took.Round(time.Millisecond),
		lastConnected(events, "fs").ServerName, lastConnected(events, "fs").ServerVersion, budgets)
	if len(budgets) != 1 || budgets[0] != mcpconn.FirstRunInitTimeout {
		t.Errorf("starts with their budgets %v; want one start, with the first-start budget %v", budgets, mcpconn.FirstRunInitTimeout)
	}
	if took > mcpconn.FirstRunInitTimeout {
		t.Errorf("the cold start took %v, beyond the first-start budget %v", took, mcpconn.FirstRunInitTimeout)
	}
	if !e.Enforced || !slices.ContainsFunc(e.Policy.Paths, func(pp launch.PolicyPath) bool { return pp.Path == cache && pp.Why == "npm cache" }) {
		t.Errorf("Connected says %+v; want enforced, granting the npm cache %s", e, cache)
	}
	if _, err := os.Stat(filepath.Join(cache, "_npx")); err != nil {
		t.Errorf("npx left nothing in the cold cache: %v", err)
	}
	// npm made the package's bin executable with chmod(2), a path form
	// the guard answers (seccomp_linux.go): inside the cache it works.
	bins, _ := filepath.Glob(filepath.Join(cache, "_npx", "*", "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	if len(bins) != 1 {
		t.Errorf("the package's bin in the cache: %v", bins)
	} else if fi, err := os.Stat(bins[0]); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("npm's chmod of its bin in the cache did not take: %v, %v", fi.Mode(), err)
	}
	for _, pp := range e.Policy.Beyond() {
		if within(pp.Path, h.home) || within(h.home, pp.Path) {
			t.Errorf("may open %s (%s, %s): home beyond the consent", pp.Path, pp.Access, pp.Why)
		}
	}

	call := func(tool string, args map[string]any) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return hub.CallTool(ctx, "fs", tool, args)
	}
	a := testproc.Root(t, h.a)
	hub.SetRoots([]consent.Root{a})
	var listed string
	testproc.Eventually(t, "server-filesystem to list exactly a", func() (string, bool) {
		out, err := call("list_allowed_directories", nil)
		listed = out
		return fmt.Sprint(out, err), err == nil && slices.Equal(allowedDirs(out), []string{h.a})
	})
	t.Logf("list_allowed_directories: %q", listed)
	testproc.Eventually(t, "server-filesystem to read a", func() (string, bool) {
		out, err := call("read_text_file", map[string]any{"path": filepath.Join(h.a, "f")})
		return fmt.Sprint(out, err), err == nil && out == "private"
	})
	for _, p := range []string{filepath.Join(h.b, "f"), h.key, h.secret} {
		if out, err := call("read_text_file", map[string]any{"path": p}); err == nil || strings.Contains(out, "private") {
			t.Errorf("consented a, it read %s: %q, %v", p, out, err)
		}
	}
	// Its own writes in the consented folder work under the guard's
	// filter (server-filesystem writes a temporary file and renames it).
	written := filepath.Join(h.a, "written.txt")
	if out, err := call("write_file", map[string]any{"path": written, "content": "from the server"}); err != nil {
		t.Errorf("write_file in a: %q, %v", out, err)
	} else if b, err := os.ReadFile(written); err != nil || string(b) != "from the server" {
		t.Errorf("what server-filesystem wrote in a: %q, %v", b, err)
	}
	if out, err := call("write_file", map[string]any{"path": filepath.Join(h.b, "written.txt"), "content": "x"}); err == nil && !strings.Contains(out, "denied") {
		t.Errorf("write_file in b, not consented: %q", out)
	}
}

// allowedDirs are the folders in server-filesystem's answer to
// list_allowed_directories ("Allowed directories:\n/a\n/b").
func allowedDirs(out string) []string {
	var dirs []string
	for line := range strings.SplitSeq(out, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "/") {
			dirs = append(dirs, line)
		}
	}
	return dirs
}

// lastConnected is server's latest Connected event (zero if none).
func lastConnected(events func() []mcpconn.Event, server string) mcpconn.Event {
	var last mcpconn.Event
	for _, e := range events() {
		if e.Kind == mcpconn.Connected && e.Server == server {
			last = e
		}
	}
	return last
}
