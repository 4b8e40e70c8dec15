// Package safetext makes text that comes from the disk or a server (folder
// and branch names, remote URLs, commit subjects, a server's name, errors
// and stderr lines) safe to write to a terminal, and keeps JSON output free
// of the same characters.
//
// It has its own folder because every layer needs the one definition of
// "unsafe": the UI draws names, mcpconn caps and cleans what a server says
// about itself, and the list and --print commands write paths for people and
// programs. The domain packages may not import ui, and none of them is the
// natural owner of a string function the others use, so the rule lives
// here, below all of them, and cannot drift between two copies.
package safetext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unsafe reports whether r must not reach a terminal raw: a C0 control,
// DEL, a C1 control (U+0080–U+009F, where U+009B is a one-byte CSI), a
// Unicode format character (Cf: bidi overrides and isolates, zero-width
// marks) or a line or paragraph separator (U+2028, U+2029).
func Unsafe(r rune) bool {
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	return r <= 0x9f || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029
}

// IsSafe reports whether s is valid UTF-8 holding no Unsafe rune, that is,
// whether Escape(s) == s. Printable ASCII is checked a byte at a time.
func IsSafe(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || Unsafe(r) {
			return false
		}
		i += size
	}
	return true
}

// Escape returns s with every Unsafe rune and every byte that is not
// UTF-8 written as a Go-style escape (\n, \t, \r, \x1b, \xff, \u202e,
// \U000e0001), so that the text cannot move the cursor, recolour the
// screen, reorder the text around it or hide part of itself. Other text,
// backslashes included, is left as it is: the result is for people to
// read, not for a program to parse back.
func Escape(s string) string {
	if IsSafe(s) {
		return s
	}
	return EscapeMax(s, 0)
}

// EscapeMax is Escape with a cap: the result is at most max runes long, a
// cut marked with "…" (max < 1: no cap). An escape is never cut in half.
func EscapeMax(s string, max int) string {
	if max < 1 {
		max = int(^uint(0) >> 1)
	}
	var b strings.Builder
	var buf [10]byte
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		var piece string
		switch {
		case r == utf8.RuneError && size <= 1:
			piece = string(appendHex(buf[:0], 'x', uint32(s[i]), 2))
		case r == '\n':
			piece = `\n`
		case r == '\t':
			piece = `\t`
		case r == '\r':
			piece = `\r`
		case r < 0x80 && Unsafe(r):
			piece = string(appendHex(buf[:0], 'x', uint32(r), 2))
		case r > 0xffff && Unsafe(r):
			piece = string(appendHex(buf[:0], 'U', uint32(r), 8))
		case Unsafe(r):
			piece = string(appendHex(buf[:0], 'u', uint32(r), 4))
		default:
			piece = s[i : i+size]
		}
		i += size
		w := utf8.RuneCountInString(piece)
		// Room for the piece, and for "…" unless this is the last one.
		if n+w > max || (i < len(s) && n+w == max) {
			b.WriteString("…")
			return b.String()
		}
		b.WriteString(piece)
		n += w
	}
	return b.String()
}

const hexDigits = "0123456789abcdef"

// appendHex appends `\` kind and v as digits lower-case hex digits.
func appendHex(b []byte, kind byte, v uint32, digits int) []byte {
	b = append(b, '\\', kind)
	for d := digits - 1; d >= 0; d-- {
		b = append(b, hexDigits[v>>(4*d)&0xf])
	}
	return b
}

// JSON rewrites the Unsafe runes that encoding/json leaves raw in its
// output (DEL, C1 controls, format characters; it escapes C0 and
// U+2028/2029 itself) as \uXXXX escapes, a rune above U+FFFF as a
// surrogate pair. A decoder gets exactly the same strings back. Outside
// strings JSON is ASCII, so every such rune is inside a string, where an
// escape means the same. b is returned as it is when it holds nothing to
// rewrite (the common case: one pass over the bytes).
func JSON(b []byte) []byte {
	i := 0
	for ; i < len(b); i++ {
		if b[i] >= 0x7f {
			break
		}
	}
	if i == len(b) {
		return b
	}
	var out []byte
	last := 0
	for i < len(b) {
		if b[i] < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || !Unsafe(r) {
			i += size
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(b)+12)
		}
		out = append(out, b[last:i]...)
		if r > 0xffff {
			r -= 0x10000
			out = appendHex(out, 'u', uint32(0xd800+(r>>10)), 4)
			out = appendHex(out, 'u', uint32(0xdc00+(r&0x3ff)), 4)
		} else {
			out = appendHex(out, 'u', uint32(r), 4)
		}
		i += size
		last = i
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}
