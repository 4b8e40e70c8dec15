package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/rootpick/rootpick/internal/testskip"
)

func TestMain(m *testing.M) {
	isolateConfig()
	testskip.Exit("rootpick", m.Run(), "as root")
}

// isolateConfig keeps the tests away from the user's config file: the
// default config folder is one that does not exist.
func isolateConfig() {
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(os.TempDir(), "rootpick-test-no-config-"+strconv.Itoa(os.Getpid())))
	os.Unsetenv(configEnv)
}

// writeConfig writes a config file and returns its path.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// labels are the servers pick would serve, by label.
func labels(t *testing.T, c *cli, e *env) []string {
	t.Helper()
	specs, err := c.Pick.serverSpecs(e.command, e.config)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range specs {
		out = append(out, s.Label())
	}
	return out
}

// parseWith parses args as run does and hands the config to env.
func parseWith(t *testing.T, args ...string) (*cli, *env) {
	t.Helper()
	e := &env{stdout: io.Discard, stderr: io.Discard}
	c, _, err := parse(args, e)
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	e.config, e.configPath = c.config, c.configPath
	return c, e
}

// TestConfigPrecedence: for each setting, a flag on the command line wins
// over the config file, which wins over the built-in default.
func TestConfigPrecedence(t *testing.T) {
	src := t.TempDir()
	other := t.TempDir()
	full := writeConfig(t, `dir = "`+src+`"
profile = "work"
skip = ["build", "dist"]
max_depth = 2
theme = "dark"

[servers.fs]
command = ["npx", "-y", "@modelcontextprotocol/server-filesystem"]
[servers.remote]
url = "http://localhost:3000/mcp"
`)
	empty := writeConfig(t, "# nothing\n")
	type got struct {
		dir, listDir, profile, forgetProfile, proxyProfile, skip, listSkip, theme, servers string
		depth, listDepth                                                                   int
	}
	get := func(t *testing.T, cfg string, flags ...string) got {
		args := append([]string{"--config", cfg}, flags...)
		c, e := parseWith(t, args...)
		var g got
		g.dir, g.profile, g.skip, g.depth, g.theme = c.Pick.Dir, c.Pick.Profile, strings.Join(c.Pick.Skip, ","), int(c.Pick.MaxDepth), e.config.Theme
		g.servers = strings.Join(labels(t, c, e), ",")
		// The same settings in the other commands that take them.
		var listFlags, profileFlags []string
		for i := 0; i < len(flags); i++ {
			switch f := flags[i]; f {
			case "--skip", "--max-depth":
				listFlags = append(listFlags, f, flags[i+1])
				i++
			case "--profile":
				profileFlags = append(profileFlags, f, flags[i+1])
				i++
			case "--server", "--url", "--use":
				i++
			default:
				listFlags = append(listFlags, f) // DIR
			}
		}
		c, _ = parseWith(t, append([]string{"--config", cfg, "list"}, listFlags...)...)
		g.listDir, g.listSkip, g.listDepth = c.List.Dir, strings.Join(c.List.Skip, ","), int(c.List.MaxDepth)
		c, _ = parseWith(t, append([]string{"--config", cfg, "forget"}, profileFlags...)...)
		g.forgetProfile = c.Forget.Profile
		c, _ = parseWith(t, append(append([]string{"--config", cfg, "proxy"}, profileFlags...), "--", "srv")...)
		g.proxyProfile = c.Proxy.Profile
		return g
	}
	for _, tc := range []struct {
		name  string
		cfg   string
		flags []string
		want  got
	}{
		{"default", empty, nil, got{profile: "default", forgetProfile: "default", proxyProfile: "default", servers: "rootpick-demo"}},
		{"config", full, nil, got{dir: src, listDir: src, profile: "work", forgetProfile: "work", proxyProfile: "work",
			skip: "build,dist", listSkip: "build,dist", depth: 2, listDepth: 2, theme: "dark", servers: "fs,remote"}},
		{"flags over default", empty, []string{other, "--profile", "p", "--skip", "x", "--max-depth", "5", "--server", "uvx git"},
			got{dir: other, listDir: other, profile: "p", forgetProfile: "p", proxyProfile: "p", skip: "x", listSkip: "x", depth: 5, listDepth: 5, servers: "uvx"}},
		{"flags over config", full, []string{other, "--profile", "p", "--skip", "x", "--max-depth", "0", "--url", "https://h.example/mcp"},
			got{dir: other, listDir: other, profile: "p", forgetProfile: "p", proxyProfile: "p", skip: "x", listSkip: "x", depth: 0, listDepth: 0, theme: "dark", servers: "https://h.example/mcp"}},
		// A flag overrides its own setting only.
		{"one flag over config", full, []string{"--max-depth", "7"}, got{dir: src, listDir: src, profile: "work", forgetProfile: "work", proxyProfile: "work",
			skip: "build,dist", listSkip: "build,dist", depth: 7, listDepth: 7, theme: "dark", servers: "fs,remote"}},
		{"--use picks one", full, []string{"--use", "remote"}, got{dir: src, listDir: src, profile: "work", forgetProfile: "work", proxyProfile: "work",
			skip: "build,dist", listSkip: "build,dist", depth: 2, listDepth: 2, theme: "dark", servers: "remote"}},
		{"--use with --server", full, []string{"--use", "fs", "--server", "uvx git"}, got{dir: src, listDir: src, profile: "work", forgetProfile: "work", proxyProfile: "work",
			skip: "build,dist", listSkip: "build,dist", depth: 2, listDepth: 2, theme: "dark", servers: "uvx,fs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if g := get(t, tc.cfg, tc.flags...); g != tc.want {
				t.Errorf("\n got %+v\nwant %+v", g, tc.want)
			}
		})
	}

	// A server command after -- replaces the file's servers too.
	c, e := parseWith(t, "--config", full, "--", "node", "srv.js")
	if got := labels(t, c, e); !slices.Equal(got, []string{"node"}) {
		t.Errorf("with -- the servers are %q", got)
	}
	// The file's servers are labelled by name and keep their command.
	c, e = parseWith(t, "--config", full)
	specs, _ := c.Pick.serverSpecs(nil, e.config)
	if len(specs) != 2 || !slices.Equal(specs[0].Command, []string{"npx", "-y", "@modelcontextprotocol/server-filesystem"}) || specs[1].URL != "http://localhost:3000/mcp" {
		t.Errorf("specs %+v", specs)
	}
}

