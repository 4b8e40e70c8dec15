package e2e

// The hosts of issue 28's second round that npm serves with MCP commands
// that work offline and without an account (Amp), and Copilot CLI's
// project file: each host's own CLI reads back what `rootpick hosts wrap`
// wrote, and unwrap gives the files back byte for byte.

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/hostcfg"
)

// ampListed is `amp mcp list --json`: each server's name, source and
// command line. The CLI says on the same output that it could not reach
// ampcode.com (no account here): everything before the JSON is skipped.
type ampListed struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	Spec   struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	} `json:"spec"`
}

func ampList(t *testing.T, out string) map[string]ampListed {
	t.Helper()
	i := strings.Index(out, "\n[")
	if strings.HasPrefix(out, "[") {
		i = -1
	} else if i < 0 {
		t.Fatalf("amp mcp list --json: no JSON:\n%s", out)
	}
	var list []ampListed
	if err := json.Unmarshal([]byte(out[i+1:]), &list); err != nil {
		t.Fatalf("amp mcp list --json: %v\n%s", err, out)
	}
	m := map[string]ampListed{}
	for _, s := range list {
		m[s.Name] = s
	}
	return m
}

// TestHostsE2EAmpCLI: Amp CLI 0.0.1790142911's `amp mcp list` reads
// ~/.config/amp/settings.json (JSONC with a comment, one server written by
// hand and one by its own `amp mcp add`) and the workspace's
// .amp/settings.json (by `amp mcp add --workspace`) as wrap wrote them:
// "amp.mcpServers" entries with the proxy's command line. Its commands
// that start servers (`amp mcp doctor`, a thread) need an Amp account:
// connecting through the proxy is not tested.
func TestHostsE2EAmpCLI(t *testing.T) {
	t.Parallel()
	cli := moreHostCLI(t, "amp", "@sourcegraph/amp@0.0.1790142911-g7618fb")
	bin := rootpickBin(t)
	q := hostcfg.Quote
	home, project, environ := hostCLISandbox(t)
	state := stateDirOf(environ)
	user := filepath.Join(home, ".config", "amp", "settings.json")
	writeFile(t, user, `{
  // the person's Amp settings
  "amp.notifications.enabled": false,
  "amp.mcpServers": {
    "demo": {"command": `+q(bin)+`, "args": ["serve-demo"],},
    "remote": {"url": "http://127.0.0.1:9/mcp"}
  }
}
`)
	runIn(t, project, environ, cli, "mcp", "add", "added", "--", bin, "serve-demo", "--record", "/dev/null")
	runIn(t, project, environ, cli, "mcp", "add", "shared", "--workspace", "--", bin, "serve-demo", "a b")
	files := hostFiles(t, map[string]string{user: "", filepath.Join(project, ".amp", "settings.json"): ""})
	if !strings.Contains(files[user], "\"added\"") || !strings.Contains(files[user], "// the person's Amp settings") {
		t.Fatalf("amp mcp add did not write to %s, or dropped its comment:\n%s", user, files[user])
	}
	runIn(t, project, environ, bin, "hosts", "wrap", "amp", "--yes", "--profile", "hosts-e2e")
	out := runIn(t, project, environ, cli, "mcp", "list")
	t.Logf("amp mcp list:\n%s", out)
	listed := ampList(t, runIn(t, project, environ, cli, "mcp", "list", "--json"))
	for name, want := range map[string]struct {
		source, command string
		args            []string
	}{
		"demo":   {"global", bin, []string{"proxy", "--profile", "hosts-e2e", "--state-dir", state, "--host=amp", "--name=demo", "--", bin, "serve-demo"}},
		"added":  {"global", bin, []string{"proxy", "--profile", "hosts-e2e", "--state-dir", state, "--host=amp", "--name=added", "--", bin, "serve-demo", "--record", "/dev/null"}},
		"shared": {"workspace", "rootpick", []string{"proxy", "--profile", "hosts-e2e", "--host=amp-project", "--name=shared", "--", bin, "serve-demo", "a b"}},
	} {
		got, ok := listed[name]
		if !ok || got.Source != want.source || got.Spec.Command != want.command || !slices.Equal(got.Spec.Args, want.args) {
			t.Errorf("amp mcp list --json: %s is %+v, want %s %q %q", name, got, want.source, want.command, want.args)
		}
	}
	if _, ok := listed["remote"]; !ok {
		t.Error("amp mcp list --json lacks the remote server")
	}
	unwrapRestores(t, project, environ, bin, "amp", files)
}

