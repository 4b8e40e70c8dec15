package mcpconn

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

func init() {
	// The tests that are not about enforcement keep what they test: a
	// server notified of a change (not restarted under a new ruleset),
	// writing its pid files and records where the test says. The
	// enforcement tests ask for it (Spec.Enforce; mcpconn/enforcetest);
	// mcpconn/launch's TestEnforceDefaultIsOn checks what the default is.
	defaultEnforce = launch.EnforceOff
}

// TestMain lets the test binary act as a stdio MCP server (the demo server)
// when ROOTPICK_TEST_SERVE is set, so stdio sessions are tested against a
// real child process.
func TestMain(m *testing.M) {
	testproc.NoRaceExitSleep()
	// The servers the tests start run under a guard, as rootpick's do,
	// except in a fault mode run with ROOTPICK_TEST_NO_GUARD (a program
	// that never calls GuardMain starts its servers unguarded).
	if os.Getenv("ROOTPICK_TEST_NO_GUARD") == "" {
		launch.GuardMain()
	}
	faultserver.Serve(faultModes) // faults_test.go
	testskip.Exit("mcpconn", m.Run(), "as root", "not root")
}

// root makes the folder name under a temporary folder and returns its
// root: served roots are watched, so they must exist.
func root(t testing.TB, name string) consent.Root {
	return testproc.Root(t, filepath.Join(tempDir(t), name))
}

func uris(roots []*mcp.Root) []string {
	out := make([]string, len(roots))
	for i, r := range roots {
		out[i] = r.URI
	}
	slices.Sort(out)
	return out
}

// hangBound is how long a step that rootpick promises to be quick (a quit
// within 3 s, a withdrawal or a revoke-all within 1 s) may take in a test
// before it counts as hung: far above the promise, so that a loaded
// machine does not fail the test. The promised figures are measured by
// benchmarks (BenchmarkClose, BenchmarkWithdraw, BenchmarkRevokeAll) and
// reported in docs/performance.md.
const hangBound = 20 * time.Second

// collect drains hub events into a slice the test can inspect.
func collect(h *Hub) func() []Event { return testproc.Collect(h.Events()) }

func TestDemoInMemoryGetsExactlyTheConsentedSet(t *testing.T) {
	ctx := context.Background()
	demo := NewDemo(nil, nil)
	// One confirmed change is one list_changed, even when it both removes
	// and adds. The demo fetches on goroutines of its own, whose order says
	// nothing; this probe, in the server's receiving path, sees the
	// notifications in the order they came and asks roots/list before the
	// next one is handled.
	var probeMu sync.Mutex
	var announced [][]string // what a roots/list answered right after each list_changed
	demo.Server().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/roots/list_changed" {
				got := []string{"roots/list failed"}
				if res, err := req.GetSession().(*mcp.ServerSession).ListRoots(ctx, nil); err == nil {
					got = uris(res.Roots)
				}
				probeMu.Lock()
				announced = append(announced, got)
				probeMu.Unlock()
			}
			return next(ctx, method, req)
		}
	})
	probed := func() [][]string {
		probeMu.Lock()
		defer probeMu.Unlock()
		return slices.Clone(announced)
	}
	hub := NewHub(Options{})
	events := collect(hub)
	defer hub.Close()

	if err := hub.Connect(ctx, Spec{Demo: demo}); err != nil {
		t.Fatal(err)
	}
	// Before any consent the server fetches, and gets nothing.
	waitFor(t, "first fetch", func() bool { return demo.Fetches() >= 1 })
	if got := demo.Roots(); len(got) != 0 {
		t.Fatalf("before consent the server holds %v, want nothing", uris(got))
	}

	a, b, c, d := root(t, "a"), root(t, "b b"), root(t, "c"), root(t, "d")
	// The last step is a barrier: its list_changed comes after every one
	// of the steps before, so once the probe has seen d, it has seen them
	// all (a second notification of {} included).
	steps := [][]consent.Root{{a, b}, {b, c}, {}, {d}}
	var want [][]string
	for _, set := range steps {
		before := demo.Fetches()
		hub.SetRoots(set)
		want = append(want, rootURIs(set))
		waitFor(t, fmt.Sprint("server to hold ", want[len(want)-1]), func() bool {
			return slices.Equal(uris(demo.Roots()), want[len(want)-1])
		})
		if n := demo.Fetches() - before; n < 1 {
			t.Fatalf("changing to %v made the server fetch %d times", want[len(want)-1], n)
		}
		waitFor(t, "the probe to see the change", func() bool {
			got := probed()
			return len(got) > 0 && slices.Equal(got[len(got)-1], want[len(want)-1])
		})
	}
	if got := probed(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("%d changes were announced by %d list_changed, answered %v; want one each: %v", len(want), len(got), got, want)
	}
	hub.SetRoots(nil)
	waitFor(t, "server to hold nothing", func() bool { return len(demo.Roots()) == 0 })

	// Every Fetched event carries what the server was answered, and the last
	// one is the empty set.
	waitFor(t, "fetched events", func() bool {
		evs := events()
		for i := len(evs) - 1; i >= 0; i-- {
			if evs[i].Kind == Fetched {
				return len(evs[i].URIs) == 0 && evs[i].Server == "rootpick-demo"
			}
		}
		return false
	})
	var connected bool
	for _, e := range events() {
		if e.Kind == Connected {
			connected = e.ServerName == "rootpick-demo" && e.Text == DefaultProtocolVersion
		}
	}
	if !connected {
		t.Fatalf("no Connected event naming rootpick-demo at %s: %+v", DefaultProtocolVersion, events())
	}
}

