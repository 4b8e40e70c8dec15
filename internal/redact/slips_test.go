package redact

import (
	"strings"
	"testing"
)

// TestURLPasswordWithAt: a password holding '@' (user:p@ss@host) is
// hidden whole: the user information runs to the authority's last '@',
// as url.Parse cuts it, so no part of the password is left beside the
// host — by URL and by Text, with a scheme or without one.
func TestURLPasswordWithAt(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://user:p@ss@host/", "https://REDACTED@host/"},
		{"https://user:p@ss@host", "https://REDACTED@host"},
		{"https://user:p@ss@w0rd@host:8443/mcp?t=1", "https://REDACTED@host:8443/mcp?t=REDACTED"},
		{"user:p@ss@host/x", "REDACTED@host/x"},
	} {
		if got := URL(tc.in); got != tc.want {
			t.Errorf("URL(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
		line := "dial " + tc.in + " failed"
		if got, want := Text(line), "dial "+tc.want+" failed"; got != want {
			t.Errorf("Text(%q)\n = %q\nwant %q", line, got, want)
		}
	}
	// The same password must not tell two URLs apart.
	if a, b := URL("https://user:p@ss1@host/"), URL("https://user:p@ss2@host/"); a != b {
		t.Errorf("two URLs that differ only in the password differ once redacted: %q, %q", a, b)
	}
}

// TestTokenBodyBoundary: a well-known token whose body is exactly 16
// characters is a token and is hidden; one of 15 is a word (sk-learn's
// kind) and stays.
func TestTokenBodyBoundary(t *testing.T) {
	body16 := "abcdefghijklmnop"
	for _, prefix := range []string{"sk-", "ghp_", "npm_", "hf_", "glpat-", "github_pat_", "AIza"} {
		in := "key " + prefix + body16 + " end"
		if got, want := Text(in), "key "+prefix+Marker+" end"; got != want {
			t.Errorf("Text(%q) = %q, want %q (a 16-character body is a token)", in, got, want)
		}
		short := "key " + prefix + body16[:15] + " end"
		if got := Text(short); got != short {
			t.Errorf("Text(%q) = %q, want it kept (a 15-character body is no token)", short, got)
		}
	}
}

// TestBearerLowercaseAndDigits: a bearer credential of small letters and
// digits (a hex token) is hidden; only a word of small letters alone is
// taken for prose ("the bearer of bad news"). Outside a header too, where
// nothing but the Bearer rule sees it.
func TestBearerLowercaseAndDigits(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Authorization: Bearer abcdef0123456789", "Authorization: Bearer REDACTED"},
		{"sent Bearer abcdef0123456789 to h", "sent Bearer REDACTED to h"},
		{"request failed (bearer 0123456789abcdef)", "request failed (bearer REDACTED)"},
		{"-H 'authorization: bearer 9f86d081884c7d65'", "-H 'authorization: bearer REDACTED'"},
		{"the bearer of bad news", "the bearer of bad news"},
	} {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
	}
	if strings.Contains(Text("sent Bearer abcdef0123456789"), "0123") {
		t.Error("the credential shows")
	}
}
