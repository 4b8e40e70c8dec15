package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
)

// TestFit: fit cuts every line to w cells and pads or cuts to h lines;
// a text that fits already comes back as it is (the frame's fast path),
// padded with empty lines.
func TestFit(t *testing.T) {
	red := "\x1b[31mred\x1b[m"
	for _, c := range []struct {
		s    string
		w, h int
		want string
	}{
		{"abc\nde", 3, 2, "abc\nde"},
		{"abc\nde", 3, 4, "abc\nde\n\n"},
		{"abcdef\nde", 3, 2, "abc\nde"},
		{"abc\nde\nfg", 3, 2, "abc\nde"},
		{"", 4, 2, "\n"},
		{red + " and more", 3, 1, ansi.Truncate(red+" and more", 3, "")},
		{red, 3, 1, red}, // 12 bytes, 3 cells: fits
		{"日本語", 4, 1, "日本"},
		{"x", 4, 0, ""},
	} {
		if got := fit(c.s, c.w, c.h); got != c.want {
			t.Errorf("fit(%q, %d, %d) = %q, want %q", c.s, c.w, c.h, got, c.want)
		}
	}
}

// On a short terminal the rows come first: the key help shrinks to one
// line that still offers "? help", the row's path under the status line
// goes, then the key help; the status line always stays. A terminal
// tall enough keeps the whole help, and a list with fewer rows than
// the minimum is not made room for.
func TestShortTerminalShowsRows(t *testing.T) {
	for _, c := range []struct {
		w, h, rows int
		help       string // "" none, "?" one line with ? help, "all" the whole help
	}{
		{30, 8, 4, "?"},
		{20, 7, 3, "?"},
		{40, 6, 3, ""},
		{30, 5, 2, ""},
		{60, 12, 5, "all"},
		{120, 40, 5, "all"},
	} {
		m := fixture(t, demoRepos()...)
		m.Update(tea.WindowSizeMsg{Width: c.w, Height: c.h})
		lines := strings.Split(screen(m), "\n")
		rows := 0
		for _, l := range lines {
			if strings.Contains(l, "[ ]") {
				rows++
			}
		}
		status := strings.Contains(statusOf(m), "shared")
		switch {
		case rows != c.rows:
			t.Errorf("%d×%d: %d rows shown, want %d:\n%s", c.w, c.h, rows, c.rows, strings.Join(lines, "\n"))
		case !status:
			t.Errorf("%d×%d: no status line above the help:\n%s", c.w, c.h, strings.Join(lines, "\n"))
		case c.help == "" && m.chrome.help != "":
			t.Errorf("%d×%d: the key help took rows: %q", c.w, c.h, m.chrome.help)
		case c.help == "?" && (lipgloss.Height(m.chrome.help) != 1 || !strings.HasSuffix(ansi.Strip(m.chrome.help), "? help")):
			t.Errorf("%d×%d: key help %q, want one line ending in ? help", c.w, c.h, ansi.Strip(m.chrome.help))
		case c.help == "all" && !strings.Contains(ansi.Strip(m.chrome.help), "esc quit"):
			t.Errorf("%d×%d: key help %q, want all of it", c.w, c.h, ansi.Strip(m.chrome.help))
		}
	}
}

// The consent dialog's box stays whole through a resize: its key help
// (↑/↓ while lines are hidden) and the terminal's shortness feed each
// other, and at 44×16 after 44×21, with a two-line note, the layout went
// back and forth between five and six fixed lines and stopped at the
// wrong one: the box drew a row over the body, its bottom border cut.
func TestDialogBoxFitsAfterAResize(t *testing.T) {
	items := plainItems("/work/demo/api", "/work/demo/web", "/work/demo/tools/cli", "/work/demo/a", "/work/demo/b")
	for _, w := range []int{24, 36, 44, 45, 60, 80} {
		for h := 8; h <= 30; h++ {
			m := fixture(t, demoRepos()...)
			m.setNote("a note long enough to wrap on any screen narrower than a hundred and twenty columns", false)
			m.Update(tea.WindowSizeMsg{Width: w, Height: h})
			openDialogWith(t, m, items...)
			for _, to := range []int{h, h - 5, h + 7} {
				if to < 8 {
					continue
				}
				m.Update(tea.WindowSizeMsg{Width: w, Height: to})
				s := screen(m)
				if n := strings.Count(s, "\n") + 1; n != to || strings.Count(s, "╭") != 1 || strings.Count(s, "╰") != 1 {
					t.Fatalf("%d×%d after %d×%d: %d lines, the box not whole:\n%s", w, to, w, h, n, s)
				}
			}
		}
	}
}

