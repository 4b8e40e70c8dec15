package enforcetest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/mcpconn/proxy"
)

// The "needs-settings" server reads its settings file (the path after
// ROOTPICK_TEST_SETTINGS=) before it answers anything, and exits 1 with
// Go's own error when it cannot, as a server whose settings file lies
// outside its runtime does under enforcement.
func init() { faultModes["needs-settings"] = serveNeedsSettings }

func serveNeedsSettings() {
	for _, a := range os.Args {
		if p, ok := strings.CutPrefix(a, "ROOTPICK_TEST_SETTINGS="); ok {
			if _, err := os.ReadFile(p); err != nil {
				fmt.Fprintln(os.Stderr, "reading settings:", err)
				os.Exit(1)
			}
		}
	}
	if err := mcpconn.NewDemo(nil, os.Stderr).ServeStdio(context.Background()); err != nil {
		os.Exit(1)
	}
}

// settingsOutside is a settings file in a folder of its own, outside
// anything a server's policy grants.
func settingsOutside(t *testing.T) string {
	t.Helper()
	p := filepath.Join(tempDir(t), "config", "settings.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// settingsHub is, where the kernel has Landlock, a settings file outside
// anything a policy grants and a hub whose events are collected (closed
// when the test ends).
func settingsHub(t *testing.T) (settings string, hub *mcpconn.Hub, events func() []mcpconn.Event) {
	t.Helper()
	needLandlock(t)
	settings = settingsOutside(t)
	hub = mcpconn.NewHub(mcpconn.Options{Timing: testTiming})
	events = collect(hub)
	t.Cleanup(func() { _ = hub.Close() })
	return settings, hub, events
}

// TestRefusedIsSaidAndAllowed: an enforced server that exits because it
// could not read its settings file outside its runtime is said to be
// stopped by enforcement, naming the file (a Refused event, and the
// Failed reason), not only "exited with status 1"; Hub.Allow lets it read
// the file and starts it again at once, and it connects, enforced.
func TestRefusedIsSaidAndAllowed(t *testing.T) {
	settings, hub, events := settingsHub(t)
	cmd := testproc.SelfServer(t, "needs-settings", testproc.UniqueMarker("needs-settings"), "ROOTPICK_TEST_SETTINGS="+settings)
	_ = hub.Connect(context.Background(), mcpconn.Spec{Name: "cfg", Command: cmd, Enforce: launch.EnforceRequire})
	var refused, failed mcpconn.Event
	waitFor(t, "the refusal and the failure", func() bool {
		evs := events()
		i := slices.IndexFunc(evs, func(e mcpconn.Event) bool { return e.Kind == mcpconn.Refused && e.Server == "cfg" })
		j := slices.IndexFunc(evs, func(e mcpconn.Event) bool { return e.Kind == mcpconn.Failed && e.Server == "cfg" })
		if i >= 0 && j >= 0 {
			refused, failed = evs[i], evs[j]
		}
		return i >= 0 && j >= 0
	})
	if refused.Path != settings || refused.Text != "read" || refused.Reason != "refused: "+settings+" (read)" {
		t.Errorf("the Refused event: %+v", refused)
	}
	if want := "stopped by enforcement? refused: " + settings + " (read); exited with status 1"; failed.Reason != want || !strings.HasPrefix(failed.Err.Error(), want) {
		t.Errorf("the failure says %q (%v); want %q", failed.Reason, failed.Err, want)
	}
	if !hub.Allow("cfg", settings) {
		t.Fatal("Allow found no server cfg")
	}
	e := connectedEvent(t, events, "cfg")
	if e.Enforcement == nil || !e.Enforcement.Enforced || !slices.ContainsFunc(e.Enforcement.Policy.Paths, func(pp launch.PolicyPath) bool {
		return pp.Path == settings && pp.Why == launch.WhyAllowRead
	}) {
		t.Errorf("after Allow it connected with %+v; want enforced, the file allowed to read", e.Enforcement)
	}
	if hub.Allow("nosuch", settings) {
		t.Error("Allow of a server that does not exist said it did")
	}
}

// TestRunAdvisoryOnce: RunAdvisory starts a refused server again without
// enforcement, saying so; a server that requires enforcement is not
// changed.
func TestRunAdvisoryOnce(t *testing.T) {
	settings, hub, events := settingsHub(t)
	cmd := testproc.SelfServer(t, "needs-settings", testproc.UniqueMarker("needs-settings-adv"), "ROOTPICK_TEST_SETTINGS="+settings)
	_ = hub.Connect(context.Background(), mcpconn.Spec{Name: "on", Command: cmd, Enforce: launch.EnforceOn})
	_ = hub.Connect(context.Background(), mcpconn.Spec{Name: "req", Command: cmd, Enforce: launch.EnforceRequire})
	waitFor(t, "both refused", func() bool { return has(events(), mcpconn.Refused, "on") && has(events(), mcpconn.Refused, "req") })
	if hub.RunAdvisory("req") {
		t.Error("RunAdvisory changed a server that requires enforcement")
	}
	if !hub.RunAdvisory("on") {
		t.Fatal("RunAdvisory did not change the server")
	}
	if e := connectedEvent(t, events, "on").Enforcement; e == nil || e.Enforced || e.Advisory != "enforce is off for this server" {
		t.Errorf("after RunAdvisory it connected with %+v; want advisory", e)
	}
	if has(events(), mcpconn.Connected, "req") {
		t.Error("the server that requires enforcement connected: it was run without it")
	}
}

// TestProxySaysRefused: behind rootpick proxy, the same server's refusal
// is said on stderr with the flag that allows it, and in its status.
func TestProxySaysRefused(t *testing.T) {
	needLandlock(t)
	settings := settingsOutside(t)
	notices := &testproc.Buffer{}
	cmd := testproc.SelfServer(t, "needs-settings", testproc.UniqueMarker("needs-settings-proxy"), "ROOTPICK_TEST_SETTINGS="+settings)
	var mu sync.Mutex
	var sts []proxy.Status
	statuses := func() []proxy.Status { mu.Lock(); defer mu.Unlock(); return slices.Clone(sts) }
	// A host that sends initialize and waits: the server fails before it
	// answers, again and again.
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- proxy.Run(ctx, st, proxy.Options{Command: cmd, Name: "settings", Enforce: launch.EnforceRequire, Notice: notices, Logger: testproc.Logger(t), Timing: testTiming,
			Status: func(s proxy.Status) { mu.Lock(); sts = append(sts, s); mu.Unlock() }})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Logf("the proxy returned %v", err)
		}
	}()
	host, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := jsonrpc.MakeID(float64(1))
	params, _ := json.Marshal(map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "h", "version": "1"}})
	if err := host.Write(ctx, &jsonrpc.Request{ID: id, Method: "initialize", Params: params}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the refusal in the status", func() bool {
		return slices.ContainsFunc(statuses(), func(s proxy.Status) bool { return slices.Contains(s.Refused, "refused: "+settings+" (read)") })
	})
	if st := statuses(); st[len(st)-1].Name != "settings" {
		t.Errorf("the status names the server %q, not as its entry does (settings)", st[len(st)-1].Name)
	}
	waitFor(t, "the refusal on stderr", func() bool {
		return strings.Contains(notices.String(), "enforcement refused the server "+settings+" (read); if it needs it, add --allow-read="+settings)
	})
	waitFor(t, "the status to say why it ended", func() bool {
		return slices.ContainsFunc(statuses(), func(s proxy.Status) bool {
			return strings.HasPrefix(s.Error, "stopped by enforcement? refused: "+settings)
		})
	})
}

