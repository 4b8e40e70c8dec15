package ui

import (
	"context"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/vcsdetect"
)

// scanBox is where the walk leaves what it found for the model. The walk
// never waits for the UI: a slow frame must not stall the walk (with a
// channel between them, a walk finding 20,000 repositories a second
// stopped whenever the UI took longer than a batch to come back for the
// next). The model takes everything in the box at most once a gather
// window (readScan).
type scanBox struct {
	mu       sync.Mutex
	repos    []vcsdetect.Repo
	progress bool
	done     bool
	stats    vcsdetect.Stats
	elapsed  time.Duration
	err      error
	ready    chan struct{} // holds a token while the box has news
	ended    chan struct{} // closed with done
}

func newScanBox() *scanBox {
	return &scanBox{ready: make(chan struct{}, 1), ended: make(chan struct{})}
}

// put changes the box under its lock and says there is news.
func (b *scanBox) put(f func(b *scanBox)) {
	b.mu.Lock()
	f(b)
	b.mu.Unlock()
	select {
	case b.ready <- struct{}{}:
	default: // a token is there already
	}
}

// take empties the box into a message.
func (b *scanBox) take(gen int) scanBatchMsg {
	b.mu.Lock()
	defer b.mu.Unlock()
	msg := scanBatchMsg{gen: gen, repos: b.repos, progress: b.progress, done: b.done,
		stats: b.stats, elapsed: b.elapsed, err: b.err}
	// The next batch is likely as large: room for it at once, rather than
	// growing from nothing by doubling (13 MB of garbage over a walk of
	// 48,750 repositories).
	b.repos, b.progress = nil, false
	if n := len(msg.repos); n > 0 && !b.done {
		b.repos = make([]vcsdetect.Repo, 0, n)
	}
	return msg
}

// scanStartedMsg hands the model the box of a new scan.
type scanStartedMsg struct {
	gen    int
	box    *scanBox
	cancel context.CancelFunc
	start  time.Time
}

// scanBatchMsg carries the repositories found since the last one, the
// latest counts (when progress is set, or at the end), and the end of the
// scan when it came.
type scanBatchMsg struct {
	gen      int
	repos    []vcsdetect.Repo
	progress bool
	done     bool
	stats    vcsdetect.Stats
	elapsed  time.Duration
	err      error
}

// scanState is the walk: its generation, which stamps every message of
// one scan so that the results of a cancelled scan are dropped, whether it
// runs, its box and how to cancel it, what it has counted, and the
// spinner of the scan line. The model hands it what it needs on each
// call; it keeps no pointer into the model.
type scanState struct {
	gen     int
	running bool
	box     *scanBox
	cancel  context.CancelFunc
	stats   vcsdetect.Stats
	err     error
	// elapsed is the walk's running time, as sent by the walk; start is
	// when it started, for the spinner's clock.
	elapsed time.Duration
	start   time.Time
	spinner spinner.Model
}

// stop cancels the running walk, if any: a rescan or a quit must not
// leave it running.
func (s *scanState) stop() {
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
}

// begin cancels the running walk and starts a new generation: the
// command starts the walk of dir with scan.
func (s *scanState) begin(scan ScanFunc, dir string, opts vcsdetect.Options) tea.Cmd {
	s.stop()
	s.gen++
	s.running = true
	s.err = nil
	s.box = nil
	s.stats, s.elapsed, s.start = vcsdetect.Stats{}, 0, time.Time{}
	gen := s.gen
	return func() tea.Msg {
		ctx, cancel := context.WithCancel(context.Background())
		box := newScanBox()
		start := time.Now()
		go func() {
			defer panics.Guard()
			// Progress and found are called on this goroutine.
			opts.Progress = func(st vcsdetect.Stats) {
				box.put(func(b *scanBox) { b.progress, b.stats, b.elapsed = true, st, time.Since(start) })
			}
			stats, err := scan(ctx, dir, opts, func(r vcsdetect.Repo) {
				box.put(func(b *scanBox) { b.repos = append(b.repos, r) })
			})
			box.put(func(b *scanBox) { b.done, b.stats, b.elapsed, b.err = true, stats, time.Since(start), err })
			close(box.ended)
		}()
		return scanStartedMsg{gen: gen, box: box, cancel: cancel, start: start}
	}
}

