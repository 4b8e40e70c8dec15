package mcpconn

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// The recorder fault server is registered here rather than in
// faults_test.go's table so that this test stays in a file of its own.
func init() { faultModes["recorder"] = serveRecorder }

// recorderLine is one line of a recorder's file: "start" when the process
// began serving, else one roots/list answer it received. T is the wall
// clock (Unix nanoseconds), comparable with the test's own.
type recorderLine struct {
	Pid   int         `json:"pid"`
	T     int64       `json:"t"`
	Start bool        `json:"start,omitempty"`
	Fetch int         `json:"fetch,omitempty"`
	Roots []*mcp.Root `json:"roots,omitempty"`
}

// serveRecorder serves the demo server and appends to $ROOTPICK_RECORD,
// with its pid and the time, when it starts and every answer it receives:
// what a server holds, and since when, without going through its stderr
// (which a flooding neighbour's lines may crowd out of the event queue).
//
// With ROOTPICK_EXIT_TAKES set (a duration) it takes that long to exit once
// its input has ended or it got SIGTERM, whichever comes first, as a server
// that flushes or closes what it holds before it exits does. With
// ROOTPICK_INIT_TAKES it takes that long before it reads initialize, as a
// server that loads a runtime or an index first does.
func serveRecorder() {
	f, err := os.OpenFile(os.Getenv("ROOTPICK_RECORD"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		os.Exit(1)
	}
	w := &recordWriter{f: f}
	w.write(recorderLine{Start: true})
	takes, _ := time.ParseDuration(os.Getenv("ROOTPICK_EXIT_TAKES"))
	var ending sync.Once
	exit := func(code int) {
		ending.Do(func() {
			time.Sleep(takes)
			os.Exit(code)
		})
	}
	if d, _ := time.ParseDuration(os.Getenv("ROOTPICK_INIT_TAKES")); d > 0 {
		time.Sleep(d) // reads nothing meanwhile: initialize waits
	}
	if takes > 0 {
		term := make(chan os.Signal, 1)
		signal.Notify(term, syscall.SIGTERM)
		go func() {
			<-term
			exit(0)
		}()
	}
	if err := NewDemo(nil, w).ServeStdio(context.Background()); err != nil {
		exit(1)
	}
	exit(0)
}

// recordWriter turns the demo's JSON lines into recorderLines.
type recordWriter struct {
	mu sync.Mutex
	f  *os.File
}

func (w *recordWriter) Write(p []byte) (int, error) {
	var l recorderLine
	if err := json.Unmarshal(p, &l); err != nil {
		return 0, err
	}
	w.write(l)
	return len(p), nil
}

func (w *recordWriter) write(l recorderLine) {
	l.Pid, l.T = os.Getpid(), time.Now().UnixNano()
	b, _ := json.Marshal(l)
	w.mu.Lock()
	defer w.mu.Unlock()
	_, _ = w.f.Write(append(b, '\n')) // one write a line: O_APPEND keeps lines whole
}

func readRecord(t testing.TB, file string) []recorderLine {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []recorderLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l recorderLine
		if json.Unmarshal(sc.Bytes(), &l) == nil {
			out = append(out, l)
		}
	}
	return out
}

// holds returns what process pid last received, and whether it received
// anything.
func holds(lines []recorderLine, pid int) ([]string, bool) {
	var last []string
	got := false
	for _, l := range lines {
		if l.Pid == pid && !l.Start {
			last, got = uris(l.Roots), true
		}
	}
	return last, got
}

// revokeRig is ten stdio servers behind one hub, as issue 31 measured
// revoke-all with: 8 healthy recorders, one wedged (it stopped reading
// its input and ignores SIGTERM) and one flooding stderr. Half the
// healthy servers exit at once when their input ends; the other half
// take 1 s to exit (ROOTPICK_EXIT_TAKES), even after SIGTERM: a restart
// that waited for them would be a second late.
type revokeRig struct {
	hub    *Hub
	marker string
	files  []string // the healthy servers' records, h0…h7
	names  []string // every server's label
	kinds  func() []stamped
	a, b   consent.Root
}

