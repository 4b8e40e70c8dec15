package e2e

// The real Claude Code, Gemini CLI and Codex (npm, pinned in
// .ci/package.json) reading the configurations `rootpick hosts wrap`
// wrote: their own `mcp list` needs no account and no network.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/hostcfg"
)

// hostCLI is a host's CLI installed by npm ci --prefix .ci, or skips.
// hostFixtures holds a config file of every host (internal/hostcfg).
var hostFixtures = filepath.Join("..", "internal", "hostcfg", "testdata")

func hostCLI(t *testing.T, name string) string {
	t.Helper()
	return ciNodeModule(t, filepath.Join(".bin", name), "host CLIs", "Claude Code, Gemini CLI and Codex")
}

// hostCLISandbox is a home and a project folder for a host CLI, and the
// environment to run it and rootpick in: no consent in the state folder.
func hostCLISandbox(t *testing.T) (home, project string, environ []string) {
	dir := t.TempDir()
	home, project = filepath.Join(dir, "home"), filepath.Join(dir, "project")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	environ = append(os.Environ(), "HOME="+home, "XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "CLAUDE_CONFIG_DIR=", "NO_COLOR=1")
	// A project's files name rootpick by name: the host finds the one
	// built here first on PATH.
	environ = append(environ, "PATH="+filepath.Dir(rootpickBin(t))+string(os.PathListSeparator)+os.Getenv("PATH"))
	return home, project, environ
}

// TestHostsE2EProxyLogNames: wrap writes the host and the server's name
// into each entry, and the proxy the host starts logs by them: a
// user-scope and a project-scope server with one command log apart
// (proxy-work-claude-fs.log, proxy-work-claude-project-fs.log). The
// project's .mcp.json holds no path of this person's; its backup is in
// the state folder, not beside it; the success line names the next
// command with the folder, and counts right.
func TestHostsE2EProxyLogNames(t *testing.T) {
	bin := rootpickBin(t)
	home, project, environ := hostCLISandbox(t)
	state := filepath.Join(filepath.Dir(home), "state", "rootpick")
	mcp := filepath.Join(project, ".mcp.json")
	writeFile(t, mcp, `{"mcpServers": {"fs": {"command": "true"}}}`+"\n")
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers": {"fs": {"command": "true"}}}`+"\n")
	out := runIn(t, project, environ, bin, "hosts", "wrap", "claude", "--yes", "--profile", "work")
	if want := "2 servers now run through rootpick proxy: restart the host, then choose their folders with 'rootpick --profile work " + project + "'.\n"; !strings.Contains(out, want) {
		t.Errorf("the success line is not %q:\n%s", want, out)
	}
	backup := filepath.Join(state, "backups", hostcfg.BackupName(mcp))
	if !strings.Contains(out, "(backup: "+backup+")") {
		t.Errorf("the message does not name the backup %s:\n%s", backup, out)
	}
	if _, err := os.Lstat(mcp + hostcfg.BackupSuffix); err == nil {
		t.Error("a backup beside the project's .mcp.json")
	}
	data, _ := os.ReadFile(mcp)
	if strings.Contains(string(data), filepath.Dir(home)) || strings.Contains(string(data), filepath.Dir(bin)) {
		t.Errorf("the project's .mcp.json holds a personal path:\n%s", data)
	}
	for _, f := range []struct{ scope, path, log string }{
		{"project", mcp, "proxy-work-claude-project-fs.log"},
		{"user", filepath.Join(home, ".claude.json"), "proxy-work-claude-fs.log"},
	} {
		file, _ := hostcfg.FileFor("claude", f.scope, f.path)
		file.Rootpick = []string{bin, hostcfg.PortableExe}
		c, err := hostcfg.Load(file)
		if err != nil || len(c.Servers) != 1 || c.Servers[0].Kind != hostcfg.Proxied {
			t.Fatalf("%s: %v %+v", f.path, err, c)
		}
		s := c.Servers[0]
		// As the host starts it: the command found on PATH, no stdin.
		command := s.Command
		if command == hostcfg.PortableExe {
			command = bin // what the host finds first on its PATH
		}
		cmd := exec.Command(command, s.Args...)
		cmd.Dir, cmd.Env, cmd.Stdin = project, environ, strings.NewReader("")
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			t.Logf("exited: %v", err) // (the exit status is not what is tested)
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%s: the proxy did not end when its host went away", f.path)
		}
		if _, err := os.Stat(filepath.Join(state, f.log)); err != nil {
			logs, _ := filepath.Glob(filepath.Join(state, "proxy-*.log"))
			t.Errorf("%s: no log %s: %v; logs: %q", f.scope, f.log, err, logs)
		}
	}
}

