package hostcfg

import (
	"strings"
	"testing"
)

// TestHostsTOMLWholeFileChecked: the unstable parser reads one expression
// at a time and lets through what TOML forbids across expressions (a key
// given twice, a table defined twice, a key that is already a table);
// Codex would refuse such a file, so Parse refuses it before anything is
// located in it, and a well-formed file with the same keys parses.
func TestHostsTOMLWholeFileChecked(t *testing.T) {
	f, _ := FileFor(Codex, "user", "config.toml")
	for _, tc := range []struct{ name, in string }{
		{"a key twice", "[mcp_servers.s]\ncommand = \"x\"\ncommand = \"y\"\n"},
		{"a key twice elsewhere", "model = \"a\"\nmodel = \"b\"\n[mcp_servers.s]\ncommand = \"x\"\n"},
		{"a table twice", "[mcp_servers.s]\ncommand = \"x\"\n[mcp_servers.s]\nargs = []\n"},
		{"a value redefined as a table", "mcp_servers = 1\n[mcp_servers.s]\ncommand = \"x\"\n"},
		{"an inline table extended", "[mcp_servers]\ns = {command = \"x\"}\n[mcp_servers.s.env]\nA = \"1\"\n"},
	} {
		if _, err := Parse(f, []byte(tc.in)); err == nil {
			t.Errorf("%s: parsed\n%s", tc.name, tc.in)
		}
	}
	ok := "model = \"a\"\n[mcp_servers.s]\ncommand = \"x\"\nargs = [\"a\"]\n[mcp_servers.s.env]\nA = \"1\"\n"
	c, err := Parse(f, []byte(ok))
	if err != nil {
		t.Fatalf("%v\n%s", err, ok)
	}
	if len(c.Servers) != 1 || c.Servers[0].Command != "x" || strings.Join(c.Servers[0].Args, " ") != "a" {
		t.Errorf("servers %+v", c.Servers)
	}
}
