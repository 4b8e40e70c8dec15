package ui

import (
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/internal/safetext"
)

// scanSpinner is the spinner of the scan line: one cell wide, so that the
// counts beside it never move.
var scanSpinner = spinner.MiniDot

// scan starts a scan and its spinner (a second tick chain started while
// one runs is dropped by the spinner's tag).
func (m *Model) scan() tea.Cmd {
	return tea.Batch(m.startScan(), m.walk.spinner.Tick)
}

// startScan cancels the running scan and starts a new generation, with
// the list emptied and the facts read again.
func (m *Model) startScan() tea.Cmd {
	cmd := m.walk.begin(m.cfg.Scan, m.cfg.Dir, m.cfg.ScanOptions)
	m.picker.Reset()
	m.newPool() // the facts are read again for the new scan
	return cmd
}

// onScanBatch lists the repositories found since the last batch and
// takes the counts; at the end of the walk, the rows on screen are read
// ahead too and the heap settles.
func (m *Model) onScanBatch(msg scanBatchMsg) tea.Cmd {
	if msg.gen != m.walk.gen {
		return nil // from a cancelled scan
	}
	m.picker.AddAll(msg.repos)
	m.list.follow(m.picker.Cursor(), m.picker.ShownLen())
	if msg.progress || msg.done {
		m.walk.stats, m.walk.elapsed = msg.stats, msg.elapsed
	}
	if msg.done {
		m.walk.running = false
		m.facts.wanted = m.facts.wanted[:0] // now the rows on screen too (rowFacts.want)
		m.walk.err = msg.err
		m.walk.stop()
		settleHeap()
		return nil
	}
	return readScan(msg.gen, m.walk.box, scanBatchWait(m.picker.Len()))
}

// tick moves the spinner while a scan runs; once it is done the ticks
// stop (the next scan starts them again). Only the scan line changes: a
// tick costs one frame of the visible rows, whatever the size of the list
// (BenchmarkScanTick).
func (s *scanState) tick(msg spinner.TickMsg) tea.Cmd {
	if !s.running {
		return nil
	}
	var cmd tea.Cmd
	s.spinner, cmd = s.spinner.Update(msg)
	return cmd
}

// took is how long the running scan has taken at now: the walk's own
// count, or the clock since it started when the spinner has seen a later
// time.
func (s *scanState) took(now time.Time) time.Duration {
	e := s.elapsed
	if s.running && !s.start.IsZero() && now.After(s.start) {
		e = max(e, now.Sub(s.start))
	}
	return e
}

// scanLine is the line above the status line while a scan runs: the
// spinner, folders walked, repositories found, folders skipped and
// unreadable, and the time so far, wrapped on a narrow screen. Empty when
// no scan runs.
func (m *Model) scanLine() string {
	return m.walk.line(m.picker.Len(), m.st, m.width, m.now)
}

// line is the scan line at width w and time now, with listed rows found
// so far.
func (s *scanState) line(listed int, sty styles, w int, now time.Time) string {
	if !s.running {
		return ""
	}
	st := s.stats
	parts := []string{
		plural(st.Dirs, "folder", "folders"),
		plural(max(st.Repos, listed), "repository", "repositories"),
	}
	if st.Skipped > 0 {
		parts = append(parts, itoa(st.Skipped)+" skipped")
	}
	if st.Warnings > 0 {
		parts = append(parts, itoa(st.Warnings)+" unreadable")
	}
	if e := s.took(now); e > 0 {
		parts = append(parts, e.Round(100*time.Millisecond).String())
	}
	items := []string{s.spinner.View() + " " + sty.pending.Render("scanning") + " " + sty.dim.Render(parts[0])}
	for _, p := range parts[1:] {
		items = append(items, sty.dim.Render(p))
	}
	return wrapItems(items, sty.dim.Render(" · "), w)
}

// depthText says how deep the scan looks.
func (m *Model) depthText() string {
	if d := m.cfg.ScanOptions.MaxDepth; d > 0 {
		return "to depth " + itoa(d)
	}
	return "at every depth"
}

// emptyView is the body when the list is empty: while scanning, what is
// being scanned; after a scan that found nothing, what was scanned and
// what to try next.
func (m *Model) emptyView(w, h int) string {
	dir := safetext.Escape(home(m.cfg.Dir))
	if m.walk.running {
		return wrapIndent("  ", "Scanning "+dir+" "+m.depthText()+"…", m.st.dim, w)
	}
	if m.walk.err != nil {
		return wrapIndent("  ", "The scan of "+dir+" failed: "+safetext.Escape(m.walk.err.Error()), m.st.err, w)
	}
	st, opts := m.walk.stats, m.cfg.ScanOptions
	scanned := "Walked " + plural(st.Dirs, "folder", "folders") + " " + m.depthText()
	var notes []string
	if st.Skipped > 0 {
		notes = append(notes, itoa(st.Skipped)+" skipped")
	}
	if st.Warnings > 0 {
		notes = append(notes, itoa(st.Warnings)+" unreadable")
	}
	if len(notes) > 0 {
		scanned += "; " + strings.Join(notes, ", ")
	}
	scanned += "."
	var tries [][2]string
	if d := opts.MaxDepth; d > 0 {
		tries = append(tries, [2]string{"rootpick --max-depth " + itoa(max(2*d, d+2)) + " " + dir, "look deeper"})
	}
	if parent := filepath.Dir(m.cfg.Dir); parent != m.cfg.Dir {
		tries = append(tries, [2]string{"rootpick " + safetext.Escape(home(parent)), "scan the parent folder"})
	}
	if !opts.All {
		tries = append(tries, [2]string{"rootpick --all " + dir, "also walk the skipped heavy folders (node_modules, .venv, vendor…)"})
	}
	// The fullest form that fits h: with blank lines and what each
	// suggestion does, then without blank lines, then without the
	// explanations.
	draw := func(blank, explain bool) []string {
		var lines []string
		sep := func() {
			if blank {
				lines = append(lines, "")
			}
		}
		lines = append(lines, wrapIndent("  ", "No repositories found in "+dir+".", m.st.title, w))
		sep()
		lines = append(lines, wrapIndent("  ", scanned, m.st.plain, w))
		if len(tries) > 0 {
			sep()
			lines = append(lines, "  Try:")
			for _, t := range tries {
				lines = append(lines, wrapIndent("    ", t[0], m.st.helpKey, w))
				if explain {
					lines = append(lines, wrapIndent("      ", t[1], m.st.dim, w))
				}
			}
		}
		sep()
		lines = append(lines, wrapIndent("  ", keyName(m.keys.Rescan)+" rescans · "+keyName(m.keys.Quit)+" quits", m.st.dim, w))
		return strings.Split(strings.Join(lines, "\n"), "\n")
	}
	out := draw(true, true)
	for _, f := range [][2]bool{{false, true}, {false, false}} {
		if len(out) <= h {
			break
		}
		out = draw(f[0], f[1])
	}
	return strings.Join(out, "\n")
}
