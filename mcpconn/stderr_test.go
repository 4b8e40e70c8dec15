package mcpconn

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
)

// TestLongStderrLineKeepsLogging: a server writing a 2 MiB stderr line
// must not silence its later lines (bufio.Scanner stopped at 1 MiB).
func TestLongStderrLineKeepsLogging(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOTPICK_TEST_SERVE", "longline")
	hub := NewHub(Options{})
	defer hub.Close()
	events := collect(hub)
	if err := hub.Connect(context.Background(), Spec{Command: []string{exe}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the lines after the long one", func() bool {
		var n int
		for _, e := range events() {
			if e.Kind == Stderr && strings.HasPrefix(e.Text, "after-") {
				n++
			}
		}
		return n == 3
	})
	var long []string
	for _, e := range events() {
		if e.Kind == Stderr && strings.HasPrefix(e.Text, "xxxx") {
			long = append(long, e.Text)
		}
	}
	want := strings.Repeat("x", maxStderrLine) + fmt.Sprintf(" … (%d more bytes dropped)", 2<<20-maxStderrLine)
	if len(long) != 1 || long[0] != want {
		t.Fatalf("the long line came as %d events, want one cut at %d bytes with a note", len(long), maxStderrLine)
	}
}

// TestQueueBoundsChatter: with nobody reading, a flood of stderr events
// costs bounded memory; the events of other kinds all arrive, in order, and
// a Dropped event counts exactly what was not delivered.
func TestQueueBoundsChatter(t *testing.T) {
	q := newQueue()
	defer q.close()
	const flood = 100_000
	for i := range flood {
		q.publish(Event{Server: "s", Kind: Stderr, Text: "line"})
		if i%10_000 == 0 {
			q.publish(Event{Server: "s", Kind: Fetched, Text: fmt.Sprint(i)})
		}
		q.publish(Event{Server: "t", Kind: ServerLog, Text: "log"})
	}
	q.mu.Lock()
	pending := len(q.items)
	q.mu.Unlock()
	// The pump may hold one batch it took before the reader came; what
	// waits is bounded by the cap, the non-chatter events and one Dropped
	// event per server.
	if pending > maxPendingChatter+10+2 {
		t.Fatalf("%d events pending after a flood, want at most %d", pending, maxPendingChatter+12)
	}
	var got []Event
	for {
		select {
		case e := <-q.out:
			got = append(got, e)
			continue
		case <-time.After(200 * time.Millisecond):
		}
		break
	}
	delivered := map[string]int{}
	dropped := map[string]int{}
	var fetched []string
	for _, e := range got {
		switch e.Kind {
		case Stderr, ServerLog:
			delivered[e.Server]++
		case Dropped:
			dropped[e.Server] += e.Count
			if !strings.Contains(e.Text, fmt.Sprint(e.Count)) {
				t.Errorf("Dropped text %q does not say %d", e.Text, e.Count)
			}
		case Fetched:
			fetched = append(fetched, e.Text)
		}
	}
	for _, s := range []string{"s", "t"} {
		if delivered[s]+dropped[s] != flood {
			t.Errorf("server %s: %d delivered + %d dropped, want %d", s, delivered[s], dropped[s], flood)
		}
		if dropped[s] == 0 {
			t.Errorf("server %s: nothing dropped with nobody reading", s)
		}
	}
	want := []string{"0", "10000", "20000", "30000", "40000", "50000", "60000", "70000", "80000", "90000"}
	if !slices.Equal(fetched, want) {
		t.Errorf("fetched events = %v, want all of %v in order", fetched, want)
	}
}

// TestFloodingServerDoesNotCrowdOutOthers: a server flooding stderr while
// nobody reads the events leaves a bounded queue, and a healthy server's
// Fetched events all arrive, with a Dropped event that says what was not.
//
// It waits for the queue to report itself full rather than for a fixed
// time (one second did not always fill it under -race on a loaded
// machine), and reads up to an event published after that: the queue is
// FIFO, so by then the demo's Fetched and the Dropped event must both have
// come, in whichever order the flood put them.
func TestFloodingServerDoesNotCrowdOutOthers(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOTPICK_TEST_SERVE", "flood")
	hub := NewHub(Options{})
	defer hub.Close()
	demo := NewDemo(nil, nil)
	if err := hub.Connect(context.Background(), Spec{Command: []string{exe}}); err != nil {
		t.Fatal(err)
	}
	if err := hub.Connect(context.Background(), Spec{Demo: demo}); err != nil {
		t.Fatal(err)
	}
	a := root(t, "a")
	hub.SetRoots([]consent.Root{a})
	waitFor(t, "the demo to hold a", func() bool { return slices.Equal(uris(demo.Roots()), []string{a.URI}) })
	select {
	case <-hub.events.overflowed: // the flood goes on, nobody reads
	case <-time.After(30 * time.Second):
		t.Fatal("30 s of flood with nobody reading never filled the event queue")
	}
	hub.events.mu.Lock()
	pending, chatter := len(hub.events.items), hub.events.chatter
	hub.events.mu.Unlock()
	if chatter > maxPendingChatter || pending > maxPendingChatter+20 {
		t.Fatalf("%d events pending (%d stderr) once the queue is full", pending, chatter)
	}
	const barrier = "published after the queue was full"
	hub.publish(Event{Server: "test", Kind: Failed, Text: barrier})
	var fetched []string
	var dropped int
	timeout := time.After(30 * time.Second)
	for done := false; !done; {
		select {
		case e := <-hub.Events():
			switch e.Kind {
			case Fetched:
				if e.Server == "rootpick-demo" {
					fetched = append(fetched, strings.Join(e.URIs, ","))
				}
			case Dropped:
				dropped += e.Count
			case Failed:
				done = e.Text == barrier
			}
		case <-timeout:
			t.Fatalf("the event published after the flood filled the queue never came through; fetched %q", fetched)
		}
	}
	if !slices.Contains(fetched, a.URI) {
		t.Errorf("the demo's fetch of %s was crowded out; fetched %q", a.URI, fetched)
	}
	if dropped == 0 {
		t.Error("no Dropped event although nobody read a flood")
	}
}

// maxStderrLine is the longest stderr line kept, in bytes: 4 KiB, as
// docs/troubleshooting.md says (mcpconn/launch's maxStderrLine).
const maxStderrLine = 4 << 10