func init() {
	// print-env says on stderr the values of the variables named after
	// ROOTPICK_TEST_ENV= (comma-separated), "NAME=VALUE" each, then
	// serves as the demo does.
	faultModes["print-env"] = func() {
		for _, a := range os.Args {
			if names, ok := strings.CutPrefix(a, "ROOTPICK_TEST_ENV="); ok {
				for n := range strings.SplitSeq(names, ",") {
					fmt.Fprintf(os.Stderr, "env %s=%s\n", n, os.Getenv(n))
				}
			}
		}
		_ = mcpconn.NewDemo(nil, os.Stderr).ServeStdio(context.Background())
	}
}

// TestNetworkOffTellsLaunchersOffline: an enforced server with the
// network off is started with npm and uv told to stay offline (npx -y
// would otherwise wait a minute on the registry it cannot reach, and the
// host give up: found walking a newcomer's first start); with the
// network on, it is not.
func TestNetworkOffTellsLaunchersOffline(t *testing.T) {
	needLandlock(t)
	t.Setenv("npm_config_offline", "")
	t.Setenv("UV_OFFLINE", "")
	hub := mcpconn.NewHub(mcpconn.Options{Timing: testTiming})
	events := collect(hub)
	defer hub.Close()
	for _, net := range []launch.Network{launch.NetworkOff, launch.NetworkOn} {
		cmd := testproc.SelfServer(t, "print-env", testproc.UniqueMarker("print-env-"+string(net)), "ROOTPICK_TEST_ENV=npm_config_offline,UV_OFFLINE")
		_ = hub.Connect(context.Background(), mcpconn.Spec{Name: string(net), Command: cmd, Enforce: launch.EnforceRequire, Network: net})
	}
	lines := func(server string) string {
		var out []string
		for _, e := range events() {
			if e.Kind == mcpconn.Stderr && e.Server == server {
				out = append(out, e.Text)
			}
		}
		return strings.Join(out, "\n")
	}
	waitFor(t, "both servers' env lines", func() bool {
		return strings.Count(lines("off"), "env ") == 2 && strings.Count(lines("on"), "env ") == 2
	})
	if got := lines("off"); !strings.Contains(got, "env npm_config_offline=true") || !strings.Contains(got, "env UV_OFFLINE=1") {
		t.Errorf("network off: %s", got)
	}
	if got := lines("on"); strings.Contains(got, "=true") || strings.Contains(got, "=1") {
		t.Errorf("network on: %s", got)
	}
}
