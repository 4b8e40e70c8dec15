package screen

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// The direct path writes the lines of a frame that changed, each whole
// and by itself: the cursor to its row, the row erased, the line. It
// skips what costs most in a ↓ key's frame: parsing each changed line
// into cells and diffing the cells against the screen's (about half of
// the picker's CPU per key, and most of the wait before the first byte
// goes out; docs/performance.md). It is taken only where it draws what
// the cell path would:
//
//   - the last frame was drawn (not the first, not a new size) and both
//     it and this one are clean (every line is styles only and ends reset,
//     so each line draws the same alone as under the lines above it);
//   - in every line that changed, every character is printable and one
//     column wide in every width model the terminal may use (wcwidth and
//     grapheme clusters), so a line's width is its count of characters
//     (the lines that did not change stay on screen as they were drawn);
//   - no changed line is wider than the screen (written whole, it would
//     wrap onto the next row), and the frame has no more lines than the
//     screen.
//
// Else the frame goes through ultraviolet's cells, after the cells are
// brought back in line with what the direct path drew (resync).
//
// Colours: lipgloss writes 24-bit colours and ultraviolet converts them
// to what the terminal has; here each style sequence is converted once
// for the profile and remembered.

// direct holds the direct path's state: the drawing goroutine's own.
type direct struct {
	stale  bool              // the cells lag what the direct path drew
	oneCol map[rune]bool     // characters one column wide in every width model
	sgr    map[string]string // a style sequence as the profile writes it
	sgrFor colorprofile.Profile
	rows   []directRow // the rows of the frame being drawn that changed
}

// memoMax bounds the direct path's two memos: past it they are emptied.
const memoMax = 4096

// directLines returns the frame's lines if the direct path can draw it
// on a w×h screen, after a clean frame drawn at that size, and notes in
// s.rows the rows it writes: those whose line changed. The lines that did
// not change are on screen as they were drawn, and need no look.
func (s *Screen) directLines(content string, w, h int) ([]string, bool) {
	if !s.clean || strings.Count(content, "\n") >= h {
		return nil, false
	}
	lines := strings.Split(content, "\n")
	s.rows = s.rows[:0]
	for y := range max(len(lines), len(s.lines)) {
		line := lineAt(lines, y)
		if line == lineAt(s.lines, y) {
			continue
		}
		n, ok := s.plainWidth(line)
		if !ok || n > w {
			return nil, false
		}
		s.rows = append(s.rows, directRow{y: y, fills: n == w})
	}
	return lines, true
}

// directRow is a row the direct path writes, and whether its line fills it.
type directRow struct {
	y     int
	fills bool
}

// plainWidth is line's width in columns, and whether it is a line the
// direct path can draw: style sequences only, the last of them a reset,
// and every character printable and one column wide.
func (s *Screen) plainWidth(line string) (int, bool) {
	width, reset := 0, true
	for i := 0; i < len(line); {
		b := line[i]
		switch {
		case b == '\x1b':
			j, params, ok := sgrAt(line, i)
			if !ok {
				return 0, false
			}
			reset = params == "" || params == "0"
			i = j
			continue
		case b < 0x20 || b == 0x7f:
			return 0, false
		case b < utf8.RuneSelf:
			width++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		if r == utf8.RuneError || !s.oneColumn(r) {
			return 0, false
		}
		width++
		i += size
	}
	return width, reset
}

// oneColumn reports whether r is printable and one column wide both as
// wcwidth counts it and as grapheme clusters are counted (ambiguous
// characters under RUNEWIDTH_EASTASIAN, combining marks, joiners and
// emoji are not).
func (s *Screen) oneColumn(r rune) bool {
	if one, ok := s.oneCol[r]; ok {
		return one
	}
	c := string(r)
	one := ansi.WcWidth.StringWidth(c) == 1 && ansi.GraphemeWidth.StringWidth(c) == 1
	if s.oneCol == nil || len(s.oneCol) >= memoMax {
		s.oneCol = make(map[rune]bool)
	}
	s.oneCol[r] = one
	return one
}

// drawDirect writes the rows directLines noted, of the frame's lines,
// into s.buf in profile p.
func (s *Screen) drawDirect(lines []string, p colorprofile.Profile) {
	if s.sgrFor != p {
		s.sgr, s.sgrFor = nil, p
	}
	for _, r := range s.rows {
		s.buf.WriteString(ansi.CursorPosition(1, r.y+1))
		if !r.fills {
			s.buf.WriteString(ansi.EraseEntireLine)
		}
		s.writeLine(lineAt(lines, r.y), p)
	}
	s.lines, s.clean = lines, true
	s.stale = true
}

// writeLine writes line to s.buf with its style sequences as profile p
// writes them.
func (s *Screen) writeLine(line string, p colorprofile.Profile) {
	if p == colorprofile.TrueColor {
		s.buf.WriteString(line)
		return
	}
	for {
		i := strings.IndexByte(line, '\x1b')
		if i < 0 {
			s.buf.WriteString(line)
			return
		}
		s.buf.WriteString(line[:i])
		j, _, _ := sgrAt(line, i) // plainWidth has read every sequence as one
		s.buf.WriteString(s.styleFor(line[i:j], p))
		line = line[j:]
	}
}

// styleFor is the style sequence seq as profile p writes it (fewer
// colours, or none).
func (s *Screen) styleFor(seq string, p colorprofile.Profile) string {
	if out, ok := s.sgr[seq]; ok {
		return out
	}
	var b bytes.Buffer
	_, _ = (&colorprofile.Writer{Forward: &b, Profile: p}).WriteString(seq)
	if s.sgr == nil || len(s.sgr) >= memoMax {
		s.sgr = make(map[string]string)
	}
	s.sgr[seq] = b.String()
	return b.String()
}

// resync brings the cells and ultraviolet's picture of the screen back
// to the frame the direct path left on it, writing nothing, so that the
// next frame through the cells is diffed against what is really there.
func (s *Screen) resync() {
	s.paint(strings.Join(s.lines, "\n"), true)
	s.scr.Render(s.cells.RenderBuffer)
	_ = s.scr.Flush()
	s.buf.Reset()
	// Forget where the cursor is: the direct path moved it, so the next
	// move is absolute. (The size is the same: nothing is repainted.)
	s.scr.Resize(s.drawnW, s.drawnH)
	s.stale = false
}
