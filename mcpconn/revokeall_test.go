package mcpconn

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
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
// that flushes or closes what it holds before it exits does.
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

func readRecord(t *testing.T, file string) []recorderLine {
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

// revokeAllBound is how long after SetRoots(nil) every healthy server's new
// process may take to hold nothing. The target is 1 s; see raceSlack.
var revokeAllBound = time.Second * raceSlack

// TestRevokeAllRestartsEveryServerWithinASecond: 10 stdio servers, 8
// healthy, one wedged (it stopped reading its input and ignores SIGTERM)
// and one flooding stderr. Revoking every root restarts each server, and
// each healthy one's new process must hold nothing within 1 s of
// SetRoots(nil): restarts run in parallel, and none waits for its old
// process to be ended, the wedged one's least of all. Half the healthy
// servers exit at once when their input ends; the other half take 1 s to
// exit (ROOTPICK_EXIT_TAKES), even after SIGTERM: waiting for them would
// alone use up the second.
func TestRevokeAllRestartsEveryServerWithinASecond(t *testing.T) {
	marker := uniqueMarker("revokeall")
	// The wedge must still be wedged when every root is revoked: the
	// watchdog would otherwise restart it on its own first.
	hub := NewHub(Options{Timing: Timing{StuckAfter: time.Minute}})
	kinds := keepEvents(hub, Restarting, Connecting, Connected, Fetched, Stuck, Disconnected, Failed, NotFetching, Mismatch)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := tempDir(t)
	const healthy = 8
	var files []string
	ctx := context.Background()
	for i := range healthy {
		file := filepath.Join(dir, fmt.Sprintf("h%d.jsonl", i))
		files = append(files, file)
		// The servers end alike with and without -race: TestMain's
		// testproc.NoRaceExitSleep drops the race detector's 1 s exit sleep.
		cmd := []string{"env", "ROOTPICK_TEST_SERVE=recorder", "ROOTPICK_RECORD=" + file, exe, marker}
		if i%2 == 1 {
			cmd = slices.Insert(cmd, 1, "ROOTPICK_EXIT_TAKES=1s")
		}
		if err := hub.Connect(ctx, Spec{Name: fmt.Sprintf("h%d", i), Command: cmd}); err != nil {
			t.Fatal(err)
		}
	}
	if err := hub.Connect(ctx, Spec{Name: "wedge", Command: selfServer(t, "wedge", marker)}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOTPICK_TEST_SERVE", "flood")
	if err := hub.Connect(ctx, Spec{Name: "flood", Command: []string{exe, marker}}); err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			hub.Close()
		}
	}()

	a, b := root(t, "a"), root(t, "b")
	hub.SetRoots([]consent.Root{a, b})
	both := uris([]*mcp.Root{{URI: a.URI}, {URI: b.URI}})
	oldPid := make([]int, healthy)
	for i, file := range files {
		waitFor(t, fmt.Sprintf("h%d to hold a and b", i), func() bool {
			lines := readRecord(t, file)
			if len(lines) == 0 {
				return false
			}
			oldPid[i] = lines[len(lines)-1].Pid
			got, _ := holds(lines, oldPid[i])
			return slices.Equal(got, both)
		})
	}
	waitFor(t, "the wedge's writes to block", func() bool {
		c := hub.server("wedge").current()
		return c != nil && c.wc.blocked() > 0
	})

	start := time.Now()
	hub.SetRoots(nil)
	// It waits for no server (half of them take 1 s to end); the bound
	// leaves room for a loaded machine.
	if d := time.Since(start); d > 250*time.Millisecond*raceSlack {
		t.Errorf("SetRoots(nil) took %v", d)
	}
	// The time each healthy server's new process first held nothing: its
	// first answer, [] (it held nothing before it, being new).
	took := make([]time.Duration, healthy)
	began := make([]time.Duration, healthy)
	for i, file := range files {
		// The bound is checked below; the wait leaves room past it, so a
		// slow machine fails with the times rather than with a timeout.
		waitWithin(t, max(5*time.Second, 3*revokeAllBound), fmt.Sprintf("h%d's new process to hold nothing", i), func() bool {
			for _, l := range readRecord(t, file) {
				if l.Pid == oldPid[i] {
					continue
				}
				if l.Start {
					began[i] = time.Unix(0, l.T).Sub(start)
					continue
				}
				if len(l.Roots) > 0 {
					t.Fatalf("h%d's new process %d was answered %v", i, l.Pid, uris(l.Roots))
				}
				took[i] = time.Unix(0, l.T).Sub(start)
				return true
			}
			return false
		})
	}
	sorted := slices.Clone(took)
	slices.Sort(sorted)
	t.Logf("after SetRoots(nil): new processes started at %v", began)
	t.Logf("after SetRoots(nil): each healthy server's new process held [] at %v (sorted %v)", took, sorted)
	for i, d := range took {
		if d > revokeAllBound {
			t.Errorf("h%d's new process held [] only %v after SetRoots(nil); want within %v", i, d, revokeAllBound)
		}
	}

	// Every old process is ended, the wedged one (deaf to SIGTERM) too, and
	// each server said why it restarted.
	waitFor(t, "the old healthy processes gone", func() bool {
		live := pidsWith(marker)
		for _, p := range oldPid {
			if slices.Contains(live, fmt.Sprint(p)) {
				return false
			}
		}
		return true
	})
	// What the UI is told: each server restarts for the revocation, is
	// connected again, and nothing after that says otherwise; the wedge is
	// back as soon as the others, long before its old process is killed.
	names := []string{"wedge", "flood"}
	for i := range healthy {
		names = append(names, fmt.Sprintf("h%d", i))
	}
	for _, name := range names {
		waitFor(t, name+" connected again after the revocation", func() bool {
			return slices.ContainsFunc(afterRevocation(kinds(), name), func(e stamped) bool { return e.Kind == Connected })
		})
	}
	for _, name := range names {
		for _, e := range afterRevocation(kinds(), name) {
			if e.Kind == NotFetching && name == "wedge" {
				continue // true: it asks only after a list_changed
			}
			if e.Kind == Fetched && len(e.URIs) > 0 || slices.Contains([]EventKind{Stuck, Disconnected, Failed, NotFetching, Mismatch}, e.Kind) {
				t.Errorf("%s after the revocation: %v %v %v", name, e.Kind, e.URIs, e.Err)
			}
		}
	}
	for _, e := range afterRevocation(kinds(), "wedge") {
		if e.Kind == Connected {
			t.Logf("the wedge's new process connected %v after SetRoots(nil)", e.at.Sub(start))
			if d := e.at.Sub(start); d > revokeAllBound {
				t.Errorf("the wedge's new process connected only %v after SetRoots(nil)", d)
			}
			break
		}
	}
	// Still running: ending an old tree spared the new one.
	live := pidsWith(marker)
	for i, file := range files {
		var pid int
		for _, l := range readRecord(t, file) {
			pid = l.Pid
		}
		if !slices.Contains(live, fmt.Sprint(pid)) {
			t.Errorf("h%d's new process %d is gone", i, pid)
		}
	}
	closeStart := time.Now()
	hub.Close()
	closed = true
	if d := time.Since(closeStart); d > 3*time.Second*raceSlack {
		t.Errorf("Close took %v", d)
	}
	if pids := pidsWith(marker); len(pids) > 0 {
		t.Errorf("servers %v still running after Close", pids)
	}
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
	marker := uniqueMarker("retired")
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
