package consent

import (
	"net/url"
	"strings"
	"testing"
)

func TestPathToURI(t *testing.T) {
	tests := []struct {
		path, uri string
	}{
		{"/", "file:///"},
		{"/home/u/my project", "file:///home/u/my%20project"},
		{"/tmp/100%", "file:///tmp/100%25"},
		{"/tmp/%20", "file:///tmp/%2520"},
		{"/tmp/#1", "file:///tmp/%231"},
		{"/tmp/what?", "file:///tmp/what%3F"},
		{"/tmp/café", "file:///tmp/caf%C3%A9"},
		{"/tmp/日本", "file:///tmp/%E6%97%A5%E6%9C%AC"},
		{"/tmp/a\nb", "file:///tmp/a%0Ab"},
		{"/tmp/esc\x1b[31m", "file:///tmp/esc%1B%5B31m"},
		{"/tmp/del\x7f", "file:///tmp/del%7F"},
		{"/tmp/a+b", "file:///tmp/a+b"},
		{"/tmp/a\\b", "file:///tmp/a%5Cb"},
		{"/tmp/<\">`{|}^", "file:///tmp/%3C%22%3E%60%7B%7C%7D%5E"},
		{"/tmp/-._~!$&'()*,;=:@", "file:///tmp/-._~!$&'()*,;=:@"},
		{"/tmp/trailing/", "file:///tmp/trailing/"},
		{"//double", "file:////double"},
		{"/\xff\xfe", "file:///%FF%FE"}, // not UTF-8: still byte by byte
		{"relative/dir", "file:relative/dir"},
		{"", "file:"},
	}
	for _, tt := range tests {
		if got := PathToURI(tt.path); got != tt.uri {
			t.Errorf("PathToURI(%q) = %q, want %q", tt.path, got, tt.uri)
		}
		if !strings.HasPrefix(tt.path, "/") {
			if p, err := URIToPath(tt.uri); err == nil {
				t.Errorf("URIToPath(%q) = %q, want an error for a relative path", tt.uri, p)
			}
			continue
		}
		got, err := URIToPath(tt.uri)
		if err != nil {
			t.Errorf("URIToPath(%q): %v", tt.uri, err)
		} else if got != tt.path {
			t.Errorf("URIToPath(PathToURI(%q)) = %q", tt.path, got)
		}
	}
}

func TestURIToPathAccepts(t *testing.T) {
	tests := []struct {
		uri, path string
	}{
		{"file:///tmp", "/tmp"},
		{"file://localhost/tmp", "/tmp"},
		{"file://LocalHost/tmp", "/tmp"},
		{"FILE:///tmp", "/tmp"},
		{"File:///tmp", "/tmp"},
		{"file:/tmp", "/tmp"}, // RFC 8089 form without authority
		{"file:///", "/"},
		{"file:///a%2fb", "/a/b"}, // lowercase hex; an encoded slash is just a slash
		{"file:///a%2Bb+c", "/a+b+c"},
		{"file:///caf%c3%a9", "/café"},
		{"file:///a/../b", "/a/../b"}, // not cleaned: NewRoot canonicalises
		{"file:///a b", "/a b"},       // lenient about a raw space
	}
	for _, tt := range tests {
		got, err := URIToPath(tt.uri)
		if err != nil {
			t.Errorf("URIToPath(%q): %v", tt.uri, err)
		} else if got != tt.path {
			t.Errorf("URIToPath(%q) = %q, want %q", tt.uri, got, tt.path)
		}
	}
}