const rigHealthy = 8

// newRevokeRig starts the rig. With slowStart, each healthy server takes
// the consented folders as its arguments ({roots}), so that every change
// restarts it, and takes slowStart to answer initialize. ROOTPICK_RIG_LOG
// names a file for the hub's debug log, to see where a slow round went.
func newRevokeRig(tb testing.TB, slowStart time.Duration) *revokeRig {
	tb.Helper()
	r := &revokeRig{marker: testproc.UniqueMarker("revokeall")}
	var logger *slog.Logger
	if f := os.Getenv("ROOTPICK_RIG_LOG"); f != "" {
		w, err := os.Create(f)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { w.Close() })
		logger = slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	// The wedge must still be wedged when every root is revoked: the
	// watchdog would otherwise restart it on its own first.
	r.hub = NewHub(Options{Timing: Timing{StuckAfter: time.Minute}, Logger: logger})
	r.kinds = keepEvents(r.hub, Restarting, Connecting, Connected, Fetched, Stuck, Disconnected, Failed, NotFetching, Mismatch)
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	dir := tempDir(tb)
	ctx := context.Background()
	for i := range rigHealthy {
		file := filepath.Join(dir, fmt.Sprintf("h%d.jsonl", i))
		r.files = append(r.files, file)
		// The servers end alike with and without -race: TestMain's
		// testproc.NoRaceExitSleep drops the race detector's 1 s exit sleep.
		cmd := []string{"env", "ROOTPICK_TEST_SERVE=recorder", "ROOTPICK_RECORD=" + file, exe, r.marker}
		if i%2 == 1 {
			cmd = slices.Insert(cmd, 1, "ROOTPICK_EXIT_TAKES=1s")
		}
		if slowStart > 0 {
			cmd = slices.Insert(cmd, 1, "ROOTPICK_INIT_TAKES="+slowStart.String())
			cmd = append(cmd, launch.RootsPlaceholder)
		}
		name := fmt.Sprintf("h%d", i)
		r.names = append(r.names, name)
		if err := r.hub.Connect(ctx, Spec{Name: name, Command: cmd}); err != nil {
			tb.Fatal(err)
		}
	}
	if err := r.hub.Connect(ctx, Spec{Name: "wedge", Command: testproc.SelfServer(tb, "wedge", r.marker)}); err != nil {
		tb.Fatal(err)
	}
	if err := r.hub.Connect(ctx, Spec{Name: "flood", Command: []string{"env", "ROOTPICK_TEST_SERVE=flood", exe, r.marker}}); err != nil {
		tb.Fatal(err)
	}
	r.names = append(r.names, "wedge", "flood")
	r.a, r.b = root(tb, "a"), root(tb, "b")
	return r
}

// consent serves a and b, and waits until every healthy server's current
// process holds both and the wedge's writes block (it wedges at its
// first list_changed). It returns every process each healthy server has
// had so far.
func (r *revokeRig) consent(tb testing.TB) []map[int]bool {
	tb.Helper()
	r.hub.SetRoots([]consent.Root{r.a, r.b})
	both := uris([]*mcp.Root{{URI: r.a.URI}, {URI: r.b.URI}})
	seen := make([]map[int]bool, rigHealthy)
	for i, file := range r.files {
		waitFor(tb, fmt.Sprintf("h%d to hold a and b", i), func() bool {
			lines := readRecord(tb, file)
			if len(lines) == 0 {
				return false
			}
			got, _ := holds(lines, lines[len(lines)-1].Pid)
			return slices.Equal(got, both)
		})
		seen[i] = map[int]bool{}
		for _, l := range readRecord(tb, file) {
			seen[i][l.Pid] = true
		}
	}
	waitFor(tb, "the wedge's writes to block", func() bool {
		c := r.hub.server("wedge").current()
		return c != nil && c.wc.blocked() > 0
	})
	return seen
}

