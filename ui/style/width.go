package style

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// The screen is measured many times a frame: each row's cells, each line
// of the list and the pane before they are joined, each line of the screen
// before it is cut to the terminal. ansi.StringWidth walks grapheme
// clusters, which was half of a ↓ key's cost at 50,000 rows; most of what
// rootpick draws is ASCII with colour (SGR) sequences and a few symbols of
// its own, whose widths are known. Width measures those in one pass
// over the bytes and hands anything else to ansi.StringWidth, so the two
// always agree (TestCellWidthAgreesWithAnsi, FuzzCellWidth).

// narrowSymbols are the non-ASCII characters rootpick draws itself, each
// one cell wide. None joins what follows it into one cluster; what could
// join one (a combining mark, a variation selector, a joiner) is not
// narrow, so meeting it hands the whole string to ansi.StringWidth.
const narrowSymbols = "│─┌┐└┘├┤┬┴┼╭╮╰╯…›‹•·↑↓←→✓✗●○◌◆◇▸▾▶↺⚠—–−×≠⊂µ⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

// narrowFrom and narrowTo bound the runes the table knows, and
// narrowLetters the letters in it: Latin-1, Latin Extended, Greek and
// Cyrillic, the accented names (naïve, Ünïcode, Łódź) of many folders.
const (
	narrowFrom, narrowTo = 0x80, 0x2900
	narrowLetters        = 0x530
)

// narrow tells, by rune, the narrowSymbols and the letters below
// narrowLetters that are printable, not marks or format characters (which
// join the character before them), and one cell wide by ansi.StringWidth
// itself.
var narrow = func() (m [narrowTo - narrowFrom]bool) {
	for _, r := range narrowSymbols {
		m[r-narrowFrom] = true
	}
	for r := rune(0xa0); r < narrowLetters; r++ {
		if unicode.IsPrint(r) && !unicode.In(r, unicode.M, unicode.Cf) && ansi.StringWidth(string(r)) == 1 {
			m[r-narrowFrom] = true
		}
	}
	return m
}()

// isNarrow reports whether r is one of narrowSymbols.
func isNarrow(r rune) bool {
	return r >= narrowFrom && r < narrowTo && narrow[r-narrowFrom]
}

// wideRanges are the blocks of East Asian letters that folder names are
// written in, two cells each: kana, CJK ideographs (and extension A),
// Hangul syllables and the fullwidth forms. A tenth of gentree's folders
// are named データ; measured by ansi.StringWidth, their rows cost four
// times an ASCII row's.
var wideRanges = [...][2]rune{{0x3040, 0x3100}, {0x3400, 0x4dc0}, {0x4e00, 0xa000}, {0xac00, 0xd7a4}, {0xff01, 0xff61}}

// isWide reports whether r is a printable letter of wideRanges that joins
// nothing to it: not a mark (the kana sound marks U+3099 and U+309A join
// the letter before them) nor a format character. What follows it and
// could join it (a mark, a variation selector, a Hangul jamo) is neither
// narrow nor wide, so meeting that hands the string to ansi.StringWidth.
func isWide(r rune) bool {
	for _, rg := range wideRanges {
		if r >= rg[0] && r < rg[1] {
			return unicode.IsPrint(r) && !unicode.In(r, unicode.M, unicode.Cf)
		}
	}
	return false
}

// Width is ansi.StringWidth(s): the cells s takes on a terminal, its
// escape sequences taking none.
func Width(s string) int {
	w := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			w++
			i++
		case c == 0x1b:
			n := escapeLen(s[i:])
			if n == 0 {
				return ansi.StringWidth(s)
			}
			i += n
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case isNarrow(r):
				w++
			case isWide(r):
				w += 2
			default:
				return ansi.StringWidth(s)
			}
			i += size
		default: // other control characters
			return ansi.StringWidth(s)
		}
	}
	return w
}

// escapeLen is the length of the CSI (ESC [ … final) or OSC (ESC ] … BEL or
// ESC \, printable ASCII between) sequence s starts with, 0 for any other,
// an unusual or an unfinished one.
func escapeLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case '[':
		// Parameter bytes, then intermediate bytes, then the final byte;
		// anything out of that order is left to ansi.StringWidth.
		i := 2
		for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
			i++
		}
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
			return i + 1
		}
		return 0
	case ']':
		for i := 2; i < len(s); i++ {
			switch c := s[i]; {
			case c == 0x07:
				return i + 1
			case c == 0x1b && i+1 < len(s) && s[i+1] == '\\':
				return i + 2
			case c < 0x20 || c >= 0x7f: // printable ASCII only
				return 0
			}
		}
	}
	return 0
}

// Cut is ansi.Truncate(s, w, tail), with s itself when it fits, which
// Width tells without the grapheme walk.
func Cut(s string, w int, tail string) string {
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, tail)
}

// PadRight pads s with spaces to w cells.
func PadRight(s string, w int) string {
	if n := w - Width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}
