package ui

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
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

// noun is one when n is 1, else many (the number is written apart).
func noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// fit pads or cuts s to exactly h lines no wider than w.
func fit(s string, w, h int) string {
	if h <= 0 {
		return ""
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

// home shortens the home folder to ~.
func home(p string) string {
	h, err := consent.HomeDir()
	if err != nil || h == "/" {
		return p
	}
	if p == h {
		return "~"
	}
	if strings.HasPrefix(p, h+string(filepath.Separator)) {
		return "~" + p[len(h):]
	}
	return p
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

// pathOfURI shows a file URI as its path.
func pathOfURI(u string) string {
	if p, err := consent.URIToPath(u); err == nil {
		return p
	}
	return u
}

func sameSet(want, got []string) bool {
	return slices.Equal(want, sortedSet(slices.Clone(got)))
}

// sortedSet sorts s in place and drops its repeats: a set of URIs in the
// form sameSet compares.
func sortedSet(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}

func itoa(n int) string { return strconv.Itoa(n) }

// relPath shows p relative to dir when it is inside it.
func relPath(dir, p string) string {
	if rel, err := filepath.Rel(dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return rel
	}
	return p
}
