package redact

import (
	"strings"
	"testing"
)

// cleanPart keeps of s only what may stand in a URL part without
// changing where the parts are cut: no byte of cut, no line end.
func cleanPart(s, cut string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || strings.ContainsRune(cut, r) {
			return -1
		}
		return r
	}, s)
}

// endsURL reports whether r ends a URL in running text (isURLEnd).
func endsURL(r rune) bool { return r < 0x80 && isURLEnd(byte(r)) }

// secretOf makes a secret from s: its letters and digits, at least 6 of
// them (ZqX7 and a count are added to short ones).
func secretOf(s string) string {
	sec := strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return r
		}
		return -1
	}, s)
	for len(sec) < 6 {
		sec += "ZqX7"
	}
	return sec
}

// FuzzURLSecret plants a secret in one secret place of a URL of random
// shape — user, password, a query value, a bare query part, the fragment;
// with or without a scheme, with spaces, bad %-escapes, brackets and
// non-ASCII in the other parts — and checks that neither URL nor Text (the
// URL alone, or inside a line of text) shows it, that the host survives
// URL when the URL has no ambiguous '@', and that Text keeps the lines.
func FuzzURLSecret(f *testing.F) {
	f.Add(uint8(0), "SEKRITTOKEN42", "a b", "127.0.0.1:47310", "/%zz", "token", "x", "prefix", "suffix")
	f.Add(uint8(1), "hunter2PASS", "alice", "host", "", "api_key", "v", "", "")
	f.Add(uint8(2), "SEKRIT", "u", "[::1]:9", "/p q", "k", "1", "Post \"", "\": EOF")
	f.Add(uint8(3), "frag12", "", "h.example", "/a@b", "t", "", "see", ".")
	f.Add(uint8(4), "Zsecret9", "", "[fe80::1%zz]", "/ünï", "a", "b", "(", ")")
	f.Add(uint8(5), "Bare0secret", "u:p", "h", "/", "", "", "", "")
	// Found by fuzzing, kept: an '@' in the path of a URL without a
	// scheme; an empty query key; a host of signs; a key of signs.
	f.Add(uint8(2<<3|5), "0", "", "0", "/@", "", "", "", "")
	f.Add(uint8(2<<3|4), "0", "", "0", "/0", "", "0", "", "")
	f.Add(uint8(2<<3|1), "0", "0", "!", "/0", "", "", "", "")
	f.Add(uint8(2<<3|4), "0", "0", "0", "/0", "!", "0", "", "")
	f.Fuzz(func(t *testing.T, shape uint8, secretSeed, other, host, path, key, value, before, after string) {
		secret := secretOf(secretSeed)
		schemes := []string{"http://", "https://", "", "ftp://", "HTTP://", "git+ssh://"}
		scheme := schemes[int(shape>>3)%len(schemes)]
		other = cleanPart(other, "@/?#:")
		host = cleanPart(host, "@/?#")
		path = "/" + cleanPart(path, "?#")
		key = cleanPart(key, "=&;#? \t")
		value = cleanPart(value, "&;#? \t")
		var user, query, frag string
		hasUser := true
		switch shape % 6 {
		case 0: // the user name
			user = other + secret
		case 1: // the password
			user = other + ":" + secret
		case 2: // a query value
			user = other
			query = key + "=" + value + "&" + key + "x=" + secret
		case 3: // the fragment
			user, hasUser = other, other != ""
			frag = secret
		case 4: // a query value among others, with a fragment
			user, hasUser = "", false
			query = key + "=" + secret + ";" + key + "=" + value
			frag = value
		case 5: // a query part without '='
			user, hasUser = other, false
			query = secret
		}
		raw := scheme
		if hasUser {
			raw += user + "@"
		}
		raw += host + path
		if query != "" {
			raw += "?" + query
		}
		if frag != "" {
			raw += "#" + frag
		}
		for _, notSecret := range []string{scheme, host, path, key, before, after, Marker} {
			if strings.Contains(notSecret, secret) {
				return // the secret is also written where nothing is hidden
			}
		}
		if strings.Contains(secret, Marker) || strings.Contains(Marker, secret) {
			return
		}
		got := URL(raw)
		if strings.Contains(got, secret) {
			t.Fatalf("URL(%q) = %q shows the secret %q", raw, got, secret)
		}
		if !strings.Contains(path+query+frag, "@") && !strings.ContainsAny(user, "/?#") {
			if !strings.Contains(got, host) {
				t.Fatalf("URL(%q) = %q lost the host %q", raw, got, host)
			}
		}
		// Text finds a URL in running text only up to a space or quote,
		// and one without a scheme only as user:pass@host or ?key=value:
		// those are the shapes checked.
		if scheme == "" && (shape%6 == 0 || shape%6 == 3 || shape%6 == 5 || strings.ContainsAny(other, " \t")) {
			return
		}
		if strings.ContainsFunc(host+path+key+value, endsURL) || strings.ContainsAny(other, "\"'`<>") {
			return
		}
		if shape%6 == 1 && scheme == "" && (other == "" || strings.ContainsAny(other, "()[]{}=,")) {
			return
		}
		before = cleanPart(before, "")
		after = cleanPart(after, "")
		for _, text := range []string{raw, before + " " + raw + " " + after, before + "\n" + raw + "\n" + after} {
			got := Text(text)
			if strings.Contains(got, secret) {
				t.Fatalf("Text(%q) = %q shows the secret %q", text, got, secret)
			}
			if strings.Count(got, "\n") != strings.Count(text, "\n") {
				t.Fatalf("Text(%q) = %q changed the lines", text, got)
			}
		}
	})
}

