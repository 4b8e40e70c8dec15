package e2e

// The hosts issue 28 added, run themselves (npm, pinned in .ci/package.json
// and installed by .ci/run): each reads the file `rootpick hosts wrap`
// wrote, as the host's own `mcp add` or documentation writes it, and
// starts the proxy for each server; unwrap gives the file back byte for
// byte. Each test runs in parallel with the others: a host's CLI mostly
// waits (node's start, the server's answer), so CI pays for the longest
// one, not the sum.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/hostcfg"
)

// moreHostCLI is the host's CLI under .ci/node_modules (pkg, pinned in
// .ci/package.json), or skips in the group of the other host CLIs, which
// ROOTPICK_TEST_STRICT (CI) does not allow to skip.
func moreHostCLI(t *testing.T, bin, pkg string) string {
	t.Helper()
	return ciNodeModule(t, filepath.Join(".bin", bin), "host CLIs", pkg)
}

// hostFiles are the files named in files as they are on disk now.
func hostFiles(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(b)
	}
	return out
}

// proxyLogged reports whether a proxy of profile started and logged under
// the state folder: the host did start it.
func proxyLogged(t *testing.T, environ []string, profile string) bool {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(stateDirOf(environ), "proxy-"+profile+"-*.log"))
	return len(logs) > 0
}

// lastProxyRun is the log of the last start of a proxy of profile under
// the state folder: from its last "proxy start" on.
func lastProxyRun(t *testing.T, state, profile string) string {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(state, "proxy-"+profile+"-*.log"))
	var log string
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		log += string(b)
	}
	if i := strings.LastIndex(log, `msg="proxy start"`); i >= 0 {
		log = log[strings.LastIndex(log[:i], "\n")+1:]
	}
	return log
}

// TestHostsE2EOpenCode: opencode 1.18.33's `opencode mcp list` reads the
// project's opencode.json and opencode.jsonc and the user's opencode.json
// (written as opencode's documentation writes them: its `mcp add` asks
// for a local server's command on a terminal), with the command arrays
// wrap rewrote, starts the proxy for each and finds it connected.
func TestHostsE2EOpenCode(t *testing.T) {
	t.Parallel()
	cli := moreHostCLI(t, "opencode", "opencode-ai@1.18.33")
	bin := rootpickBin(t)
	q := hostcfg.Quote
	home, project, environ := hostCLISandbox(t)
	_ = home
	files := map[string]string{
		filepath.Join(project, "opencode.json"): `{
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "demo": {"type": "local", "command": [` + q(bin) + `, "serve-demo"], "enabled": true},
    "remote": {"type": "remote", "url": "http://127.0.0.1:9/mcp", "enabled": false}
  }
}
`,
		filepath.Join(project, "opencode.jsonc"): `{
  "$schema": "https://opencode.ai/config.json",
  // JSONC: comments and trailing commas
  "mcp": {
    "demo-jsonc": {"type": "local", "command": [` + q(bin) + `, "serve-demo", "--record", "/dev/null",],},
  },
}
`,
		filepath.Join(home, ".config", "opencode", "opencode.json"): `{
  "mcp": {
    "demo-user": {
      "type": "local",
      "command": [
        ` + q(bin) + `,
        "serve-demo",
        "--record",
        "/dev/null"
      ]
    }
  }
}
`,
	}
	state := stateDirOf(environ)
	for name, text := range files {
		writeFile(t, name, text)
	}
	// opencode adds "$schema" to the user's file when it runs: the
	// original is the file as opencode keeps it.
	runIn(t, project, environ, cli, "mcp", "list")
	files = hostFiles(t, files)
	runIn(t, project, environ, bin, "hosts", "wrap", "opencode", "--yes", "--profile", "hosts-e2e")
	out := runIn(t, project, environ, cli, "mcp", "list")
	t.Logf("opencode mcp list:\n%s", out)
	for _, name := range []string{"demo", "demo-user", "demo-jsonc"} {
		found := false
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "✓ "+name+" ") && strings.Contains(l, "connected") {
				found = true
			}
		}
		if !found {
			t.Errorf("opencode mcp list does not find %s connected", name)
		}
	}
	for _, w := range []string{
		// The project's files: rootpick by name, no state folder; the
		// user's: this executable and the state folder.
		"rootpick proxy --profile hosts-e2e --host=opencode-project --name=demo -- " + bin + " serve-demo",
		"rootpick proxy --profile hosts-e2e --host=opencode-project --name=demo-jsonc -- " + bin + " serve-demo --record /dev/null",
		bin + " proxy --profile hosts-e2e --state-dir " + state + " --host=opencode --name=demo-user -- " + bin + " serve-demo --record /dev/null",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("opencode mcp list lacks %q", w)
		}
	}
	if !proxyLogged(t, environ, "hosts-e2e") {
		t.Error("no proxy log: opencode did not start the proxy")
	}
	unwrapRestores(t, project, environ, bin, "opencode", files)
}