// The highlighted root stays on screen through a resize: the dialog's
// keys act on it. The body kept its scroll offset, so a shorter box hid
// it below, and a box that had shown every root and was made shorter
// again scrolled back to the top, above it (40×17 after 40×22, the
// fourth root highlighted: the first two shown).
func TestDialogKeepsTheHighlightedRootOnScreen(t *testing.T) {
	items := plainItems("/work/demo/api", "/work/demo/web", "/work/demo/tools/cli", "/work/demo/a", "/work/demo/b", "/work/demo/c", "/work/demo/d")
	// A split dragged from 36 rows down to 9 and back up, at each width,
	// with the first, the second, the fourth and the last root highlighted.
	var heights []int
	for h := 36; h >= 9; h-- {
		heights = append(heights, h)
	}
	for h := 10; h <= 36; h++ {
		heights = append(heights, h)
	}
	for _, w := range []int{24, 40, 64, 100} {
		for _, down := range []int{0, 1, 3, 6} {
			m := fixture(t, demoRepos()...)
			m.Update(tea.WindowSizeMsg{Width: w, Height: 20})
			openDialogWith(t, m, items...)
			send(m, "down", "up") // from the section's header, where the last key of openDialogWith scrolled, back to the first root
			for range down {
				send(m, "down")
			}
			for i, h := range heights {
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				s := screen(m)
				if !strings.Contains(s, "› +") {
					t.Fatalf("%d×%d (step %d of the drag), %d down: the highlighted root is off screen:\n%s", w, h, i, down, s)
				}
				if footer, line := offersY(s); footer != line {
					t.Fatalf("%d×%d (step %d of the drag), %d down: the footer offers y %v, the key line %v:\n%s", w, h, i, down, footer, line, s)
				}
			}
		}
	}
}

// offersY is whether the dialog's footer (in the box) and the key line
// (below it) offer y.
func offersY(screen string) (footer, line bool) {
	box, below, _ := strings.Cut(screen, "╯")
	return strings.Contains(box, "│ y confirm"), strings.Contains(below, "y confirm")
}

// The key line offers what the dialog's footer offers. It was kept while
// its keys changed but not their number: with a long head (an enforced
// server's access and what else it reads) at 44×21 after 44×9, ↓ three
// times, then 44×16, every root came on screen and the footer offered y;
// the key line still did not (four keys before and after: ↓ went, y came).
func TestDialogKeyLineFollowsItsKeys(t *testing.T) {
	items := plainItems("/work/demo/api", "/work/demo/web", "/work/demo/tools/cli", "/work/demo/a", "/work/demo/b", "/work/demo/c")
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 44, Height: 9})
	clk := openRaw(t, m, items...)
	d := m.review.sh.Dialog()
	d.access = "Enforced: the kernel lets the server open only these folders, and what it needs to run."
	d.beyond = "Also readable where enforced: a private temporary folder, npm cache, system folders, devices. Network: on. " +
		"rootpick runs as root: an enforced server still reads all that root can in its runtime (/etc/shadow, other processes' /proc)."
	clk.Advance(time.Second)
	m.Update(consentGuardMsg{id: d.id, seq: d.guardSeq})
	m.Update(tea.WindowSizeMsg{Width: 44, Height: 21})
	send(m, "down", "down", "down")
	if footer, _ := offersY(screen(m)); footer {
		t.Fatalf("every root is on screen at 44×21 already: the test tries nothing:\n%s", screen(m))
	}
	for _, h := range []int{16, 12, 21, 14} {
		m.Update(tea.WindowSizeMsg{Width: 44, Height: h})
		s := screen(m)
		if footer, line := offersY(s); footer != line {
			t.Errorf("44×%d: the footer offers y %v, the key line %v:\n%s", h, footer, line, s)
		}
	}
}