// FuzzText: Text never adds or removes a line end, never panics, and
// redacting redacted text changes nothing; a secret planted in one of the
// forms Text recognises, amid random lines, never shows.
func FuzzText(f *testing.F) {
	f.Add("plain text", uint8(0), "SEKRIT42", "and more")
	f.Add("srv", uint8(1), "abc123", "--port 1")
	f.Add(`{"env": {`, uint8(4), "xyz789", `}}`)
	f.Add("args:\n", uint8(7), "tok3n", "\n  - x")
	f.Add("http://u:p@h/?a=b", uint8(9), "Qwerty12", "#f")
	f.Fuzz(func(t *testing.T, before string, form uint8, secretSeed, after string) {
		secret := secretOf(secretSeed)
		forms := []string{
			"GITHUB_TOKEN=%s",
			"--api-key %s",
			"--token=%s",
			"'--password=%s'",
			`"API_KEY": "%s"`,
			`api_key = "%s"`,
			"\n  password: %s",
			"\n  - --token\n  - %s",
			"\"--api-key\",\n    \"%s\"",
			"Authorization: Bearer %s",
			"{API_KEY: %s}",
			"sk-%s0123456789abcdef",
			"http://user:%s@h/",
			"https://h/p?x=%s",
			"u:%s@h.example",
		}
		planted := strings.Replace(forms[int(form)%len(forms)], "%s", secret, 1)
		text := before + " " + planted + " " + after
		got := Text(text)
		if strings.Count(got, "\n") != strings.Count(text, "\n") {
			t.Fatalf("Text(%q) = %q changed the lines", text, got)
		}
		if again := Text(got); again != got {
			t.Fatalf("Text(%q) = %q, but Text of that is %q", text, got, again)
		}
		if strings.Contains(before+after, secret) || strings.Contains(Marker, secret) || strings.Contains(secret, Marker) {
			return
		}
		// The planted form must stand on its own: the text around it
		// may not run into it (an open quote, a backslash, a '-' or
		// letter glued to a flag), so before and after are checked only
		// when they end and start clean.
		if strings.ContainsAny(before+after, "\"'`\\\r") || strings.Count(before, "\n") > 0 && form%uint8(len(forms)) == 7 {
			return
		}
		if strings.Contains(got, secret) {
			t.Fatalf("Text(%q) = %q shows the secret %q (form %q)", text, got, secret, forms[int(form)%len(forms)])
		}
	})
}