// TestConfigValues: values are read as their flags are: "~" in dir, a
// command as one string split with shell rules.
func TestConfigValues(t *testing.T) {
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("ROOTPICK_TEST_VAR", "expanded")
	path := writeConfig(t, `dir = "~/src"
[servers.git]
command = 'node srv.js --root "my dir" $ROOTPICK_TEST_VAR'
`)
	c, e := parseWith(t, "--config", path)
	if c.Pick.Dir != filepath.Join(home, "src") {
		t.Errorf("dir %q", c.Pick.Dir)
	}
	if s, _ := e.config.server("git"); !slices.Equal(s.Command, []string{"node", "srv.js", "--root", "my dir", "expanded"}) {
		t.Errorf("command %q", s.Command)
	}
}

// TestConfigErrors: a config file that cannot be used stops rootpick
// before anything starts, with exit 2 and one line naming the file, line
// and column.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string // in the message; "" + ":L:C" is the place
	}{
		{"syntax", "dir = \"/tmp\"\nprofile = = \"x\"\n", []string{":2:11:", "at start of value"}},
		{"unclosed", "skip = [\"a\"\n", []string{":1:12:", "array is incomplete"}},
		{"first mistake in the file", "theme = \"blue\"\nmax_depth = -1\n", []string{":1:9:", "theme"}},
		{"duplicate key", "profile = \"a\"\nprofile = \"b\"\n", []string{":2:1:", "already defined"}},
		{"inline table", "servers = {fs = {url = \"http://h\", x = 1}}\n", []string{":1:40:", "unknown key servers.fs.x"}},
		{"dotted key", "servers.fs.url = 3\n", []string{":1:18:", "servers.fs.url", "want a string"}},
		{"unknown key", "profile = \"work\"\n\n  colour = \"red\"\n", []string{":3:12:", "unknown key colour"}},
		{"unknown table", "[serverz.fs]\nurl = \"http://h\"\n", []string{":1:", "unknown key serverz"}},
		{"unknown server key", "[servers.fs]\ncommand = \"srv\"\nargs = [\"x\"]\n", []string{":3:8:", "unknown key servers.fs.args"}},
		{"wrong type", "max_depth = \"3\"\n", []string{":1:13:", "max_depth", "want an integer, got a string"}},
		{"wrong type dir", "dir = 3\n", []string{":1:7:", "dir", "want a string"}},
		{"wrong type skip", "skip = \"build\"\n", []string{":1:8:", "skip", "want an array of strings"}},
		{"wrong element", "skip = [\"build\", 3]\n", []string{"skip", "element 2"}},
		{"negative depth", "max_depth = -1\n", []string{":1:13:", "max_depth", "0 or more"}},
		{"bad url", "[servers.remote]\nurl = \"ftp://h/x\"\n", []string{":2:7:", "servers.remote.url", "http://"}},
		{"url without host", "[servers.remote]\nurl = \"http://\"\n", []string{":2:7:", "host"}},
		{"bad command", "[servers.fs]\ncommand = 'srv \"unclosed'\n", []string{":2:11:", "servers.fs.command", "cannot split"}},
		{"empty command", "[servers.fs]\ncommand = []\n", []string{":2:11:", "needs a command"}},
		{"command and url", "[servers.fs]\ncommand = \"a\"\nurl = \"http://h\"\n", []string{":1:", "either command or url"}},
		{"neither", "[servers.fs]\n", []string{":1:", "either command or url"}},
		{"server not a table", "[servers]\nfs = \"srv\"\n", []string{":2:6:", "want a table"}},
		{"bad server name", "[servers.\"a b\"]\nurl = \"http://h\"\n", []string{":1:", `server name "a b"`}},
		{"bad profile", "profile = \"../x\"\n", []string{":1:11:", "profile"}},
		{"bad theme", "theme = \"blue\"\n", []string{":1:9:", "theme", "auto, dark, light"}},
		{"relative dir", "dir = \"src\"\n", []string{":1:7:", "dir", "absolute"}},
		{"missing dir", "dir = \"/nonexistent/rootpick\"\n", []string{":1:7:", "cannot scan"}},
		{"control characters", "\"a\\u001b[2J\" = 1\n", []string{":1:", `a\x1b[2J`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.text)
			// list (pick would start its screen if the check were missing).
			for _, args := range [][]string{{"--config", path, "list"}} {
				var out, errOut bytes.Buffer
				err := run(args, &out, &errOut)
				var ee exitError
				if !errors.As(err, &ee) || ee.code != 2 {
					t.Fatalf("%q: %v, want exit 2", args, err)
				}
				msg := ee.msg
				if strings.Contains(msg, "\n") || strings.ContainsFunc(msg, func(r rune) bool { return r < ' ' }) || !strings.HasPrefix(msg, path+":") {
					t.Errorf("%q: want one printable line starting with the path, got %q", args, msg)
				}
				for _, w := range tc.want {
					if !strings.Contains(msg, w) {
						t.Errorf("%q: message %q lacks %q", args, msg, w)
					}
				}
				if out.Len() > 0 || errOut.Len() > 0 {
					t.Errorf("%q: printed %q %q", args, out.String(), errOut.String())
				}
			}
			// Nothing starts: pick never runs.
			_, kctx, err := parse([]string{"--config", path}, &env{stdout: io.Discard, stderr: io.Discard})
			if ee := (exitError{}); !errors.As(err, &ee) || ee.code != 2 || kctx != nil {
				t.Errorf("pick: parse gave %v, want exit 2 and no command to run", err)
			}
		})
	}
}