// TestHostsE2EQwenCode: Qwen Code 0.24.4's `qwen mcp list` reads the
// settings wrap wrote, the user's (a server added with `qwen mcp add`
// beside one written with a comment) and the project's, starts the proxy
// and finds it connected.
func TestHostsE2EQwenCode(t *testing.T) {
	t.Parallel()
	cli := moreHostCLI(t, "qwen", "@qwen-code/qwen-code@0.24.4")
	bin := rootpickBin(t)
	q := hostcfg.Quote
	home, project, environ := hostCLISandbox(t)
	state := stateDirOf(environ)
	files := map[string]string{
		filepath.Join(home, ".qwen", "settings.json"): `{
  // the user's servers
  "mcpServers": {
    "demo-user": {"command": ` + q(bin) + `, "args": ["serve-demo"]},
    "remote": {"httpUrl": "http://127.0.0.1:9/mcp"}
  }
}
`,
		filepath.Join(project, ".qwen", "settings.json"): `{
  "mcpServers": {
    "demo": {"command": ` + q(bin) + `, "args": ["serve-demo", "a b"]}
  }
}
`,
	}
	for name, text := range files {
		writeFile(t, name, text)
	}
	// Qwen Code, as Gemini CLI, starts no project server in an
	// untrusted folder.
	writeFile(t, filepath.Join(home, ".qwen", "trustedFolders.json"), `{`+jsonQuote(project)+`: "TRUST_FOLDER"}`)
	// The host's own mcp add, into the user's file with the comment.
	runIn(t, project, environ, cli, "mcp", "add", "-s", "user", "added", bin, "serve-demo", "--record", "/dev/null")
	// Qwen Code adds "$version" to settings files when it runs: the
	// originals are the files as it keeps them.
	runIn(t, project, environ, cli, "mcp", "list")
	files = hostFiles(t, files)
	if !strings.Contains(files[filepath.Join(home, ".qwen", "settings.json")], "// the user's servers") {
		t.Fatalf("qwen mcp add dropped the comment:\n%s", files[filepath.Join(home, ".qwen", "settings.json")])
	}
	runIn(t, project, environ, bin, "hosts", "wrap", "qwen", "--yes", "--profile", "hosts-e2e")
	out := runIn(t, project, environ, cli, "mcp", "list")
	t.Logf("qwen mcp list:\n%s", out)
	for _, w := range []string{
		"demo-user: " + bin + " proxy --profile hosts-e2e --state-dir " + state + " --host=qwen --name=demo-user -- " + bin + " serve-demo (stdio) - Connected",
		"added: " + bin + " proxy --profile hosts-e2e --state-dir " + state + " --host=qwen --name=added -- " + bin + " serve-demo --record /dev/null (stdio) - Connected",
		// A project's server waits for the person's approval in mcp
		// list, wrapped or not.
		"demo: rootpick proxy --profile hosts-e2e --host=qwen-project --name=demo -- " + bin + " serve-demo a b (stdio) - ",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("qwen mcp list lacks %q", w)
		}
	}
	if !proxyLogged(t, environ, "hosts-e2e") {
		t.Error("no proxy log: Qwen Code did not start the proxy")
	}
	unwrapRestores(t, project, environ, bin, "qwen", files)
}

