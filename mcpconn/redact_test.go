package mcpconn

import (
	"errors"
	"strings"
	"testing"
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
