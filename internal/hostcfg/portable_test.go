package hostcfg

import (
	"bytes"
	"strings"
	"testing"
)

// TestHostsProjectFilesArePortable: a project-scope file (one a team
// commits: .mcp.json, .vscode/mcp.json, .cursor/mcp.json and the others)
// wrapped by someone whose rootpick and state folder are under their home
// holds neither: its entries start rootpick by name, from each person's
// PATH, without --state-dir. A user-scope file keeps both, which hosts
// that start servers with a minimal environment need.
func TestHostsProjectFilesArePortable(t *testing.T) {
	const personal = "/home/alice-wraps"
	p := Proxy{Exe: personal + "/bin/rootpick", Profile: "work", StateDir: personal + "/.local/state/rootpick"}
	projects := 0
	for _, fx := range fixtures {
		c := fx.load(t)
		which := wrappable(c, fx.noArgs...)
		if len(which) == 0 {
			continue
		}
		out, err := c.Wrap(which, p)
		if err != nil {
			t.Fatalf("%s: %v", fx.path, err)
		}
		f := c.File
		f.Rootpick = append(f.Rootpick, p.Exe)
		back, err := Parse(f, out)
		if err != nil {
			t.Fatalf("%s: %v", fx.path, err)
		}
		if fx.scope != "project" {
			if !bytes.Contains(out, []byte(p.Exe)) || !bytes.Contains(out, []byte(p.StateDir)) {
				t.Errorf("%s (user): the executable's path or the state folder is missing:\n%s", fx.path, out)
			}
			continue
		}
		projects++
		if bytes.Contains(out, []byte(personal)) {
			t.Errorf("%s (project): holds a personal path:\n%s", fx.path, Diff("a", "b", c.Data, out))
		}
		for _, i := range which {
			s := back.Servers[i]
			if s.Kind != Proxied || s.Command != PortableExe || strings.Contains(strings.Join(s.Args, " "), "--state-dir") || s.Profile != "work" {
				t.Errorf("%s %s: %v %q %q, want rootpick by name, profile work, no --state-dir", fx.path, s.Name, s.Kind, s.Command, s.Args)
			}
		}
	}
	if projects < 10 {
		t.Errorf("%d project files wrapped, want every project fixture (at least 10)", projects)
	}
}

// TestHostsProxyFlag: a wrapped entry's proxy flags are read in both
// spellings, before the server command only.
func TestHostsProxyFlag(t *testing.T) {
	f, _ := FileFor(Claude, "project", "mcp.json")
	f.Rootpick = []string{"rootpick"}
	c, err := Parse(f, []byte(`{"mcpServers": {"a": {"command": "rootpick", "args": ["proxy", "--state-dir", "/s", "--enforce=off", "--orig-arg", "--enforce=on", "--", "srv", "--enforce=x", "--state-dir", "/no"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := c.Servers[0]
	if got := s.ProxyFlag("--state-dir"); got != "/s" {
		t.Errorf("--state-dir: %q", got)
	}
	if got := s.ProxyFlag("--enforce"); got != "off" {
		t.Errorf("--enforce: %q (an --orig-arg value is not a flag)", got)
	}
	if got := s.ProxyFlag("--log"); got != "" {
		t.Errorf("--log: %q", got)
	}
}
