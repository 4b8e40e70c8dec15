package redact

import (
	"net/url"
	"strings"
)

// Marker stands wherever a secret was.
const Marker = "REDACTED"

// urlSpans adds to ss the secrets of raw, meant as one URL and standing
// at offset off of the text: the user information, each query value, the
// fragment. raw is cut the way url.Parse cuts it: the fragment at the
// first '#', then the query at the first '?', then the authority (after
// "scheme://", or from the start when there is no scheme) up to the first
// '/', and the user information up to the authority's last '@'. Being
// textual, it cuts a URL url.Parse refuses (a space in the user name, a
// bad %-escape, no scheme, user:pass@host) where the person meant.
//
// A URL that url.Parse refuses and that has an '@' past its authority is
// ambiguous: the '@' may end a user information holding '/', '?' or '#'
// (http://u:pa#ss@h/) as much as stand in a path or query. Both readings
// are then hidden: everything up to the last '@' is user information, and
// when that includes a '?' or '#', everything after it is hidden as well
// (it may be the rest of a query: ?mail=a@b&token=…). A string without
// "://" always gets this reading: it has no parser's word to go by.
func urlSpans(ss *spans, raw string, off int) {
	rest := 0 // raw[rest:] is still to cut
	scheme := false
	if i := strings.Index(raw, "://"); i > 0 && isScheme(raw[:i]) {
		rest, scheme = i+3, true
	}
	at := strings.LastIndexByte(raw[rest:], '@')
	if at >= 0 && strings.ContainsAny(raw[rest:rest+at], "/?#") {
		if _, err := url.Parse(raw); err == nil && scheme {
			at = -1 // an '@' in the path, query or fragment of a good URL
		}
	}
	if at >= 0 && strings.ContainsAny(raw[rest:rest+at], "/?#") {
		ss.add(off+rest, off+rest+at)
		if strings.ContainsAny(raw[rest:rest+at], "?#") {
			ss.add(off+rest+at+1, off+len(raw))
			return
		}
		rest += at + 1
	}
	end := len(raw)
	if f := strings.IndexByte(raw[rest:], '#'); f >= 0 {
		ss.add(off+rest+f+1, off+end)
		end = rest + f
	}
	if q := strings.IndexByte(raw[rest:end], '?'); q >= 0 {
		querySpans(ss, raw[rest+q+1:end], off+rest+q+1)
		end = rest + q
	}
	auth := raw[rest:end]
	if i := strings.IndexByte(auth, '/'); i >= 0 {
		auth = auth[:i]
	}
	if i := strings.LastIndexByte(auth, '@'); i > 0 {
		ss.add(off+rest, off+rest+i)
	}
}

// querySpans adds every value of the query q (at offset off): key=value
// hides value; a part without '=' (?SECRET) is hidden whole.
func querySpans(ss *spans, q string, off int) {
	for start := 0; start <= len(q); {
		end := strings.IndexAny(q[start:], "&;")
		if end < 0 {
			end = len(q)
		} else {
			end += start
		}
		part := q[start:end]
		if eq := strings.IndexByte(part, '='); eq >= 0 {
			ss.add(off+start+eq+1, off+end)
		} else {
			ss.add(off+start, off+end)
		}
		start = end + 1
	}
}

// isScheme reports whether s is a URL scheme: a letter, then letters,
// digits, '+', '-' or '.'.
func isScheme(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isSchemeByte(s[i]) {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isSchemeByte(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// URL returns raw, meant as a URL, with its secrets replaced by Marker:
// the user information (user and password: https://REDACTED@host/), every
// query value, the key kept (?token=REDACTED&v=REDACTED), and the
// fragment (#REDACTED); and any well-known token shape (in the path, say).
// The scheme, host, port and path stay as written, so that two URLs that
// differ in them still look different.
//
// All query values are hidden, not only those whose keys look like
// secrets: a query is where services put keys under any name (?k=, ?sig=,
// ?code=, ?access=), and a list of names would let through the next one.
// The keys are kept, so that ?token=… and ?debug=… still differ.
//
// raw is cut textually (see urlSpans), so a URL that url.Parse refuses (a
// space in the user name, a bad %-escape, no scheme, user:pass@host) is
// redacted too. A URL with nothing to hide comes back exactly as written.
func URL(raw string) string {
	var ss spans
	urlSpans(&ss, raw, 0)
	tokenSpans(&ss, raw)
	return ss.apply(raw)
}

// URLSecrets returns the secrets of raw (those URL hides): the user
// information, the user name and the password, each query value and the
// fragment, as written and percent-decoded. Error texts may quote them
// outside the URL; [Error] hides them there.
func URLSecrets(raw string) []string {
	var ss spans
	urlSpans(&ss, raw, 0)
	var out []string
	add := func(s string) {
		if s == "" {
			return
		}
		out = append(out, s)
		if u, err := url.PathUnescape(s); err == nil && u != s {
			out = append(out, u)
		}
		if u, err := url.QueryUnescape(s); err == nil && u != s {
			out = append(out, u)
		}
	}
	for _, sp := range ss {
		sec := raw[sp.start:sp.end]
		add(sec)
		if user, password, ok := strings.Cut(sec, ":"); ok && !strings.ContainsAny(sec, "/?#&=") {
			add(user) // the user information's user and password
			add(password)
		}
	}
	return out
}

// Arg returns one argument of a command line with its secrets hidden: a
// word that starts with scheme:// is a URL, hidden as URL hides it (its
// extent known: spaces and all), anything else as Text hides it. A secret
// given as the next argument (--api-key X) is only found when the whole
// command line goes through Text.
func Arg(w string) string {
	if i := strings.Index(w, "://"); i > 0 && isScheme(w[:i]) {
		return URL(w)
	}
	return Text(w)
}
