package redact

import (
	"errors"
	"testing"
)

func TestErrorDoesNotGarble(t *testing.T) {
	for _, tc := range []struct {
		url, err, want string
	}{
		// A query value of 1 must not eat the 1s of an address.
		{"http://127.0.0.1:1/mcp?v=1", "dial tcp 127.0.0.1:1: connect: connection refused",
			"dial tcp 127.0.0.1:1: connect: connection refused"},
		{"http://u:p@127.0.0.1:1/mcp?v=1", `Post "http://u:***@127.0.0.1:1/mcp?v=1": dial tcp 127.0.0.1:1: refused`,
			`Post "http://REDACTED@127.0.0.1:1/mcp?v=REDACTED": dial tcp 127.0.0.1:1: refused`},
		// A long secret is removed even outside a URL, as a whole word only.
		{"http://h/mcp?api_key=TOKEN123", "server said: bad key TOKEN123, not TOKEN1234",
			"server said: bad key REDACTED, not TOKEN1234"},
		{"http://alice:hunter22@h/mcp", "user alice rejected: password hunter22 expired",
			"user alice rejected: password REDACTED expired"},
		{"http://h/mcp#fragment-secret", "saw fragment-secret", "saw REDACTED"},
		// Malformed URL: its secrets are still known.
		{"http://a b@h/%zz?token=SEKRITTOKEN42", "bad: SEKRITTOKEN42", "bad: REDACTED"},
	} {
		err := Error(errors.New(tc.err), URLSecrets(tc.url))
		if got := err.Error(); got != tc.want {
			t.Errorf("url %q, error %q\n got %q\nwant %q", tc.url, tc.err, got, tc.want)
		}
	}
	cause := errors.New("x token=SEKRIT")
	err := Error(cause, nil)
	if !errors.Is(err, cause) {
		t.Error("the redacted error does not unwrap to its cause")
	}
	if err.Error() != "x token=REDACTED" {
		t.Errorf("Error(%q) = %q", cause, err)
	}
	if plain := errors.New("nothing here"); Error(plain, []string{"SEKRIT"}) != plain {
		t.Error("an error with nothing to hide is not returned as it is")
	}
	if Error(nil, nil) != nil {
		t.Error("Error(nil) is not nil")
	}
}