// A key that acts on the highlighted root (space grants a warned one, e
// shows what it brings in) never acts on it off screen: scrolled past it,
// the key brings it back into view, and the next one acts.
func TestDialogActsOnlyOnARootOnScreen(t *testing.T) {
	items := append([]proposedRoot{warnedItem("/work/demo/api", consent.WarnSecrets)}, plainItems("/work/demo/web", "/work/demo/tools/cli")...)
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 9})
	openDialogWith(t, m, items...) // its last key, ↑ on the first root, scrolls to the section's header
	d := m.review.sh.Dialog()
	if d.cursorShown() || strings.Contains(screen(m), "›") {
		t.Fatalf("the highlighted root is on screen: the test tries nothing:\n%s", screen(m))
	}
	send(m, "space")
	if a := d.current(); a == nil || a.granted {
		t.Fatalf("space granted the root off screen")
	}
	if s := screen(m); !strings.Contains(s, "› !") {
		t.Fatalf("space did not bring the highlighted root on screen:\n%s", s)
	}
	send(m, "space")
	if !d.current().granted {
		t.Error("space on the root on screen did not grant it")
	}
}

// On a short terminal a long note keeps the lines the rows can spare,
// one at least, its last ending in "…" (it wrapped to four lines at 30
// columns and left one row at 30×8); a taller terminal shows it whole,
// and a question is never shortened.
func TestShortTerminalNoteGivesWay(t *testing.T) {
	const note = "Remembered 1 root from 2026-12-06 14:12: checked, not shared until you confirm (enter)."
	rowsOf := func(lines []string) int {
		n := 0
		for _, l := range lines {
			if strings.Contains(l, "[ ]") || strings.Contains(l, "[x]") {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		w, h, rows, noteLines int
		whole                 bool
	}{
		{30, 6, 2, 1, false},
		{30, 8, 3, 2, false},
		{30, 9, 3, 3, false},
		{30, 40, 5, 4, true},
	} {
		m := fixture(t, demoRepos()...)
		m.Update(tea.WindowSizeMsg{Width: c.w, Height: c.h})
		m.setNote(note, false)
		m.Update(tea.WindowSizeMsg{Width: c.w, Height: c.h})
		lines := strings.Split(screen(m), "\n")
		got := strings.Join(lines, "\n")
		status := strings.TrimRight(ansi.Strip(m.chrome.status), " ")
		noteLines := lipgloss.Height(status) - 1
		switch {
		case len(lines) != c.h:
			t.Errorf("%d×%d: %d lines drawn:\n%s", c.w, c.h, len(lines), got)
		case rowsOf(lines) != c.rows:
			t.Errorf("%d×%d: %d rows shown, want %d:\n%s", c.w, c.h, rowsOf(lines), c.rows, got)
		case noteLines != c.noteLines:
			t.Errorf("%d×%d: the note took %d lines, want %d:\n%s", c.w, c.h, noteLines, c.noteLines, got)
		case !strings.Contains(status, "Remembered 1 root"):
			t.Errorf("%d×%d: the note's first words went:\n%s", c.w, c.h, got)
		case c.whole != strings.Contains(strings.Join(strings.Fields(status), " "), "confirm (enter)."):
			t.Errorf("%d×%d: the note whole %v, want %v:\n%s", c.w, c.h, !c.whole, c.whole, got)
		case !c.whole && !strings.HasSuffix(status, "…"):
			t.Errorf("%d×%d: a shortened note does not end in …:\n%s", c.w, c.h, got)
		}
	}
	// A question stays whole, even at the rows' cost.
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 30, Height: 8})
	send(m, "space", "ctrl+q")
	if m.question.kind == askNone {
		t.Fatal("no question asked: the test tries nothing")
	}
	screen(m)
	if q := strings.Join(strings.Fields(ansi.Strip(m.chrome.status)), " "); !strings.Contains(q, "any other key goes back.") {
		t.Errorf("the question was shortened on 30×8: %q", q)
	}
}

// The consent dialog on a short terminal: its key help shrinks to one
// line, which keeps its first key and the keys after it that fit, and
// never goes; the body gets the rows.
func TestShortTerminalDialog(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 34, Height: 9})
	openDialogWith(t, m, plainItems("/work/demo/api", "/work/demo/web", "/work/demo/tools/cli", "/work/demo/a", "/work/demo/b", "/work/demo/c", "/work/demo/d", "/work/demo/e")...)
	full := ansi.Strip(m.helpLine.text)
	screen(m)
	help := ansi.Strip(m.chrome.help)
	first, _, _ := strings.Cut(strings.Split(full, "\n")[0], " • ")
	if lipgloss.Height(full) < 2 {
		t.Fatalf("the dialog's help fits one line at 34 columns (%q): the test tries nothing", full)
	}
	if lipgloss.Height(help) != 1 || !strings.HasPrefix(help, first) || !strings.Contains(help, "down") {
		t.Fatalf("dialog key help on 34×9: %q, want one line starting with %q and offering down (the whole: %q)", help, first, full)
	}
	m.Update(tea.WindowSizeMsg{Width: 34, Height: 5})
	screen(m)
	if m.chrome.help == "" {
		t.Fatal("the dialog's key help went on 34×5")
	}
}

