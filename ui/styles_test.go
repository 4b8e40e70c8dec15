package ui

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"charm.land/lipgloss/v2"
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

// TestJoinSideIsJoinHorizontal: the list and the side pane are joined as
// lipgloss.JoinHorizontal would, line for line, whichever is taller.
func TestJoinSideIsJoinHorizontal(t *testing.T) {
	st := newStyles(true, false)
	left := []string{st.cursor.Render("› ") + "[x] a", "b ✓", "", "日本"}
	for _, right := range []string{"│ one\n│ two ⚠\n│ three is longer", "x", "a\nb\nc\nd\ne\nf"} {
		for _, n := range []int{0, 2, 4} {
			padded := make([]string, n)
			for i := range padded {
				padded[i] = padRight(left[i], 12)
			}
			want := lipgloss.JoinHorizontal(lipgloss.Top, strings.Join(padded, "\n"), right)
			if n == 0 {
				want = lipgloss.JoinHorizontal(lipgloss.Top, strings.Repeat(" ", 12), right)
			}
			if got := joinSide(left[:n], 12, right); got != want {
				t.Errorf("joinSide(%d lines, %q) =\n%q\nwant\n%q", n, right, got, want)
			}
		}
	}
}

// TestInkRendersAsLipgloss: every ink of every palette draws exactly what
// its lipgloss style draws, and takes the fast way (its sequences worked
// out once) for one line of text.
func TestInkRendersAsLipgloss(t *testing.T) {
	texts := append(slices.Clone(widthCases), " lead", "trail ", "two  spaces", "a\nb", "tab\there", "✓ shared", "⚠ home, secrets",
		"p", "payments", "a-b/c.d_e", "~!@#$%^&*()[]{}<>?|+=:;,'\"`\\", "X9", "\x7f", "é")
	for _, pal := range []struct {
		name string
		st   styles
	}{{"dark", newStyles(true, false)}, {"light", newStyles(false, false)}, {"NO_COLOR", newStyles(true, true)}} {
		v := reflect.ValueOf(&pal.st).Elem()
		for i := range v.NumField() {
			f := v.Field(i) // unexported: read through its address
			in, ok := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(ink)
			if !ok {
				continue
			}
			name := pal.name + " " + v.Type().Field(i).Name
			// The matches' underlined styles draw each character apart:
			// they go through lipgloss (a few characters a row).
			if !strings.HasSuffix(name, "Match") && !in.Simple() {
				t.Errorf("%s: the ink is not simple: every Render goes through lipgloss", name)
			}
			if strings.HasSuffix(name, "Match") && !in.Simple() && !in.Apart() {
				t.Errorf("%s: the match ink draws ASCII through lipgloss", name)
			}
			for _, s := range texts {
				if got, want := in.Render(s), in.Style.Render(s); got != want {
					t.Errorf("%s.Render(%q) = %q, lipgloss draws %q", name, s, got, want)
				}
			}
		}
	}
	bordered := inkOf(lipgloss.NewStyle().Border(lipgloss.NormalBorder()))
	if bordered.Simple() || bordered.Render("x") != bordered.Style.Render("x") {
		t.Errorf("a bordered style is taken as simple: %q", bordered.Render("x"))
	}
}

// TestSidePaneIsLipgloss: the side pane is drawn as the lipgloss style
// with its left border, padding and size would draw it.
func TestSidePaneIsLipgloss(t *testing.T) {
	for _, st := range []styles{newStyles(true, false), newStyles(false, true)} {
		for _, content := range []string{"", "ab\n\x1b[1mcd\x1b[m e", "a very long line that is cut\nshort\n日本語のパス\n1\n2\n3\n4\n5", "⚠ home\n✓ shared"} {
			for _, size := range [][2]int{{12, 4}, {3, 1}, {40, 6}} {
				pw, h := size[0], size[1]
				want := lipgloss.NewStyle().Width(pw).Height(h).MaxHeight(h).
					BorderStyle(lipgloss.NormalBorder()).BorderLeft(true).BorderForeground(st.border).PaddingLeft(1).
					Render(fit(content, pw-2, h))
				if got := sidePane(content, pw, h, st.rule); got != want {
					t.Errorf("sidePane(%q, %d, %d) =\n%q\nwant\n%q", content, pw, h, got, want)
				}
			}
		}
	}
}
