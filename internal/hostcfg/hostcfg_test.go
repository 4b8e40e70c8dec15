package hostcfg

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// testProxy is how the tests wrap: a path with a space and a profile.
var testProxy = Proxy{Exe: "/opt/root pick/bin/rootpick", Profile: "hosts-test"}

// fixtureRootpick are the paths the fixtures' proxied entries give this
// rootpick, and the one the tests wrap with: none of them exists here, so
// they are this rootpick as written, as hosts.go passes its own paths.
var fixtureRootpick = []string{"/usr/local/bin/rootpick", "rootpick", "/home/someone/bin/rootpick", testProxy.Exe}

// fixture is one configuration file under testdata, with what each of its
// servers is.
type fixture struct {
	host, scope, path string
	kinds             map[string]Kind
	// noArgs are the stdio servers written without args: after wrap and
	// unwrap they have "args: []", the one change a round trip makes.
	noArgs []string
}

var fixtures = []fixture{
	{Claude, "project", "project/.mcp.json", map[string]Kind{"filesystem": Stdio, "notion": Remote, "git": Proxied, "time": Stdio}, []string{"time"}},
	{Claude, "user", "home/.claude.json", map[string]Kind{"everything": Stdio, "sentry": Remote, "memory": Stdio}, nil},
	{VSCode, "project", "project/.vscode/mcp.json", map[string]Kind{"filesystem": Stdio, "github": Remote, "legacy": Remote, "fetch": Stdio, "git": Proxied}, nil},
	{Cursor, "project", "project/.cursor/mcp.json", map[string]Kind{"sqlite": Stdio, "fs": Stdio, "context7": Remote}, nil},
	{Cursor, "user", "home/.cursor/mcp.json", map[string]Kind{"playwright": Stdio, "echo": Stdio}, []string{"echo"}},
	{Gemini, "user", "home/.gemini/settings.json", map[string]Kind{"pythonTools": Stdio, "files": Stdio, "httpServer": Remote, "sseServer": Remote, "rp": Proxied}, nil},
	{Gemini, "project", "project/.gemini/settings.json", map[string]Kind{"nodeServer": Stdio}, nil},
	{Codex, "user", "home/.codex/config.toml", map[string]Kind{"context7": Stdio, "docs": Stdio, "figma": Remote, "git": Proxied, "time": Stdio, "inline": Stdio, "noargs-inline": Stdio, "dotted": Stdio}, []string{"time", "noargs-inline"}},
	{Codex, "project", "project/.codex/config.toml", map[string]Kind{"my server": Stdio}, nil},
	{Goose, "user", "home/.config/goose/config.yaml", map[string]Kind{"developer": Other, "github": Stdio, "filesystem": Stdio, "remote-tools": Remote, "memory": Stdio, "notes": Stdio, "git": Proxied}, []string{"memory"}},
	{Copilot, "user", "home/.copilot/mcp-config.json", map[string]Kind{"playwright": Stdio, "memory": Stdio, "context7": Remote, "git": Proxied}, nil},
	{Qwen, "user", "home/.qwen/settings.json", map[string]Kind{"pythonTools": Stdio, "httpServer": Remote}, nil},
	{Qwen, "project", "project/.qwen/settings.json", map[string]Kind{"nodeServer": Stdio}, nil},
	{Crush, "project", "project/.crush.json", map[string]Kind{"filesystem": Stdio, "github": Remote, "streaming": Remote}, nil},
	{Crush, "project", "project/crush.json", map[string]Kind{"git": Stdio}, nil},
	{Crush, "user", "home/.config/crush/crush.json", map[string]Kind{"time": Stdio, "echo": Stdio}, []string{"echo"}},
	{ClaudeDesktop, "user", "home/.config/Claude/claude_desktop_config.json", map[string]Kind{"filesystem": Stdio, "sqlite": Stdio}, nil},
	{Windsurf, "user", "home/.codeium/windsurf/mcp_config.json", map[string]Kind{"github": Stdio, "zapier": Remote, "ollama": Stdio}, nil},
	{OpenCode, "project", "project/opencode.json", map[string]Kind{"mcp_everything": Stdio, "my-local-mcp-server": Stdio, "bare": Stdio, "my-remote-mcp": Remote}, nil},
	{OpenCode, "user", "home/.config/opencode/opencode.json", map[string]Kind{"git": Stdio, "wrapped": Proxied, "odd": Other}, nil},
	{OpenCode, "project", "project/opencode.jsonc", map[string]Kind{"mcp_everything": Stdio}, nil},
	{OpenCode, "user", "home/.config/opencode/opencode.jsonc", map[string]Kind{"fetch": Stdio, "off": Stdio}, nil},
	{Zed, "user", "home/.config/zed/settings.json", map[string]Kind{"local-mcp-server": Stdio, "remote-mcp-server": Remote, "mcp-server-github": Other, "old": Other}, nil},
	{Zed, "project", "project/.zed/settings.json", map[string]Kind{"mcp-local-server": Stdio}, nil},
	{Cline, "user", "home/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json", map[string]Kind{"local-server": Stdio, "remote-server": Remote, "legacy-sse": Remote}, nil},
	{Continue, "user", "home/.continue/config.yaml", map[string]Kind{"SQLite MCP": Stdio, "Playwright": Stdio, "Remote": Remote, "Time": Stdio}, nil},
	{LMStudio, "user", "home/.lmstudio/mcp.json", map[string]Kind{"hf-mcp-server": Remote, "filesystem": Stdio}, nil},
	{AmazonQ, "user", "home/.aws/amazonq/mcp.json", map[string]Kind{"awslabs.cdk-mcp-server": Stdio}, nil},
	{AmazonQ, "project", "project/.amazonq/mcp.json", map[string]Kind{"git": Stdio}, nil},
	{KiloCode, "project", "project/.kilocode/mcp.json", map[string]Kind{"local-server": Stdio, "remote-server": Remote}, nil},
	{KiloCode, "user", "home/.kilocode/cli/global/settings/mcp_settings.json", map[string]Kind{"server-name": Stdio}, nil},
	{Junie, "user", "home/.junie/mcp/mcp.json", map[string]Kind{"playwright": Stdio, "filesystem": Stdio}, nil},
	{Junie, "project", "project/.junie/mcp/mcp.json", map[string]Kind{"vaadin": Stdio, "docs": Remote}, nil},
	{Kiro, "user", "home/.kiro/settings/mcp.json", map[string]Kind{"fetch": Stdio}, nil},
	{Kiro, "project", "project/.kiro/settings/mcp.json", map[string]Kind{"aws-docs": Stdio, "api-server": Remote}, nil},
	{VSCode, "user", "home/.config/Code/User/mcp.json", map[string]Kind{"memory": Stdio, "github": Remote, "files": Stdio}, nil},
	{VSCode, "user", "home/.vscode-server/data/User/mcp.json", map[string]Kind{"time": Stdio}, nil},
	{VSCodeInsiders, "user", "home/.config/Code - Insiders/User/mcp.json", map[string]Kind{"playwright": Stdio, "docs": Remote}, nil},
	{Copilot, "project", "project/.github/mcp.json", map[string]Kind{"fs": Stdio}, nil},
	{RooCode, "project", "project/.roo/mcp.json", map[string]Kind{"local-server": Stdio, "modern-remote-server": Remote}, nil},
	{RooCode, "user", "home/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json", map[string]Kind{"puppeteer": Stdio, "legacy-remote-server": Remote}, nil},
	{Amp, "project", "project/.amp/settings.json", map[string]Kind{"wsfs": Stdio}, nil},
	{Amp, "user", "home/.config/amp/settings.json", map[string]Kind{"playwright": Stdio, "sourcegraph": Remote, "semgrep": Stdio}, nil},
	{Amp, "user", "home/.config/Code/User/settings.json", map[string]Kind{"context7": Stdio}, nil},
	{Amp, "user", "home/.config/Cursor/User/settings.json", map[string]Kind{"memory": Stdio, "linear": Remote}, nil},
	{Amp, "user", "home/.config/Windsurf/User/settings.json", map[string]Kind{"everything": Stdio}, []string{"everything"}},
	{Trae, "project", "project/.trae/mcp.json", map[string]Kind{"your-mcp-name": Stdio, "remote-service": Remote}, nil},
	{Trae, "user", "home/.config/Trae/User/mcp.json", map[string]Kind{"Puppeteer": Stdio}, nil},
	{Antigravity, "user", "home/.gemini/antigravity/mcp_config.json", map[string]Kind{"sequential-thinking": Stdio, "remote-docs": Remote}, nil},
	{WindsurfJetBrains, "user", "home/.codeium/mcp_config.json", map[string]Kind{"git": Stdio, "figma": Remote}, nil},
	{Kimi, "user", "home/.kimi/mcp.json", map[string]Kind{"context7": Remote, "chrome-devtools": Stdio}, nil},
	{Factory, "project", "project/.factory/mcp.json", map[string]Kind{"playwright": Stdio}, nil},
	{Factory, "user", "home/.factory/mcp.json", map[string]Kind{"linear": Remote, "sqlite": Stdio}, nil},
	{Kimi, "project", "project/.kimi-code/mcp.json", map[string]Kind{"filesystem": Stdio, "linear": Remote}, nil},
	{Kimi, "user", "home/.kimi-code/mcp.json", map[string]Kind{"github": Stdio}, nil},
	{Auggie, "project", "project/.augment/settings.json", map[string]Kind{"pj": Stdio}, nil},
	{Auggie, "project", "project/.augment/settings.local.json", map[string]Kind{"remote-server": Remote, "mine": Stdio}, nil},
	{Auggie, "user", "home/.augment/settings.json", map[string]Kind{"fs": Stdio}, nil},
	{MistralVibe, "user", "home/.vibe/config.toml", map[string]Kind{"my_http_server": Remote, "my_streamable_server": Remote, "fetch_server": Stdio, "git": Stdio}, nil},
	{MistralVibe, "project", "project/.vibe/config.toml", map[string]Kind{"time": Stdio, "everything": Stdio}, []string{"everything"}},
	{Qoder, "user", "home/.qoder/mcp.json", map[string]Kind{"fetch": Stdio}, nil},
	{Sema4, "user", "home/.sema4ai/sema4ai-studio/mcp_servers.json", map[string]Kind{"time": Stdio}, nil},
}

