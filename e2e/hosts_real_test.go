package e2e

// Real agent hosts (npm, pinned in .ci/package.json) adding rootpick proxy
// in front of server-filesystem with their own `mcp add`, then connecting
// to it with their own `mcp list`: the host must report the server
// connected, and server-filesystem must say it took exactly the consented
// folders.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
)

// TestE2ERealHostsThroughProxy: Claude Code 2.1.328 (which opens with
// server/discover, 2026-07-28, and falls back to initialize) and Gemini
// CLI 0.61.0 (whose SDK speaks at most 2025-06-18) each connect through
// the proxy, and the server behind it takes the one consented folder of
// two; with no consent, the host still connects and the server takes
// none.
func TestE2ERealHostsThroughProxy(t *testing.T) {
	fs := npmPath(t, filepath.Join("@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	bin := rootpickBin(t)
	for _, host := range []string{"claude", "gemini"} {
		for _, consented := range []bool{true, false} {
			name := host + "/consent"
			if !consented {
				name = host + "/no-consent"
			}
			t.Run(name, func(t *testing.T) {
				cli := hostCLI(t, host)
				home, project, environ := hostCLISandbox(t)
				state := stateDirOf(environ)
				tree := makeRepos(t, mkdirAll(t, filepath.Join(filepath.Dir(home), "tree")), "alpha", "beta")
				if consented {
					alpha, err := consent.NewRoot(filepath.Join(tree, "alpha"))
					if err != nil {
						t.Fatal(err)
					}
					store, _ := consent.OpenStoreIn(state, "real")
					if err := store.Save(consent.Record{Dir: tree, Roots: []consent.Root{alpha}, Time: time.Now()}); err != nil {
						t.Fatal(err)
					}
				}
				// Each host gives a server a few seconds to connect (Gemini
				// CLI's mcp list 5 s): under load (go test -race twice at
				// once on 2 cores) starting node behind the proxy takes
				// longer, so the test gives both the longer wait a person
				// on a slow machine would set.
				environ = append(environ, "MCP_TIMEOUT=120000")
				args := []string{"proxy", "--profile", "real", "--state-dir", state, "--debug", "--", "node", fs}
				switch host {
				case "claude":
					spec, _ := json.Marshal(map[string]any{"command": bin, "args": args})
					runIn(t, project, environ, cli, "mcp", "add-json", "-s", "user", "rp", string(spec))
				case "gemini":
					// Gemini trusts no folder by default, and starts no
					// server in an untrusted one.
					writeFile(t, filepath.Join(home, ".gemini", "trustedFolders.json"), `{`+jsonQuote(project)+`: "TRUST_FOLDER"}`)
					// Gemini's own options (--debug, --) are read anywhere
					// before a "--": one after the command keeps the
					// proxy's flags the proxy's.
					runIn(t, project, environ, cli, append([]string{"mcp", "add", "-s", "user", "--timeout", "120000", "rp", bin, "--"}, args...)...)
				}
				start := time.Now()
				out := runIn(t, project, environ, cli, "mcp", "list")
				took := time.Since(start)
				t.Logf("%s mcp list (%v):\n%s", host, took, out)
				line := ""
				for _, l := range strings.Split(out, "\n") {
					if strings.Contains(l, "rp") && strings.Contains(l, "proxy") {
						line = l
					}
				}
				if !strings.Contains(line, "Connected") || strings.Contains(line, "Disconnected") {
					t.Fatalf("%s does not report the proxied server connected: %q", host, line)
				}
				// server-filesystem's own words, in the proxy's log.
				logs, _ := filepath.Glob(filepath.Join(state, "proxy-real-*.log"))
				var text string
				for _, l := range logs {
					b, _ := os.ReadFile(l)
					text += string(b)
				}
				want := "Updated allowed directories from MCP roots: 1 valid directories"
				if !consented {
					want = "No valid root directories provided by client"
				}
				if !strings.Contains(text, want) {
					t.Fatalf("server-filesystem did not say %q; the proxy's log:\n%s", want, text)
				}
				if consented && strings.Contains(text, "2 valid directories") {
					t.Errorf("server-filesystem took more than the consent:\n%s", text)
				}
				// Which folder: the proxy's own words (--debug).
				answered := ""
				for _, l := range strings.Split(text, "\n") {
					if strings.Contains(l, "roots/list answered") {
						answered = l
					}
				}
				alpha, beta := consent.PathToURI(filepath.Join(tree, "alpha")), consent.PathToURI(filepath.Join(tree, "beta"))
				if consented != strings.Contains(answered, alpha) || strings.Contains(answered, beta) {
					t.Errorf("the proxy's last answer to roots/list: %q; want alpha only if consented, never beta", answered)
				}
			})
		}
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestHostsE2EWrapFolderArg: server-filesystem configured the usual way,
// with a folder argument (beta), is put behind the proxy by `rootpick
// hosts wrap`; Claude Code's and Gemini CLI's own `mcp list` read the
// wrapped entry (beta kept after --orig-arg, {roots} in its place) and
// report the server connected through the proxy; server-filesystem starts
// with the consented folder (alpha) as its argument, or with none when
// nothing is consented, and never with beta; `hosts unwrap` gives the file
// back byte for byte.
func TestHostsE2EWrapFolderArg(t *testing.T) {
	fs := npmPath(t, filepath.Join("@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	bin := rootpickBin(t)
	for _, host := range []string{"claude", "gemini"} {
		for _, consented := range []bool{true, false} {
			name := host + "/consent"
			if !consented {
				name = host + "/no-consent"
			}
			t.Run(name, func(t *testing.T) {
				cli := hostCLI(t, host)
				home, project, environ := hostCLISandbox(t)
				state := stateDirOf(environ)
				tree := makeRepos(t, mkdirAll(t, filepath.Join(filepath.Dir(home), "tree")), "alpha", "beta")
				alpha, beta := filepath.Join(tree, "alpha"), filepath.Join(tree, "beta")
				if consented {
					root, err := consent.NewRoot(alpha)
					if err != nil {
						t.Fatal(err)
					}
					store, _ := consent.OpenStoreIn(state, "real")
					if err := store.Save(consent.Record{Dir: tree, Roots: []consent.Root{root}, Time: time.Now()}); err != nil {
						t.Fatal(err)
					}
				}
				environ = append(environ, "MCP_TIMEOUT=120000")
				// Claude Code: the project's .mcp.json (it rewrites
				// ~/.claude.json as it runs), approved as `claude` would.
				project, _ = filepath.EvalSymlinks(project)
				file := filepath.Join(project, ".mcp.json")
				writeFile(t, filepath.Join(home, ".claude.json"), `{"projects": {`+jsonQuote(project)+`: {"enabledMcpjsonServers": ["fs"], "hasTrustDialogAccepted": true}}}`)
				text := `{
  "mcpServers": {
    "fs": {"type": "stdio", "command": "node", "args": [` + jsonQuote(fs) + `, ` + jsonQuote(beta) + `], "env": {}}
  }
}
`
				if host == "gemini" {
					file = filepath.Join(home, ".gemini", "settings.json")
					text = strings.Replace(text, `"type": "stdio", `, "", 1)
					text = strings.Replace(text, `"env": {}`, `"timeout": 120000`, 1)
					writeFile(t, filepath.Join(home, ".gemini", "trustedFolders.json"), `{`+jsonQuote(project)+`: "TRUST_FOLDER"}`)
				}
				writeFile(t, file, text)
				out := runIn(t, project, environ, bin, "hosts", "wrap", host, "--yes", "--profile", "real")
				if want := "fs: " + beta + " → {roots}: it will see only what you consent"; !strings.Contains(out, want) {
					t.Errorf("hosts wrap does not say %q:\n%s", want, out)
				}
				wrapped, _ := os.ReadFile(file)
				if !strings.Contains(string(wrapped), `"--orig-arg", `+jsonQuote(beta)+`, "--", "node", `+jsonQuote(fs)+`, "{roots}"]`) {
					t.Fatalf("the wrapped file:\n%s", wrapped)
				}
				start := time.Now()
				out = runIn(t, project, environ, cli, "mcp", "list")
				t.Logf("%s mcp list (%v):\n%s", host, time.Since(start), out)
				line := ""
				for _, l := range strings.Split(out, "\n") {
					if strings.HasPrefix(strings.TrimLeft(l, " ✓✗●"), "fs: ") || strings.Contains(l, "fs: "+bin) {
						line = l
					}
				}
				if !strings.Contains(line, "proxy") || !strings.Contains(line, "{roots}") || !strings.Contains(line, "Connected") || strings.Contains(line, "Disconnected") {
					t.Fatalf("%s does not report the wrapped server connected through the proxy: %q", host, line)
				}
				logs, _ := filepath.Glob(filepath.Join(state, "proxy-real-*.log"))
				var log string
				for _, l := range logs {
					b, _ := os.ReadFile(l)
					log += string(b)
				}
				// server-filesystem's own words: with no consent it started
				// with no folder argument (beta was one), and with alpha
				// consented it started with one ({roots}) and took alpha's
				// root.
				started := "Started without allowed directories"
				if !consented && !strings.Contains(log, started) {
					t.Errorf("server-filesystem did not say %q: it was given a folder argument; the proxy's log:\n%s", started, log)
				}
				if consented && (strings.Contains(log, started) || !strings.Contains(log, "Updated allowed directories from MCP roots: 1 valid directories")) {
					t.Errorf("server-filesystem was not given alpha by {roots}; the proxy's log:\n%s", log)
				}
				runIn(t, project, environ, bin, "hosts", "unwrap", host, "--yes")
				if back, _ := os.ReadFile(file); string(back) != text {
					t.Errorf("after unwrap:\n%s\nwant:\n%s", back, text)
				}
			})
		}
	}
}
