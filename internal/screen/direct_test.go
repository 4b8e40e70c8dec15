package screen

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// view is content as the picker's views are: alternate screen, mouse,
// title.
func view(content string) tea.View {
	v := tea.NewView(content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "rootpick"
	return v
}

// A screen drawing into a file, and a terminal emulator fed what it
// writes.
type emulated struct {
	s    *Screen
	f    *os.File
	em   *vt.Emulator
	w, h int
	p    colorprofile.Profile
}

func newEmulated(t *testing.T, w, h int, p colorprofile.Profile) *emulated {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return &emulated{s: newScreen(nil, f, []string{"TERM=xterm-256color"}, w, h, p), f: f, em: vt.NewEmulator(w, h), w: w, h: h, p: p}
}

// draw draws content and feeds what it wrote to the emulator.
func (e *emulated) draw(t *testing.T, content string) {
	t.Helper()
	off, err := e.f.Seek(0, io.SeekCurrent)
	if err != nil {
		t.Fatal(err)
	}
	e.s.draw(view(content), e.w, e.h, e.p, false, false)
	out := make([]byte, 1<<20)
	n, err := e.f.ReadAt(out, off)
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
	if _, err := e.f.Seek(off+int64(n), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if _, err := e.em.Write(out[:n]); err != nil {
		t.Fatal(err)
	}
}

func (e *emulated) resize(w, h int) {
	e.w, e.h = w, h
	e.em.Resize(w, h)
}

// diff is where two emulated screens differ, or "".
func diffScreens(a, b *vt.Emulator, w, h int) string {
	for y := range h {
		for x := range w {
			ca, cb := a.CellAt(x, y), b.CellAt(x, y)
			if ca == nil || cb == nil {
				if (ca == nil) != (cb == nil) {
					return fmt.Sprintf("cell %d,%d: %v against %v", x, y, ca, cb)
				}
				continue
			}
			content := func(s string) string {
				if s == "" {
					return " "
				}
				return s
			}
			if content(ca.Content) != content(cb.Content) || ca.Width != cb.Width || !ca.Style.Equal(&cb.Style) {
				return fmt.Sprintf("cell %d,%d: %q (width %d, %+v) against %q (width %d, %+v)\n%s\n---\n%s",
					x, y, ca.Content, ca.Width, ca.Style, cb.Content, cb.Width, cb.Style, a.String(), b.String())
			}
		}
	}
	return ""
}

// Whatever way a frame is drawn — its changed lines alone, or through
// the cells, after frames drawn either way, at a new size — the terminal
// shows what it shows when that frame alone is drawn on a fresh screen:
// every character, width and style, in 24-bit, 256, 16 and no colours, and
// with no terminal styles at all.
func TestFramesDrawnDirectLookAsDrawnWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	styles := []lipgloss.Style{
		lipgloss.NewStyle().Bold(true),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#ff87d7")).Bold(true),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#a8a8a8")),
		lipgloss.NewStyle().Background(lipgloss.Color("#005faf")).Underline(true),
		lipgloss.NewStyle().Reverse(true).Faint(true),
	}
	plain := []string{"services/ledger", "main *", "│", "› ", "[x]", "résumé", "  ", "● ready", "…", "b1234", "old/org0/repo14"}
	odd := []string{"日本語", "🙂", "e\u0301", "a\u200bb", "\x1b]8;;file:///x\x07link\x1b]8;;\x07", "\x1b[1;31mopen"}
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.Ascii, colorprofile.NoTTY} {
		t.Run(p.String(), func(t *testing.T) {
			w, h := 50, 12
			e := newEmulated(t, w, h, p)
			line := func(w int, oddOK bool) string {
				var b strings.Builder
				for range rng.IntN(7) {
					word := plain[rng.IntN(len(plain))]
					if oddOK && rng.IntN(30) == 0 {
						word = odd[rng.IntN(len(odd))]
					}
					if rng.IntN(2) == 0 {
						word = styles[rng.IntN(len(styles))].Render(word)
					}
					b.WriteString(word)
				}
				l := ansi.Truncate(b.String(), w, "")
				if rng.IntN(3) == 0 { // padded to the width, as the picker's lines are
					l += strings.Repeat(" ", max(w-ansi.StringWidth(l), 0))
				}
				return l
			}
			frame := make([]string, h)
			for y := range frame {
				frame[y] = line(w, false)
			}
			direct := 0
			for round := range 400 {
				switch rng.IntN(40) {
				case 0:
					w, h = 30+rng.IntN(40), 5+rng.IntN(15)
					e.resize(w, h)
					frame = make([]string, h)
					for y := range frame {
						frame[y] = line(w, false)
					}
				case 1:
					frame = frame[:1+rng.IntN(len(frame))] // a shorter frame
				case 2:
					for len(frame) < h {
						frame = append(frame, line(w, false))
					}
				}
				oddOK := rng.IntN(6) == 0
				for range 1 + rng.IntN(4) {
					frame[rng.IntN(len(frame))] = line(w, oddOK)
				}
				content := strings.Join(frame, "\n")
				e.draw(t, content)
				if e.s.stale { // drawn direct
					direct++
				}
				ref := newEmulated(t, w, h, p)
				ref.draw(t, content)
				if d := diffScreens(e.em, ref.em, w, h); d != "" {
					t.Fatalf("round %d (%dx%d): drawn after the frames before, it differs from drawn alone: %s", round, w, h, d)
				}
			}
			if n := direct; n < 150 {
				t.Errorf("only %d of 400 frames were drawn direct: the test does not try that path", n)
			}
		})
	}
}

// A clean frame of one-column characters is drawn direct, and the line
// that changed is the only one written.
func TestDirectWritesOnlyTheChangedLine(t *testing.T) {
	e := newEmulated(t, 40, 6, colorprofile.TrueColor)
	e.draw(t, "one\ntwo │ ok\nthree")
	off, _ := e.f.Seek(0, io.SeekCurrent)
	e.draw(t, "one\ntwo │ changed\nthree")
	if !e.s.stale {
		t.Fatal("a clean one-column frame was not drawn direct")
	}
	out := make([]byte, 4096)
	n, _ := e.f.ReadAt(out, off)
	got := string(out[:n])
	if !strings.Contains(got, "changed") || strings.Contains(got, "one") || strings.Contains(got, "three") {
		t.Errorf("wrote %q, want the second line only", got)
	}
	// A wide character goes through the cells.
	e.draw(t, "one\ntwo 日本\nthree")
	if e.s.stale {
		t.Error("a frame with a wide character was drawn direct")
	}
}

// The frames the direct path must leave to the cells: after a frame whose
// style runs on into the lines below, with more lines than the screen,
// and with a line wider than the screen (the cells cut them; written
// whole, the first would wrap and the last would land on the last row).
func TestDirectLeavesWhatItCannotDraw(t *testing.T) {
	for name, frames := range map[string][]string{
		"after a style left open":      {"\x1b[1;31mred\nbelow", "plain\nbelow"},
		"more lines than the screen":   {"a\nb", "a\nb\nc\nd\ne\nf\ng\nh"},
		"a line wider than the screen": {"one\ntwo\nthree", "one\n" + strings.Repeat("x", 45) + "\nthree"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEmulated(t, 40, 6, colorprofile.TrueColor)
			for _, f := range frames {
				e.draw(t, f)
			}
			ref := newEmulated(t, 40, 6, colorprofile.TrueColor)
			ref.draw(t, frames[len(frames)-1])
			if d := diffScreens(e.em, ref.em, 40, 6); d != "" {
				t.Error(d)
			}
		})
	}
}