func (fx fixture) load(t *testing.T) *Config {
	t.Helper()
	f, ok := FileFor(fx.host, fx.scope, filepath.Join("testdata", fx.path))
	if !ok {
		t.Fatalf("no file for %s %s", fx.host, fx.scope)
	}
	f.Rootpick = fixtureRootpick
	c, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wrappable are the indexes of the servers CanWrap accepts, leaving out
// those named in skip.
func wrappable(c *Config, skip ...string) []int {
	var out []int
	for i, s := range c.Servers {
		if ok, _ := s.CanWrap(); ok && !slices.Contains(skip, s.Name) {
			out = append(out, i)
		}
	}
	return out
}

// indexesOf are the indexes of the servers named.
func indexesOf(c *Config, names ...string) []int {
	var out []int
	for i, s := range c.Servers {
		if slices.Contains(names, s.Name) {
			out = append(out, i)
		}
	}
	return out
}

// decodedEntry is the entry of server s in data, decoded with the format's
// own decoder (encoding/json, go-toml's decoder, goccy/go-yaml), not by the
// parser that located it.
func decodedEntry(t *testing.T, c *Config, data []byte, s Server) map[string]any {
	t.Helper()
	tree, err := decode(c.File.format, data)
	if err != nil {
		t.Fatalf("%s does not decode: %v\n%s", c.File.Path, err, data)
	}
	e, ok := lookup(tree, s.loc.path).(map[string]any)
	if !ok {
		t.Fatalf("%s: no entry at %q", s.Name, s.loc.path)
	}
	return e
}

func strs(v any) []string {
	l, _ := v.([]any)
	out := []string{}
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}

// TestHostsFixtures: each fixture's servers are found with their kinds;
// wrapping them gives a file the format's decoder reads with exactly the
// proxy's command line in each, and everything else as it was; wrapping
// again changes nothing; unwrapping gives back the original bytes.
func TestHostsFixtures(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.path, func(t *testing.T) {
			c := fx.load(t)
			// The original as on disk, read apart from c: c.Data must
			// never change, and a comparison with it would not see it.
			orig, err := os.ReadFile(c.File.Path)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if !bytes.Equal(c.Data, orig) {
					t.Errorf("Config.Data was changed in place")
				}
			}()
			got := map[string]Kind{}
			for _, s := range c.Servers {
				got[s.Name] = s.Kind
			}
			if !reflect.DeepEqual(got, fx.kinds) {
				t.Fatalf("servers %v, want %v", got, fx.kinds)
			}

			which := wrappable(c)
			wrapped, err := c.Wrap(which, testProxy)
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range which {
				s := c.Servers[i]
				e := decodedEntry(t, c, wrapped, s)
				want := append(append(wantFlags(testProxy, c.File, s.Name), "--", s.Command), s.Args...)
				exe := testProxy.For(c.File).Exe
				if s.loc.inline {
					// OpenCode: one array, the command first.
					if got := strs(e[s.loc.commandKey]); !slices.Equal(got, append([]string{exe}, want...)) || e["args"] != nil {
						t.Errorf("%s wrapped: %q args %v, want %q", s.Name, got, e["args"], append([]string{exe}, want...))
					}
					continue
				}
				if e[s.loc.commandKey] != exe || !slices.Equal(strs(e["args"]), want) {
					t.Errorf("%s wrapped: %v %q, want %v %q", s.Name, e[s.loc.commandKey], strs(e["args"]), exe, want)
				}
			}
			t.Logf("wrapped:\n%s", Diff("a", "b", c.Data, wrapped))

			// Wrapping twice is wrapping once: nothing is left to wrap.
			c2, err := Parse(c.File, wrapped)
			if err != nil {
				t.Fatal(err)
			}
			if w := wrappable(c2); len(w) != 0 {
				t.Errorf("after wrapping, %d servers would be wrapped again", len(w))
			}
			for _, i := range which {
				if s := c2.Servers[i]; s.Kind != Proxied || s.Profile != "hosts-test" || !slices.Equal(s.Behind, append([]string{c.Servers[i].Command}, c.Servers[i].Args...)) {
					t.Errorf("%s after wrapping: %v profile %q behind %q", s.Name, s.Kind, s.Profile, s.Behind)
				}
				if _, err := c2.Wrap([]int{i}, testProxy); err == nil {
					t.Errorf("%s: Wrap accepts a server already wrapped", c2.Servers[i].Name)
				}
			}

			// Unwrap what was wrapped: the original bytes.
			back, err := c2.Unwrap(which)
			if err != nil {
				t.Fatal(err)
			}
			if fx.noArgs == nil && !bytes.Equal(back, orig) {
				t.Fatalf("wrap then unwrap is not the original:\n%s", Diff("original", "unwrapped", orig, back))
			}
			if fx.noArgs != nil {
				// Without the servers that had no args: byte for byte.
				w2, err := c.Wrap(wrappable(c, fx.noArgs...), testProxy)
				if err != nil {
					t.Fatal(err)
				}
				c3, _ := Parse(c.File, w2)
				b2, err := c3.Unwrap(wrappable(c, fx.noArgs...))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b2, orig) {
					t.Fatalf("wrap then unwrap is not the original:\n%s", Diff("original", "unwrapped", orig, b2))
				}
				// With them: the same file but for an empty args each.
				for _, i := range indexesOf(c, fx.noArgs...) {
					s := c.Servers[i]
					if e := decodedEntry(t, c, back, s); e[s.loc.commandKey] != s.Command || len(strs(e["args"])) != 0 || e["args"] == nil {
						t.Errorf("%s after wrap and unwrap: %v", s.Name, e)
					}
				}
			}
		})
	}
}