// TestConfigFileChoice: --config, then $ROOTPICK_CONFIG, then the XDG
// path; a missing default file is no config, a missing named one an error;
// config path prints the path in use.
func TestConfigFileChoice(t *testing.T) {
	xdgHome := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdgHome)
	t.Cleanup(isolateConfig)
	def := filepath.Join(xdgHome, "rootpick", "config.toml")

	pathOf := func(args ...string) (string, string) {
		t.Helper()
		var out, errOut bytes.Buffer
		if err := run(append(args, "config", "path"), &out, &errOut); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		return strings.TrimSuffix(out.String(), "\n"), errOut.String()
	}
	got, note := pathOf()
	if got != def || !strings.Contains(note, "does not exist") {
		t.Errorf("config path = %q (%q), want %q and a note", got, note, def)
	}
	// No default file: every command runs with the built-in defaults.
	c, _ := parseWith(t, "list")
	if c.List.MaxDepth != 0 || c.config.exists {
		t.Errorf("no file: %+v", c.config)
	}
	if err := os.MkdirAll(filepath.Dir(def), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(def, []byte("max_depth = 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, note = pathOf(); got != def || note != "" {
		t.Errorf("config path = %q (%q), want %q and no note", got, note, def)
	}
	if c, _ = parseWith(t, "list"); c.List.MaxDepth != 4 {
		t.Errorf("the XDG file was not read: max depth %d", c.List.MaxDepth)
	}

	envFile := writeConfig(t, "max_depth = 5\n")
	t.Setenv(configEnv, envFile)
	if got, _ = pathOf(); got != envFile {
		t.Errorf("with $%s config path = %q", configEnv, got)
	}
	if c, _ = parseWith(t, "list"); c.List.MaxDepth != 5 {
		t.Errorf("$%s was not read: max depth %d", configEnv, c.List.MaxDepth)
	}
	flagFile := writeConfig(t, "max_depth = 6\n")
	if got, _ = pathOf("--config", flagFile); got != flagFile {
		t.Errorf("with --config, config path = %q", got)
	}
	if c, _ = parseWith(t, "--config", flagFile, "list"); c.List.MaxDepth != 6 {
		t.Errorf("--config was not read: max depth %d", c.List.MaxDepth)
	}

	// A file named and missing is an error.
	missing := filepath.Join(t.TempDir(), "nope.toml")
	for _, tc := range []struct {
		args []string
		env  string
	}{{[]string{"--config", missing, "list"}, ""}, {[]string{"list"}, missing}} {
		t.Setenv(configEnv, tc.env)
		var ee exitError
		if err := run(tc.args, io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(ee.msg, missing) || !strings.Contains(ee.msg, "no such file") {
			t.Errorf("%q with $%s=%q: %v %q, want exit 2 naming the file", tc.args, configEnv, tc.env, err, ee.msg)
		}
	}

	// A relative $ROOTPICK_CONFIG is refused, for every command, even
	// when the current folder holds that file.
	t.Chdir(filepath.Dir(writeConfig(t, "max_depth = 7\n")))
	t.Setenv(configEnv, "config.toml")
	for _, args := range [][]string{{"list"}, {"config", "path"}} {
		var ee exitError
		if err := run(args, io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(ee.msg, "config.toml: a relative path in $"+configEnv) {
			t.Errorf("%q with $%s=config.toml: %v %q, want exit 2 refusing the relative path", args, configEnv, err, ee.msg)
		}
	}

	// A broken file does not stop the commands that do not read it.
	t.Setenv(configEnv, writeConfig(t, "max_depth = = 1\n"))
	for _, args := range [][]string{{"version"}, {"config", "path"}, {"completion", "bash"}, {"help"}} {
		if err := run(args, io.Discard, io.Discard); err != nil && !errors.Is(err, exitError{code: 0}) {
			t.Errorf("%q with a broken file: %v", args, err)
		}
	}
	var ee exitError
	if err := run([]string{"config", "show"}, io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("config show with a broken file: %v, want exit 2", err)
	}
}

// TestConfigUseUnknown: --use names a server of the file, or exits 2
// listing those there are.
func TestConfigUseUnknown(t *testing.T) {
	path := writeConfig(t, "[servers.fs]\ncommand = \"srv\"\n[servers.git]\nurl = \"http://h/mcp\"\n")
	c, e := parseWith(t, "--config", path, "--use", "nope")
	_, err := c.Pick.serverSpecs(nil, e.config)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(ee.msg, `"nope"`) || !strings.Contains(ee.msg, "fs, git") {
		t.Errorf("--use nope: %v %q", err, ee.msg)
	}
}

// TestConfigShow: config show prints the file's settings and the built-in
// defaults of the others, as a config file.
func TestConfigShow(t *testing.T) {
	path := writeConfig(t, "profile = \"work\"\nskip = [\"build\"]\n[servers.fs]\ncommand = 'srv --root \"my dir\"'\n")
	var out bytes.Buffer
	if err := run([]string{"--config", path, "config", "show"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	want := "# " + path + `
# dir: the current folder (built-in default)
profile = "work"
max_depth = 0  # built-in default
skip = ["build"]
read_only = false  # built-in default
theme = "auto"  # built-in default

[servers.fs]
command = ["srv", "--root", "my dir"]
`
	if out.String() != want {
		t.Errorf("config show:\n%s\nwant:\n%s", out.String(), want)
	}
	// What it prints reads back as the same settings.
	again := writeConfig(t, out.String())
	c1, _ := parseWith(t, "--config", path)
	c2, _ := parseWith(t, "--config", again)
	if c1.Pick.Profile != c2.Pick.Profile || !slices.Equal(c1.Pick.Skip, c2.Pick.Skip) || !slices.EqualFunc(c1.config.Servers, c2.config.Servers, func(a, b configServer) bool {
		return a.Name == b.Name && slices.Equal(a.Command, b.Command) && a.URL == b.URL
	}) {
		t.Errorf("config show does not read back: %+v vs %+v", c1.config, c2.config)
	}
}

// TestTOMLTextReadsBack: what config show writes for a string or a list
// of them is TOML that reads back as the same value, whatever it holds.
func TestTOMLTextReadsBack(t *testing.T) {
	for _, v := range []string{"", "plain", `a"b`, `c\d`, "tab\tnl\ncr\r", "esc\x1b[2J", "del\x7f", "ünï 字", "'single'"} {
		var got map[string]any
		text := "k = " + tomlText(v) + "\nl = " + tomlText([]string{v, v})
		if err := toml.Unmarshal([]byte(text), &got); err != nil || got["k"] != v || fmt.Sprint(got["l"]) != fmt.Sprint([]any{v, v}) {
			t.Errorf("%q: %s reads back as %q, %v", v, text, got, err)
		}
	}
}

// TestConfigShowHidesSecrets: config show prints a server's URL and
// command without their secrets (the URL's user and query values, an
// --api-key value, a token), and a command server's sandbox settings, which
// read back.
func TestConfigShowHidesSecrets(t *testing.T) {
	allow := t.TempDir()
	path := writeConfig(t, `[servers.web]
url = "https://alice:hunter22@mcp.example.com/mcp?token=SEKRITTOKEN42"
[servers.fs]
command = "srv --api-key sk-abcdefghijklmnopqrstuvwx --root /srv"
enforce = "require"
allow-read = ["`+allow+`"]
`)
	var out bytes.Buffer
	if err := run([]string{"--config", path, "config", "show"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"hunter22", "alice", "SEKRITTOKEN42", "abcdefghijklmnopqrstuvwx"} {
		if strings.Contains(out.String(), secret) {
			t.Errorf("config show prints %q:\n%s", secret, out.String())
		}
	}
	for _, want := range []string{"mcp.example.com/mcp", `"--root", "/srv"`, `enforce = "require"`, `allow-read = ["` + allow + `"]`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("config show lacks %q:\n%s", want, out.String())
		}
	}
	c, _ := parseWith(t, "--config", writeConfig(t, strings.Replace(out.String(), "[servers.web]", "[servers.web-shown]", 1)))
	fs, ok := c.config.server("fs")
	if !ok || fs.Enforce != "require" || !slices.Equal(fs.AllowRead, []string{allow}) {
		t.Errorf("the sandbox settings do not read back: %+v", fs)
	}
}

// TestRelativeHomeReadsNothingHere: with a relative HOME (and no absolute
// XDG_CONFIG_HOME) the config file is never looked for below the current
// folder, where a cloned repository could have planted one that starts a
// server.
func TestRelativeHomeReadsNothingHere(t *testing.T) {
	cwd := t.TempDir()
	t.Chdir(cwd)
	planted := filepath.Join("rel", ".config", "rootpick", "config.toml")
	if err := os.MkdirAll(filepath.Dir(planted), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planted, []byte("max_depth = 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", "rel")
	t.Setenv("XDG_CONFIG_HOME", "")
	os.Unsetenv(configEnv)
	t.Cleanup(isolateConfig)
	var out, errOut bytes.Buffer
	if err := run([]string{"config", "path"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); !filepath.IsAbs(got) || strings.HasPrefix(got, cwd) {
		t.Errorf("config path with HOME=rel: %q; want an absolute path outside the current folder", got)
	}
	if c, _ := parseWith(t, "list"); c.List.MaxDepth == 7 {
		t.Error("the config file planted under ./rel was read")
	}
}

// TestConfigReadOnly: read_only = true in the file checks folders
// read-only, as --read-only does; --no-read-only overrides the file; a
// value that is not a boolean is refused at its place.
func TestConfigReadOnly(t *testing.T) {
	on := writeConfig(t, "read_only = true\n")
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--config", writeConfig(t, "# nothing\n")}, false},
		{[]string{"--config", writeConfig(t, "# nothing\n"), "--read-only"}, true},
		{[]string{"--config", on}, true},
		{[]string{"--config", on, "--no-read-only"}, false},
	} {
		if c, _ := parseWith(t, tc.args...); c.Pick.ReadOnly != tc.want {
			t.Errorf("%q: read-only %v, want %v", tc.args[2:], c.Pick.ReadOnly, tc.want)
		}
	}
	_, err := loadConfig(writeConfig(t, "read_only = \"yes\"\n"), true)
	if err == nil || !strings.Contains(err.Error(), ":1:13:") || !strings.Contains(err.Error(), "want true or false, got a string") {
		t.Errorf("a read_only that is not a boolean: %v", err)
	}
}

// TestConfigServerReadOnly: read_only = true in [servers.NAME] caps that
// server (Spec.ReadOnly), config show writes it back, and a url server
// may not have it.
func TestConfigServerReadOnly(t *testing.T) {
	path := writeConfig(t, "[servers.fs]\ncommand = \"srv\"\nread_only = true\n[servers.git]\ncommand = \"git-srv\"\n")
	c, e := parseWith(t, "--config", path)
	specs, _ := c.Pick.serverSpecs(nil, e.config)
	if len(specs) != 2 || !specs[0].ReadOnly || specs[1].ReadOnly {
		t.Fatalf("specs %+v", specs)
	}
	var out bytes.Buffer
	if err := run([]string{"--config", path, "config", "show"}, &out, io.Discard); err != nil || !strings.Contains(out.String(), "[servers.fs]\ncommand = [\"srv\"]\nread_only = true\n") {
		t.Errorf("config show: %v\n%s", err, out.String())
	}
	_, err := loadConfig(writeConfig(t, "[servers.r]\nurl = \"http://h/mcp\"\nread_only = true\n"), true)
	if err == nil || !strings.Contains(err.Error(), "read_only are for a command rootpick starts") {
		t.Errorf("a url server with read_only: %v", err)
	}
}
