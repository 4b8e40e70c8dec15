package mcpconn

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// redactURL drops what may be a secret from a URL shown or logged: the user
// information, the query (tokens often travel as ?api_key=...) and the
// fragment. An unparsable URL is not shown at all.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	if u.User == nil && u.RawQuery == "" && !u.ForceQuery && u.Fragment == "" && u.RawFragment == "" {
		return raw // nothing to hide: keep it exactly as written
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// RedactText returns s with every URL in it (scheme://...) shown without
// its user information, query and fragment, as in a server's label. Text
// around the URLs is left untouched. Logs pass every message through it.
func RedactText(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			break
		}
		start := i
		for start > 0 && isSchemeByte(s[start-1]) {
			start--
		}
		end := i + 3
		for end < len(s) && !isURLEnd(s[end]) {
			end++
		}
		// Punctuation that ends a sentence or clause is not part of it.
		for end > i+3 && strings.IndexByte(".,:;!?)]", s[end-1]) >= 0 {
			end--
		}
		if start == i { // "://" with no scheme: not a URL
			b.WriteString(s[:end])
			s = s[end:]
			continue
		}
		b.WriteString(s[:start])
		raw := s[start:end]
		if r := redactURL(raw); r != "(unparsable URL)" {
			b.WriteString(r)
		} else {
			b.WriteString(raw[:i-start+3] + "(URL withheld)")
		}
		s = s[end:]
	}
	b.WriteString(s)
	return b.String()
}

func isSchemeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// isURLEnd reports whether c cannot be part of a URL quoted in text.
func isURLEnd(c byte) bool {
	return c <= ' ' || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == 0x7f
}

// minSecretLen is the shortest URL secret (user name, password, query
// value) removed from text where it appears outside a URL. Shorter values
// ("1", "en") are words of any text: replacing them would garble it (a
// query value 1 would turn 127.0.0.1 into REDACTED27.0.0.REDACTED) and
// hides nothing worth hiding.
const minSecretLen = 6

// redactError removes the URL's secrets from an error's text: transport
// errors quote the URL they were given, whole or with the password masked.
// Every URL in the text is redacted as in RedactText; a secret of the
// spec's URL that still appears elsewhere, as a whole word, is replaced by
// REDACTED.
func (s Spec) redactError(err error) error {
	if err == nil || s.URL == "" {
		return err
	}
	text := RedactText(err.Error())
	u, perr := url.Parse(s.URL)
	if perr != nil {
		return &redactedError{text: "(error text withheld: it may hold the URL)", err: err}
	}
	var secrets []string
	if u.User != nil {
		secrets = append(secrets, u.User.Username())
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p)
		}
	}
	for _, vs := range u.Query() {
		secrets = append(secrets, vs...)
	}
	secrets = append(secrets, u.Fragment)
	for _, sec := range secrets {
		if len(sec) >= minSecretLen {
			text = replaceWord(text, sec, "REDACTED")
		}
	}
	return &redactedError{text: text, err: err}
}

// replaceWord replaces the occurrences of old in s that are not part of a
// longer word (letters, digits, '_' or '-' on either side).
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

// redactedError shows a cleaned text and still unwraps to the cause.
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }
