package ui

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/vcsdetect"
)

// The details pane shows the facts of the highlighted repository: to the
// right of the list at 100 columns or more, below it from 80×24, not at
// all on smaller terminals. The facts are read lazily, off the Update
// loop, one repository at a time, and kept for the run; a row never waits
// for them.
const (
	detailsSideMin   = 100 // columns from which the pane sits beside the list
	detailsBelowMinW = 80
	detailsBelowMinH = 24
	detailsBelowRows = 6
)

// repoFacts is what the pane shows besides the row: the describer's
// details and, for a folder that can be shared, its root and warnings.
type repoFacts struct {
	det      vcsdetect.Details
	uri      string
	warnings []string
	err      string // why the folder cannot be shared
}

// detailsMsg carries the facts of one repository.
type detailsMsg struct {
	path  string
	facts repoFacts
}

// describe reads r's facts: the describer reads git, consent says what
// sharing it would mean.
func describe(d *vcsdetect.Describer, dir string, r vcsdetect.Repo) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		f := repoFacts{det: d.Describe(ctx, r)}
		if root, err := consent.NewRoot(r.Path); err != nil {
			f.err = err.Error()
		} else {
			f.uri = root.URI
			for _, w := range consent.Risks(r.Path, root, consent.DefaultEnv(dir)) {
				f.warnings = append(f.warnings, w.Text)
			}
		}
		return detailsMsg{path: r.Path, facts: f}
	}
}

// followDetails asks for the facts of the highlighted repository when the
// cursor has moved to another one.
func (m *Model) followDetails() tea.Cmd {
	r, ok := m.picker.Current()
	if !ok || r.Path == m.detailsFor {
		return nil
	}
	m.detailsFor = r.Path
	return m.wantDetails()
}

// wantDetails asks for the highlighted repository's facts if the pane is
// shown and they are neither known nor on their way.
func (m *Model) wantDetails() tea.Cmd {
	if m.detailsMode() == "" || m.describer == nil {
		return nil
	}
	r, ok := m.picker.Current()
	if !ok {
		return nil
	}
	if _, known := m.facts[r.Path]; known || m.describing[r.Path] {
		return nil
	}
	m.describing[r.Path] = true
	return describe(m.describer, m.cfg.Dir, r)
}

func (m *Model) onDetails(msg detailsMsg) tea.Cmd {
	delete(m.describing, msg.path)
	m.facts[msg.path] = msg.facts
	m.paneKey = paneKey{}  // redraw
	return m.wantDetails() // the cursor may have moved meanwhile
}

// detailsMode says where the pane goes at this size: "side", "below" or
// "" (hidden); only beside the list, not the dialog, help or server pane.
func (m *Model) detailsMode() string {
	switch {
	case m.width >= detailsSideMin && m.height >= detailsBelowMinH:
		return "side"
	case m.width >= detailsBelowMinW && m.height >= detailsBelowMinH:
		return "below"
	}
	return ""
}

func (m *Model) detailsWidth() int { return min(56, m.width*2/5) }

// detailsView draws the pane for the highlighted repository in w×h.
func (m *Model) detailsView(w, h int) string {
	r, ok := m.picker.Current()
	if !ok || w < 10 || h < 1 {
		return ""
	}
	line := func(label, value string) string {
		return ansi.Truncate(m.st.dim.Render(label)+value, w, "…")
	}
	mid := func(s string) string { return midCut(s, max(w-9, 8)) }
	rows := []string{ansi.Truncate(m.st.title.Render(safetext.Escape(r.Name)), w, "…")}
	rows = append(rows, line("path     ", mid(safetext.Escape(r.Path))))
	kind := string(r.Kind)
	if r.Reason != "" {
		kind += " (" + safetext.Escape(r.Reason) + ")"
	}
	if r.Marker != "" {
		kind += " (" + safetext.Escape(r.Marker) + ")"
	}
	rows = append(rows, line("kind     ", kind))
	f, known := m.facts[r.Path]
	if !known {
		rows = append(rows, m.st.dim.Render("reading…"))
		return strings.Join(rows, "\n")
	}
	if f.uri != "" {
		rows = append(rows, line("uri      ", mid(f.uri)))
	}
	d := f.det
	if d.Head != "" {
		head := safetext.Escape(d.Head)
		if d.Detached {
			head += " (detached)"
		}
		if d.Upstream != "" {
			head += m.st.dim.Render(" → " + safetext.Escape(d.Upstream))
			if d.Ahead > 0 || d.Behind > 0 {
				head += " ↑" + itoa(d.Ahead) + " ↓" + itoa(d.Behind)
			}
		}
		rows = append(rows, line("branch   ", head))
	}
	if d.Remote != "" {
		rows = append(rows, line("remote   ", mid(safetext.Escape(d.Remote))))
	}
	if !d.LastCommit.IsZero() {
		rows = append(rows, line("commit   ", d.LastCommit.Local().Format("2006-01-02 15:04")+" "+safetext.Escape(d.Subject)))
	}
	switch d.State {
	case vcsdetect.StateDirty:
		rows = append(rows, line("state    ", m.st.warn.Render("dirty (uncommitted changes)")))
	case vcsdetect.StateClean:
		rows = append(rows, line("state    ", m.st.ok.Render("clean")))
	case vcsdetect.StateUnknown:
		rows = append(rows, line("state    ", "unknown"))
	}
	if f.err != "" {
		rows = append(rows, line("share    ", m.st.err.Render("cannot be shared: "+safetext.Escape(f.err))))
	}
	for _, w := range f.warnings {
		rows = append(rows, line("warning  ", m.st.warn.Render(safetext.Escape(w))))
	}
	return strings.Join(rows, "\n")
}

// withDetails lays the list and the pane out together in the body's
// w×h, as detailsMode says. The drawn pane is kept until the highlighted
// repository, its facts or the size change: moving through the list
// redraws it once per row, not once per frame.
func (m *Model) withDetails(list string, w, h int) string {
	mode := m.detailsMode()
	if mode == "" {
		return list
	}
	r, _ := m.picker.Current()
	_, known := m.facts[r.Path]
	key := paneKey{path: r.Path, known: known, w: w, h: h, mode: mode}
	if key != m.paneKey {
		m.paneKey, m.pane = key, m.drawPane(mode, w, h)
	}
	switch mode {
	case "side":
		return lipgloss.JoinHorizontal(lipgloss.Top, fit(list, w-m.detailsWidth(), h), m.pane)
	default:
		rows := min(detailsBelowRows, max(h/3, 1))
		return fit(list, w, h-rows) + "\n" + m.pane
	}
}

// paneKey is what the drawn details pane depends on.
type paneKey struct {
	path  string
	known bool
	w, h  int
	mode  string
}

func (m *Model) drawPane(mode string, w, h int) string {
	if mode == "side" {
		pw := m.detailsWidth()
		return lipgloss.NewStyle().Width(pw).Height(h).MaxHeight(h).
			BorderStyle(lipgloss.NormalBorder()).BorderLeft(true).BorderForeground(lipgloss.Color("240")).PaddingLeft(1).
			Render(fit(m.detailsView(pw-2, h), pw-2, h))
	}
	rows := min(detailsBelowRows, max(h/3, 1))
	return m.st.dim.Render(strings.Repeat("─", w)) + "\n" + fit(m.detailsView(w, rows-1), w, rows-1)
}