// consentStarting serves a and b to a rig made with slowStart, which
// restarts every healthy server, and returns as soon as each one's new
// process runs (it is still starting: it takes slowStart to answer
// initialize), with every process each has had so far.
func (r *revokeRig) consentStarting(tb testing.TB) []map[int]bool {
	tb.Helper()
	before := make([]map[int]bool, rigHealthy)
	for i, file := range r.files {
		before[i] = map[int]bool{}
		for _, l := range readRecord(tb, file) {
			before[i][l.Pid] = true
		}
	}
	r.hub.SetRoots([]consent.Root{r.a, r.b})
	seen := make([]map[int]bool, rigHealthy)
	for i, file := range r.files {
		waitFor(tb, fmt.Sprintf("h%d's process for a and b to start", i), func() bool {
			lines := readRecord(tb, file)
			return slices.ContainsFunc(lines, func(l recorderLine) bool { return l.Start && !before[i][l.Pid] })
		})
		seen[i] = map[int]bool{}
		for _, l := range readRecord(tb, file) {
			seen[i][l.Pid] = true
		}
	}
	return seen
}

// revoked is what each healthy server did after SetRoots(nil): the new
// process, when it started and when it was first answered roots/list,
// from the SetRoots call.
type revoked struct {
	pid             int
	started, served time.Duration
}

// revoke revokes every root and waits until each healthy server has a
// process it did not have before (seen, from consent) that has been
// answered roots/list; that answer, the first it got, must be empty. The
// wait is a catch-all for a hang.
func (r *revokeRig) revoke(tb testing.TB, seen []map[int]bool) (start time.Time, got []revoked) {
	tb.Helper()
	start = time.Now()
	r.hub.SetRoots(nil)
	got = make([]revoked, rigHealthy)
	for i, file := range r.files {
		waitFor(tb, fmt.Sprintf("h%d's new process to be answered", i), func() bool {
			for _, l := range readRecord(tb, file) {
				if seen[i][l.Pid] {
					continue
				}
				got[i].pid = l.Pid
				if l.Start {
					got[i].started = time.Unix(0, l.T).Sub(start)
					continue
				}
				if len(l.Roots) > 0 {
					tb.Fatalf("h%d's new process %d was answered %v after every root was revoked", i, l.Pid, uris(l.Roots))
				}
				got[i].served = time.Unix(0, l.T).Sub(start)
				return true
			}
			return false
		})
	}
	return start, got
}

// TestRevokeAllRestartsEveryServer: revoking every root restarts each of
// the rig's ten servers, wedged and flooding ones included: each healthy
// server's new process gets no root (its first answer is []), each server
// tells the UI
// Restarting (for the revocation), Connecting, Connected in that order
// and nothing after that says otherwise, every old process is ended, the
// new ones are spared, and Close ends them all. How soon the new processes
// hold nothing is a figure, not a promise checked here: BenchmarkRevokeAll
// reports it (docs/performance.md); the waits here only catch a hang.
func TestRevokeAllRestartsEveryServer(t *testing.T) {
	r := newRevokeRig(t, 0)
	closed := false
	defer func() {
		if !closed {
			r.hub.Close()
		}
	}()
	seen := r.consent(t)
	_, got := r.revoke(t, seen)
	t.Logf("after SetRoots(nil): the healthy servers' new processes started at %v and were answered [] at %v",
		durations(got, func(g revoked) time.Duration { return g.started }), durations(got, func(g revoked) time.Duration { return g.served }))

	// Every old process is ended, the wedged one (deaf to SIGTERM) too.
	waitFor(t, "the old processes gone", func() bool {
		live := faultserver.ServerPids(r.marker)
		for i := range rigHealthy {
			for pid := range seen[i] {
				if slices.Contains(live, fmt.Sprint(pid)) {
					return false
				}
			}
		}
		return true
	})
	// What the UI is told, per server, after its restart for the
	// revocation: Connecting, then Connected, and nothing that says it
	// failed, got roots, or was stuck.
	for _, name := range r.names {
		waitFor(t, name+" connected again after the revocation", func() bool {
			return slices.ContainsFunc(afterRevocation(r.kinds(), name), func(e stamped) bool { return e.Kind == Connected })
		})
	}
	for _, name := range r.names {
		var order []EventKind
		for _, e := range afterRevocation(r.kinds(), name) {
			if e.Kind == Connecting || e.Kind == Connected {
				order = append(order, e.Kind)
			}
			if e.Kind == NotFetching && name == "wedge" {
				continue // true: it asks only after a list_changed
			}
			if e.Kind == Fetched && len(e.URIs) > 0 || slices.Contains([]EventKind{Stuck, Disconnected, Failed, NotFetching, Mismatch}, e.Kind) {
				t.Errorf("%s after the revocation: %v %v %v", name, e.Kind, e.URIs, e.Err)
			}
		}
		if !slices.Equal(order, []EventKind{Connecting, Connected}) {
			t.Errorf("%s after its restart for the revocation: %v, want Connecting then Connected", name, order)
		}
	}
	// Still running: ending an old tree spared the new one.
	live := faultserver.ServerPids(r.marker)
	for i, g := range got {
		if !slices.Contains(live, fmt.Sprint(g.pid)) {
			t.Errorf("h%d's new process %d is gone", i, g.pid)
		}
	}
	closeStart := time.Now()
	r.hub.Close()
	closed = true
	t.Logf("Close took %v", time.Since(closeStart))
	if pids := faultserver.ServerPids(r.marker); len(pids) > 0 {
		t.Errorf("servers %v still running after Close", pids)
	}
}

