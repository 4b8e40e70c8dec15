package main

import (
	"bytes"
	"io"
	"slices"
	"testing"

	"github.com/rootpick/rootpick/internal/hostcfg"
)

// TestPrintConfigGeminiCodex: the snippets for Gemini CLI and Codex are
// what hostcfg reads as a server behind the proxy, with the profile.
func TestPrintConfigGeminiCodex(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/custom/state") // not where HOME alone finds it: passed on
	for host, scope := range map[string]string{"gemini": "user", "codex": "user"} {
		var out bytes.Buffer
		o := proxyCmd{PrintConfig: hostName(host), Profile: "work", Protocol: "2025-11-25", Name: "fs.one"}
		if err := printHostConfig(&out, io.Discard, o, []string{"npx", "-y", "@modelcontextprotocol/server-filesystem"}); err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		f, _ := hostcfg.FileFor(host, scope, host+"-snippet")
		c, err := hostcfg.Parse(f, out.Bytes())
		if err != nil || len(c.Servers) != 1 {
			t.Fatalf("%s snippet: %v\n%s", host, err, out.String())
		}
		s := c.Servers[0]
		if s.Name != "fs.one" || s.Kind != hostcfg.Proxied || s.Profile != "work" || !slices.Equal(s.Behind, []string{"npx", "-y", "@modelcontextprotocol/server-filesystem"}) {
			t.Errorf("%s snippet reads as %+v:\n%s", host, s, out.String())
		}
		if i := slices.Index(s.Args, "--state-dir"); i < 0 || i+1 >= len(s.Args) || s.Args[i+1] != "/custom/state/rootpick" {
			t.Errorf("%s snippet does not pass the state folder: args %q", host, s.Args)
		}
	}
}
