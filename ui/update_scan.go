package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/vcsdetect"
)

// scanItem is what the scanning goroutine sends: a repository, or the end.
type scanItem struct {
	repo  vcsdetect.Repo
	done  bool
	stats vcsdetect.Stats
	err   error
}

// scanStartedMsg hands the model the stream of a new scan.
type scanStartedMsg struct {
	gen    int
	ch     <-chan scanItem
	cancel context.CancelFunc
}

// scanBatchMsg carries the repositories read from the stream in one go, and
// the end of the scan when it came.
type scanBatchMsg struct {
	gen   int
	repos []vcsdetect.Repo
	done  bool
	stats vcsdetect.Stats
	err   error
}

// scanBatchMax bounds how many found repositories one message carries, so a
// fast scan of a huge tree still redraws as it goes.
const scanBatchMax = 512

// startScan cancels the running scan and starts a new generation.
func (m *Model) startScan() tea.Cmd {
	if m.scanCancel != nil {
		m.scanCancel()
		m.scanCancel = nil
	}
	m.scanGen++
	m.scanning = true
	m.scanErr = nil
	m.scanCh = nil
	m.picker.Reset()
	gen, scan, dir, opts := m.scanGen, m.cfg.Scan, m.cfg.Dir, m.cfg.ScanOptions
	return func() tea.Msg {
		ctx, cancel := context.WithCancel(context.Background())
		ch := make(chan scanItem, scanBatchMax)
		go func() {
			defer close(ch)
			stats, err := scan(ctx, dir, opts, func(r vcsdetect.Repo) {
				select {
				case ch <- scanItem{repo: r}:
				case <-ctx.Done():
				}
			})
			select {
			case ch <- scanItem{done: true, stats: stats, err: err}:
			case <-ctx.Done():
			}
		}()
		return scanStartedMsg{gen: gen, ch: ch, cancel: cancel}
	}
}

func (m *Model) onScanStarted(msg scanStartedMsg) tea.Cmd {
	if msg.gen != m.scanGen {
		msg.cancel() // a newer scan started meanwhile
		return nil
	}
	m.scanCh, m.scanCancel = msg.ch, msg.cancel
	return readScan(msg.gen, msg.ch)
}

// readScan blocks for one item, then takes whatever else is ready.
func readScan(gen int, ch <-chan scanItem) tea.Cmd {
	return func() tea.Msg {
		msg := scanBatchMsg{gen: gen}
		for it := range ch {
			if it.done {
				msg.done, msg.stats, msg.err = true, it.stats, it.err
				return msg
			}
			msg.repos = append(msg.repos, it.repo)
			if len(msg.repos) >= scanBatchMax || len(ch) == 0 {
				return msg
			}
		}
		msg.done = true // closed without a result: cancelled
		return msg
	}
}

func (m *Model) onScanBatch(msg scanBatchMsg) tea.Cmd {
	if msg.gen != m.scanGen {
		return nil // from a cancelled scan
	}
	m.picker.AddAll(msg.repos)
	m.list.follow(m.picker.Cursor(), len(m.picker.Shown()))
	if msg.done {
		m.scanning = false
		m.scanStats, m.scanErr = msg.stats, msg.err
		if m.scanCancel != nil {
			m.scanCancel()
			m.scanCancel = nil
		}
		return nil
	}
	return readScan(msg.gen, m.scanCh)
}