// started takes the box of the walk begun, unless a newer one began
// meanwhile.
func (s *scanState) started(msg scanStartedMsg) tea.Cmd {
	if msg.gen != s.gen {
		msg.cancel() // a newer scan started meanwhile
		return nil
	}
	s.box, s.cancel, s.start = msg.box, msg.cancel, msg.start
	return readScan(msg.gen, msg.box, FrameInterval) // the first rows at once
}

// scanBatchWait is how long the results after the first batch are
// gathered with n listed: 100 ms (the list grows 10 times a second; the
// spinner turns on its own clock), and 2 µs a listed repository above
// 50,000, up to a quarter of a second. Each batch costs a merge into the
// sorted list, O(n), and a redraw (2 to 3 ms at 120×40), all CPU taken
// from the walk: waiting in proportion to n keeps the merging to a few
// percent of the walk however large the tree (at 48,750 rows on a slow
// walk, merging every 33 ms took 0.76 s of CPU). At 33 ms, a walk of the
// 48,750-row tree of .ci/bench-keys took 82 to 97 batches, each a frame,
// beside the spinner's 60; at 100 ms, 29 to 52.
func scanBatchWait(n int) time.Duration {
	return min(max(12*FrameInterval, time.Duration(n)*2*time.Microsecond), 250*time.Millisecond)
}

// readScan waits for news in the box, gathers for wait more (unless the
// scan has ended), and takes all of it: a fast walk costs the list one
// merge a batch, not one per repository.
func readScan(gen int, box *scanBox, wait time.Duration) tea.Cmd {
	return func() tea.Msg {
		<-box.ready
		// Gather for wait, but not past the end of the walk: its last
		// rows and the end show at once.
		gather := time.NewTimer(wait)
		select {
		case <-gather.C:
		case <-box.ended:
			gather.Stop()
		}
		select {
		case <-box.ready: // taken with the rest
		default:
		}
		return box.take(gen)
	}
}

// listedGCPercent is the garbage collector's GOGC once a scan is done.
// The list is then most of the heap and stays (about 11 MB at 48,750
// repositories); what comes next — frames, filter results — is garbage
// soon. The default of 100 lets the heap grow to twice the list before a
// collection, so resident memory is about twice the list plus the
// runtime's own; 50 gives 1.5 times, for a collection of the list every
// ~5 MB allocated (a few keys): about 8 MB less resident at 48,750
// repositories, for collections that each mark 11 MB on the collector's
// own quarter of the CPUs. It is not set during the walk, whose garbage
// (a path per folder) would make the collector run twice as often while
// the walk needs the CPU: GOGC=50 from the start cost 8 to 15% more CPU
// until all was listed (13 to 20% at 25); with the walk's allocations
// since cut by 58%, a walk feeding a picker.State ran 46 collections
// instead of 20, its CPU within the noise but its wall time longer in 4
// of 6 rounds, for a VmHWM about 4 MB lower.
const listedGCPercent = 50

// gcSettled is whether settleHeap has set listedGCPercent.
var gcSettled bool

// settleHeap lowers the collector's target once the list is complete,
// unless GOGC says otherwise. It is process-wide: the picker owns the
// process while it runs (rootpick pick, demo).
func settleHeap() {
	if gcSettled || os.Getenv("GOGC") != "" {
		return
	}
	gcSettled = true
	debug.SetGCPercent(listedGCPercent)
}

// scanHeader is the scanning part of the header: nothing while the walk
// runs (the scan line above the status line counts it: scanline.go);
// once it is done, what was skipped or could not be read, if anything.
func (s *scanState) header(sty styles) []string {
	st := s.stats
	switch {
	case s.running:
		return nil
	case s.err != nil:
		return []string{sty.err.Render("scan failed: " + safetext.Escape(s.err.Error()))}
	}
	var parts []string
	if st.Skipped > 0 {
		parts = append(parts, sty.dim.Render(plural(st.Skipped, "folder", "folders")+" skipped"))
	}
	if st.Warnings > 0 {
		parts = append(parts, sty.warn.Render(plural(st.Warnings, "unreadable folder", "unreadable folders")+" skipped"))
	}
	return parts
}
