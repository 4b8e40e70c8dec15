package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MinKnownLen is the shortest known secret (see [Words]) removed from text
// where it appears on its own. Shorter values ("1", "en") are words of any
// text: replacing them would garble it (a query value 1 would turn
// 127.0.0.1 into REDACTED27.0.0.REDACTED) and hides nothing worth hiding.
const MinKnownLen = 6

// Words replaces in s each of the known secrets of MinKnownLen bytes or
// more that stands as a whole word (no letter, digit, '_' or '-' on either
// side) by Marker. It is for text that may quote a secret outside any form
// Text recognises: a server that says "bad key TOKEN123".
func Words(s string, secrets []string) string {
	for _, sec := range secrets {
		if len(sec) >= MinKnownLen && sec != Marker {
			s = replaceWord(s, sec, Marker)
		}
	}
	return s
}

// replaceWord replaces the occurrences of old in s that are not part of a
// longer word.
func replaceWord(s, old, repl string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := i + len(old)
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[j:])
		b.WriteString(s[:i])
		if i > 0 && isWordRune(before) || j < len(s) && isWordRune(after) {
			b.WriteString(old)
		} else {
			b.WriteString(repl)
		}
		s = s[j:]
	}
}

func isWordRune(r rune) bool {
	return r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Error returns err with its text passed through Text and then Words with
// secrets (those of the URL it was about, say: [URLSecrets]); it still
// unwraps to err. An error whose text has nothing to hide is returned as
// it is.
func Error(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	clean := Words(Text(text), secrets)
	if clean == text {
		return err
	}
	return &redactedError{text: clean, err: err}
}

// redactedError shows a cleaned text and still unwraps to the cause.
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }
