package redact

import (
	"strings"
)

// Text returns s with every secret it can recognise replaced by Marker:
//
//   - URLs (scheme://…) as [URL] redacts them; a user information with
//     spaces (http://a b@host/) is found up to its '@' on the same line;
//   - user:password@host without a scheme, and ?key=value queries in a
//     word without one (their values, and the #fragment after them);
//   - well-known token shapes anywhere: sk-…, ghp_… (and gho_, ghu_,
//     ghs_, ghr_), github_pat_…, glpat-…, xoxb-… (xoxa, xoxp, xoxo,
//     xoxr, xoxs), AKIA…/ASIA…, AIza…, npm_…, hf_… (the prefix is kept:
//     sk-REDACTED);
//   - the credential after "Bearer" (Bearer REDACTED);
//   - the value of a flag whose name looks like a secret (see [SecretName]),
//     given as the next word — also on the next line, as in a JSON or
//     YAML list of arguments: --api-key REDACTED, "--token", "REDACTED";
//   - the value of a setting whose name looks like a secret, written as an
//     environment variable or flag (API_KEY=REDACTED, --token=REDACTED),
//     in JSON ("apiKey": "REDACTED"), TOML (token = "REDACTED") or YAML
//     (password: REDACTED). A name followed by ':' counts when it is
//     quoted, holds '_' or '-', is an HTTP credential header
//     (Authorization), or starts a line or a { } entry, so that prose such
//     as "reading token: no such file" is left alone; a quoted name with
//     spaces counts only before a quoted value. An auth scheme stays
//     (Authorization: Bearer REDACTED), and so do a reference to a
//     variable (${input:token}) and true, false and null: no secrets.
//
// Each recogniser reads s as given and marks what to hide; the union is
// hidden at once, so no recogniser can hide another's clue (a flag's name)
// first. Line breaks are never added or removed, so a file's lines can be
// redacted as a whole text and still be numbered as before.
func Text(s string) string {
	var ss spans
	urlsInText(&ss, s)
	userinfoInText(&ss, s)
	queriesInText(&ss, s)
	tokenSpans(&ss, s)
	bearer(&ss, s)
	flagValues(&ss, s)
	assignments(&ss, s)
	return ss.apply(s)
}

// urlsInText adds the secrets of each scheme://… in s.
func urlsInText(ss *spans, s string) {
	for from := 0; ; {
		i := strings.Index(s[from:], "://")
		if i < 0 {
			return
		}
		i += from
		start := i
		for start > from && isSchemeByte(s[start-1]) {
			start--
		}
		for start < i && !isLetter(s[start]) {
			start++ // a scheme starts with a letter
		}
		if start == i { // "://" with no scheme: not a URL
			from = i + 3
			continue
		}
		end := urlEnd(s, i+3)
		urlSpans(ss, s[start:end], start)
		from = end
	}
}

// urlEnd is where the URL whose authority starts at from ends in s: at the
// first byte that cannot be part of a URL quoted in text, less the
// punctuation that ends a sentence or clause. When the authority (up to
// the first '/', '?', '#', quote or line end) holds an '@' past that
// point, the user information had a space in it: the URL runs on past
// that '@', so that the whole user information is hidden.
func urlEnd(s string, from int) int {
	end := from
	for end < len(s) && !isURLEnd(s[end]) {
		end++
	}
	auth := from
	for auth < len(s) && strings.IndexByte("/?#\"'`<>\r\n", s[auth]) < 0 {
		auth++
	}
	if at := strings.LastIndexByte(s[from:auth], '@'); at >= 0 && from+at >= end {
		end = from + at + 1
		for end < len(s) && !isURLEnd(s[end]) {
			end++
		}
	}
	return trimPunct(s, from, end)
}

// trimPunct moves end back over the punctuation that ends a sentence or
// clause (a ')' or ']' only when s[from:end] opens none).
func trimPunct(s string, from, end int) int {
	for end > from {
		c := s[end-1]
		if strings.IndexByte(".,:;!?", c) >= 0 ||
			c == ')' && !strings.Contains(s[from:end], "(") ||
			c == ']' && !strings.Contains(s[from:end], "[") {
			end--
			continue
		}
		break
	}
	return end
}

// isURLEnd reports whether c cannot be part of a URL quoted in text.
func isURLEnd(c byte) bool {
	return c <= ' ' || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == 0x7f
}

