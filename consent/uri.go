package consent

import (
	"fmt"
	"strings"
)

// pathByteVerbatim reports whether c may appear unencoded in a URI path that
// PathToURI writes: an RFC 3986 unreserved character, '/', or a sub-delim or
// pchar punctuation mark with no special meaning inside a path. '%', '?',
// '#', space, controls and every non-ASCII byte are encoded.
func pathByteVerbatim(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~/!$&'()*+,;=:@", c) >= 0
}

// percentDecode decodes %XX escapes in s. It fails on a '%' not followed by
// two hex digits. Unlike a form decoder it leaves '+' alone.
func percentDecode(s string) (string, error) {
	n := strings.Count(s, "%")
	if n == 0 {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s) - 2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(s) {
			return "", fmt.Errorf("truncated escape %q", s[i:])
		}
		hi, ok1 := unhex(s[i+1])
		lo, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			return "", fmt.Errorf("malformed escape %q", s[i:i+3])
		}
		b.WriteByte(hi<<4 | lo)
		i += 2
	}
	return b.String(), nil
}

// unhex returns the value of the hex digit c.
func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