func runIn(t *testing.T, dir string, environ []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, environ
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", filepath.Base(name), args, err, out)
	}
	return string(out)
}

// unwrapRestores runs `rootpick hosts unwrap HOST --yes` in project and
// fails t unless every file of files (path → text before the wrap) is
// back byte for byte.
func unwrapRestores(t *testing.T, project string, environ []string, bin, host string, files map[string]string) {
	t.Helper()
	runIn(t, project, environ, bin, "hosts", "unwrap", host, "--yes")
	for name, text := range files {
		if b, _ := os.ReadFile(name); string(b) != text {
			t.Errorf("%s after wrap and unwrap:\n%s\nwas:\n%s", name, b, text)
		}
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHostsE2EClaudeCLI: Claude Code's own `claude mcp list` reads the
// files `rootpick hosts wrap` wrote (.mcp.json and ~/.claude.json), starts
// the proxy for each server and finds it connected.
func TestHostsE2EClaudeCLI(t *testing.T) {
	claude := hostCLI(t, "claude")
	bin := rootpickBin(t)
	home, project, environ := hostCLISandbox(t)
	project, _ = filepath.EvalSymlinks(project)
	q := hostcfg.Quote
	writeFile(t, filepath.Join(project, ".mcp.json"), `{
  "mcpServers": {
    "demo": {"command": `+q(bin)+`, "args": ["serve-demo"]},
    "remote": {"type": "http", "url": "http://127.0.0.1:9/mcp"}
  }
}
`)
	// The user's server, and the project's approved as `claude` would.
	writeFile(t, filepath.Join(home, ".claude.json"), `{
  "mcpServers": {
    "demo-user": {"type": "stdio", "command": `+q(bin)+`, "args": ["serve-demo", "--record", "/dev/null"], "env": {}}
  },
  "projects": {`+q(project)+`: {"enabledMcpjsonServers": ["demo"], "hasTrustDialogAccepted": true}}
}
`)
	runIn(t, project, environ, bin, "hosts", "wrap", "claude", "--yes", "--profile", "hosts-e2e")
	out := runIn(t, project, environ, claude, "mcp", "list")
	t.Logf("claude mcp list:\n%s", out)
	for _, want := range []string{
		// The user's file: this executable and the state folder; the
		// project's: rootpick by name, found on PATH, and no state folder.
		"demo-user: " + bin + " proxy --profile hosts-e2e --state-dir " + stateDirOf(environ) + " --host=claude --name=demo-user -- " + bin + " serve-demo --record /dev/null - ✔ Connected",
		"demo: rootpick proxy --profile hosts-e2e --host=claude-project --name=demo -- " + bin + " serve-demo - ✔ Connected",
		"remote: http://127.0.0.1:9/mcp (HTTP)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("claude mcp list lacks %q", want)
		}
	}
	out = runIn(t, project, environ, claude, "mcp", "get", "demo")
	if !strings.Contains(out, "Command: rootpick\n") || !strings.Contains(out, "Args: proxy --profile hosts-e2e --host=claude-project --name=demo -- "+bin+" serve-demo\n") {
		t.Errorf("claude mcp get demo:\n%s", out)
	}
}

// TestHostsE2EGeminiCLI: Gemini CLI's own `gemini mcp list` reads the
// settings (with comments) `rootpick hosts wrap` wrote and lists each
// server with the proxy's command line. Whether it connects is the
// protocol version's business, not this test's: it is logged.
func TestHostsE2EGeminiCLI(t *testing.T) {
	gemini := hostCLI(t, "gemini")
	bin := rootpickBin(t)
	home, project, environ := hostCLISandbox(t)
	q := hostcfg.Quote
	writeFile(t, filepath.Join(home, ".gemini", "settings.json"), `{
  // the user's servers
  "mcpServers": {
    "demo-user": {"command": `+q(bin)+`, "args": ["serve-demo"]},
    "remote": {"httpUrl": "http://127.0.0.1:9/mcp"}
  }
}
`)
	writeFile(t, filepath.Join(project, ".gemini", "settings.json"), `{
  "mcpServers": {
    /* the project's */
    "demo": {"command": `+q(bin)+`, "args": ["serve-demo", "a b", "ünï"]} // spaces and unicode
  }
}
`)
	runIn(t, project, environ, bin, "hosts", "wrap", "gemini", "--yes", "--profile", "hosts-e2e")
	out := runIn(t, project, environ, gemini, "mcp", "list")
	t.Logf("gemini mcp list:\n%s", out)
	for _, want := range []string{
		"demo-user: " + bin + " proxy --profile hosts-e2e --state-dir " + stateDirOf(environ) + " --host=gemini --name=demo-user -- " + bin + " serve-demo (stdio)",
		"demo: rootpick proxy --profile hosts-e2e --host=gemini-project --name=demo -- " + bin + " serve-demo a b ünï (stdio)",
		"remote: http://127.0.0.1:9/mcp (http)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("gemini mcp list lacks %q", want)
		}
	}
}