// userinfoInText adds user:password in user:password@host written
// without a scheme: a word that starts (after a space, quote or one of
// "(<[{=,") with a user name, then ':', a password and '@', then a host.
// The password may hold '@' (the user information runs to the word's last
// '@'). A password with '/' is not recognised here (a path could not be
// told from it); git@host:path, with no password, and an image's
// name:tag@sha256:digest are not touched.
func userinfoInText(ss *spans, s string) {
	for from := 0; ; {
		i := strings.IndexByte(s[from:], '@')
		if i < 0 {
			return
		}
		at := from + i
		from = at + 1
		if at+1 >= len(s) || strings.IndexByte(" \t\r\n\"'<>@", s[at+1]) >= 0 ||
			strings.HasPrefix(s[at+1:], "sha256:") || strings.HasPrefix(s[at+1:], "sha512:") {
			continue
		}
		// p: where the run of bytes a password may hold starts. The run
		// crosses an earlier '@': in user:p@ss@host the password is p@ss,
		// as url.Parse and URL cut it at the last '@'.
		p := at
		for p > 0 && strings.IndexByte(" \t\r\n\"'/<>?#", s[p-1]) < 0 {
			p--
		}
		// The user name starts at p (after a space, quote or '<') or
		// after one of "([{=," inside the run; it runs to a ':'.
		for c := p; c < at; c++ {
			if c == p && c > 0 && strings.IndexByte(" \t\r\n\"'<", s[c-1]) < 0 {
				continue
			}
			if c > p && strings.IndexByte("([{=,", s[c-1]) < 0 {
				continue
			}
			u := c
			for u < at && strings.IndexByte(":()[]{}=,", s[u]) < 0 {
				u++
			}
			if u > c && u < at && s[u] == ':' {
				ss.add(c, at)
				break
			}
		}
	}
}

// queriesInText adds the values of ?key=value&… in words with no scheme
// (a URL missing its http://, say), and the #fragment after them.
func queriesInText(ss *spans, s string) {
	if !strings.Contains(s, "=") {
		return
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '?' {
			continue
		}
		k := i + 1
		for k < len(s) && isQueryKeyByte(s[k]) {
			k++
		}
		if k == len(s) || s[k] != '=' {
			continue
		}
		end := i + 1
		for end < len(s) && !isQueryEnd(s[end]) {
			end++
		}
		if end == len(s) || s[end] != '#' {
			end = trimPunct(s, i+1, end)
		}
		querySpans(ss, s[i+1:end], i+1)
		if end < len(s) && s[end] == '#' {
			f := end + 1
			for f < len(s) && !isURLEnd(s[f]) {
				f++
			}
			f = trimPunct(s, end+1, f)
			ss.add(end+1, f)
			end = f
		}
		i = end - 1
	}
}

func isQueryKeyByte(c byte) bool {
	return !isURLEnd(c) && strings.IndexByte("=&;#?", c) < 0
}

func isQueryEnd(c byte) bool { return isURLEnd(c) || c == '#' }

// tokenSpans adds the body of each well-known token (an API key of
// OpenAI or Anthropic, a GitHub, GitLab, Slack, AWS, Google, npm or
// Hugging Face token), keeping its prefix: sk-REDACTED.
func tokenSpans(ss *spans, s string) {
	for _, prefix := range tokenPrefixes {
		for from := 0; ; {
			i := strings.Index(s[from:], prefix)
			if i < 0 {
				break
			}
			start := from + i
			from = start + len(prefix)
			if start > 0 && isWordByte(s[start-1]) {
				continue // part of a longer word: desk-…, mask-…
			}
			end := from
			for end < len(s) && (isWordByte(s[end]) || s[end] == '-') {
				end++
			}
			if !tokenBody(prefix, s[from:end]) {
				continue
			}
			if prefix == "AKIA" || prefix == "ASIA" {
				end = from + 16
			}
			ss.add(from, end)
			from = end
		}
	}
}

// tokenPrefixes are the prefixes tokenRE finds, longest first.
var tokenPrefixes = []string{
	"github_pat_", "glpat-", "xoxa-", "xoxb-", "xoxo-", "xoxp-", "xoxr-", "xoxs-",
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "npm_", "AKIA", "ASIA", "AIza", "sk-", "hf_",
}

// tokenPrefix splits a token into its known prefix and its body; prefix
// is "" when tok has none.
func tokenPrefix(tok string) (prefix, body string) {
	for _, p := range tokenPrefixes {
		if strings.HasPrefix(tok, p) {
			return p, tok[len(p):]
		}
	}
	return "", tok
}

// tokenBody reports whether body is long enough, and of the right kind,
// to be a token with that prefix: words such as sk-learn or npm_config
// are not.
func tokenBody(prefix, body string) bool {
	switch prefix {
	case "AKIA", "ASIA":
		if len(body) < 16 {
			return false
		}
		for i := range 16 {
			if c := body[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				return false
			}
		}
		return len(body) == 16 || !isWordByte(body[16])
	case "xoxa-", "xoxb-", "xoxo-", "xoxp-", "xoxr-", "xoxs-":
		return len(body) >= 10
	}
	return len(body) >= 16 && body != Marker
}

func isWordByte(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '_'
}

// bearer adds the credential after "Bearer" (in any case, as a word),
// except a word of small letters only ("the bearer of"): a credential has
// digits, capitals or signs.
func bearer(ss *spans, s string) {
	for from := 0; ; {
		i := strings.IndexAny(s[from:], "bB")
		if i < 0 {
			return
		}
		b := from + i
		from = b + 1
		if b+6 > len(s) || !strings.EqualFold(s[b:b+6], "bearer") || b > 0 && isWordByte(s[b-1]) {
			continue
		}
		p := b + 6
		for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
			p++
		}
		if p == b+6 {
			continue
		}
		e := p
		for e < len(s) && !isSpace(s[e]) && strings.IndexByte("\"'`,;})]", s[e]) < 0 {
			e++
		}
		if strings.Trim(s[p:e], "abcdefghijklmnopqrstuvwxyz") != "" {
			ss.add(p, e)
		}
		from = max(from, e)
	}
}

// flagValues hides the value given after a flag whose name looks like a
// secret: --api-key X, -token X, and in argument lists written one a line
// ("--api-key",\n "X" in JSON; - --token\n - X in YAML). A next word that
// starts with '-' is another flag and stays. The value is looked for
// across at most 3 line ends, comments (# or //) skipped.
func flagValues(ss *spans, s string) {
	if !strings.Contains(s, "-") {
		return
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '-' || i > 0 && !isFlagStart(s[i-1]) {
			continue
		}
		j := i
		for j < len(s) && s[j] == '-' {
			j++
		}
		k := j
		for k < len(s) && isFlagNameByte(s[k]) {
			k++
		}
		if j-i > 2 || k == j || k < len(s) && !isFlagEnd(s[k]) || !SecretName(s[j:k]) {
			i = k - 1
			continue
		}
		vs, ve := flagValue(s, k)
		if ve <= vs {
			i = k - 1
			continue
		}
		valueSpan(ss, s, vs, ve)
		i = ve - 1
	}
}

func isFlagStart(c byte) bool { return isSpace(c) || strings.IndexByte("\"'[,({", c) >= 0 }

func isFlagEnd(c byte) bool { return isSpace(c) || strings.IndexByte("\"',])}", c) >= 0 }

func isFlagNameByte(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '_' || c == '-'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// flagValue finds the value after a flag that ends at k: past a closing
// quote, spaces, commas, line continuations, list dashes and comments;
// then a quoted string's inside, or a word. It returns vs == ve when there
// is none.
func flagValue(s string, k int) (vs, ve int) {
	p := k
	if p < len(s) && (s[p] == '"' || s[p] == '\'') {
		p++
	}
	lines := 0
	for p < len(s) {
		c := s[p]
		switch {
		case c == '\n':
			lines++
			if lines > 3 {
				return p, p
			}
			p++
		case c == ' ' || c == '\t' || c == '\r' || c == ',' || c == '\\':
			p++
		case c == '-' && p+1 < len(s) && (s[p+1] == ' ' || s[p+1] == '\t'):
			p++ // a YAML list item's dash
		case c == '#' || c == '/' && p+1 < len(s) && s[p+1] == '/':
			for p < len(s) && s[p] != '\n' {
				p++
			}
		default:
			goto value
		}
	}
value:
	if p >= len(s) {
		return p, p
	}
	switch s[p] {
	case '"', '\'':
		q := s[p]
		e := quotedEnd(s, p+1, q)
		return p + 1, e
	case '-', ']', '}', ')':
		return p, p
	}
	e := p
	for e < len(s) && !isSpace(s[e]) && strings.IndexByte("\"'`,])}", s[e]) < 0 {
		e++
	}
	return p, e
}

// quotedEnd is the index of the quote q that closes a string starting at
// from (a backslash escapes in a double-quoted one), or the line end if
// it is not closed on the line.
func quotedEnd(s string, from int, q byte) int {
	for e := from; e < len(s); e++ {
		switch s[e] {
		case '\\':
			if q == '"' {
				e++
			}
		case q, '\n':
			return e
		}
	}
	return len(s)
}

// assignments hides the values of settings whose names look like secrets
// (see Text for the forms).
func assignments(ss *spans, s string) {
	if !strings.ContainsAny(s, "=:") {
		return
	}
	last := 0 // no name is looked for before a value already taken
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '=' && c != ':' {
			continue
		}
		if c == '=' && (i+1 < len(s) && strings.IndexByte("=>~", s[i+1]) >= 0 || i > 0 && strings.IndexByte("=!<>", s[i-1]) >= 0) {
			continue
		}
		if c == ':' && i+1 < len(s) && s[i+1] == ':' {
			continue // a::b, [::1]
		}
		k := keyBefore(s, i, last)
		if k.name == "" || !SecretName(k.name) {
			continue
		}
		ctx := valueContext(k, c, s)
		if ctx == noValue || k.quoted && strings.Contains(k.name, " ") && !quotedNext(s, i+1) {
			continue // "profile x --api-key y": is no name; "API Key": "v" is
		}
		vs, ve := valueAfter(s, i+1, ctx, k)
		if ve <= vs {
			continue
		}
		valueSpan(ss, s, vs, ve)
		last, i = ve, ve-1
	}
}

// key is the name before an '=' or ':'.
type key struct {
	name string
	// start is where the name (or its opening quote) starts.
	start int
	// quoted says the name was in quotes ("token": …).
	quoted bool
	// enclosing is the quote the whole setting stands in ('API_KEY=a b'
	// as one shell word, "--token=x y" as one JSON string), or 0.
	enclosing byte
	// spaced says spaces stand between the name and the separator.
	spaced bool
}

// keyBefore finds the name that ends before s[i] (spaces between allowed),
// not reaching back before min.
func keyBefore(s string, i, min int) key {
	j := i
	for j > min && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	spaced := j < i
	if j > min && (s[j-1] == '"' || s[j-1] == '\'') {
		q := s[j-1]
		o := strings.LastIndexByte(s[min:j-1], q)
		if o < 0 {
			return key{}
		}
		o += min
		name := s[o+1 : j-1]
		for c := range len(name) {
			if !isKeyByte(name[c]) && name[c] != ' ' {
				return key{} // a quoted string, not a setting's name
			}
		}
		return key{name: name, start: o, quoted: true, spaced: spaced}
	}
	k := j
	for k > min && isKeyByte(s[k-1]) {
		k--
	}
	if k == j {
		return key{}
	}
	out := key{name: s[k:j], start: k, spaced: spaced}
	if k > 0 && (s[k-1] == '"' || s[k-1] == '\'') && j == i {
		out.enclosing = s[k-1]
	}
	return out
}

func isKeyByte(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
}

// valueCtx says how far an unquoted value runs.
type valueCtx int

const (
	noValue   valueCtx = iota
	toWord             // to the next space, quote, ',', ';', '&', '}' or ']'
	toFlowEnd          // to ',', '}', ']' or the line end (YAML { a: b })
	toLineEnd          // to the line end, less a " #comment" (YAML, headers)
)

// headerNames are HTTP headers that carry credentials, accepted with ':'
// anywhere on a line.
var headerNames = []string{"authorization", "proxy-authorization", "cookie", "set-cookie"}

// valueContext decides whether the name k before sep (at s) names a
// setting here, and how far its unquoted value runs.
func valueContext(k key, sep byte, s string) valueCtx {
	if sep == '=' || k.quoted {
		return toWord
	}
	// name: value, with the name unquoted.
	p := k.start
	for p > 0 && (s[p-1] == ' ' || s[p-1] == '\t') {
		p--
	}
	switch {
	case p > 0 && (s[p-1] == '{' || s[p-1] == ','):
		return toFlowEnd
	case p == 0 || s[p-1] == '\n' || s[p-1] == '|' || s[p-1] == '>':
		return toLineEnd // a line's first name (also after a "12 |" gutter)
	case s[p-1] == '-' && (p < 2 || s[p-2] == ' ' || s[p-2] == '\t' || s[p-2] == '\n'):
		return toLineEnd // a YAML list item: - token: x
	}
	for _, h := range headerNames {
		if strings.EqualFold(k.name, h) {
			return toLineEnd
		}
	}
	if strings.ContainsAny(strings.TrimLeft(k.name, "-"), "_-") {
		return toWord // GITHUB_TOKEN: x, X-Api-Key: x in running text
	}
	return noValue
}