// TestHostsUnwrapProxied: an entry that already ran through the proxy when
// found is unwrapped to the command after the proxy's flags.
func TestHostsUnwrapProxied(t *testing.T) {
	for _, fx := range fixtures {
		for name, kind := range fx.kinds {
			if kind != Proxied {
				continue
			}
			c := fx.load(t)
			i := indexesOf(c, name)[0]
			s := c.Servers[i]
			out, err := c.Unwrap([]int{i})
			if err != nil {
				t.Fatalf("%s %s: %v", fx.path, name, err)
			}
			e := decodedEntry(t, c, out, s)
			if s.loc.inline {
				if got := strs(e[s.loc.commandKey]); !slices.Equal(got, s.Behind) {
					t.Errorf("%s %s unwrapped: %q, want %q", fx.path, name, got, s.Behind)
				}
				continue
			}
			if e[s.loc.commandKey] != s.Behind[0] || !slices.Equal(strs(e["args"]), s.Behind[1:]) {
				t.Errorf("%s %s unwrapped: %v %q, want %q", fx.path, name, e[s.loc.commandKey], strs(e["args"]), s.Behind)
			}
		}
	}
}

// TestHostsRemoteRefused: a remote server is never wrapped, and says why.
func TestHostsRemoteRefused(t *testing.T) {
	for _, fx := range fixtures {
		c := fx.load(t)
		for i, s := range c.Servers {
			if s.Kind != Remote {
				continue
			}
			ok, why := s.CanWrap()
			if ok || !strings.Contains(why, "stdio only") {
				t.Errorf("%s %s: CanWrap %v %q", fx.path, s.Name, ok, why)
			}
			if _, err := c.Wrap([]int{i}, testProxy); err == nil {
				t.Errorf("%s %s: Wrap accepted a remote server", fx.path, s.Name)
			}
		}
	}
}

