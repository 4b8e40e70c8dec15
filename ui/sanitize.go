package ui

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// clean makes text from the disk or a server safe to draw: control
// characters (C0, DEL, C1), Unicode format characters (bidi overrides,
// zero-width marks) and invalid UTF-8 are shown as Go-style escapes, so a
// folder or branch name cannot move the cursor, recolour the screen or hide
// part of itself.
func clean(s string) string {
	safe := true
	for _, r := range s {
		if r == utf8.RuneError || unsafeRune(r) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && unsafeRune(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || unicode.Is(unicode.Cf, r)
}
