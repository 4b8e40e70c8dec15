// Package style is what every part of the picker's screen draws with,
// whichever package the part lives in: inks (a lipgloss style whose
// escape sequences are worked out once), the width of drawn text in
// cells and cutting it to a width, and the few words every part writes
// the same way (a count with its noun, the home folder as ~). It is a
// package of its own so that the parts that have rooms of their own
// (ui/fleet) draw exactly as ui does, without importing ui.
package style

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// Ink is a style of colours and attributes only (no width, padding,
// margin or border), with the escape sequences it puts around a line of
// text worked out once: Render is then two concatenations, where
// lipgloss.Style.Render measures, splits and re-joins the text on every
// call — a third of a ↓ key's cost at 50,000 rows, for the same bytes
// (TestInkRendersAsLipgloss). Text with a line break, a tab or an escape
// sequence, and a style lipgloss lays out, still go through lipgloss.
type Ink struct {
	lipgloss.Style
	pre, post string
	// simple: pre + text + post is what lipgloss draws for a line (not so
	// for an underlined style, which draws each character apart).
	simple bool
	// apart: lipgloss draws each character of a line apart, pre + c +
	// post (an underlined style), at least for printable ASCII without
	// spaces (a space it draws without the underline's other attributes).
	apart bool
}

// InkOf works out st's sequences, and whether they alone are what
// lipgloss draws: a probe with spaces and a wide character must come out
// as pre + text + post.
func InkOf(st lipgloss.Style) Ink {
	k := Ink{Style: st}
	out := st.Render("X")
	i := strings.IndexByte(out, 'X')
	if i < 0 {
		return k
	}
	k.pre, k.post = out[:i], out[i+1:]
	probe := " a b 日本 ✓ "
	k.simple = st.Render(probe) == k.pre+probe+k.post
	if !k.simple {
		const ascii = "aZ09-_./~!@#$%^&*()[]{}<>?|+=:;,'\"`"
		var b strings.Builder
		for i := range len(ascii) {
			b.WriteString(k.pre + ascii[i:i+1] + k.post)
		}
		k.apart = st.Render(ascii) == b.String()
	}
	return k
}

// Render is lipgloss.Style.Render(strs...) of the ink's style.
func (k Ink) Render(strs ...string) string {
	if len(strs) == 1 && k.apart && asciiWord(strs[0]) {
		// The matched letters of a row, underlined: drawn as lipgloss
		// draws them, a character at a time, without its layout work
		// (a fifth of a filter result's frame).
		s := strs[0]
		var b strings.Builder
		b.Grow(len(s) * (len(k.pre) + len(k.post) + 1))
		for i := range len(s) {
			b.WriteString(k.pre)
			b.WriteByte(s[i])
			b.WriteString(k.post)
		}
		return b.String()
	}
	if len(strs) != 1 || !k.simple {
		return k.Style.Render(strs...)
	}
	s := strs[0]
	if s == "" || strings.ContainsAny(s, "\n\t\r\x1b") {
		return k.Style.Render(s)
	}
	return k.pre + s + k.post
}

// Simple reports whether Render takes the fast way for a line of text:
// the sequences alone are what lipgloss draws around it.
func (k Ink) Simple() bool { return k.simple }

// Apart reports whether Render takes the fast way for printable ASCII
// without spaces, drawing each character apart as lipgloss does.
func (k Ink) Apart() bool { return k.apart }

// asciiWord reports whether s is printable ASCII without spaces, and not
// empty.
func asciiWord(s string) bool {
	for i := range len(s) {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return s != ""
}
