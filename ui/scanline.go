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

// onSpinnerTick moves the spinner and the elapsed time while a scan runs;
// once it is done the ticks stop (the next scan starts them again).
// Only the scan line changes: a tick costs one frame of the visible rows,
// whatever the size of the list (BenchmarkScanTick).
func (m *Model) onSpinnerTick(msg spinner.TickMsg) tea.Cmd {
	if !m.scanning {
		return nil
	}
	if msg.Time.After(m.now) {
		m.now = msg.Time
	}
	var cmd tea.Cmd
	m.spinner, cmd = m.spinner.Update(msg)
	return cmd
}

// scanTime is how long the running scan has taken: the walk's own count,
// or the clock since it started when the spinner has seen a later time.
func (m *Model) scanTime() time.Duration {
	e := m.scanElapsed
	if m.scanning && !m.scanStart.IsZero() && m.now.After(m.scanStart) {
		e = max(e, m.now.Sub(m.scanStart))
	}
	return e
}

// scanLine is the line above the status line while a scan runs: the
// spinner, folders walked, repositories found, folders skipped and
// unreadable, and the time so far, wrapped on a narrow screen. Empty when
// no scan runs.
func (m *Model) scanLine() string {
	if !m.scanning {
		return ""
	}
	st := m.scanStats
	parts := []string{
		plural(st.Dirs, "folder", "folders"),
		plural(max(st.Repos, m.picker.Len()), "repository", "repositories"),
	}
	if st.Skipped > 0 {
		parts = append(parts, itoa(st.Skipped)+" skipped")
	}
	if st.Warnings > 0 {
		parts = append(parts, itoa(st.Warnings)+" unreadable")
	}
	if e := m.scanTime(); e > 0 {
		parts = append(parts, e.Round(100*time.Millisecond).String())
	}
	items := []string{m.spinner.View() + " " + m.st.pending.Render("scanning") + " " + m.st.dim.Render(parts[0])}
	for _, p := range parts[1:] {
		items = append(items, m.st.dim.Render(p))
	}
	return wrapItems(items, m.st.dim.Render(" · "), m.width)
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
	if m.scanning {
		return wrapIndent("  ", "Scanning "+dir+" "+m.depthText()+"…", m.st.dim, w)
	}
	if m.scanErr != nil {
		return wrapIndent("  ", "The scan of "+dir+" failed: "+safetext.Escape(m.scanErr.Error()), m.st.err, w)
	}
	st, opts := m.scanStats, m.cfg.ScanOptions
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