// A dialog whose head says what enforced servers also read, and whose
// confirmation replaces another folder's consent, still fits a short
// terminal whole: box and footer, the head giving way.
func TestShortTerminalDialogFits(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 34, Height: 9})
	openDialogWith(t, m, plainItems("/work/demo/api", "/work/demo/web")...)
	d := m.review.sh.Dialog()
	d.beyond = "Also readable where enforced: a private temporary folder, npm cache, system folders, devices. Network: on. " +
		"rootpick runs as root: an enforced server still reads all that root can in its runtime (/etc/shadow, other processes' /proc)."
	d.replaces = "y replaces the consent given for /work/other."
	for _, h := range []int{9, 8, 7, 14, 16} {
		m.Update(tea.WindowSizeMsg{Width: 34, Height: h})
		s := screen(m)
		if !strings.Contains(s, "╭") || !strings.Contains(s, "╰") || !strings.Contains(s, "cancel") {
			t.Errorf("34×%d: the dialog does not fit:\n%s", h, s)
		}
		// The parts give way one at a time: the title stays while the
		// box has room for it beside the rest.
		if h >= 14 && !strings.Contains(s, "Share 2 roots") {
			t.Errorf("34×%d: the title gave way with room for it:\n%s", h, s)
		}
	}
}

// The dialog's box never passes the rows it is given, also when seeing
// its last root takes the footer's "not yet shown" line away as the
// guard arms (the head the news line had pushed out would come back).
func TestDialogBoxFitsAsTheGuardArms(t *testing.T) {
	for h := 4; h <= 12; h++ {
		m := fixture(t, demoRepos()...)
		m.Update(tea.WindowSizeMsg{Width: 34, Height: 9})
		m.review.sh.Review(nil)
		m.Update(proposalMsg{proposed: plainItems("/work/demo/日本語-repo")})
		d := m.review.sh.Dialog()
		d.access = "Enforced: the kernel lets the server open only these folders, and what it needs to run."
		d.beyond = "Also readable where enforced: a private temporary folder, npm cache, system folders, devices."
		d.SetSize(34, h)
		d.onGuard(consentGuardMsg{id: d.id, seq: d.guardSeq})
		if n := lipgloss.Height(d.View()); n > h {
			t.Errorf("%d rows: the box takes %d:\n%s", h, n, d.View())
		}
	}
}

func TestFirstLines(t *testing.T) {
	for _, c := range []struct {
		s    string
		h    int
		want string
	}{
		{"a", 1, "a"}, {"a", 3, "a\n\n"}, {"a\nb\nc", 2, "a\nb"}, {"a\nb\nc", 3, "a\nb\nc"},
		{"a\nb\nc", 1, "a"}, {"", 2, "\n"}, {"a\n", 1, "a"}, {"a\n", 2, "a\n"},
	} {
		if got := firstLines(c.s, c.h); got != c.want {
			t.Errorf("firstLines(%q, %d) = %q, want %q", c.s, c.h, got, c.want)
		}
	}
}

// Every frame is exactly the screen's rows, none wider than the screen,
// at any size and on every page, with a long note on the status line:
// the frame fits its parts one by one, not as a whole.
func TestFrameFitsTheScreen(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.setNote("a note long enough to wrap on any screen narrower than a hundred and twenty columns, with a path /work/demo/tools/cli/vendor/lib", true)
	for _, page := range []string{"", "?", "ctrl+o"} {
		for w := 1; w <= 130; w += 7 {
			for h := 1; h <= 45; h += 4 {
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				if page != "" {
					send(m, page)
				}
				lines := strings.Split(screen(m), "\n")
				if len(lines) != h {
					t.Fatalf("%q at %d×%d: %d lines", page, w, h, len(lines))
				}
				for _, l := range lines {
					if cellWidth(l) > w {
						t.Fatalf("%q at %d×%d: a line of %d cells: %q", page, w, h, cellWidth(l), l)
					}
				}
				if page != "" {
					send(m, "esc")
				}
			}
		}
	}
}
