package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/help/*.golden")

// parseOK parses args and fails the test on an error.
func parseOK(t *testing.T, args ...string) (*cli, *env, string) {
	t.Helper()
	e := &env{stdout: io.Discard, stderr: io.Discard}
	c, kctx, err := parse(args, e)
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return c, e, kctx.Command()
}

// TestParseEveryFlag: each command and flag lands in its field.
func TestParseEveryFlag(t *testing.T) {
	t.Setenv("ROOTPICK_TEST_VAR", "expanded")
	c, e, cmd := parseOK(t, "--print", "--url", "http://localhost:3000/mcp", "--url", "https://h.example/mcp",
		"--server", `node srv.js --root "my dir" 'a b' $ROOTPICK_TEST_VAR {roots}`, "--server", "uvx git",
		"--max-depth", "3", "--all", "--skip", "build", "--skip", "a,b", "--follow", "--one-file-system",
		"--debug", "--log", "/tmp/x.log", "--profile", "work", "--resume", "--protocol", "2026-07-28",
		"--init-timeout", "1m30s", "dir", "--", "npx", "-y", "srv", "--print")
	p := c.Pick
	if cmd != "pick <dir>" && !strings.HasPrefix(cmd, "pick") {
		t.Errorf("command %q, want pick", cmd)
	}
	checks := map[string]bool{
		"print":    p.Print,
		"url":      len(p.URL) == 2 && p.URL[0] == "http://localhost:3000/mcp" && p.URL[1] == "https://h.example/mcp",
		"server":   len(p.Server) == 2 && slices.Equal(p.Server[0], []string{"node", "srv.js", "--root", "my dir", "a b", "expanded", "{roots}"}) && slices.Equal(p.Server[1], []string{"uvx", "git"}),
		"maxdepth": p.MaxDepth == 3,
		"all":      p.All,
		"skip":     slices.Equal(p.Skip, []string{"build", "a,b"}),
		"follow":   p.Follow,
		"onefs":    p.OneFileSystem,
		"debug":    p.Debug,
		"log":      p.Log == "/tmp/x.log",
		"profile":  p.Profile == "work",
		"resume":   p.Resume,
		"protocol": p.Protocol == "2026-07-28",
		"timeout":  time.Duration(p.InitTimeout) == 90*time.Second,
		"dir":      p.Dir == "dir",
		"command":  slices.Equal(e.command, []string{"npx", "-y", "srv", "--print"}),
	}
	for name, ok := range checks {
		if !ok {
			t.Errorf("%s not parsed: %+v command %q", name, p, e.command)
		}
	}

	c, _, _ = parseOK(t)
	if c.Pick.Protocol != "2025-11-25" || c.Pick.Profile != "default" || time.Duration(c.Pick.InitTimeout) <= 0 || c.Pick.MaxDepth != 0 {
		t.Errorf("defaults: %+v", c.Pick)
	}
	c, _, cmd = parseOK(t, "pick", "--print", "d")
	if !c.Pick.Print || c.Pick.Dir != "d" || !strings.HasPrefix(cmd, "pick") {
		t.Errorf("explicit pick: %+v (%s)", c.Pick, cmd)
	}
	c, _, _ = parseOK(t, "--max-depth=0")
	if c.Pick.MaxDepth != 0 {
		t.Errorf("--max-depth=0: %d", c.Pick.MaxDepth)
	}

	c, _, cmd = parseOK(t, "list", "--json", "--details", "--stream", "--max-depth", "2", "--all", "--skip", "x", "--follow", "--one-file-system", "d")
	l := c.List
	if cmd != "list <dir>" || !l.JSON || !l.Details || !l.Stream || l.MaxDepth != 2 || !l.All || !slices.Equal(l.Skip, []string{"x"}) || !l.Follow || !l.OneFileSystem || l.Dir != "d" || l.Null || l.FullPath {
		t.Errorf("list (%s): %+v", cmd, l)
	}
	for _, args := range [][]string{{"list", "--null", "--full-path"}, {"list", "-0", "--full-path"}} {
		if c, _, _ = parseOK(t, args...); !c.List.Null || !c.List.FullPath || c.List.JSON {
			t.Errorf("%q: %+v", args, c.List)
		}
	}

	for _, f := range []string{"json", "lines", "null"} {
		c, _, _ = parseOK(t, "--print", "--print-format", f)
		if !c.Pick.Print || c.Pick.PrintFormat != f {
			t.Errorf("--print-format %s: %+v", f, c.Pick)
		}
	}
	if c, _, _ = parseOK(t, "--print"); c.Pick.PrintFormat != "json" {
		t.Errorf("--print's default format is %q, want json", c.Pick.PrintFormat)
	}

	c, e, cmd = parseOK(t, "proxy", "--profile", "work", "--protocol", "2026-07-28", "--print-config", "vscode", "--name", "fs", "--log", "/tmp/p.log", "--debug", "--", "npx", "-y", "srv")
	x := c.Proxy
	if !strings.HasPrefix(cmd, "proxy") || x.Profile != "work" || x.Protocol != "2026-07-28" || x.PrintConfig != "vscode" || x.Name != "fs" || x.Log != "/tmp/p.log" || !x.Debug || len(x.Command) != 0 || !slices.Equal(e.command, []string{"npx", "-y", "srv"}) {
		t.Errorf("proxy (%s): %+v, command %q", cmd, x, e.command)
	}
	// The MCP Inspector drops the "--": the server's own flags are its own.
	c, e, _ = parseOK(t, "proxy", "--profile", "work", "npx", "-y", "srv", "--profile", "theirs")
	if c.Proxy.Profile != "work" || !slices.Equal(c.Proxy.Command, []string{"npx", "-y", "srv", "--profile", "theirs"}) || e.dashdash {
		t.Errorf("proxy without --: %+v", c.Proxy)
	}

	c, _, cmd = parseOK(t, "serve-demo", "--record", "/tmp/r.jsonl", "--debug")
	if cmd != "serve-demo" || c.ServeDemo.Record != "/tmp/r.jsonl" || !c.ServeDemo.Debug {
		t.Errorf("serve-demo (%s): %+v", cmd, c.ServeDemo)
	}
	c, _, cmd = parseOK(t, "forget", "--profile", "work")
	if cmd != "forget" || c.Forget.Profile != "work" {
		t.Errorf("forget (%s): %+v", cmd, c.Forget)
	}
	c, _, cmd = parseOK(t, "forget")
	if cmd != "forget" || c.Forget.Profile != "default" {
		t.Errorf("forget default profile: %+v", c.Forget)
	}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		c, _, cmd = parseOK(t, "completion", sh)
		if cmd != "completion <shell>" || c.Completion.Shell != sh {
			t.Errorf("completion %s (%s): %+v", sh, cmd, c.Completion)
		}
	}
	if _, _, cmd = parseOK(t, "version"); cmd != "version" {
		t.Errorf("version parsed as %q", cmd)
	}
	if c, _, cmd = parseOK(t, "help", "list"); cmd != "help <command>" || !slices.Equal(c.Help.Command, []string{"list"}) {
		t.Errorf("help list parsed as %q %+v", cmd, c.Help)
	}
}

// TestParseBadValues: a bad command line exits 2 with one line on stderr
// that names the flag (or word) and points to --help, and nothing on stdout.
func TestParseBadValues(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want []string // in the message
	}{
		{[]string{"--url", "garbage"}, []string{"--url", "garbage", "rootpick --help"}},
		{[]string{"--url", "ftp://host/x"}, []string{"--url", "ftp://host/x"}},
		{[]string{"--url", "http://"}, []string{"--url", "host"}},
		{[]string{"--url=file:///tmp"}, []string{"--url"}},
		{[]string{"--max-depth", "-1"}, []string{"--max-depth"}},
		{[]string{"--max-depth=-1"}, []string{"--max-depth", "0 or more"}},
		{[]string{"--max-depth", "x"}, []string{"--max-depth"}},
		{[]string{"--init-timeout", "0s"}, []string{"--init-timeout", "positive"}},
		{[]string{"--init-timeout=-1s"}, []string{"--init-timeout", "positive"}},
		{[]string{"--init-timeout", "soon"}, []string{"--init-timeout", "soon"}},
		{[]string{"--server", " "}, []string{"--server", "needs a command"}},
		{[]string{"--server", `srv "unclosed`}, []string{"--server"}},
		{[]string{"--no-such-flag"}, []string{"--no-such-flag", "rootpick --help"}},
		{[]string{"--print=maybe"}, []string{"--print"}},
		{[]string{dir, dir}, []string{"one folder at most", "--"}},
		{[]string{"list", "--max-depth=-2", dir}, []string{"--max-depth", "rootpick list --help"}},
		{[]string{"list", "--bogus"}, []string{"--bogus", "rootpick list --help"}},
		{[]string{"list", dir, dir}, []string{"unexpected argument", "rootpick list --help"}},
		{[]string{"list", "--details", dir}, []string{"--details needs --json"}},
		{[]string{"list", "--json", "--null", dir}, []string{"--json", "--null", "rootpick list --help"}},
		{[]string{"list", "--json", "--full-path", dir}, []string{"--full-path", "--json"}},
		{[]string{"--print", "--print-format", "yaml"}, []string{"--print-format", "yaml", `"json","lines","null"`, "rootpick --help"}},
		{[]string{"--print-format", "null", dir}, []string{"--print-format null needs --print"}},
		{[]string{"--print-format", "json", dir}, []string{"--print-format json needs --print"}},
		{[]string{"list", dir, "--", "x"}, []string{"list takes no server command"}},
		{[]string{"serve-demo", "extra"}, []string{"unexpected argument extra", "rootpick serve-demo --help"}},
		{[]string{"serve-demo", "--record"}, []string{"--record"}},
		{[]string{"forget", "extra"}, []string{"unexpected argument extra"}},
		{[]string{"forget", "--profile", "../x"}, []string{"--profile"}},
		{[]string{"proxy"}, []string{"no server command"}},
		{[]string{"proxy", "--print-config", "emacs", "--", "x"}, []string{"--print-config", "emacs", "rootpick proxy --help"}},
		{[]string{"proxy", "--profile", "../x", "--", "x"}, []string{"proxy", "profile"}},
		{[]string{"proxy", "srv", "--", "x"}, []string{"goes after --"}},
		{[]string{"completion"}, []string{"shell", "rootpick completion --help"}},
		{[]string{"completion", "ksh"}, []string{"ksh", "bash"}},
		{[]string{"version", "extra"}, []string{"unexpected argument extra"}},
		{[]string{"help", "nosuch"}, []string{"nosuch"}},
	} {
		var out, errOut bytes.Buffer
		err := run(tc.args, &out, &errOut)
		var ee exitError
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("%q: %v, want exit 2", tc.args, err)
			continue
		}
		msg := ee.msg + errOut.String()
		if strings.Contains(strings.TrimSpace(msg), "\n") || msg == "" {
			t.Errorf("%q: want one line, got %q", tc.args, msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%q: message %q lacks %q", tc.args, msg, w)
			}
		}
		if out.Len() > 0 {
			t.Errorf("%q: printed on stdout: %q", tc.args, out.String())
		}
	}
}

// TestHelpAndVersionWords: help and version are commands, never folders;
// help goes to stdout and exits 0.
func TestHelpAndVersionWords(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"help"}, "Commands:"},
		{[]string{"--help"}, "Commands:"},
		{[]string{"-h"}, "Commands:"},
		{[]string{"help", "list"}, "Usage: rootpick list"},
		{[]string{"list", "--help"}, "Usage: rootpick list"},
		{[]string{"help", "proxy"}, "Usage: rootpick proxy"},
		{[]string{"proxy", "--help", "--", "srv"}, "Usage: rootpick proxy"},
		{[]string{"version"}, "rootpick " + version() + ", commit "},
		{[]string{"--version"}, "rootpick " + version() + ", commit "},
		{[]string{"-V"}, "rootpick " + version() + ", commit "},
		{[]string{"list", "--version"}, "rootpick " + version() + ", commit "},
	} {
		var out, errOut bytes.Buffer
		err := run(tc.args, &out, &errOut)
		var ee exitError
		if err != nil && !(errors.As(err, &ee) && ee.code == 0) {
			t.Errorf("%q: %v, want exit 0", tc.args, err)
		}
		if !strings.Contains(out.String(), tc.want) || errOut.Len() > 0 {
			t.Errorf("%q: stdout lacks %q or stderr not empty (%q):\n%s", tc.args, tc.want, errOut.String(), out.String())
		}
		if strings.Contains(out.String()+errOut.String(), "cannot scan") {
			t.Errorf("%q taken as a folder", tc.args)
		}
	}
}

// TestVersionLine: the version line carries the commit and its date from
// the build's VCS stamp, and says when they are unknown.
func TestVersionLine(t *testing.T) {
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-12-02T17:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	if got, want := versionLine(bi), "rootpick "+version()+", commit 0123456789ab (modified), date 2026-12-02T17:00:00Z"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	bi.Settings = bi.Settings[:3]
	if got, want := versionLine(bi), "rootpick "+version()+", commit 0123456789ab, date 2026-12-02T17:00:00Z"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := versionLine(nil), "rootpick "+version()+", commit unknown, date unknown"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHelpGolden: each command's --help, at 80 columns (go test -run
// TestHelpGolden -update rewrites testdata/help).
func TestHelpGolden(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	for _, name := range []string{"rootpick", "pick", "demo", "list", "proxy", "policy", "serve-demo", "forget", "version", "completion", "man", "help", "config"} {
		args := []string{name, "--help"}
		if name == "rootpick" {
			args = []string{"--help"}
		}
		var out bytes.Buffer
		if err := run(args, &out, io.Discard); err != nil && !errors.Is(err, exitError{code: 0}) {
			t.Fatalf("%q: %v", args, err)
		}
		file := filepath.Join("testdata", "help", name+".golden")
		if *update {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (go test -run TestHelpGolden -update writes it)", err)
		}
		if out.String() != string(want) {
			t.Errorf("%s --help differs from %s (-update rewrites it):\n%s", name, file, out.String())
		}
	}
}

// TestMistypedCommand: a word that is no folder but two edits or fewer from
// a command ("rootpick lst") is reported as a mistyped command with exit 2,
// not as "cannot scan"; a folder of that name is scanned as asked, and a
// word far from every command still says it cannot be scanned.
func TestMistypedCommand(t *testing.T) {
	t.Chdir(t.TempDir())
	for word, want := range map[string]string{
		"lst":       "did you mean 'rootpick list'?",
		"hlep":      "did you mean 'rootpick help'?",
		"verison":   "did you mean 'rootpick version'?",
		"serve-dem": "did you mean 'rootpick serve-demo'?",
		"proxxy":    "did you mean 'rootpick proxy'?",
	} {
		err := run([]string{word}, io.Discard, io.Discard)
		var ee exitError
		if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(ee.msg, want) {
			t.Errorf("%q: %v (%+v), want exit 2 with %q", word, err, ee, want)
		}
	}
	// With words after it too: "rootpick lsit ~/src" said "one folder at
	// most, got 2".
	for _, args := range [][]string{{"lsit", "/tmp"}, {"hots", "wrap", "claude"}} {
		err := run(args, io.Discard, io.Discard)
		var ee exitError
		if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(ee.msg, "did you mean") {
			t.Errorf("%q: %v, want did you mean", args, err)
		}
	}
	err := run([]string{"xyzzy"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cannot scan") {
		t.Errorf("xyzzy: %v, want cannot scan", err)
	}
	// A real folder named like a typo is a folder: list it.
	if err := os.Mkdir("lst", 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run([]string{"list", "lst"}, &out, io.Discard); err != nil {
		t.Fatalf("list lst: %v", err)
	}
	k, err := newParser(&cli{}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := unknownCommand(k, "lst"); err != nil {
		t.Errorf("existing folder lst: %v, want it taken as a folder", err)
	}
}

// TestNoSecretInErrors: a bad URL's password, user, query and fragment
// never reach an error, from the command line or the config file.
func TestNoSecretInErrors(t *testing.T) {
	bad := []string{
		"http://alice:hunter2PASS@127.0.0.1:1/%zz?api_key=SEKRIT",
		"ftp://alice:hunter2PASS@host/?api_key=SEKRIT#SEKRIT",
		"alice:hunter2PASS@host?api_key=SEKRIT",
	}
	for _, u := range bad {
		var out, errOut bytes.Buffer
		err := run([]string{"--url", u, t.TempDir()}, &out, &errOut)
		cfg := writeConfig(t, "[servers.x]\nurl = "+strconv.Quote(u)+"\n")
		err2 := run([]string{"--config", cfg, "list", t.TempDir()}, &out, &errOut)
		for _, e := range []error{err, err2} {
			if e == nil {
				t.Fatalf("%q accepted", u)
			}
			shown := e.Error() // as main prints it
			var ee exitError
			if errors.As(e, &ee) {
				shown = ee.msg
			}
			if !strings.Contains(shown, "want an http:// or https:// URL") {
				t.Errorf("%q: not refused for its URL: %s", u, shown)
			}
			for _, secret := range []string{"hunter2PASS", "SEKRIT", "alice"} {
				if strings.Contains(shown, secret) || strings.Contains(errOut.String(), secret) {
					t.Errorf("%q: the error shows %s: %s", u, secret, shown)
				}
			}
		}
	}
}