// TestHostsWrapWithoutProfile: no --profile, the proxy's own default.
func TestHostsWrapWithoutProfile(t *testing.T) {
	c := fixtures[0].load(t)
	i := indexesOf(c, "filesystem")
	out, err := c.Wrap(i, Proxy{Exe: "rootpick"})
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := Parse(c.File, out)
	s := c2.Servers[i[0]]
	if s.Command != "rootpick" || !slices.Equal(s.Args[:4], []string{"proxy", "--host=claude-project", "--name=filesystem", "--"}) || s.Profile != "" {
		t.Errorf("wrapped as %q %q", s.Command, s.Args)
	}
}

func TestHostsParseProxy(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		profile  string
		at       int
		restored []string // nil: as the args from at
	}{
		{[]string{"proxy", "--", "npx", "-y"}, "", 2, nil},
		{[]string{"proxy", "--profile", "work", "--", "npx"}, "work", 4, nil},
		{[]string{"proxy", "--profile=work", "--debug", "npx", "--", "x"}, "work", 3, nil},
		{[]string{"proxy", "--protocol", "2025-06-18", "--state-dir", "/s", "srv"}, "", 5, nil},
		{[]string{"proxy", "--enforce=require", "--allow-read", "/r", "--allow-write=/w", "--", "srv"}, "", 6, nil},
		{[]string{"proxy", "--weird", "srv"}, "", -1, nil},
		{[]string{"proxy", "--profile"}, "", -1, nil},
		{[]string{"proxy", "--"}, "", -1, nil},
		{[]string{"serve-demo"}, "", -1, nil},
		// Folder arguments wrap replaced: one run of two, then one run
		// after --orig-next, and an empty group for a {roots} that was
		// there before wrap.
		{[]string{"proxy", "--orig-arg", "/a", "--orig-arg", "/b", "--", "fs", "{roots}"}, "", 6, []string{"fs", "/a", "/b"}},
		{[]string{"proxy", "--orig-arg", "/a", "--orig-next", "--orig-arg=/c", "--", "fs", "--x", "{roots}", "--y", "{roots}"}, "", 6, []string{"fs", "--x", "/a", "--y", "/c"}},
		{[]string{"proxy", "--orig-next", "--orig-arg", "/c", "--", "fs", "{roots}", "{roots}"}, "", 5, []string{"fs", "{roots}", "/c"}},
	} {
		l := parseProxy(tc.args)
		if l.profile != tc.profile || l.at != tc.at {
			t.Errorf("%q: %q %d, want %q %d", tc.args, l.profile, l.at, tc.profile, tc.at)
		}
		if l.at < 0 {
			continue
		}
		want := tc.restored
		if want == nil {
			want = tc.args[tc.at:]
		}
		if got, ok := l.restore(tc.args[l.at:]); !ok || !slices.Equal(got, want) {
			t.Errorf("%q restores %q %v, want %q", tc.args, got, ok, want)
		}
	}
	// Groups that do not match the {roots}: no guess.
	for _, args := range [][]string{
		{"proxy", "--orig-arg", "/a", "--", "fs"},
		{"proxy", "--orig-arg", "/a", "--", "fs", "{roots}", "{roots}"},
		{"proxy", "--orig-arg", "/a", "--orig-next", "--orig-arg", "/b", "--", "fs", "{roots}"},
	} {
		l := parseProxy(args)
		if got, ok := l.restore(args[l.at:]); ok {
			t.Errorf("%q restores %q", args, got)
		}
	}
}

// TestHostsQuote: quote's output reads back as the same string in all
// three formats, whatever the string holds.
func TestHostsQuote(t *testing.T) {
	for _, s := range []string{"plain", `a "b" \c`, "tab\tnew\nline\r", "\x00\x1b[31m\x7f\u0085\u2028\ufeff", "ünï 日本 ☃", "'single'", "#hash: colon, [x] {y}", ""} {
		q := Quote(s)
		for f, doc := range map[format]string{
			formatJSON: `{"k": ` + q + `}`,
			formatTOML: `k = ` + q,
			formatYAML: `k: ` + q,
		} {
			v, err := decode(f, []byte(doc))
			if err != nil {
				t.Errorf("%q as %d: %v\n%s", s, f, err, doc)
				continue
			}
			if got := v.(map[string]any)["k"]; got != s {
				t.Errorf("%q as %d reads back as %q", s, f, got)
			}
		}
	}
}

