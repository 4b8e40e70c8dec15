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

// TestWordsMinimumLength: a known secret of 6 bytes (a 6-character
// password) is removed wherever it stands as a word; one of 5 bytes is
// left alone, as a word of any text. The lengths are written out, not
// taken from MinKnownLen, so that moving the minimum is noticed.
func TestWordsMinimumLength(t *testing.T) {
	for _, tc := range []struct {
		url, err, want string
	}{
		{"http://alice:hunt22@h/mcp", "password hunt22 expired", "password REDACTED expired"},
		{"http://h/mcp?token=abc123", "bad token abc123", "bad token REDACTED"},
		{"http://alice:hunt2@h/mcp", "password hunt2 expired", "password hunt2 expired"},
		{"http://h/mcp?token=abc12", "bad token abc12", "bad token abc12"},
	} {
		if got := Error(errors.New(tc.err), URLSecrets(tc.url)).Error(); got != tc.want {
			t.Errorf("url %q, error %q\n got %q\nwant %q", tc.url, tc.err, got, tc.want)
		}
	}
	if got := Words("six666 and five5", []string{"six666", "five5"}); got != "REDACTED and five5" {
		t.Errorf("Words with a 6-byte and a 5-byte secret = %q, want %q", got, "REDACTED and five5")
	}
}