// durations lists f of each of got.
func durations(got []revoked, f func(revoked) time.Duration) []time.Duration {
	out := make([]time.Duration, len(got))
	for i, g := range got {
		out[i] = f(g).Round(time.Millisecond)
	}
	return out
}

// BenchmarkRevokeAll measures, on the rig of TestRevokeAllRestartsEveryServer
// (8 healthy servers, a wedged one, a flooding one), how long after
// SetRoots(nil) each healthy server holds no roots: its new process has
// been answered roots/list, with nothing (the old one is answered nothing
// from the moment of the call, and is being ended beside it). It prints
// every server's time, each round, and reports the worst and the median
// over all rounds:
//
//	go test -run XXX -bench BenchmarkRevokeAll -benchtime 5x ./mcpconn/
//
// settled: each round consents a and b (one list_changed each; the new
// wedge wedges again), waits until every server holds them, then revokes.
//
// while starting: the healthy servers take the folders as arguments
// ({roots}) and 300 ms to answer initialize; each round consents a and
// b, which restarts them, and revokes as soon as their new processes run,
// mid-handshake. A restart then cuts the handshake short rather than wait
// for it (TestRestartPreemptsAStart).
func BenchmarkRevokeAll(b *testing.B) {
	b.Run("settled", func(b *testing.B) { benchRevokeAll(b, 0) })
	b.Run("while starting", func(b *testing.B) { benchRevokeAll(b, 300*time.Millisecond) })
}

func benchRevokeAll(b *testing.B, slowStart time.Duration) {
	r := newRevokeRig(b, slowStart)
	defer r.hub.Close()
	var all []time.Duration
	for n := 0; b.Loop(); n++ {
		b.StopTimer()
		var seen []map[int]bool
		if slowStart > 0 {
			seen = r.consentStarting(b)
		} else {
			seen = r.consent(b)
		}
		b.StartTimer()
		_, got := r.revoke(b, seen)
		b.StopTimer()
		served := durations(got, func(g revoked) time.Duration { return g.served })
		var line strings.Builder
		for i, d := range served {
			fmt.Fprintf(&line, " h%d %v", i, d)
		}
		fmt.Printf("%s round %d: load %s; holds no roots after%s; worst %v\n", b.Name(), n+1, loadAverage(), line.String(), slices.Max(served))
		all = append(all, served...)
		// The old processes are gone before the next round: they would
		// not count, but they would load the machine.
		waitFor(b, "the old processes gone", func() bool {
			live := faultserver.ServerPids(r.marker)
			for i := range rigHealthy {
				for pid := range seen[i] {
					if slices.Contains(live, fmt.Sprint(pid)) {
						return false
					}
				}
			}
			return true
		})
		b.StartTimer()
	}
	slices.Sort(all)
	b.ReportMetric(float64(all[len(all)-1].Milliseconds()), "worst-ms")
	b.ReportMetric(float64(all[len(all)/2].Milliseconds()), "median-ms")
}

