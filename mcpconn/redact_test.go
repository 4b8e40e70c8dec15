package mcpconn

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSpecLabelNamesTheRealCommand(t *testing.T) {
	for _, tc := range []struct {
		command []string
		want    string
	}{
		{[]string{"env", "X=1", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, "server-filesystem"},
		{[]string{"/usr/bin/env", "-i", "PATH=/bin", "my-server", "--port", "1"}, "my-server"},
		{[]string{"env", "-u", "HOME", "-C", "/tmp", "TOKEN=s3cret", "python3", "server.py"}, "server.py"},
		{[]string{"env", "-S", "node server.js --x", "--y"}, "server.js"},
		{[]string{"env", "--unset=A", "--", "mcp-git"}, "mcp-git"},
		{[]string{"env", "-", "A=B", "tool"}, "tool"},
		{[]string{"env"}, "env"},
		{[]string{"env", "A=1"}, "env"},
		{[]string{"envoy", "serve"}, "envoy"},
	} {
		if got := (Spec{Command: tc.command}).Label(); got != tc.want {
			t.Errorf("Label(%q) = %q, want %q", tc.command, got, tc.want)
		}
		if got := (Spec{Command: tc.command}).Label(); strings.Contains(got, "s3cret") {
			t.Errorf("Label(%q) = %q shows an environment value", tc.command, got)
		}
	}
}

func TestRedactURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp"},
		{"http://127.0.0.1:1/mcp?v=1", "http://127.0.0.1:1/mcp"},
		{"https://user:pw@h.example/mcp?api_key=T#frag", "https://h.example/mcp"},
		{"https://tok@h.example/", "https://h.example/"},
		{"http://h/mcp#secret-fragment", "http://h/mcp"},
		{"http://h/mcp?", "http://h/mcp"},
		{"http://[::1]:9/p%20q", "http://[::1]:9/p%20q"},
		{"http://h/%zz", "(unparsable URL)"},
	} {
		if got := redactURL(tc.in); got != tc.want {
			t.Errorf("redactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRedactText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"no url here: 127.0.0.1 v=1", "no url here: 127.0.0.1 v=1"},
		{`Post "http://u:p@127.0.0.1:1/mcp?v=1": dial tcp 127.0.0.1:1: connect: connection refused`,
			`Post "http://127.0.0.1:1/mcp": dial tcp 127.0.0.1:1: connect: connection refused`},
		{`Post "http://u:***@127.0.0.1:1/mcp?k=TOKEN123#f": EOF`, `Post "http://127.0.0.1:1/mcp": EOF`},
		{"two: https://a@x/?q=1 and http://y/#z.", "two: https://x/ and http://y/."},
		{"bare :// and http:// end", "bare :// and http:// end"},
		{"connecting to http://h/mcp?t=1: EOF", "connecting to http://h/mcp: EOF"},
		{"(see http://h/a?k=v)", "(see http://h/a)"},
	} {
		if got := RedactText(tc.in); got != tc.want {
			t.Errorf("RedactText(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestRedactErrorDoesNotGarble(t *testing.T) {
	for _, tc := range []struct {
		url, err, want string
	}{
		// A query value of 1 must not eat the 1s of an address.
		{"http://127.0.0.1:1/mcp?v=1", "dial tcp 127.0.0.1:1: connect: connection refused",
			"dial tcp 127.0.0.1:1: connect: connection refused"},
		{"http://u:p@127.0.0.1:1/mcp?v=1", `Post "http://u:***@127.0.0.1:1/mcp?v=1": dial tcp 127.0.0.1:1: refused`,
			`Post "http://127.0.0.1:1/mcp": dial tcp 127.0.0.1:1: refused`},
		// A long secret is removed even outside a URL, as a whole word only.
		{"http://h/mcp?api_key=TOKEN123", "server said: bad key TOKEN123, not TOKEN1234",
			"server said: bad key REDACTED, not TOKEN1234"},
		{"http://alice:hunter22@h/mcp", "user alice rejected: password hunter22 expired",
			"user alice rejected: password REDACTED expired"},
		{"http://h/mcp#fragment-secret", "saw fragment-secret", "saw REDACTED"},
	} {
		err := (Spec{URL: tc.url}).redactError(errors.New(tc.err))
		if got := err.Error(); got != tc.want {
			t.Errorf("url %q, error %q\n got %q\nwant %q", tc.url, tc.err, got, tc.want)
		}
	}
	cause := errors.New("x")
	if err := (Spec{URL: "http://h/?k=1"}).redactError(cause); !errors.Is(err, cause) {
		t.Error("the redacted error does not unwrap to its cause")
	}
}

func TestCleanName(t *testing.T) {
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
		got := CleanName(tc.in, tc.max)
		if got != tc.want {
			t.Errorf("CleanName(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
		if tc.max > 0 && utf8.RuneCountInString(got) > tc.max {
			t.Errorf("CleanName(%q, %d) = %q is longer than %d", tc.in, tc.max, got, tc.max)
		}
	}
}

func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"", "abc", "\x1b[31m", "\u202e", "\xff\xfe", "名前"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max > 1000 || max < -1 {
			return
		}
		got := CleanName(s, max)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 out: %q", got)
		}
		for _, r := range got {
			if unsafeRune(r) {
				t.Fatalf("unsafe rune %U left in %q", r, got)
			}
		}
		if max > 0 && utf8.RuneCountInString(got) > max {
			t.Fatalf("%q longer than %d", got, max)
		}
	})
}