func TestRootsSetBeforeConnectAreServed(t *testing.T) {
	demo := NewDemo(nil, nil)
	hub := NewHub(Options{})
	defer hub.Close()
	x := root(t, "x")
	hub.SetRoots([]consent.Root{x})
	if err := hub.Connect(context.Background(), Spec{Demo: demo}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "server to hold x", func() bool {
		return slices.Equal(uris(demo.Roots()), []string{x.URI})
	})
}

func TestStdioServerStderrAndShutdown(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	hub := NewHub(Options{})
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Command: []string{exe}}); err != nil {
		t.Fatal(err)
	}
	p := root(t, "p")
	hub.SetRoots([]consent.Root{p})
	// The child records each answer it receives on its stderr, which must
	// come back as Stderr events, never on our terminal.
	waitFor(t, "child to report the new root on stderr", func() bool {
		for _, e := range events() {
			if e.Kind == Stderr && e.Text == `{"fetch":2,"roots":[{"name":"p","uri":"`+p.URI+`"}]}` {
				return true
			}
		}
		return false
	})
	hub.Close()
	var sawStart bool
	for _, e := range events() {
		if e.Kind == Stderr && e.Text == "demo server starting\x1b[31m" {
			sawStart = true
		}
	}
	if !sawStart {
		t.Fatalf("stderr line not relayed verbatim: %+v", events())
	}
}

func TestCrashingServerReportsFailure(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOTPICK_TEST_SERVE", "crash")
	hub := NewHub(Options{})
	defer hub.Close()
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Command: []string{exe}}); err == nil {
		t.Fatal("connecting to a server that exits at once succeeded")
	}
	waitFor(t, "failed event and stderr", func() bool {
		var failed, stderr bool
		for _, e := range events() {
			failed = failed || e.Kind == Failed
			stderr = stderr || (e.Kind == Stderr && e.Text == "about to crash")
		}
		return failed && stderr
	})
}

func TestMissingCommandFails(t *testing.T) {
	hub := NewHub(Options{})
	defer hub.Close()
	err := hub.Connect(context.Background(), Spec{Command: []string{"/nonexistent/rootpick-no-such-server"}})
	if err == nil {
		t.Fatal("want an error for a missing command")
	}
}

func TestSpecLabel(t *testing.T) {
	for _, tc := range []struct {
		spec Spec
		want string
	}{
		{Spec{Name: "x", Command: []string{"y"}}, "x"},
		{Spec{Demo: &Demo{}}, "rootpick-demo"},
		{Spec{URL: "http://127.0.0.1:9/mcp"}, "http://127.0.0.1:9/mcp"},
		{Spec{Command: []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"}}, "server-filesystem"},
		{Spec{Command: []string{"/usr/bin/python3", "server.py"}}, "server.py"},
		{Spec{Command: []string{"/usr/local/bin/my-tool", "--flag", "x"}}, "my-tool"},
		{Spec{Command: []string{"rootpick", "serve-demo"}}, "rootpick"},
	} {
		if got := tc.spec.Label(); got != tc.want {
			t.Errorf("%+v.Label() = %q, want %q", tc.spec, got, tc.want)
		}
	}
}

// TestCloseWhileASilentServerStarts: a server that never answers the
// handshake must not keep Close (or rootpick's exit) waiting, and must not
// outlive the hub.
func TestCloseWhileASilentServerStarts(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "silent-marker")
	hub := NewHub(Options{})
	done := make(chan error, 1)
	go func() {
		done <- hub.Connect(context.Background(), Spec{Command: []string{"sh", "-c", "sleep 30; echo " + marker}})
	}()
	waitFor(t, "the silent server to start", func() bool { return len(faultserver.ServerPids(marker)) > 0 })
	start := time.Now()
	hub.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Connect to a silent server succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Connect still blocked 5s after Close")
	}
	if d := time.Since(start); d > hangBound {
		t.Fatalf("Close took %v", d)
	}
	waitFor(t, "the silent server to be gone", func() bool { return len(faultserver.ServerPids(marker)) == 0 })
}