func TestURIToPathRejects(t *testing.T) {
	tests := []struct {
		uri, why string
	}{
		{"", "empty"},
		{"/tmp", "no scheme"},
		{"http://x/y", "other scheme"},
		{"files:///tmp", "other scheme"},
		{"fil:///tmp", "other scheme"},
		{"file://otherhost/x", "remote host"},
		{"file://localhost:80/x", "port"},
		{"file://user@localhost/x", "userinfo"},
		{"file:relative", "relative path"},
		{"file:", "empty path"},
		{"file://", "empty path"},
		{"file://localhost", "empty path"},
		{"file:///a%2", "truncated escape"},
		{"file:///a%", "truncated escape"},
		{"file:///a%zz", "malformed escape"},
		{"file:///a%g0", "malformed escape"},
		{"file:///a#frag", "fragment"},
		{"file:///a#", "empty fragment"},
		{"file:///a?q", "query"},
		{"file:///a?", "empty query"},
		{"file:///a%00b", "encoded NUL"},
		{"file:///a\x00b", "raw NUL"},
		{"file:///a\nb", "raw newline"},
		{"file:///a\x1b[2J", "raw escape"},
	}
	for _, tt := range tests {
		if got, err := URIToPath(tt.uri); err == nil {
			t.Errorf("URIToPath(%q) = %q, want an error (%s)", tt.uri, got, tt.why)
		}
	}
}

// checkURI asserts the round trip and the shape of the URI for the absolute
// path p, and that net/url reads the URI the same way.
func checkURI(t *testing.T, p string) {
	t.Helper()
	uri := PathToURI(p)
	for i := 0; i < len(uri); i++ {
		if c := uri[i]; c <= ' ' || c >= 0x7F || c == '#' || c == '?' {
			t.Fatalf("PathToURI(%q) = %q has byte %q at %d", p, uri, c, i)
		}
	}
	got, err := URIToPath(uri)
	if err != nil {
		t.Fatalf("URIToPath(PathToURI(%q) = %q): %v", p, uri, err)
	}
	if got != p {
		t.Fatalf("URIToPath(PathToURI(%q)) = %q", p, got)
	}
	u, err := url.Parse(uri)
	if err != nil {
		t.Fatalf("url.Parse(%q): %v", uri, err)
	}
	if u.Scheme != "file" || u.Host != "" || u.Path != p || u.RawQuery != "" || u.Fragment != "" {
		t.Fatalf("url.Parse(%q) = scheme %q host %q path %q query %q fragment %q, want path %q",
			uri, u.Scheme, u.Host, u.Path, u.RawQuery, u.Fragment, p)
	}
}

func FuzzURIRoundTrip(f *testing.F) {
	for _, s := range []string{
		"", "home/u/my project", "100%", "%41", "#", "?", "a?b#c", "é", "日本",
		"a\nb", "a+b", "/", "//x", "..", "a/../b", "\xff", "\x1b[31m", "~!$&'()*,;=:@",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := "/" + s
		if strings.IndexByte(p, 0) >= 0 {
			t.Skip()
		}
		checkURI(t, p)
	})
}

// FuzzURIToPath feeds arbitrary strings: URIToPath must never panic, and
// whatever it accepts must be an absolute path that PathToURI writes back
// into a URI naming the same path.
func FuzzURIToPath(f *testing.F) {
	for _, s := range []string{
		"file:///%%", "file:///a%2", "file:///a%zz", "file:///", "file://localhost/x",
		"file://h/x", "file:x", "file:/x", "FILE:///%41", "file:///a b", "file://[::1]/x",
		"file://user@localhost/x", "file:////x", "http://x/y", "", ":", "file://%zz/x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := URIToPath(s)
		if err != nil {
			return
		}
		if !strings.HasPrefix(p, "/") || strings.IndexByte(p, 0) >= 0 {
			t.Fatalf("URIToPath(%q) = %q: not an absolute NUL-free path", s, p)
		}
		back, err := URIToPath(PathToURI(p))
		if err != nil || back != p {
			t.Fatalf("URIToPath(%q) = %q, but PathToURI of it reads back as %q, %v", s, p, back, err)
		}
	})
}

func TestURIToPathNoPanic(t *testing.T) {
	for _, s := range []string{"file:///%%", "file:///%", "file://%%/x", "file:%%"} {
		if p, err := URIToPath(s); err == nil {
			t.Errorf("URIToPath(%q) = %q, want an error", s, p)
		}
	}
}
