package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/vcsdetect"
)

// scanItem is what the scanning goroutine sends: a repository, the counts
// so far (progress), or the end.
type scanItem struct {
	repos    []vcsdetect.Repo
	progress bool
	done     bool
	stats    vcsdetect.Stats
	elapsed  time.Duration
	err      error
}

// scanStartedMsg hands the model the stream of a new scan.
type scanStartedMsg struct {
	gen    int
	ch     <-chan scanItem
	cancel context.CancelFunc
	start  time.Time
}

// scanBatchMsg carries the repositories read from the stream in one go, the
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

// scanBatchMax bounds how many found repositories one message carries, so a
// fast scan of a huge tree still redraws as it goes.
const scanBatchMax = 512

// stopScan cancels the running walk, if any: a rescan or a quit must not
// leave it running.
func (m *Model) stopScan() {
	if m.scanCancel != nil {
		m.scanCancel()
		m.scanCancel = nil
	}
}

// scan starts a scan and its spinner (a second tick chain started while
// one runs is dropped by the spinner's tag).
func (m *Model) scan() tea.Cmd {
	return tea.Batch(m.startScan(), m.spinner.Tick)
}

// startScan cancels the running scan and starts a new generation.
func (m *Model) startScan() tea.Cmd {
	m.stopScan()
	m.scanGen++
	m.scanning = true
	m.scanErr = nil
	m.scanCh = nil
	m.scanStats, m.scanElapsed, m.scanStart = vcsdetect.Stats{}, 0, time.Time{}
	m.picker.Reset()
	m.newPool() // the facts are read again for the new scan
	gen, scan, dir, opts := m.scanGen, m.cfg.Scan, m.cfg.Dir, m.cfg.ScanOptions
	return func() tea.Msg {
		ctx, cancel := context.WithCancel(context.Background())
		ch := make(chan scanItem, 2) // slices of repositories: a stalled reader stalls the walk
		start := time.Now()
		go func() {
			defer panics.Guard()
			defer close(ch)
			// The walk hands over one repository at a time; they are
			// passed on in slices (a frame's worth, the first at once), so
			// the reader is not woken for every one of 50,000.
			var buf []vcsdetect.Repo
			var last time.Time
			send := func(it scanItem) bool {
				select {
				case ch <- it:
					return true
				case <-ctx.Done():
					return false
				}
			}
			flush := func() {
				if len(buf) > 0 && send(scanItem{repos: buf}) {
					buf, last = nil, time.Now()
				}
			}
			// Progress is called on this goroutine; a count that finds
			// the channel full is dropped, the next one will do.
			opts.Progress = func(st vcsdetect.Stats) {
				flush()
				select {
				case ch <- scanItem{progress: true, stats: st, elapsed: time.Since(start)}:
				default:
				}
			}
			stats, err := scan(ctx, dir, opts, func(r vcsdetect.Repo) {
				buf = append(buf, r)
				if len(buf) >= scanBatchMax/2 || time.Since(last) >= FrameInterval {
					flush()
				}
			})
			flush()
			send(scanItem{done: true, stats: stats, elapsed: time.Since(start), err: err})
		}()
		return scanStartedMsg{gen: gen, ch: ch, cancel: cancel, start: start}
	}
}

func (m *Model) onScanStarted(msg scanStartedMsg) tea.Cmd {
	if msg.gen != m.scanGen {
		msg.cancel() // a newer scan started meanwhile
		return nil
	}
	m.scanCh, m.scanCancel, m.scanStart = msg.ch, msg.cancel, msg.start
	return readScan(msg.gen, msg.ch, FrameInterval) // the first rows at once
}

// scanBatchWait is how long the results after the first batch are
// gathered: the list grows 30 times a second while a walk runs, each
// growth a merge and a redraw that take the CPU from the walk.
const scanBatchWait = 4 * FrameInterval

// readScan blocks for one item, then gathers what else arrives within
// wait or until scanBatchMax repositories: a fast walk costs the list one
// merge a batch, not one per repository or two.
func readScan(gen int, ch <-chan scanItem, wait time.Duration) tea.Cmd {
	return func() tea.Msg {
		msg := scanBatchMsg{gen: gen}
		var frame <-chan time.Time
		for {
			var it scanItem
			ok := true
			if frame == nil {
				it, ok = <-ch
			} else {
				select {
				case it, ok = <-ch:
				case <-frame:
					return msg
				}
			}
			switch {
			case !ok:
				msg.done = true // closed without a result: cancelled
				return msg
			case it.done:
				msg.done, msg.stats, msg.elapsed, msg.err = true, it.stats, it.elapsed, it.err
				return msg
			case it.progress:
				msg.progress, msg.stats, msg.elapsed = true, it.stats, it.elapsed
			default:
				msg.repos = append(msg.repos, it.repos...)
			}
			if len(msg.repos) >= scanBatchMax {
				return msg
			}
			if frame == nil {
				frame = time.After(wait)
			}
		}
	}
}

func (m *Model) onScanBatch(msg scanBatchMsg) tea.Cmd {
	if msg.gen != m.scanGen {
		return nil // from a cancelled scan
	}
	m.picker.AddAll(msg.repos)
	m.list.follow(m.picker.Cursor(), m.picker.ShownLen())
	if msg.progress || msg.done {
		m.scanStats, m.scanElapsed = msg.stats, msg.elapsed
	}
	if msg.done {
		m.scanning = false
		m.scanErr = msg.err
		m.stopScan()
		return nil
	}
	return readScan(msg.gen, m.scanCh, scanBatchWait)
}

// scanHeader is the scanning part of the header: nothing while the walk
// runs (the scan line above the status line counts it: scan_view.go);
// once it is done, what was skipped or could not be read, if anything.
func (m *Model) scanHeader() []string {
	st := m.scanStats
	switch {
	case m.scanning:
		return nil
	case m.scanErr != nil:
		return []string{m.st.err.Render("scan failed: " + safetext.Escape(m.scanErr.Error()))}
	}
	var parts []string
	if st.Skipped > 0 {
		parts = append(parts, m.st.dim.Render(itoa(st.Skipped)+" folders skipped"))
	}
	if st.Warnings > 0 {
		parts = append(parts, m.st.warn.Render(itoa(st.Warnings)+" unreadable folders skipped"))
	}
	return parts
}