// TestHostsFiles: where each host's files are looked for.
func TestHostsFiles(t *testing.T) {
	env := map[string]string{"CLAUDE_CONFIG_DIR": "/cc", "CODEX_HOME": "relative/codex", "XDG_CONFIG_HOME": "/xdg"}
	files := Files(Places{Home: "/h", Project: "/p", Getenv: func(k string) string { return env[k] }})
	var got []string
	for _, f := range files {
		got = append(got, f.Host+" "+string(f.Scope)+" "+filepath.ToSlash(f.Path))
	}
	want := []string{
		"claude project /p/.mcp.json",
		"claude user /cc/.claude.json",
		"vscode project /p/.vscode/mcp.json",
		"vscode user /xdg/Code/User/mcp.json",
		"vscode user /h/.vscode-server/data/User/mcp.json",
		"cursor project /p/.cursor/mcp.json",
		"cursor user /h/.cursor/mcp.json",
		"gemini project /p/.gemini/settings.json",
		"gemini user /h/.gemini/settings.json",
		"codex project /p/.codex/config.toml",
		"codex user /h/.codex/config.toml", // a relative CODEX_HOME is not believed
		"goose user /xdg/goose/config.yaml",
		"copilot project /p/.github/mcp.json",
		"copilot user /h/.copilot/mcp-config.json",
		"qwen project /p/.qwen/settings.json",
		"qwen user /h/.qwen/settings.json",
		"crush project /p/.crush.json",
		"crush project /p/crush.json",
		"crush user /xdg/crush/crush.json",
		"claude-desktop user /xdg/Claude/claude_desktop_config.json",
		"windsurf user /h/.codeium/windsurf/mcp_config.json",
		"kiro project /p/.kiro/settings/mcp.json",
		"kiro user /h/.kiro/settings/mcp.json",
		"opencode project /p/opencode.json",
		"opencode project /p/opencode.jsonc",
		"opencode user /xdg/opencode/opencode.json",
		"opencode user /xdg/opencode/opencode.jsonc",
		"zed project /p/.zed/settings.json",
		"zed user /xdg/zed/settings.json",
		"cline user /xdg/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
		"cline user /xdg/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
		"cline user /xdg/VSCodium/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
		"cline user /xdg/Cursor/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
		"cline user /xdg/Windsurf/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
		"continue user /h/.continue/config.yaml",
		"lmstudio user /h/.lmstudio/mcp.json",
		"amazonq project /p/.amazonq/mcp.json",
		"amazonq user /h/.aws/amazonq/mcp.json",
		"kilocode project /p/.kilocode/mcp.json",
		"kilocode user /h/.kilocode/cli/global/settings/mcp_settings.json",
		"junie project /p/.junie/mcp/mcp.json",
		"junie user /h/.junie/mcp/mcp.json",
		"vscode-insiders user /xdg/Code - Insiders/User/mcp.json",
		"roo-code project /p/.roo/mcp.json",
		"roo-code user /xdg/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
		"roo-code user /xdg/Code - Insiders/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
		"roo-code user /xdg/VSCodium/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
		"roo-code user /xdg/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
		"roo-code user /xdg/Windsurf/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
		"amp project /p/.amp/settings.json",
		"amp user /xdg/amp/settings.json",
		"amp user /xdg/Code/User/settings.json",
		"amp user /xdg/Cursor/User/settings.json",
		"amp user /xdg/Windsurf/User/settings.json",
		"trae project /p/.trae/mcp.json",
		"trae user /xdg/Trae/User/mcp.json",
		"antigravity user /h/.gemini/antigravity/mcp_config.json",
		"windsurf-jetbrains user /h/.codeium/mcp_config.json",
		"kimi project /p/.kimi-code/mcp.json",
		"kimi user /h/.kimi/mcp.json",
		"kimi user /h/.kimi-code/mcp.json",
		"factory project /p/.factory/mcp.json",
		"factory user /h/.factory/mcp.json",
		"qoder user /h/.qoder/mcp.json",
		"sema4 user /h/.sema4ai/sema4ai-studio/mcp_servers.json",
		"auggie project /p/.augment/settings.json",
		"auggie project /p/.augment/settings.local.json",
		"auggie user /h/.augment/settings.json",
		"mistral-vibe project /p/.vibe/config.toml",
		"mistral-vibe user /h/.vibe/config.toml",
	}
	if !slices.Equal(got, want) {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The project folder is the home folder: each file once, as the user's.
	files = Files(Places{Home: "/h", Project: "/h"})
	n := 0
	for _, f := range files {
		if f.Path == filepath.Join("/h", ".cursor", "mcp.json") {
			n++
			if f.Scope != "user" {
				t.Errorf("%s is %s", f.Path, f.Scope)
			}
		}
	}
	if n != 1 {
		t.Errorf("~/.cursor/mcp.json listed %d times", n)
	}
}

// TestHostsFilesByOS: Claude Desktop's file is in the OS's
// application-data folder, and Copilot CLI's moves with COPILOT_HOME.
func TestHostsFilesByOS(t *testing.T) {
	env := map[string]string{"APPDATA": `/appdata`, "COPILOT_HOME": "/ch"}
	getenv := func(k string) string { return env[k] }
	find := func(p Places, host string) string {
		for _, f := range Files(p) {
			if f.Host == host && f.Scope == ScopeUser {
				return filepath.ToSlash(f.Path)
			}
		}
		return ""
	}
	for _, tc := range []struct {
		p          Places
		host, want string
	}{
		{Places{Home: "/h", Project: "/p"}, ClaudeDesktop, "/h/.config/Claude/claude_desktop_config.json"},
		{Places{Home: "/h", Project: "/p", Darwin: true}, ClaudeDesktop, "/h/Library/Application Support/Claude/claude_desktop_config.json"},
		{Places{Home: "/h", Project: "/p", Windows: true, Getenv: getenv}, ClaudeDesktop, "/appdata/Claude/claude_desktop_config.json"},
		{Places{Home: "/h", Project: "/p", Windows: true}, ClaudeDesktop, ""},
		{Places{Home: "/h", Project: "/p", Getenv: getenv}, Copilot, "/ch/mcp-config.json"},
		{Places{Home: "/h", Project: "/p", Darwin: true}, Cline, "/h/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"},
		{Places{Home: "/h", Project: "/p", Windows: true, Getenv: getenv}, Cline, "/appdata/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"},
		{Places{Home: "/h", Project: "/p", Darwin: true}, VSCode, "/h/Library/Application Support/Code/User/mcp.json"},
		{Places{Home: "/h", Project: "/p", Windows: true, Getenv: getenv}, VSCode, "/appdata/Code/User/mcp.json"},
		{Places{Home: "/h", Project: "/p", Windows: true}, VSCode, "/h/.vscode-server/data/User/mcp.json"}, // no APPDATA: the remote one only
		{Places{Home: "/h", Project: "/p", Darwin: true}, VSCodeInsiders, "/h/Library/Application Support/Code - Insiders/User/mcp.json"},
		{Places{Home: "/h", Project: "/p", Windows: true, Getenv: getenv}, VSCodeInsiders, "/appdata/Code - Insiders/User/mcp.json"},
		{Places{Home: "/h", Project: "/p", Windows: true, Getenv: getenv}, RooCode, "/appdata/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"},
		{Places{Home: "/h", Project: "/p", Darwin: true}, Trae, "/h/Library/Application Support/Trae/User/mcp.json"},
		{Places{Home: "/h", Project: "/p", Windows: true, Getenv: getenv}, Trae, "/appdata/Trae/User/mcp.json"},
		{Places{Home: "/h", Project: "/p", Darwin: true}, Amp, "/h/.config/amp/settings.json"},
		{Places{Home: "/h", Project: "/p", Windows: true, Getenv: getenv}, Amp, "/h/.config/amp/settings.json"},
		{Places{Home: "/h", Project: "/p", Windows: true, Getenv: getenv}, Qoder, "/appdata/Qoder/SharedClientCache/mcp.json"},
		{Places{Home: "/h", Project: "/p", Windows: true}, Qoder, ""},
		{Places{Home: "/h", Project: "/p", Windows: true}, Sema4, "/h/AppData/Local/sema4ai/sema4ai-studio/mcp_servers.json"},
	} {
		if got := find(tc.p, tc.host); got != tc.want {
			t.Errorf("%s with %+v: %q, want %q", tc.host, tc.p, got, tc.want)
		}
	}
}

// TestHostsMoveProfile: a server behind the proxy moves to another
// profile, whichever way its --profile is written (or with none), and
// nothing else in its file changes; moving it back gives the file byte
// for byte.
func TestHostsMoveProfile(t *testing.T) {
	n := 0
	for _, fx := range fixtures {
		for name, kind := range fx.kinds {
			if kind != Proxied {
				continue
			}
			c := fx.load(t)
			i := indexesOf(c, name)[0]
			s := c.Servers[i]
			if ok, _ := s.CanMove(s.Profile); ok {
				t.Errorf("%s %s: CanMove to its own profile", fx.path, name)
			}
			rw, err := c.PlanProfile([]int{i}, "other team")
			if err != nil {
				t.Fatalf("%s %s: %v", fx.path, name, err)
			}
			c2, err := Parse(c.File, rw.New)
			if err != nil {
				t.Fatal(err)
			}
			m := c2.Servers[i]
			if m.Kind != Proxied || m.Profile != "other team" || !slices.Equal(m.Behind, s.Behind) || !slices.Equal(m.Restored, s.Restored) {
				t.Errorf("%s %s moved: %v profile %q behind %q", fx.path, name, m.Kind, m.Profile, m.Behind)
			}
			t.Logf("%s %s:\n%s", fx.path, name, Diff("a", "b", c.Data, rw.New))
			if s.Profile == "" {
				n++
				continue // none to move back to
			}
			back, err := c2.PlanProfile([]int{i}, s.Profile)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back.New, c.Data) {
				t.Errorf("%s %s moved and back:\n%s", fx.path, name, Diff("a", "b", c.Data, back.New))
			}
			n++
		}
	}
	if n < 5 {
		t.Errorf("only %d proxied fixtures", n)
	}
	// --profile=NAME is rewritten as one word.
	f, _ := FileFor(Claude, "project", ".mcp.json")
	f.Rootpick = fixtureRootpick
	c, err := Parse(f, []byte(`{"mcpServers": {"a": {"command": "rootpick", "args": ["proxy", "--profile=work", "--", "srv"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	rw, err := c.PlanProfile([]int{0}, "home")
	if err != nil || !bytes.Contains(rw.New, []byte(`"--profile=home", "--", "srv"`)) {
		t.Errorf("--profile=work moved: %v\n%s", err, rw.New)
	}
}

// TestHostsFixturesAreTracked guards against a fixture left out of the
// table above.
func TestHostsFixturesAreTracked(t *testing.T) {
	var seen []string
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.Contains(p, "golden") {
			seen = append(seen, filepath.ToSlash(strings.TrimPrefix(p, "testdata"+string(filepath.Separator))))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range seen {
		if !slices.ContainsFunc(fixtures, func(f fixture) bool { return f.path == p }) {
			t.Errorf("testdata/%s is in no fixture", p)
		}
	}
}

// TestHostsCRLF: a file with CRLF line ends gets CRLF in what is added,
// and comes back byte for byte.
func TestHostsCRLF(t *testing.T) {
	for _, fx := range fixtures {
		orig := fx.load(t)
		data := bytes.ReplaceAll(orig.Data, []byte("\n"), []byte("\r\n"))
		c, err := Parse(orig.File, data)
		if err != nil {
			t.Fatalf("%s with CRLF: %v", fx.path, err)
		}
		which := wrappable(c, fx.noArgs...)
		wrapped, err := c.Wrap(which, testProxy)
		if err != nil {
			t.Fatalf("%s with CRLF: %v", fx.path, err)
		}
		if n := bytes.Count(wrapped, []byte("\n")); n != bytes.Count(wrapped, []byte("\r\n")) {
			t.Errorf("%s with CRLF: a bare LF was added:\n%q", fx.path, wrapped)
		}
		c2, _ := Parse(c.File, wrapped)
		back, err := c2.Unwrap(which)
		if err != nil || !bytes.Equal(back, data) {
			t.Errorf("%s with CRLF: wrap then unwrap: %v\n%s", fx.path, err, Diff("a", "b", data, back))
		}
	}
}

// TestHostsWrapTwiceUnderAnotherName: a rootpick executable not named
// rootpick is recognised by its path, so it is not wrapped twice.
func TestHostsWrapTwiceUnderAnotherName(t *testing.T) {
	c := fixtures[0].load(t)
	p := Proxy{Exe: "/tmp/rp-dev"}
	wrapped, err := c.Wrap(wrappable(c), p)
	if err != nil {
		t.Fatal(err)
	}
	f := c.File
	f.Rootpick = append(slices.Clone(f.Rootpick), p.Exe)
	c2, err := Parse(f, wrapped)
	if err != nil {
		t.Fatal(err)
	}
	if w := wrappable(c2); len(w) != 0 {
		t.Errorf("%d servers would be wrapped again", len(w))
	}
}

// TestHostsEdgeCases: rewrites the fixtures do not show.
func TestHostsEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name, host, scope, in string
		// server is wrapped, then unwrapped; out is the wrapped file, back
		// the unwrapped one when it is not in.
		server, out, back string
	}{
		{"JSONC, a trailing comma after empty args", VSCode, "project",
			"{\"servers\": {\"s\": {\"command\": \"x\", \"args\": [],}}}",
			"s", "{\"servers\": {\"s\": {\"command\": \"rootpick\", \"args\": [\"proxy\", \"--host=vscode-project\", \"--name=s\", \"--\", \"x\"],}}}", ""},
		{"YAML plain command with a comma, into a flow sequence", Goose, "user",
			"extensions:\n  s:\n    type: stdio\n    cmd: a,b\n    args: [c]\n",
			"s", "extensions:\n  s:\n    type: stdio\n    cmd: \"/r\"\n    args: [\"proxy\", \"--host=goose\", \"--name=s\", \"--\", \"a,b\", c]\n",
			// a,b had to be quoted to go into [ ]: it comes back quoted
			"extensions:\n  s:\n    type: stdio\n    cmd: \"a,b\"\n    args: [c]\n"},
		{"YAML flow mapping without args", Goose, "user",
			"extensions:\n  s: {type: stdio, cmd: x}\n",
			"s", "extensions:\n  s: {type: stdio, cmd: \"/r\", args: [\"proxy\", \"--host=goose\", \"--name=s\", \"--\", x]}\n",
			"extensions:\n  s: {type: stdio, cmd: x, args: []}\n"},
		{"TOML without a final line end", Codex, "user",
			"[mcp_servers.s]\n  command = 'x'",
			"s", "[mcp_servers.s]\n  command = \"/r\"\n  args = [\"proxy\", \"--host=codex\", \"--name=s\", \"--\", 'x']",
			"[mcp_servers.s]\n  command = 'x'\n  args = []"},
		{"TOML multi-line array, one element", Codex, "user",
			"[mcp_servers.s]\ncommand = \"x\"\nargs = [\n    \"a\"\n]\n",
			"s", "[mcp_servers.s]\ncommand = \"/r\"\nargs = [\n    \"proxy\",\n    \"--host=codex\",\n    \"--name=s\",\n    \"--\",\n    \"x\",\n    \"a\"\n]\n", ""},
	} {
		f, _ := FileFor(tc.host, tc.scope, tc.name)
		f.Rootpick = []string{"/r", PortableExe}
		c, err := Parse(f, []byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		i := indexesOf(c, tc.server)
		out, err := c.Wrap(i, Proxy{Exe: "/r"})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if string(out) != tc.out {
			t.Errorf("%s: wrapped\n%q\nwant\n%q", tc.name, out, tc.out)
		}
		c2, _ := Parse(f, out)
		back, err := c2.Unwrap(i)
		if tc.back == "" {
			tc.back = tc.in
		}
		if err != nil || string(back) != tc.back {
			t.Errorf("%s: unwrapped %q, %v", tc.name, back, err)
		}
	}
}

// TestHostsUnwrapTrailingComma: a hand-wrapped JSONC entry whose args end
// with a comma unwraps to valid JSONC.
func TestHostsUnwrapTrailingComma(t *testing.T) {
	f, _ := FileFor(VSCode, "project", "mcp.json")
	f.Rootpick = []string{"rootpick"}
	c, err := Parse(f, []byte(`{"servers": {"s": {"command": "rootpick", "args": ["proxy", "--", "x",]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Unwrap([]int{0})
	if want := `{"servers": {"s": {"command": "x", "args": []}}}`; err != nil || string(out) != want {
		t.Errorf("unwrapped %s, %v; want %s", out, err, want)
	}
}

// wantFlags are the proxy's flags wrap writes before a server's folder
// arguments and command: p as f's scope has it, then --host and --name.
func wantFlags(p Proxy, f File, name string) []string {
	return p.For(f).proxyFlags(LogTag(f), name)
}

// TestProxyArgsPassTheStateDir: a state folder the environment moved is
// passed as --state-dir, before the server command; --host and --name
// name the log file.
func TestProxyArgsPassTheStateDir(t *testing.T) {
	got := Proxy{Exe: "rootpick", Profile: "work", StateDir: "/s/rootpick"}.proxyFlags("claude", "fs")
	want := []string{"proxy", "--profile", "work", "--state-dir", "/s/rootpick", "--host=claude", "--name=fs"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("proxyFlags = %q, want %q", got, want)
	}
}

// TestVSCodeProfiles: each VS Code profile keeps its own mcp.json under
// User/profiles/ID; they are listed after the default one, for VS Code,
// its remote server and Insiders, in the order Folders gives.
func TestVSCodeProfiles(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": "/xdg"}
	profiles := map[string][]string{
		"/xdg/Code/User/profiles":                   {"-6a2b9c1e", "work"},
		"/h/.vscode-server/data/User/profiles":      {"remote1"},
		"/xdg/Code - Insiders/User/profiles":        {"ins"},
		"/xdg/Code/User/globalStorage/whatever/dir": {"never"},
	}
	p := Places{Home: "/h", Project: "/p", Getenv: func(k string) string { return env[k] },
		Folders: func(dir string) []string { return profiles[filepath.ToSlash(dir)] }}
	var got []string
	for _, f := range Files(p) {
		if f.Host == VSCode || f.Host == VSCodeInsiders {
			got = append(got, f.Host+" "+string(f.Scope)+" "+filepath.ToSlash(f.Path))
		}
	}
	want := []string{
		"vscode project /p/.vscode/mcp.json",
		"vscode user /xdg/Code/User/mcp.json",
		"vscode user /xdg/Code/User/profiles/-6a2b9c1e/mcp.json",
		"vscode user /xdg/Code/User/profiles/work/mcp.json",
		"vscode user /h/.vscode-server/data/User/mcp.json",
		"vscode user /h/.vscode-server/data/User/profiles/remote1/mcp.json",
		"vscode-insiders user /xdg/Code - Insiders/User/mcp.json",
		"vscode-insiders user /xdg/Code - Insiders/User/profiles/ins/mcp.json",
	}
	if !slices.Equal(got, want) {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHostsDisabledEntries: an entry the host is told not to start
// ("disabled": true, or enabled = false in the formats whose hosts write
// that) says so in Server.Disabled, as its file writes it; any other
// value, or none, is an entry the host starts.
func TestHostsDisabledEntries(t *testing.T) {
	for _, tc := range []struct {
		host, in, want string
	}{
		{Cline, `{"mcpServers": {"s": {"command": "x", "disabled": true}}}`, `"disabled": true`},
		{Crush, `{"mcp": {"s": {"type": "stdio", "command": "x", "disabled": true}}}`, `"disabled": true`},
		{OpenCode, `{"mcp": {"s": {"type": "local", "command": ["x"], "enabled": false}}}`, `"enabled": false`},
		{Claude, `{"mcpServers": {"s": {"command": "x", "disabled": false}}}`, ""},
		{Claude, `{"mcpServers": {"s": {"command": "x", "enabled": true}}}`, ""},
		{Claude, `{"mcpServers": {"s": {"command": "x", "disabled": "yes"}}}`, ""},
		{Claude, `{"mcpServers": {"s": {"command": "x"}}}`, ""},
		{Codex, "[mcp_servers.s]\ncommand = \"x\"\nenabled = false\n", "enabled = false"},
		{Codex, "[mcp_servers.s]\ncommand = \"x\"\nenabled = true\n", ""},
		{MistralVibe, "[[mcp_servers]]\nname = \"s\"\ntransport = \"stdio\"\ncommand = \"x\"\ndisabled = true\n", "disabled = true"},
		{Goose, "extensions:\n  s:\n    type: stdio\n    cmd: x\n    enabled: false\n", "enabled: false"},
		{Goose, "extensions:\n  s:\n    type: stdio\n    cmd: x\n    enabled: true\n", ""},
		{Continue, "mcpServers:\n  - name: s\n    command: x\n    disabled: true\n", "disabled: true"},
	} {
		f, _ := FileFor(tc.host, "user", "f")
		c, err := Parse(f, []byte(tc.in))
		if err != nil || len(c.Servers) != 1 {
			t.Fatalf("%s %q: %v %+v", tc.host, tc.in, err, c)
		}
		s := c.Servers[0]
		if s.Disabled != tc.want || s.Kind != Stdio {
			t.Errorf("%s %q: %v, Disabled %q; want stdio, %q", tc.host, tc.in, s.Kind, s.Disabled, tc.want)
		}
	}
}