// TestHostsE2ECopilotCLI: GitHub Copilot CLI 1.0.102's `copilot mcp list`
// and `mcp get` read ~/.copilot/mcp-config.json as wrap wrote it (type
// local kept, the proxy's command line), for a server written as its
// documentation shows and one its own `mcp add` wrote. Its mcp commands
// do not connect (a session needs a GitHub account): that is not tested.
func TestHostsE2ECopilotCLI(t *testing.T) {
	t.Parallel()
	cli := moreHostCLI(t, "copilot", "@github/copilot@1.0.102")
	bin := rootpickBin(t)
	q := hostcfg.Quote
	home, project, environ := hostCLISandbox(t)
	state := stateDirOf(environ)
	file := filepath.Join(home, ".copilot", "mcp-config.json")
	text := `{
  "mcpServers": {
    "demo": {
      "type": "local",
      "command": ` + q(bin) + `,
      "args": ["serve-demo"],
      "tools": ["*"]
    },
    "remote": {"type": "http", "url": "http://127.0.0.1:9/mcp", "tools": ["*"]}
  }
}
`
	writeFile(t, file, text)
	// The host's own mcp add, into the same file; the original is the
	// file as it wrote it.
	runIn(t, project, environ, cli, "mcp", "add", "added", "--", bin, "serve-demo", "--record", "/dev/null")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text = string(b)
	runIn(t, project, environ, bin, "hosts", "wrap", "copilot", "--yes", "--profile", "hosts-e2e")
	out := runIn(t, project, environ, cli, "mcp", "list")
	t.Logf("copilot mcp list:\n%s", out)
	for _, w := range []string{"demo (local)", "added (local)"} {
		if !strings.Contains(out, w) {
			t.Errorf("copilot mcp list lacks %s", w)
		}
	}
	out = runIn(t, project, environ, cli, "mcp", "get", "demo")
	t.Logf("copilot mcp get demo:\n%s", out)
	if w := "Command: " + bin + " proxy --profile hosts-e2e --state-dir " + state + " --host=copilot --name=demo -- " + bin + " serve-demo"; !strings.Contains(out, w) {
		t.Errorf("copilot mcp get demo lacks %q", w)
	}
	out = runIn(t, project, environ, cli, "mcp", "get", "added")
	t.Logf("copilot mcp get added:\n%s", out)
	if w := "Command: " + bin + " proxy --profile hosts-e2e --state-dir " + state + " --host=copilot --name=added -- " + bin + " serve-demo --record /dev/null"; !strings.Contains(out, w) {
		t.Errorf("copilot mcp get added lacks %q", w)
	}
	unwrapRestores(t, project, environ, bin, "copilot", map[string]string{file: text})
}