// loadAverage is the first field of /proc/loadavg, or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// server returns the hub's server labelled label, or nil.
func (h *Hub) server(label string) *server {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.servers {
		if s.label == label {
			return s
		}
	}
	return nil
}

// stamped is an event and when the test received it.
type stamped struct {
	Event
	at time.Time
}

// keepEvents drains the hub's events and keeps those of the given kinds
// only: a flooding server's stderr would otherwise pile up in the test.
func keepEvents(h *Hub, kinds ...EventKind) func() []stamped {
	var mu sync.Mutex
	var kept []stamped
	go func() {
		for e := range h.Events() {
			if slices.Contains(kinds, e.Kind) {
				mu.Lock()
				kept = append(kept, stamped{e, time.Now()})
				mu.Unlock()
			}
		}
	}()
	return func() []stamped {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(kept)
	}
}

// afterRevocation returns server's events that follow its restart for
// revoking every root, or nil before that restart.
func afterRevocation(evs []stamped, server string) []stamped {
	for i, e := range evs {
		if e.Server == server && e.Kind == Restarting && strings.Contains(e.Text, "revoked") {
			return slices.DeleteFunc(evs[i+1:], func(e stamped) bool { return e.Server != server })
		}
	}
	return nil
}

// TestRetiredConnectionIsSilent: the old process of a server restarted for
// a revocation is ended while the new one already serves. Until it is gone
// it may still ask roots/list: it must get nothing, even once roots are
// consented again, and what it does must not reach the UI, where it would
// follow the new process's Connected and be taken for its state.
func TestRetiredConnectionIsSilent(t *testing.T) {
	marker := testproc.UniqueMarker("retired")
	hub := NewHub(Options{Timing: testTiming})
	defer hub.Close()
	events := keepEvents(hub, Restarting, Connecting, Connected, Fetched, Stuck, Disconnected, Failed, NotFetching, Verified, Mismatch)
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	if err := hub.Connect(context.Background(), Spec{Name: "s", Command: []string{exe, marker}}); err != nil {
		t.Fatal(err)
	}
	a, b := root(t, "a"), root(t, "b")
	hub.SetRoots([]consent.Root{a})
	waitFor(t, "a verified", func() bool {
		return slices.ContainsFunc(events(), func(e stamped) bool { return e.Kind == Verified && len(e.URIs) == 1 })
	})
	old := hub.server("s").current()
	hub.SetRoots(nil)
	waitFor(t, "the new process connected", func() bool {
		return slices.ContainsFunc(afterRevocation(events(), "s"), func(e stamped) bool { return e.Kind == Connected })
	})
	// Whatever it reports (it would be stuck, say) is dropped: checked once
	// the new process has verified b, which comes after in the queue.
	old.report(Event{Server: "s", Kind: Stuck})
	hub.SetRoots([]consent.Root{b})
	// It asks, as a process still shutting down might: it gets nothing.
	res, err := old.answerRoots(nil)(context.Background(), "roots/list", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.(*mcp.ListRootsResult).Roots; len(got) != 0 {
		t.Errorf("the old process was answered %v", uris(got))
	}
	waitFor(t, "the new process to hold b", func() bool {
		return slices.ContainsFunc(afterRevocation(events(), "s"), func(e stamped) bool {
			return e.Kind == Verified && slices.Equal(e.URIs, []string{b.URI})
		})
	})
	for _, e := range afterRevocation(events(), "s") {
		if !slices.Contains([]EventKind{Connecting, Connected, Fetched, Verified}, e.Kind) {
			t.Errorf("after the restart: %v %v", e.Kind, e.URIs)
		}
	}
}