// quotedNext reports whether a quoted string follows from, after spaces.
func quotedNext(s string, from int) bool {
	for from < len(s) && (s[from] == ' ' || s[from] == '\t') {
		from++
	}
	return from < len(s) && (s[from] == '"' || s[from] == '\'')
}

// valueAfter finds the value that starts after the separator at from.
func valueAfter(s string, from int, ctx valueCtx, k key) (vs, ve int) {
	p := from
	for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	if p >= len(s) {
		return p, p
	}
	if k.enclosing != 0 {
		return p, quotedEnd(s, p, k.enclosing)
	}
	// NAME= value: an environment variable set empty, unless the '=' has
	// spaces on both sides (TOML) or a quoted string follows.
	if p > from && s[from-1] == '=' && !k.spaced && s[p] != '"' && s[p] != '\'' {
		return p, p
	}
	switch s[p] {
	case '"', '\'':
		return p + 1, quotedEnd(s, p+1, s[p])
	case '{', '[', '|', '>', '&', '*', '!', '\n', '\r', '#':
		return p, p // a structure, a block scalar, an anchor, nothing
	}
	e := p
	// A query's key=value (after '?', '&' or ';') ends at the fragment's
	// '#'; the URL's own redaction hides the fragment.
	stops := "\"'`,;&})]"
	if k.start > 0 && strings.IndexByte("?&;", s[k.start-1]) >= 0 {
		stops += "#"
	}
	switch ctx {
	case toWord:
		for e < len(s) && !isSpace(s[e]) && strings.IndexByte(stops, s[e]) < 0 {
			e++
		}
	case toFlowEnd:
		for e < len(s) && strings.IndexByte(",}]\r\n", s[e]) < 0 {
			e++
		}
	case toLineEnd:
		for e < len(s) && s[e] != '\n' && s[e] != '\r' {
			if s[e] == '#' && (s[e-1] == ' ' || s[e-1] == '\t') {
				break
			}
			e++
		}
	case noValue:
	}
	for e > p && (s[e-1] == ' ' || s[e-1] == '\t') {
		e--
	}
	// Authorization: Basic X — the scheme alone is not the whole value.
	if ctx == toWord && isAuthScheme(s[p:e]) {
		q := e
		for q < len(s) && (s[q] == ' ' || s[q] == '\t') {
			q++
		}
		r := q
		for r < len(s) && !isSpace(s[r]) && strings.IndexByte("\"'`,;})]", s[r]) < 0 {
			r++
		}
		if r > q {
			e = r
		}
	}
	return p, e
}

// authSchemes are the HTTP authentication schemes kept before a hidden
// credential.
var authSchemes = []string{"bearer", "basic", "digest", "token", "negotiate"}

func isAuthScheme(w string) bool {
	for _, a := range authSchemes {
		if strings.EqualFold(w, a) {
			return true
		}
	}
	return false
}

// valueSpan adds the secret value s[vs:ve], keeping an auth scheme
// before it (Bearer REDACTED) and a token's kind (sk-REDACTED), and not a
// reference to a variable (${input:token}, ${env:X}) or a JSON literal
// ("password": true, in VS Code's inputs): those are no secrets.
func valueSpan(ss *spans, s string, vs, ve int) {
	v := s[vs:ve]
	if strings.HasPrefix(v, "${") && strings.IndexByte(v, '}') == len(v)-1 || v == "true" || v == "false" || v == "null" {
		return
	}
	if p, body := tokenPrefix(v); p != "" && (tokenBody(p, body) || body == Marker) {
		vs += len(p)
	}
	if scheme, rest, ok := strings.Cut(v, " "); ok && isAuthScheme(scheme) && strings.TrimSpace(rest) != "" {
		vs += len(scheme) + 1
		for vs < ve && (s[vs] == ' ' || s[vs] == '\t') {
			vs++
		}
	}
	ss.add(vs, ve)
}
