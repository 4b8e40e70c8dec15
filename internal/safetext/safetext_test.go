package safetext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestEscape was ui's TestClean.
func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                "plain",
		"é 日本":                 "é 日本",
		"a\nb":                 `a\nb`,
		"\x1b[31mred":          `\x1b[31mred`,
		"bell\a":               `bell\x07`,
		"c1\u009b":             `c1\u009b`,
		"rtl\u202egnp.exe":     `rtl\u202egnp.exe`,
		"bad\xffutf8":          `bad\xffutf8`,
		"tab\tcr\r":            `tab\tcr\r`,
		"zero\u200bwidth":      `zero\u200bwidth`,
		"del\x7f":              `del\x7f`,
		"line\u2028para\u2029": `line\u2028para\u2029`,
		"tag\U000e0001":        `tag\U000e0001`,
		"nbsp\u00a0ok":         "nbsp\u00a0ok",
		"ok-_.~!$&'()*+,;=:":   "ok-_.~!$&'()*+,;=:",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		if IsSafe(in) != (in == want) {
			t.Errorf("IsSafe(%q) = %v", in, IsSafe(in))
		}
	}
}

// TestEscapeMax was mcpconn's TestCleanName.
func TestEscapeMax(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"server-filesystem", 40, "server-filesystem"},
		{"evil\x1b[2J\x1b]0;title\x07", 0, `evil\x1b[2J\x1b]0;title\x07`},
		{"a\u202eb\u2066c\u200bd", 0, `a\u202eb\u2066c\u200bd`},
		{"line\nbreak\u2028sep", 0, `line\nbreak\u2028sep`},
		{"bad\xffutf8", 0, `bad\xffutf8`},
		{"\u0085c1", 0, `\u0085c1`},
		{"abcdef", 6, "abcdef"},
		{"abcdefg", 6, "abcde…"},
		{"héllo wörld", 5, "héll…"},
		{"ab\x1bcd", 4, "ab…"}, // an escape is never cut in half
		{"名前はとても長い", 4, "名前は…"},
	} {
		got := EscapeMax(tc.in, tc.max)
		if got != tc.want {
			t.Errorf("EscapeMax(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
		if tc.max > 0 && utf8.RuneCountInString(got) > tc.max {
			t.Errorf("EscapeMax(%q, %d) = %q is longer than %d", tc.in, tc.max, got, tc.max)
		}
	}
}

// TestJSON: encoding/json leaves DEL, C1 and format characters raw; JSON
// escapes them and a decoder gets the same string back.
func TestJSON(t *testing.T) {
	for _, s := range []string{"plain", "é 日本", "c1\u009bx", "rtl\u202eexe", "del\x7f", "zw\u200b", "tag\U000e0001x", "sep\u2028", "esc\x1b[2J", "nbsp\u00a0"} {
		raw, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		got := JSON(raw)
		for _, r := range string(got) {
			if Unsafe(r) {
				t.Errorf("JSON(%s) = %s holds %U raw", raw, got, r)
			}
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil || back != s {
			t.Errorf("JSON(%s) = %s decodes to %q, %v; want %q", raw, got, back, err, s)
		}
		if IsSafe(s) && !bytes.Equal(got, raw) {
			t.Errorf("JSON(%s) = %s changed safe text", raw, got)
		}
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "abc", "\x1b]0;x\a", "\x1b[31m", "\u202e", "\xff\xfe", "名前", "\U000e0001"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max > 1000 || max < -1 {
			return
		}
		for _, got := range []string{Escape(s), EscapeMax(s, max)} {
			if !utf8.ValidString(got) {
				t.Fatalf("invalid UTF-8 out: %q", got)
			}
			for _, r := range got {
				if Unsafe(r) || r == '\uFFFD' && !strings.ContainsRune(s, '\uFFFD') {
					t.Fatalf("%q: %U left in %q", s, r, got)
				}
			}
		}
		if got := EscapeMax(s, max); max > 0 && utf8.RuneCountInString(got) > max {
			t.Fatalf("%q longer than %d", got, max)
		}
		if Escape(s) != EscapeMax(s, 0) {
			t.Fatalf("Escape and EscapeMax(0) differ on %q", s)
		}
	})
}

func FuzzJSON(f *testing.F) {
	for _, s := range []string{"", "a", "\u009b", "\u202e\U000e0001", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, _ := json.Marshal(s)
		got := JSON(raw)
		var back, want string
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(got, &back); err != nil || back != want {
			t.Fatalf("%s → %s: %q, %v; want %q", raw, got, back, err, want)
		}
		for _, r := range string(got) {
			if Unsafe(r) {
				t.Fatalf("%s holds %U", got, r)
			}
		}
	})
}

// The common case in list: a path with nothing to escape.
func BenchmarkEscapeSafePath(b *testing.B) {
	p := "/home/someone/src/github.com/acme/payments-service-legacy"
	for b.Loop() {
		if Escape(p) != p {
			b.Fatal("changed")
		}
	}
}

func BenchmarkJSONSafeLine(b *testing.B) {
	line := []byte(`{"path":"/home/someone/src/github.com/acme/payments-service-legacy","name":"payments-service-legacy","kind":"git","depth":4,"rel":"github.com/acme/payments-service-legacy","uri":"file:///home/someone/src/github.com/acme/payments-service-legacy"}` + "\n")
	for b.Loop() {
		JSON(line)
	}
}
