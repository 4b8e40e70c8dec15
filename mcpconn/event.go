package mcpconn

import (
	"fmt"
	"sync"
	"time"

	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// EventKind says what happened on a connection.
type EventKind int

// The kinds of Event.
const (
	// Connecting: the server is being started or dialled. Attempt numbers
	// the start: 1 for the first, n+1 after a Restarting with Attempt n
	// (or after a final failure that was the n-th); Timeout is how long it
	// has to answer initialize this time.
	Connecting EventKind = iota
	// Connected: the handshake finished; ServerName is what the server calls itself.
	Connected
	// Fetched: the server asked roots/list; URIs is exactly what it was answered.
	Fetched
	// Stderr: a line the server wrote on its standard error (Text).
	Stderr
	// ServerLog: a notifications/message the server sent (Text).
	ServerLog
	// Failed: starting, connecting or answering failed (Err, whole;
	// Reason, short). Final says that starting again cannot help until
	// something outside changes (the program is not found, not
	// executable): no restart is scheduled, and only Hub.Retry starts it
	// again.
	Failed
	// Disconnected: the session ended (Err says why, Reason in short).
	Disconnected
	// Restarting: the server will be started again after Delay (Attempt
	// counts the failures in a row), or at once (Delay 0, Text says why:
	// every root was revoked, or its {roots} arguments changed).
	Restarting
	// Stuck: a write to the server blocked too long; it is being stopped (Err).
	Stuck
	// NotFetching: the server did not ask roots/list after the last change.
	NotFetching
	// Verified: the server, asked what it holds, holds exactly URIs, the
	// consented set.
	Verified
	// Mismatch: the server, asked what it holds, holds something else: Text
	// says what differs.
	Mismatch
	// Withdrawn: a served root (Path) became unavailable and was withdrawn
	// from every server; Text says why.
	Withdrawn
	// Dropped: Count Stderr and ServerLog events of the server were dropped
	// because events were being published faster than they were read; it
	// takes the place of the first one dropped. Text says it in words.
	Dropped
	// Progress: the server is starting (it has not answered initialize
	// yet) and Text is the last line it wrote on stderr, which says what a
	// slow start is busy with (npx downloading a package). A Progress event
	// waiting to be read is replaced by a newer one of the same server, so
	// it is never dropped and a flood costs nothing: the last line arrives
	// even when Stderr events are dropped.
	Progress
	// Refused: an enforced server wrote on stderr that it was refused a
	// path its policy does not grant (refused.go): most likely the
	// kernel's ruleset. Path is the path, Text what it tried ("read",
	// "write", "exec"), Reason the refusal in words. Said once for each
	// path and access in a start.
	Refused
)

// String returns the kind's name.
func (k EventKind) String() string {
	switch k {
	case Connecting:
		return "connecting"
	case Connected:
		return "connected"
	case Fetched:
		return "fetched"
	case Stderr:
		return "stderr"
	case ServerLog:
		return "log"
	case Failed:
		return "failed"
	case Disconnected:
		return "disconnected"
	case Restarting:
		return "restarting"
	case Stuck:
		return "stuck"
	case NotFetching:
		return "not fetching"
	case Verified:
		return "verified"
	case Mismatch:
		return "mismatch"
	case Withdrawn:
		return "withdrawn"
	case Dropped:
		return "dropped"
	case Progress:
		return "progress"
	case Refused:
		return "refused"
	}
	return "unknown"
}

// Event is one thing that happened on one server's connection.
type Event struct {
	// Server is the label of the Spec the event belongs to.
	Server string
	Kind   EventKind
	// ServerName and ServerVersion are the server's own serverInfo (Connected).
	ServerName, ServerVersion string
	// URIs are the roots answered to roots/list (Fetched).
	URIs []string
	// Text is a stderr line or log message, the negotiated protocol
	// version for Connected, or a reason.
	Text string
	Err  error
	// Reason says in a few words why a server failed, ended or is stuck
	// ("exited with status 1", "not found on PATH", "no answer to
	// initialize within 15s"), for a status line; Err has the whole story.
	Reason string
	// Final marks a Failed event after which the server is not restarted
	// until Hub.Retry.
	Final bool
	// Attempt and Delay describe a Restarting event; Attempt also numbers
	// a Connecting event.
	Attempt int
	Delay   time.Duration
	// Timeout is the initialize budget of a start (Connecting).
	Timeout time.Duration
	// Path is the withdrawn root (Withdrawn), or the refused path
	// (Refused).
	Path string
	// Count is the number of events dropped (Dropped).
	Count int
	// Enforcement says whether the kernel enforces what the server may
	// open, and if so what (Connected).
	Enforcement *launch.Enforcement
}

// maxPendingChatter bounds the Stderr and ServerLog events waiting to be
// read. Beyond it such events are dropped and counted; every other kind is
// always queued (they come at the pace of the protocol, not of a server's
// output).
const maxPendingChatter = 256

// queue is a FIFO feeding one channel, so that publishers (the SDK's
// handlers, stderr readers) never block on a slow or absent reader. A
// server flooding stderr or log messages costs bounded memory: once
// maxPendingChatter such events wait, more are counted into one Dropped
// event per server, placed where the first dropped one would have been.
type queue struct {
	mu      sync.Mutex
	items   []Event
	chatter int            // Stderr and ServerLog events in items
	drops   map[string]int // server → index in items of its Dropped event
	wake    chan struct{}
	done    chan struct{}
	out     chan Event
	closing sync.Once
	// progress maps a server to the index in items of its Progress event,
	// while nothing else about the server came after it: a newer one
	// takes its place there.
	progress map[string]int
	// overflowed is closed when the first event is dropped: a test waits
	// on it instead of guessing how long a flood takes to fill the queue.
	overflowed chan struct{}
	overflow   sync.Once
}

func newQueue() *queue {
	q := &queue{wake: make(chan struct{}, 1), done: make(chan struct{}), out: make(chan Event), overflowed: make(chan struct{})}
	go func() {
		defer panics.Guard()
		q.pump()
	}()
	return q
}

func chatty(k EventKind) bool { return k == Stderr || k == ServerLog }

func (q *queue) publish(e Event) {
	q.mu.Lock()
	switch {
	case e.Kind == Progress:
		if i, ok := q.progress[e.Server]; ok {
			q.items[i] = e
			break
		}
		if q.progress == nil {
			q.progress = map[string]int{}
		}
		q.progress[e.Server] = len(q.items)
		q.items = append(q.items, e)
	case !chatty(e.Kind):
		// What follows (Connected, Failed) must not be overtaken by a
		// later line put in the place of an earlier one.
		delete(q.progress, e.Server)
		q.items = append(q.items, e)
	case q.chatter < maxPendingChatter:
		q.chatter++
		q.items = append(q.items, e)
	default:
		q.overflow.Do(func() { close(q.overflowed) })
		if i, ok := q.drops[e.Server]; ok {
			q.items[i].Count++
			q.items[i].Text = droppedText(q.items[i].Count)
		} else {
			if q.drops == nil {
				q.drops = map[string]int{}
			}
			q.drops[e.Server] = len(q.items)
			q.items = append(q.items, Event{Server: e.Server, Kind: Dropped, Count: 1, Text: droppedText(1)})
		}
	}
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func droppedText(n int) string {
	return fmt.Sprintf("%d stderr lines or log messages not shown: the server wrote them faster than they could be read", n)
}

func (q *queue) pump() {
	defer close(q.out)
	for {
		q.mu.Lock()
		items := q.items
		q.items, q.chatter, q.drops, q.progress = nil, 0, nil, nil
		q.mu.Unlock()
		for _, e := range items {
			select {
			case q.out <- e:
			case <-q.done:
				return
			}
		}
		select {
		case <-q.wake:
		case <-q.done:
			return
		}
	}
}

func (q *queue) close() { q.closing.Do(func() { close(q.done) }) }
