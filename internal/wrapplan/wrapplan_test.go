package wrapplan

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/paths"
)

// TestShownFolder: the folder in the success line, as typed.
func TestShownFolder(t *testing.T) {
	for _, tc := range []struct{ dir, want string }{
		{"/home/me", "~"},
		{"/home/me/src", "~/src"},
		{"/home/me/My src", "'/home/me/My src'"},
		{"/srv/code", "/srv/code"},
		{"/home/meant", "/home/meant"},
	} {
		if got := ShownFolder(tc.dir, "/home/me"); got != tc.want {
			t.Errorf("ShownFolder(%q) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}

// TestOfflineServers: hosts wrap turns the network off for the servers
// known to need none, however they are started (a launcher, a version, the
// program itself), and for no other.
func TestOfflineServers(t *testing.T) {
	for _, tc := range []struct {
		command []string
		want    string
	}{
		{[]string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/src"}, "off"},
		{[]string{"npx", "-y", "@modelcontextprotocol/server-filesystem@2025.8.21"}, "off"},
		{[]string{"/usr/bin/npx", "--yes", "@modelcontextprotocol/server-memory@latest"}, "off"},
		{[]string{"uvx", "mcp-server-git", "--repository", "."}, "off"},
		{[]string{"uvx", "mcp-server-git==0.6.2"}, "off"},
		{[]string{"/home/me/.local/bin/mcp-server-filesystem", "/src"}, "off"},
		{[]string{"npx", "-y", "@modelcontextprotocol/server-github"}, ""},
		{[]string{"uvx", "mcp-server-fetch"}, ""},
		{[]string{"node", "server-filesystem.js"}, ""},
		{[]string{"npx", "-y", "some-wrapper", "@modelcontextprotocol/server-filesystem"}, ""}, // an argument, not what runs
	} {
		if got := OfflineNetwork(tc.command); got != tc.want {
			t.Errorf("%q: network %q, want %q", tc.command, got, tc.want)
		}
	}
}

// planFixture is Claude Code's ~/.claude.json with a server known to need
// no network, given the folder DOCS, one that calls an API, and a remote
// one.
const planFixture = `{
  "mcpServers": {
    "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "DOCS"]},
    "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]},
    "remote": {"type": "http", "url": "https://example.com/mcp"}
  }
}
`

// parsed is text as Claude Code reads its user file, run in project.
func parsed(t *testing.T, project, text string) *hostcfg.Config {
	t.Helper()
	home := filepath.Dir(project)
	f, ok := hostcfg.FileFor(hostcfg.Claude, string(hostcfg.ScopeUser), filepath.Join(home, ".claude.json"))
	if !ok {
		t.Fatal("no user file for Claude Code")
	}
	f.Home, f.Workspace, f.Rootpick = home, project, []string{"/bin/rootpick"}
	c, err := hostcfg.Parse(f, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sandbox is a home folder with a project and a folder docs in it.
func sandbox(t *testing.T) (project, docs string) {
	t.Helper()
	home := t.TempDir()
	project, docs = filepath.Join(home, "project"), filepath.Join(home, "docs")
	for _, d := range []string{project, docs} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return project, docs
}

// TestPlanWrapAndUnwrap: Plan wraps every stdio server (the remote one is
// left alone, said on Log), turns the network off for the one known to
// need none and only for it, replaces its folder argument with {roots},
// says so in the notes and names the launches to fetch ahead; unwrap of
// the result reads the proxy's flags back and gives the file byte for
// byte.
func TestPlanWrapAndUnwrap(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	project, docs := sandbox(t)
	fixture := strings.Replace(planFixture, "DOCS", docs, 1)
	var log bytes.Buffer
	wrap := Request{Wrap: true, Proxy: hostcfg.Proxy{Exe: "/bin/rootpick", NetworkFor: OfflineNetwork}, Grants: NewGrants(paths.FromEnv()), Log: &log}
	res, err := Plan([]*hostcfg.Config{parsed(t, project, fixture)}, wrap)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || len(res.Missing) != 0 || res.Refused {
		t.Fatalf("plan: %d files, missing %q, refused %v", len(res.Files), res.Missing, res.Refused)
	}
	p := res.Files[0]
	out := string(p.Out)
	if got := strings.Join(p.Servers, ","); got != "fs,github" {
		t.Errorf("wrapped %q, want fs,github", got)
	}
	if strings.Count(out, `"--network=off"`) != 1 || !strings.Contains(out, `"--network=off", "--host=claude", "--name=fs", "--orig-arg", "`+docs+`", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "{roots}"]`) {
		t.Errorf("the network is not off for fs alone:\n%s", out)
	}
	notes := strings.Join(p.Notes, "\n")
	for _, want := range []string{
		"fs: " + docs + " → {roots}: it will see only what you consent",
		"fs was limited to " + docs + "; behind profile default it sees what you consent for default (nothing yet: choose with 'rootpick --profile default DIR')",
		"fs: network off: @modelcontextprotocol/server-filesystem needs none",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("the notes lack %q:\n%s", want, notes)
		}
	}
	if strings.Contains(notes, "github: network off") {
		t.Errorf("github's network is turned off:\n%s", notes)
	}
	if len(p.Launches) != 2 || p.Launches[0].Name != "fs" || p.Launches[0].What() != "@modelcontextprotocol/server-filesystem" {
		t.Errorf("launches: %+v", p.Launches)
	}
	if !strings.Contains(log.String(), "claude remote: left alone") {
		t.Errorf("the remote server is not said to be left alone: %q", log.String())
	}

	res, err = Plan([]*hostcfg.Config{parsed(t, project, out)}, Request{Grants: NewGrants(paths.FromEnv()), Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || string(res.Files[0].Out) != fixture {
		t.Fatalf("unwrap does not give the file back:\n%s", res.Files[0].Out)
	}
	if notes := strings.Join(res.Files[0].Notes, "\n"); !strings.Contains(notes, "fs: {roots} → "+docs) {
		t.Errorf("unwrap does not say the folder comes back:\n%s", notes)
	}
}

// TestPlanMissingAndRefused: a name that no file has is Missing; one that
// cannot be rewritten is Refused, with the reason on Log, and the file is
// not planned; --except leaves a server alone.
func TestPlanMissingAndRefused(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	project, docs := sandbox(t)
	var log bytes.Buffer
	res, err := Plan([]*hostcfg.Config{parsed(t, project, strings.Replace(planFixture, "DOCS", docs, 1))}, Request{Wrap: true, Proxy: hostcfg.Proxy{Exe: "/bin/rootpick"},
		Names: []string{"remote", "nope", "fs"}, Except: []string{"fs"}, Grants: NewGrants(paths.FromEnv()), Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 0 || !res.Refused || strings.Join(res.Missing, ",") != "nope" {
		t.Errorf("plan: %d files, missing %q, refused %v", len(res.Files), res.Missing, res.Refused)
	}
	for _, want := range []string{"rootpick: claude remote in ", ": not wrapped: ", "claude fs: left alone: --except"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, log.String())
		}
	}
}