// TestHostsE2ECopilotCLIProject: GitHub Copilot CLI 1.0.102 reads a
// project's .github/mcp.json (in a folder the person trusts, when the
// project has no .mcp.json) as wrap wrote it: `copilot mcp list --json`
// gives the entry `rootpick proxy …` by name, as wrap writes project
// files; unwrap gives the file back.
func TestHostsE2ECopilotCLIProject(t *testing.T) {
	t.Parallel()
	cli := moreHostCLI(t, "copilot", "@github/copilot@1.0.102")
	bin := rootpickBin(t)
	q := hostcfg.Quote
	home, project, environ := hostCLISandbox(t)
	file := filepath.Join(project, ".github", "mcp.json")
	text := `{
  "mcpServers": {
    "demo": {
      "type": "local",
      "command": ` + q(bin) + `,
      "args": ["serve-demo", "a b"],
      "tools": ["*"]
    }
  }
}
`
	writeFile(t, file, text)
	// Copilot CLI reads a workspace's servers only in a trusted folder.
	writeFile(t, filepath.Join(home, ".copilot", "config.json"), `{"trusted_folders": [`+q(project)+`]}`)
	runIn(t, project, environ, bin, "hosts", "wrap", "copilot", "--yes", "--profile", "hosts-e2e")
	out := runIn(t, project, environ, cli, "mcp", "list", "--json")
	t.Logf("copilot mcp list --json:\n%s", out)
	var listed struct {
		MCPServers map[string]struct {
			Command    string   `json:"command"`
			Args       []string `json:"args"`
			Source     string   `json:"source"`
			SourcePath string   `json:"sourcePath"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &listed); err != nil {
		t.Fatalf("copilot mcp list --json: %v", err)
	}
	got := listed.MCPServers["demo"]
	want := []string{"proxy", "--profile", "hosts-e2e", "--host=copilot-project", "--name=demo", "--", bin, "serve-demo", "a b"}
	if got.Command != "rootpick" || !slices.Equal(got.Args, want) || got.Source != "workspace" || got.SourcePath != file {
		t.Errorf("copilot mcp list --json: demo is %+v, want rootpick %q from %s", got, want, file)
	}
	unwrapRestores(t, project, environ, bin, "copilot", map[string]string{file: text})
}

// TestHostsE2EAuggie: Augment's Auggie CLI 0.36.0 (offline: it warns that
// it cannot fetch its account's servers) reads ~/.augment/settings.json
// (with a comment, and a server its own `auggie mcp add` wrote) and the
// project's .augment/settings.json (`auggie mcp add --project`) as wrap
// wrote them: `auggie mcp list --json` gives each server's command line,
// the proxy's. Auggie starts servers only in a session with an Augment
// account: connecting is not tested.
func TestHostsE2EAuggie(t *testing.T) {
	t.Parallel()
	cli := moreHostCLI(t, "auggie", "@augmentcode/auggie@0.36.0")
	bin := rootpickBin(t)
	q := hostcfg.Quote
	home, project, environ := hostCLISandbox(t)
	state := stateDirOf(environ)
	user := filepath.Join(home, ".augment", "settings.json")
	writeFile(t, user, `{
  // the person's Auggie settings
  "mcpServers": {
    "demo": {"type": "stdio", "command": `+q(bin)+`, "args": ["serve-demo"]}
  }
}
`)
	runIn(t, project, environ, cli, "mcp", "add", "added", "--command", bin, "--args", "serve-demo --record /dev/null")
	runIn(t, project, environ, cli, "mcp", "add", "shared", "--project", "--command", bin, "--args", "serve-demo")
	files := hostFiles(t, map[string]string{user: "", filepath.Join(project, ".augment", "settings.json"): ""})
	if !strings.Contains(files[user], "\"added\"") || !strings.Contains(files[user], "// the person's Auggie settings") {
		t.Fatalf("auggie mcp add did not write to %s, or dropped its comment:\n%s", user, files[user])
	}
	runIn(t, project, environ, bin, "hosts", "wrap", "auggie", "--yes", "--profile", "hosts-e2e")
	out := runIn(t, project, environ, cli, "mcp", "list", "--json")
	t.Logf("auggie mcp list --json:\n%s", out)
	var listed struct {
		Servers []struct {
			Name, Transport, Command string
		} `json:"servers"`
	}
	if i := strings.Index(out, "\n{"); i < 0 {
		t.Fatalf("auggie mcp list --json: no JSON:\n%s", out)
	} else if err := json.Unmarshal([]byte(out[i+1:]), &listed); err != nil {
		t.Fatalf("auggie mcp list --json: %v", err)
	}
	got := map[string]string{}
	for _, s := range listed.Servers {
		got[s.Name] = s.Transport + " " + s.Command
	}
	for name, want := range map[string]string{
		"demo":   "stdio " + bin + " proxy --profile hosts-e2e --state-dir " + state + " --host=auggie --name=demo -- " + bin + " serve-demo",
		"added":  "stdio " + bin + " proxy --profile hosts-e2e --state-dir " + state + " --host=auggie --name=added -- " + bin + " serve-demo --record /dev/null",
		"shared": "stdio rootpick proxy --profile hosts-e2e --host=auggie-project --name=shared -- " + bin + " serve-demo",
	} {
		if got[name] != want {
			t.Errorf("auggie mcp list --json: %s is %q, want %q", name, got[name], want)
		}
	}
	unwrapRestores(t, project, environ, bin, "auggie", files)
}
