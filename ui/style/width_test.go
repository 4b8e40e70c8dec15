package style

import (
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// widthCases are strings as rootpick draws them and strings it must not
// be fooled by: wide, combining, emoji, variation selectors, control
// characters and escape sequences other than CSI and OSC.
var widthCases = []string{
	"", "plain", "services/secrets-api", "a\x1b[1;38;2;1;2;3mb\x1b[m", "\x1b]8;;file:///x\x07link\x1b]8;;\x07",
	"\x1b]8;;x\x1b\\y", "│ ─ ✓ ● ○ ⚠ … › · ↑2 ↓1", "⚠\ufe0f", "✓\u0301", "e\u0301", "日本語", "👍🏽", "🧑‍💻",
	"a\tb", "a\x00b", "\x1b", "\x1b[", "\x1b[31", "\x1bPq\x1b\\", "\x1b(B", "x\x7fy", "⠋ scanning", "é", "\u200b",
	"~/src/payments/ledger  main*  ↑2  ✓ shared", "データ-3/x", "ｱｲ", "가\u11a8", "か\u3099", "한국어 ＡＢ", "\x1b[38;2;9;9;9m│\x1b[m\x1b[1m⚠ home\x1b[m",
}

// Inks of the kinds the picker's palette holds: bold and coloured, dim,
// coloured.
var (
	cursor  = InkOf(lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#ff87d7")))
	dim     = InkOf(lipgloss.NewStyle().Foreground(lipgloss.Color("#a8a8a8")))
	checked = InkOf(lipgloss.NewStyle().Foreground(lipgloss.Color("#5fd787")))
)

func TestCellWidthAgreesWithAnsi(t *testing.T) {
	cases := slices.Clone(widthCases)
	var narrows []rune
	for r := rune(narrowFrom); r < narrowTo; r++ {
		if isNarrow(r) {
			narrows = append(narrows, r)
		}
	}
	if len(narrows) < 600 {
		t.Fatalf("only %d narrow runes: the letters are missing", len(narrows))
	}
	for _, r := range narrows {
		cases = append(cases, string(r), string(r)+"a", "a"+string(r)+string(r)+"\x1b[m", string(r)+"\ufe0f", string(r)+"\u0300", string(r)+"日")
	}
	wides := 0
	for _, rg := range wideRanges {
		for r := rg[0]; r < rg[1]; r++ {
			if !isWide(r) {
				continue
			}
			wides++
			cases = append(cases, string(r)+"a", "\x1b[1m"+string(r)+"é"+string(r)+"\x1b[m")
			if r%64 == 0 {
				cases = append(cases, string(r)+"\u3099", string(r)+"\ufe0f", string(r)+"\u11a8", string(r)+"\u200d"+string(r))
			}
		}
	}
	if wides < 30000 {
		t.Fatalf("only %d wide runes", wides)
	}
	for _, s := range widthCases {
		cases = append(cases, cursor.Render(s), dim.Render(s)+" "+checked.Render("[x]"))
	}
	for _, s := range cases {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, ansi.StringWidth says %d", s, got, want)
		}
		for _, w := range []int{0, 1, 3, 10} {
			if got, want := Cut(s, w, "…"), ansi.Truncate(s, w, "…"); Width(s) > w && got != want {
				t.Errorf("Cut(%q, %d) = %q, want %q", s, w, got, want)
			}
		}
		if got, want := PadRight(s, 30), s+strings.Repeat(" ", max(0, 30-lipgloss.Width(s))); got != want {
			t.Errorf("PadRight(%q, 30) = %q, want %q", s, got, want)
		}
	}
}

func FuzzCellWidth(f *testing.F) {
	for _, s := range widthCases {
		f.Add(s)
	}
	f.Add("naïve dir-0/Ünïcode-2 Łódź ÿ\u0308 Ω\u0301")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Fatalf("Width(%q) = %d, ansi.StringWidth says %d", s, got, want)
		}
		want := s
		if ansi.StringWidth(s) > 8 {
			want = ansi.Truncate(s, 8, "")
		}
		if got := Cut(s, 8, ""); got != want {
			t.Fatalf("Cut(%q, 8) = %q, want %q", s, got, want)
		}
	})
}
