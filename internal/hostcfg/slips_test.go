package hostcfg

import (
	"strings"
	"testing"
)

// TestHostsDuplicateServerName: a server name given twice in the same
// servers object marks both entries (the host keeps one, and which one is
// its business), so neither is wrapped; a name given once beside them is
// not marked.
func TestHostsDuplicateServerName(t *testing.T) {
	for _, tc := range []struct{ host, scope, text string }{
		{Claude, "project", `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "z"}, "a": {"command": "y"}}}`},
		{VSCode, "project", `{"servers": {"a": {"command": "x"}, "b": {"command": "z"}, "a": {"command": "y"}}}`},
	} {
		f, _ := FileFor(tc.host, tc.scope, "x.json")
		c, err := Parse(f, []byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		var as int
		for _, s := range c.Servers {
			ok, why := s.CanWrap()
			switch s.Name {
			case "a":
				as++
				if want := "the name a is given twice"; ok || !strings.Contains(why, want) {
					t.Errorf("%s: server a (command %s): CanWrap %v %q, want refused with %q", tc.text, s.Command, ok, why, want)
				}
			case "b":
				if !ok {
					t.Errorf("%s: server b, named once, refused: %q", tc.text, why)
				}
			}
		}
		if as != 2 {
			t.Errorf("%s: %d servers named a, want both entries listed", tc.text, as)
		}
	}
}