// TestHostsE2EFolderArgMoreHosts: server-filesystem configured with a
// folder argument (beta) in opencode's file (as its documentation writes
// it) and Qwen Code's (by `qwen mcp add`) is wrapped (beta becomes
// {roots}); with alpha consented, the host connects through the proxy
// with {roots} where beta was, server-filesystem starts with a folder
// argument (alpha, the one consented) and, with opencode, which stays
// long enough, takes alpha's root alone, and the proxy, asking it
// (list_allowed_directories), finds it holds exactly the consent; unwrap
// gives the file back.
func TestHostsE2EFolderArgMoreHosts(t *testing.T) {
	t.Parallel()
	fs := npmPath(t, filepath.Join("@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	bin := rootpickBin(t)
	for _, host := range []string{"opencode", "qwen"} {
		t.Run(host, func(t *testing.T) {
			t.Parallel()
			pkg := map[string]string{"opencode": "opencode-ai@1.18.33", "qwen": "@qwen-code/qwen-code@0.24.4"}[host]
			cli := moreHostCLI(t, host, pkg)
			home, project, environ := hostCLISandbox(t)
			state := stateDirOf(environ)
			tree := makeRepos(t, mkdirAll(t, filepath.Join(filepath.Dir(home), "tree")), "alpha", "beta")
			alpha, beta := filepath.Join(tree, "alpha"), filepath.Join(tree, "beta")
			root, err := consent.NewRoot(alpha)
			if err != nil {
				t.Fatal(err)
			}
			store, _ := consent.OpenStoreIn(state, "real")
			if err := store.Save(consent.Record{Dir: tree, Roots: []consent.Root{root}, Time: time.Now()}); err != nil {
				t.Fatal(err)
			}
			var file, text string
			switch host {
			case "opencode":
				file = filepath.Join(project, "opencode.json")
				text = `{
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "fs": {"type": "local", "command": ["node", ` + jsonQuote(fs) + `, ` + jsonQuote(beta) + `]}
  }
}
`
			case "qwen":
				file = filepath.Join(home, ".qwen", "settings.json")
				runIn(t, project, environ, cli, "mcp", "add", "-s", "user", "--timeout", "120000", "fs", "node", fs, beta)
				// Qwen Code adds "$version" when it runs: the original is
				// the file as it keeps it.
				runIn(t, project, environ, cli, "mcp", "list")
				b, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				text = string(b)
			}
			writeFile(t, file, text)
			out := runIn(t, project, environ, bin, "hosts", "wrap", host, "--yes", "--profile", "real")
			if want := "fs: " + beta + " → {roots}: it will see only what you consent"; !strings.Contains(out, want) {
				t.Errorf("hosts wrap does not say %q:\n%s", want, out)
			}
			// opencode stays after initialize long enough for
			// server-filesystem to ask roots/list and for the proxy to
			// ask it what it then holds; on a loaded machine it may hang
			// up first (the host's timing, not rootpick's): then its list
			// is run again, up to 3 times. Qwen Code's hangs up right
			// after initialize: only the start with {roots} is checked.
			var log string
			for try := 1; ; try++ {
				start := time.Now()
				out = runIn(t, project, environ, cli, "mcp", "list")
				t.Logf("%s mcp list (%v):\n%s", host, time.Since(start), out)
				if !strings.Contains(out, "--orig-arg "+beta+" -- node "+fs+" {roots}") || !strings.Contains(strings.ToLower(out), "connected") || strings.Contains(out, "Disconnected") {
					t.Errorf("%s does not report the wrapped server connected through the proxy", host)
				}
				log = lastProxyRun(t, state, "real")
				if host != "opencode" || try == 3 || strings.Contains(log, "the server holds something else than the consent") ||
					strings.Contains(log, "Updated allowed directories from MCP roots") && !strings.Contains(log, "asking what the server holds failed") {
					break
				}
				t.Logf("opencode hung up before the server took its roots and was asked what it holds; again. The proxy's log:\n%s", log)
			}
			// server-filesystem's own words: it started with a folder
			// argument ({roots}: alpha), not without one.
			if strings.Contains(log, "Started without allowed directories") || !strings.Contains(log, "Secure MCP Filesystem Server running on stdio") {
				t.Errorf("server-filesystem was not started with alpha by {roots}; the proxy's log:\n%s", log)
			}
			if host == "opencode" {
				if !strings.Contains(log, "Updated allowed directories from MCP roots: 1 valid directories") {
					t.Errorf("server-filesystem did not take alpha's root; the proxy's log:\n%s", log)
				}
				// After the fetch the proxy asks server-filesystem what
				// it holds (list_allowed_directories); a difference from
				// the consent is logged as a warning, and so is a
				// question it could not ask.
				for _, bad := range []string{"the server holds something else than the consent", "asking what the server holds failed"} {
					if strings.Contains(log, bad) {
						t.Errorf("the proxy says %q; its log:\n%s", bad, log)
					}
				}
			}
			runIn(t, project, environ, bin, "hosts", "unwrap", host, "--yes")
			if back, _ := os.ReadFile(file); string(back) != text {
				t.Errorf("after unwrap:\n%s\nwant:\n%s", back, text)
			}
		})
	}
}
