package redact

import (
	"slices"
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// Nothing to hide: exactly as written.
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp"},
		{"http://[::1]:9/p%20q", "http://[::1]:9/p%20q"},
		{"http://h/mcp?", "http://h/mcp?"},
		// User information, query values (keys kept), fragment.
		{"http://127.0.0.1:1/mcp?v=1", "http://127.0.0.1:1/mcp?v=REDACTED"},
		{"https://user:pw@h.example/mcp?api_key=T#frag", "https://REDACTED@h.example/mcp?api_key=REDACTED#REDACTED"},
		{"https://tok@h.example/", "https://REDACTED@h.example/"},
		{"http://h/mcp#secret-fragment", "http://h/mcp#REDACTED"},
		{"http://h/?a=1&b=&c;SECRET", "http://h/?a=REDACTED&b=&REDACTED;REDACTED"}, // a part without = is hidden whole
		{"https://u:p@[::1]:9/p?t=1#f", "https://REDACTED@[::1]:9/p?t=REDACTED#REDACTED"},
		{"http://h/a@b/c", "http://h/a@b/c"}, // an '@' in a good URL's path
		{"https://h/x?mail=a@b.example&t=1", "https://h/x?mail=REDACTED&t=REDACTED"},
		// Malformed: url.Parse refuses them, the text is still cut.
		{"http://a b@127.0.0.1:47310/%zz?token=SEKRITTOKEN42", "http://REDACTED@127.0.0.1:47310/%zz?token=REDACTED"},
		{"http://h/%zz", "http://h/%zz"},
		{"http://alice:hunter2PASS@127.0.0.1:1/%zz?api_key=SEKRIT", "http://REDACTED@127.0.0.1:1/%zz?api_key=REDACTED"},
		{"127.0.0.1:47310/mcp?token=SEKRIT", "127.0.0.1:47310/mcp?token=REDACTED"},
		{"alice:hunter2PASS@host?api_key=SEKRIT", "REDACTED@host?api_key=REDACTED"},
		{"alice:hunter2PASS@host/mcp", "REDACTED@host/mcp"},
		{"http://u:p@[::1/x?t=1", "http://REDACTED@[::1/x?t=REDACTED"},
		{"http://[fe80::1%zz]:1/?t=1#f", "http://[fe80::1%zz]:1/?t=REDACTED#REDACTED"},
		{"http://u:pa/ss@h/p?t=1", "http://REDACTED@h/p?t=REDACTED"},
		// Ambiguous: a password with '#' or '?', or an '@' in the query
		// of a URL that does not parse: both readings hidden.
		{"http://u:pa#ss@h/", "http://REDACTED@REDACTED"},
		{"http://u:p?ss@h/", "http://REDACTED@REDACTED"},
		{"http://h/%zz?email=a@b.com&t=X", "http://REDACTED@REDACTED"},
		// Token shapes in the path.
		{"https://h/hooks/sk-abcdefghijklmnopqrstuvwx/x", "https://h/hooks/sk-REDACTED/x"},
	} {
		if got := URL(tc.in); got != tc.want {
			t.Errorf("URL(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
		if got := URL(URL(tc.in)); got != URL(tc.in) {
			t.Errorf("URL(URL(%q)) = %q, not %q", tc.in, got, URL(tc.in))
		}
		if got := Text(URL(tc.in)); got != URL(tc.in) {
			t.Errorf("Text(URL(%q)) = %q, not %q", tc.in, got, URL(tc.in))
		}
	}
}

// TestURLKeepsWhatTellsApart: URLs that differ in scheme, host, port, path
// or query keys still differ once redacted.
func TestURLKeepsWhatTellsApart(t *testing.T) {
	urls := []string{
		"https://u:p@a.example/mcp?token=1",
		"https://u:p@b.example/mcp?token=1",
		"https://u:p@a.example:8443/mcp?token=1",
		"https://u:p@a.example/other?token=1",
		"https://u:p@a.example/mcp?key=1",
		"http://u:p@a.example/mcp?token=1",
		"https://a.example/mcp?token=1",
		"http://a b@127.0.0.1:1/%zz?token=1",
		"http://a b@127.0.0.2:1/%zz?token=1",
	}
	seen := map[string]string{}
	for _, u := range urls {
		r := URL(u)
		if other, ok := seen[r]; ok {
			t.Errorf("%q and %q both look like %q", u, other, r)
		}
		seen[r] = u
	}
}

func TestURLSecrets(t *testing.T) {
	got := URLSecrets("http://alice:hunter%32@h/p?api_key=TOKEN%2B1&v=1#frag")
	for _, want := range []string{"alice:hunter%32", "alice", "hunter%32", "hunter2", "TOKEN%2B1", "TOKEN+1", "1", "frag"} {
		if !slices.Contains(got, want) {
			t.Errorf("URLSecrets lacks %q: %q", want, got)
		}
	}
	for _, s := range got {
		if strings.Contains(s, "h/p") || s == "api_key" || s == "v" {
			t.Errorf("URLSecrets holds %q, which is no secret: %q", s, got)
		}
	}
	if got := URLSecrets("http://127.0.0.1:9/mcp"); len(got) != 0 {
		t.Errorf("a URL without secrets has %q", got)
	}
}
