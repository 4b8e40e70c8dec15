package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/ui/style"
)

// wrapText wraps s at spaces to width w (a word longer than w is broken).
func wrapText(s string, w int) string {
	return ansi.Wrap(s, max(w, 1), "")
}

// midCut shortens s to w cells by cutting out its middle, so the start and
// the end of a name, which tell two names apart, both stay.
func midCut(s string, w int) string {
	sw := cellWidth(s)
	if sw <= w {
		return s
	}
	if w <= 1 {
		return cut(s, w, "")
	}
	left := (w - 1) / 2
	right := w - 1 - left
	return cut(s, left, "") + "…" + ansi.TruncateLeft(s, sw-right, "")
}

// fit pads or cuts s to exactly h lines no wider than w. A frame is
// fitted twice a key (its body, then the whole): when s already fits, as
// it mostly does, it is returned as it is, padded with empty lines, and
// nothing is split, cut or copied.
func fit(s string, w, h int) string {
	if h <= 0 {
		return ""
	}
	if n, ok := fits(s, w, h); ok {
		if n < h {
			return s + strings.Repeat("\n", h-n)
		}
		return s
	}
	rows := strings.Split(s, "\n")
	if len(rows) > h {
		rows = rows[:h]
	}
	for i, r := range rows {
		rows[i] = cut(r, w, "")
	}
	for len(rows) < h {
		rows = append(rows, "")
	}
	return strings.Join(rows, "\n")
}

// firstLines is s cut or padded to exactly h lines (h > 0), the lines
// kept as they are.
func firstLines(s string, h int) string {
	n, i := 1, 0
	for n <= h {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s + strings.Repeat("\n", h-n)
		}
		if n == h {
			return s[:i+j]
		}
		i += j + 1
		n++
	}
	return s
}

// keepLines is the first n lines of the wrapped text s (all for n <= 0),
// the last one ending in "…" where lines were dropped, within w cells.
func keepLines(s string, n, w int) string {
	if n <= 0 || strings.Count(s, "\n") < n {
		return s
	}
	kept := firstLines(s, n)
	last := strings.LastIndexByte(kept, '\n') + 1
	return kept[:last] + cut(strings.TrimRight(kept[last:], " ")+" …", w, "…")
}

// fits reports whether s has at most h lines, each at most w cells wide,
// and how many lines it has. A line of at most w bytes is not measured:
// no text takes more cells than it has bytes.
func fits(s string, w, h int) (lines int, ok bool) {
	for lines = 1; ; lines++ {
		if lines > h {
			return lines, false
		}
		line, rest, more := strings.Cut(s, "\n")
		if len(line) > w && cellWidth(line) > w {
			return lines, false
		}
		if !more {
			return lines, true
		}
		s = rest
	}
}

// wrapIndent wraps plain text s to width w, every line indented and
// styled on its own (a style must not run across a line break).
func wrapIndent(indent, s string, st ink, w int) string {
	inner := max(w-len(indent), 8)
	lines := strings.Split(ansi.Wrap(s, inner, "/"), "\n")
	for i, l := range lines {
		lines[i] = indent + st.Render(l)
	}
	return strings.Join(lines, "\n")
}

func itoa(n int) string { return strconv.Itoa(n) }

// The words and measures every part writes alike, from package style
// (ui/fleet draws with the same): a count with its noun, the home folder
// as ~, a path inside the scanned folder, the cells a text takes and a
// text cut to a width.
func plural(n int, one, many string) string { return style.Plural(n, one, many) }
func noun(n int, one, many string) string   { return style.Noun(n, one, many) }
func home(p string) string                  { return style.Home(p) }
func relPath(dir, p string) string          { return style.RelPath(dir, p) }
func cellWidth(s string) int                { return style.Width(s) }
func cut(s string, w int, tail string) string {
	return style.Cut(s, w, tail)
}
func padRight(s string, w int) string { return style.PadRight(s, w) }
