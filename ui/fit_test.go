package ui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
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