// codexServer is a server as `codex mcp list --json` shows it.
type codexServer struct {
	Name      string
	Transport struct {
		Type, Command, URL string
		Args               []string
	}
}

// TestHostsE2ECodexCLI: Codex's own TOML reader (`codex mcp list --json`)
// reads the fixture config.toml after `rootpick hosts wrap codex`: every
// way of writing a server there (a table, an inline table, dotted keys,
// literal strings, comments in an array, no args) comes out with exactly
// the proxy's command line; the proxied and the remote server as they
// were.
func TestHostsE2ECodexCLI(t *testing.T) {
	codex := hostCLI(t, "codex")
	bin := rootpickBin(t)
	home, project, environ := hostCLISandbox(t)
	codexHome := filepath.Join(home, ".codex")
	environ = append(environ, "CODEX_HOME="+codexHome)
	fixture, err := os.ReadFile(filepath.Join(hostFixtures, "home", ".codex", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(codexHome, "config.toml"), string(fixture))
	f, _ := hostcfg.FileFor("codex", "user", "config.toml")
	before, err := hostcfg.Parse(f, fixture)
	if err != nil {
		t.Fatal(err)
	}
	runIn(t, project, environ, bin, "hosts", "wrap", "codex", "--yes", "--profile", "hosts-e2e")

	cmd := exec.Command(codex, "mcp", "list", "--json")
	cmd.Dir, cmd.Env = project, environ
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("codex mcp list: %v\n%s", err, stderr.String())
	}
	var listed []codexServer
	if err := json.Unmarshal(stdout.Bytes(), &listed); err != nil {
		t.Fatalf("codex mcp list --json: %v\n%s", err, stdout.String())
	}
	if len(listed) != len(before.Servers) {
		t.Errorf("codex lists %d servers, the fixture has %d:\n%s", len(listed), len(before.Servers), stdout.String())
	}
	for _, s := range before.Servers {
		i := slices.IndexFunc(listed, func(l codexServer) bool { return l.Name == s.Name })
		if i < 0 {
			t.Errorf("codex does not list %s", s.Name)
			continue
		}
		got := listed[i].Transport
		switch s.Kind {
		case hostcfg.Stdio:
			want := append([]string{"proxy", "--profile", "hosts-e2e", "--state-dir", stateDirOf(environ), "--host=codex", "--name=" + s.Name, "--", s.Command}, s.Args...)
			if got.Command != bin || !slices.Equal(got.Args, want) {
				t.Errorf("codex reads %s as %q %q, want %q %q", s.Name, got.Command, got.Args, bin, want)
			}
		case hostcfg.Proxied:
			if got.Command != s.Command || !slices.Equal(got.Args, s.Args) {
				t.Errorf("codex reads the proxied %s as %q %q", s.Name, got.Command, got.Args)
			}
		case hostcfg.Remote:
			if got.URL != s.URL || got.Command != "" {
				t.Errorf("codex reads the remote %s as %+v", s.Name, got)
			}
		}
	}
}

// stateDirOf is rootpick's state folder in environ: the sandbox moves it
// with XDG_STATE_HOME, so hosts wrap passes it to the proxy as --state-dir.
func stateDirOf(environ []string) string {
	state := ""
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			state = v
		}
	}
	return filepath.Join(state, "rootpick")
}
