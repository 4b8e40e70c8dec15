package screen

import (
	"math/rand/v2"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// Drawing only the changed lines gives the same cells as drawing the
// whole frame, for frames of styled, wide, long, short and unclosed lines.
func TestPaintingChangedLinesIsPaintingTheFrame(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	styles := []lipgloss.Style{
		lipgloss.NewStyle().Bold(true),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#ff8800")),
		lipgloss.NewStyle().Background(lipgloss.Color("4")).Underline(true),
		lipgloss.NewStyle().Reverse(true).Faint(true),
	}
	words := []string{"services/ledger", "main *", "│", "› ", "[x]", "日本語", "résumé", "🙂", "  ", "ελληνικά", strings.Repeat("x", 70)}
	line := func() string {
		var b strings.Builder
		for range rng.IntN(6) {
			w := words[rng.IntN(len(words))]
			switch rng.IntN(5) {
			case 0:
				b.WriteString(w)
			case 1:
				b.WriteString("\x1b[1;31m" + w) // left open: the next line inherits it
			default:
				b.WriteString(styles[rng.IntN(len(styles))].Render(w))
			}
		}
		return b.String()
	}
	frame := func(n int) []string {
		f := make([]string, n)
		for i := range f {
			f[i] = line()
		}
		return f
	}
	const w, h = 60, 12
	checked, partial := 0, 0
	for round := range 3000 {
		a := frame(1 + rng.IntN(h+3))
		b := append([]string(nil), a...)
		for range 1 + rng.IntN(4) {
			b[rng.IntN(len(b))] = line()
		}
		if rng.IntN(4) == 0 {
			b = b[:1+rng.IntN(len(b))] // a shorter frame
		}
		inc := canvas{cells: uv.NewScreenBuffer(w, h)}
		inc.paint(strings.Join(a, "\n"), true)
		inc.paint(strings.Join(b, "\n"), false)
		if inc.clean {
			partial++
		}
		whole := uv.NewScreenBuffer(w, h)
		uv.NewStyledString(strings.Join(b, "\n")).Draw(whole, whole.Bounds())
		for y := range h {
			for x := range w {
				got, want := inc.cells.CellAt(x, y), whole.CellAt(x, y)
				if (got == nil) != (want == nil) || got != nil && !got.Equal(want) {
					t.Fatalf("round %d: cell %d,%d is %+v drawn by lines, %+v drawn whole\nbefore: %q\nafter: %q", round, x, y, got, want, a, b)
				}
			}
		}
		checked++
	}
	if partial < checked/10 {
		t.Errorf("only %d of %d frames were drawn line by line: the test does not exercise it", partial, checked)
	}
}

func TestEndsClean(t *testing.T) {
	for line, want := range map[string]bool{
		"plain":                        true,
		"\x1b[1mbold\x1b[m":            true,
		"\x1b[1mbold\x1b[0m after":     true,
		"\x1b[1mbold":                  false,
		"\x1b[1mbold\x1b[m\x1b[31m":    false,
		"\x1b[0;1m":                    false,
		"\x1b[?25l":                    false,
		"\x1b]8;;file:///x\x07x\x1b[m": false,
		"\x1b[2Kx":                     false,
		"trailing \x1b":                false,
	} {
		if got := endsClean(line); got != want {
			t.Errorf("endsClean(%q) = %v, want %v", line, got, want)
		}
	}
}
