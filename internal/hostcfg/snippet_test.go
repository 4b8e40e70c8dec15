package hostcfg

import (
	"slices"
	"testing"
)

// TestHostsSnippets: each host's snippet reads back, as that host's user
// file, as one server behind the proxy with the command it was given.
func TestHostsSnippets(t *testing.T) {
	args := []string{"proxy", "--profile", "work", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem"}
	for _, host := range Hosts {
		hint, text, ok := Snippet(host, "fs.one", "/usr/local/bin/rootpick", args)
		if !ok || hint == "" {
			t.Fatalf("%s: no snippet", host)
		}
		f, ok := FileFor(host, "user", host+"-snippet")
		if !ok {
			t.Fatalf("%s: no user file", host)
		}
		f.Rootpick = []string{"/usr/local/bin/rootpick"}
		c, err := Parse(f, text)
		if err != nil || len(c.Servers) != 1 {
			t.Fatalf("%s snippet: %v\n%s", host, err, text)
		}
		s := c.Servers[0]
		if s.Name != "fs.one" || s.Kind != Proxied || s.Profile != "work" || !slices.Equal(s.Behind, args[4:]) {
			t.Errorf("%s snippet reads as %+v:\n%s", host, s, text)
		}
	}
	if _, _, ok := Snippet("inspector", "fs", "rootpick", args); ok {
		t.Error("a snippet for inspector, which is no host (the root package writes its file)")
	}
}
