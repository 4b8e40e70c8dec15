package mcpconn

import (
	"strconv"
	"strings"
	"unicode"
)

// CleanName escapes control and format characters in a name a server or
// host gave itself and caps its length.
func CleanName(s string, max int) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	out := b.String()
	if r := []rune(out); len(r) > max {
		out = string(r[:max-1]) + "…"
	}
	return out
}