// TestCloseEndsGrandchildren: a stdio server whose child ignores SIGTERM
// (as npx's node may) must be gone, grandchild included, when Close returns.
func TestCloseEndsGrandchildren(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "grandchild-marker")
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	script := `(trap "" TERM; sleep 30; echo ` + marker + `) & exec "$0"`
	for range 2 { // the race this guards against lost 2 runs in 3
		hub := NewHub(Options{})
		if err := hub.Connect(context.Background(), Spec{Command: []string{"sh", "-c", script, exe}}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the grandchild to start", func() bool { return len(faultserver.ServerPids(marker)) > 0 })
		hub.Close()
		if pids := faultserver.ServerPids(marker); len(pids) > 0 {
			t.Fatalf("grandchild %v still running after Close returned", pids)
		}
	}
}

func TestURLSecretsNeverShown(t *testing.T) {
	spec := Spec{URL: "http://user:s3cret@127.0.0.1:1/mcp?api_key=TOKEN123"}
	if l := spec.Label(); strings.Contains(l, "s3cret") || strings.Contains(l, "TOKEN123") || strings.Contains(l, "user") {
		t.Fatalf("label %q shows a secret", l)
	}
	hub := NewHub(Options{})
	defer hub.Close()
	events := collect(hub)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := hub.Connect(ctx, spec)
	if err == nil {
		t.Fatal("connecting to a closed port succeeded")
	}
	if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "TOKEN123") {
		t.Fatalf("error shows a secret: %v", err)
	}
	for _, e := range events() {
		if strings.Contains(fmt.Sprint(e), "s3cret") || strings.Contains(fmt.Sprint(e), "TOKEN123") {
			t.Fatalf("event shows a secret: %+v", e)
		}
	}
}

// TestSwapIsAtomic asks roots/list without pause while the set is swapped
// back and forth: no answer may hold both sets (a revoked root served with
// its replacement), or neither.
func TestSwapIsAtomic(t *testing.T) {
	demo := NewDemo(nil, nil)
	hub := NewHub(Options{})
	defer hub.Close()
	if err := hub.Connect(context.Background(), Spec{Demo: demo}); err != nil {
		t.Fatal(err)
	}
	a, b := root(t, "a"), root(t, "b")
	hub.SetRoots([]consent.Root{a})
	var ss *mcp.ServerSession
	for s := range demo.Server().Sessions() {
		ss = s
	}
	if ss == nil {
		t.Fatal("no server session")
	}
	stop := make(chan struct{})
	bad := make(chan string, 1)
	answers := 0
	go func() {
		defer close(bad)
		for {
			select {
			case <-stop:
				return
			default:
			}
			res, err := ss.ListRoots(context.Background(), nil)
			if err != nil {
				continue
			}
			answers++
			if got := uris(res.Roots); len(got) != 1 {
				bad <- fmt.Sprint(got)
				return
			}
		}
	}()
	for i := range 200 {
		hub.SetRoots([]consent.Root{[]consent.Root{a, b}[i%2]})
		time.Sleep(time.Millisecond)
	}
	close(stop)
	if got, ok := <-bad; ok {
		t.Fatalf("an answer during a swap held %s", got)
	}
	t.Logf("%d answers during 200 swaps, each exactly one root", answers)
}

// TestServerStderrHidesSecrets: what a server prints on stderr reaches the
// pane (Stderr events) and a failure's reason without the secrets in it.
func TestServerStderrHidesSecrets(t *testing.T) {
	hub := NewHub(Options{})
	defer hub.Close()
	events := collect(hub)
	script := `echo "connecting to https://bob:hunter22@mcp.example.com/x?token=SEKRITTOKEN42" >&2; echo "using --api-key sk-abcdefghijklmnopqrstuvwx" >&2; exit 3`
	err := hub.Connect(context.Background(), Spec{Command: []string{"sh", "-c", script}})
	if err == nil {
		t.Fatal("connecting to a server that exits at once succeeded")
	}
	waitFor(t, "the failure and both stderr lines", func() bool {
		var failed, lines int
		for _, e := range events() {
			if e.Kind == Failed {
				failed++
			}
			if e.Kind == Stderr {
				lines++
			}
		}
		return failed > 0 && lines >= 2
	})
	var seen []string
	for _, e := range events() {
		seen = append(seen, fmt.Sprintf("%s %v %+v", e.Text, e.Err, e))
	}
	seen = append(seen, err.Error())
	for _, text := range seen {
		for _, secret := range []string{"hunter22", "SEKRITTOKEN42", "abcdefghijklmnopqrstuvwx"} {
			if strings.Contains(text, secret) {
				t.Errorf("a server's secret %q reached an event or error: %q", secret, text)
			}
		}
	}
	if !slices.ContainsFunc(events(), func(e Event) bool { return e.Kind == Stderr && strings.Contains(e.Text, "mcp.example.com/x") }) {
		t.Error("the stderr line lost what is not secret")
	}
}

// The helpers the tests share with mcpconn/launch's.
var (
	tempDir = testproc.TempDir
	waitFor = testproc.WaitFor
	must    = testproc.Must
)
