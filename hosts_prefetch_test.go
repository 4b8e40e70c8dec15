package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/internal/wrapplan"
)

// prefetchCall is one prefetch a test of the root package asked for.
type prefetchCall struct {
	launcher prefetch.Launcher
	opts     prefetch.Options
	// wrapped says the project's .mcp.json already ran through the proxy
	// when the prefetch ran.
	wrapped bool
}

var prefetched struct {
	sync.Mutex
	calls []prefetchCall
}

// No test of the root package downloads: hosts wrap's prefetch is
// recorded instead (TestHostsWrapPrefetches reads the records; the real
// prefetch runs in internal/prefetch's tests and the end-to-end test).
func init() {
	prefetchRun = func(_ context.Context, l prefetch.Launcher, o prefetch.Options) (time.Duration, error) {
		b, _ := os.ReadFile(filepath.Join(o.Dir, ".mcp.json"))
		prefetched.Lock()
		defer prefetched.Unlock()
		prefetched.calls = append(prefetched.calls, prefetchCall{launcher: l, opts: o, wrapped: bytes.Contains(b, []byte(`"proxy"`))})
		return 0, nil
	}
}

// prefetchesIn are the recorded prefetches that ran in dir.
func prefetchesIn(dir string) []prefetchCall {
	prefetched.Lock()
	defer prefetched.Unlock()
	return slices.DeleteFunc(slices.Clone(prefetched.calls), func(c prefetchCall) bool { return c.opts.Dir != dir })
}

// launcherSandbox is a home folder and a project whose .mcp.json starts
// server-filesystem with npx (its own npm cache in its env, written with
// Claude Code's ${HOME}) and a server with bunx, and an npx first on PATH
// (a script that notes each run in the file npxRuns names).
func launcherSandbox(t *testing.T) (home, project string) {
	t.Helper()
	dir := t.TempDir()
	home, project = filepath.Join(dir, "home"), filepath.Join(dir, "project")
	bin := filepath.Join(dir, "bin")
	for _, d := range []string{home, project, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	fakeLauncher(t, filepath.Join(bin, "npx"), "echo \"npx $*\" >> "+npxRuns(home))
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	mcp := `{"mcpServers": {
  "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"], "env": {"npm_config_cache": "${HOME}/.cache/alt-npm"}},
  "b": {"command": "bunx", "args": ["some-server"]}
}}
`
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(mcp), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, project
}

// npxRuns is the file launcherSandbox's launchers note their runs in.
func npxRuns(home string) string { return filepath.Join(filepath.Dir(home), "ran") }

// fakeLauncher writes an executable shell script at path that runs body.
func fakeLauncher(t *testing.T, path, body string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake launcher is a shell script")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// unconfined is a Confine that runs the command as it is: for the tests
// of what the prefetch says, and of one defence with the other broken on
// purpose (the confined prefetch: TestHostsWrapPrefetchIsEnforced, which
// uses launch.Confine, as hosts wrap does).
func unconfined(*exec.Cmd) (func(error) error, error) {
	return func(err error) error { return err }, nil
}

// realPrefetch makes hosts wrap run the real prefetch (prefetch.Run)
// with confine, until t ends.
func realPrefetch(t *testing.T, confine confineFunc) {
	t.Helper()
	run, conf := prefetchRun, prefetchConfine
	prefetchRun, prefetchConfine = prefetch.Run, confine
	t.Cleanup(func() { prefetchRun, prefetchConfine = run, conf })
}

// TestHostsWrapPrefetches: wrap fetches what a wrapped npx entry would
// download, after the yes and before the file is written, in the project
// folder (where the host starts it), with the entry's own env over the
// person's, starting the npx found on PATH, confined; a launcher with no
// way to fetch ahead is named with the reason. A project file's entry is
// fetched with --yes only given --prefetch (it is said why not);
// --no-prefetch fetches nothing, and nor does a wrap that writes nothing.
func TestHostsWrapPrefetches(t *testing.T) {
	_, project := launcherSandbox(t)
	var out, errb bytes.Buffer
	if err := run([]string{"hosts", "wrap", "claude", "--project", project}, io.Discard, io.Discard); err == nil {
		t.Fatal("no terminal, no --yes: the wrap wrote")
	}
	if calls := prefetchesIn(project); len(calls) > 0 {
		t.Fatalf("a wrap that wrote nothing fetched %q", calls[0].launcher.Prefetch)
	}
	if err := run([]string{"hosts", "wrap", "claude", "--yes", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("wrap: %v\n%s", err, errb.String())
	}
	if calls := prefetchesIn(project); len(calls) > 0 {
		t.Errorf("--yes without --prefetch fetched for a project file: %q", calls[0].launcher.Prefetch)
	}
	// server-filesystem gets the network off (it needs none): enforced,
	// its npx runs offline, so an unfetched package makes it fail, which
	// the diff says as a warning with the way out.
	if want := "warning: fs: not fetched ahead: it is a project file's entry, which came with the repository: with --yes, wrap fetches those only with --prefetch; with the network off its first start cannot download @modelcontextprotocol/server-filesystem and fails (npm: ENOTCACHED) until it is fetched: hosts wrap --prefetch"; !strings.Contains(out.String(), want) {
		t.Errorf("the diff does not say why fs is not fetched (%q):\n%s", want, out.String())
	}
	// With the network on, the first start downloads it.
	_, project = launcherSandbox(t)
	out.Reset()
	if err := run([]string{"hosts", "wrap", "claude", "--yes", "--network", "on", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("wrap: %v\n%s", err, errb.String())
	}
	if want := "fs: not fetched ahead: it is a project file's entry, which came with the repository: with --yes, wrap fetches those only with --prefetch; its first start downloads @modelcontextprotocol/server-filesystem"; !strings.Contains(out.String(), want) || strings.Contains(out.String(), "warning: fs: not fetched") {
		t.Errorf("with the network on, the diff does not say the first start downloads it (%q):\n%s", want, out.String())
	}

	_, project = launcherSandbox(t)
	errb.Reset()
	if err := run([]string{"hosts", "wrap", "claude", "--yes", "--prefetch", "--project", project}, io.Discard, &errb); err != nil {
		t.Fatalf("wrap: %v\n%s", err, errb.String())
	}
	calls := prefetchesIn(project)
	if len(calls) != 1 {
		t.Fatalf("%d prefetches; want 1 (fs's): %+v", len(calls), calls)
	}
	c := calls[0]
	if want := []string{"npx", "--yes", "--package=@modelcontextprotocol/server-filesystem", "--", "node", "-e", "0"}; !slices.Equal(c.launcher.Prefetch, want) {
		t.Errorf("prefetch %q; want %q", c.launcher.Prefetch, want)
	}
	if npx, _ := exec.LookPath("npx"); c.opts.Program != npx || c.opts.Confine == nil {
		t.Errorf("the prefetch starts %q (confined: %v); want the npx on PATH, %s, confined", c.opts.Program, c.opts.Confine != nil, npx)
	}
	if c.wrapped {
		t.Error("the prefetch ran after the file was written")
	}
	home := os.Getenv("HOME")
	if c.opts.Name != "fs" || !slices.Contains(c.opts.Env, "npm_config_cache="+filepath.Join(home, ".cache", "alt-npm")) || !slices.Contains(c.opts.Env, "HOME="+home) {
		t.Errorf("prefetch %q with env %q; want the entry's npm_config_cache over the person's env", c.opts.Name, c.opts.Env)
	}
	if c.opts.Terminal {
		t.Error("the prefetch was told stderr is a terminal")
	}
	if !strings.Contains(errb.String(), "b: not fetched ahead: bunx has no way to install a package without running it") {
		t.Errorf("bunx's entry is not named:\n%s", errb.String())
	}

	_, project2 := launcherSandbox(t)
	if err := run([]string{"hosts", "wrap", "claude", "--yes", "--no-prefetch", "--project", project2}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if calls := prefetchesIn(project2); len(calls) > 0 {
		t.Errorf("--no-prefetch fetched %q", calls[0].launcher.Prefetch)
	}
	b, _ := os.ReadFile(filepath.Join(project2, ".mcp.json"))
	if !bytes.Contains(b, []byte(`"proxy"`)) {
		t.Errorf("--no-prefetch did not wrap:\n%s", b)
	}
	err := run([]string{"hosts", "wrap", "claude", "--yes", "--prefetch", "--no-prefetch", "--project", project2}, io.Discard, io.Discard)
	if ee := (exitError{}); !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("--prefetch with --no-prefetch: %v; want a usage error", err)
	}
}

// TestHostsWrapPrefetchesUserEntries: the person's own entries (here
// ~/.claude.json's) are fetched with --yes as before, without --prefetch,
// while the project file's beside them are not.
func TestHostsWrapPrefetchesUserEntries(t *testing.T) {
	home, project := launcherSandbox(t)
	user := `{"mcpServers": {"mine": {"command": "npx", "args": ["-y", "@scope/my-server"]}}}` + "\n"
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(user), 0o600); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	if err := run([]string{"hosts", "wrap", "claude", "--yes", "--project", project}, io.Discard, &errb); err != nil {
		t.Fatalf("wrap: %v\n%s", err, errb.String())
	}
	var names []string
	for _, c := range prefetchesIn(project) {
		names = append(names, c.opts.Name)
	}
	if !slices.Equal(names, []string{"mine"}) {
		t.Errorf("--yes fetched for %q; want the user-scope entry only (mine)", names)
	}
}

// TestHostsWrapDoesNotPrefetchDisabled: an entry its host will not start
// ("disabled": true, enabled = false) is wrapped, but nothing is fetched
// for it, with --yes or asked on a terminal, and the diff says why; the
// entry beside it is fetched as before.
func TestHostsWrapDoesNotPrefetchDisabled(t *testing.T) {
	for _, yes := range []bool{true, false} {
		home, project := launcherSandbox(t)
		user := `{"mcpServers": {
  "on": {"command": "npx", "args": ["-y", "@scope/on-server"]},
  "off": {"command": "npx", "args": ["-y", "@scope/off-server"], "disabled": true}
}}
`
		if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(user), 0o600); err != nil {
			t.Fatal(err)
		}
		ch := hostsChange{targets: []string{"claude", "on", "off"}, project: project, yes: yes, wrap: true,
			proxy: hostcfg.Proxy{Exe: "/bin/rootpick"}, prefetch: prefetchRun, confine: unconfined}
		var out, errb bytes.Buffer
		ask := func(string) (bool, error) { return true, nil }
		if err := ch.run(&env{stdout: &out, stderr: &errb, dirs: paths.FromEnv()}, ask); err != nil {
			t.Fatalf("wrap: %v\n%s", err, errb.String())
		}
		var names []string
		for _, c := range prefetchesIn(project) {
			names = append(names, c.opts.Name)
		}
		if !slices.Equal(names, []string{"on"}) {
			t.Errorf("yes %v: fetched for %q; want on only (off is disabled)", yes, names)
		}
		if want := `off: not fetched ahead: the entry is disabled ("disabled": true): its host does not start it`; !strings.Contains(out.String(), want) {
			t.Errorf("yes %v: the diff does not say %q:\n%s", yes, want, out.String())
		}
		if strings.Contains(errb.String(), "off-server") {
			t.Errorf("yes %v: the fetch plan names the disabled entry's package:\n%s", yes, errb.String())
		}
		b, _ := os.ReadFile(filepath.Join(home, ".claude.json"))
		c, err := hostcfg.Parse(mustFileFor(t, "claude", "user", filepath.Join(home, ".claude.json")), b)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Servers {
			if s.Kind != hostcfg.Proxied {
				t.Errorf("yes %v: %s is not wrapped: %v %q", yes, s.Name, s.Kind, s.Args)
			}
		}
	}
}

// mustFileFor is hostcfg.FileFor for this rootpick's test proxy command.
func mustFileFor(t *testing.T, host, scope, path string) hostcfg.File {
	t.Helper()
	f, ok := hostcfg.FileFor(host, scope, path)
	if !ok {
		t.Fatalf("no file for %s %s", host, scope)
	}
	f.Rootpick = []string{"/bin/rootpick"}
	return f
}

// TestHostsWrapNeverRunsTheProjectsLauncher: a project file whose
// command is a program of the repository (./evilbin/npx, or its absolute
// path), or a bare npx that PATH finds inside the project, is wrapped but
// never fetched ahead — with --yes and --prefetch, or asked on a
// terminal — and the diff says why. The prefetch runs for real here,
// unconfined on purpose: the path check alone must stop it.
func TestHostsWrapNeverRunsTheProjectsLauncher(t *testing.T) {
	realPrefetch(t, unconfined)
	setup := func(t *testing.T) (project, marker string) {
		_, project = launcherSandbox(t)
		marker = filepath.Join(filepath.Dir(project), "stolen")
		evil := filepath.Join(project, "evilbin", "npx")
		fakeLauncher(t, evil, "echo ran >> "+marker)
		mcp := `{"mcpServers": {
  "fs": {"command": "./evilbin/npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"]},
  "abs": {"command": ` + strconv.Quote(evil) + `, "args": ["-y", "@scope/other"]}
}}
`
		if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(mcp), 0o644); err != nil {
			t.Fatal(err)
		}
		return project, marker
	}
	said := func(t *testing.T, text, project string) {
		t.Helper()
		for _, want := range []string{
			"fs: not fetched ahead: its command ./evilbin/npx is inside the project, not an installed launcher",
			"abs: not fetched ahead: its command " + filepath.Join(project, "evilbin", "npx") + " is inside the project, not an installed launcher",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("the wrap does not say %q:\n%s", want, text)
			}
		}
	}
	for _, args := range [][]string{{"--yes"}, {"--yes", "--prefetch"}} {
		project, marker := setup(t)
		var out, errb bytes.Buffer
		if err := run(append([]string{"hosts", "wrap", "claude", "--project", project}, args...), &out, &errb); err != nil {
			t.Fatalf("%q: %v\n%s", args, err, errb.String())
		}
		if b, err := os.ReadFile(marker); err == nil {
			t.Errorf("%q: the project's npx ran: %s", args, b)
		}
		said(t, out.String(), project)
		if b, _ := os.ReadFile(filepath.Join(project, ".mcp.json")); !bytes.Contains(b, []byte(`"proxy"`)) {
			t.Errorf("%q: not wrapped:\n%s", args, b)
		}
	}

	// Asked on a terminal, and answered yes.
	project, marker := setup(t)
	var out, errb bytes.Buffer
	ch := hostsChange{targets: []string{"claude"}, wrap: true, project: project, proxy: hostcfg.Proxy{Exe: "/bin/rootpick"},
		prefetch: prefetch.Run, confine: unconfined}
	e := &env{stdout: &out, stderr: &errb, dirs: paths.FromEnv()}
	if err := ch.run(e, func(string) (bool, error) { return true, nil }); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Errorf("asked: the project's npx ran: %s", b)
	}
	said(t, out.String(), project)
	if strings.Contains(errb.String(), "Before writing, wrap fetches") {
		t.Errorf("the question promises to fetch what is refused:\n%s", errb.String())
	}

	// A bare npx that PATH finds in the project (a folder of the project
	// on PATH, as direnv puts it there).
	project, marker = setup(t)
	t.Setenv("PATH", filepath.Join(project, "evilbin")+string(filepath.ListSeparator)+os.Getenv("PATH"))
	mcp := `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"]}}}` + "\n"
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(mcp), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run([]string{"hosts", "wrap", "claude", "--project", project, "--yes", "--prefetch"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Errorf("the npx PATH finds in the project ran: %s", b)
	}
	if want := "fs: not fetched ahead: its command npx is " + filepath.Join(project, "evilbin", "npx") + ", inside the project, not an installed launcher"; !strings.Contains(out.String(), want) {
		t.Errorf("the wrap does not say %q:\n%s", want, out.String())
	}
}

// TestHostsWrapPrefetchEnvRefused: a project file's env that asks for
// what the server's policy would not grant (~/.ssh as npx's cache) does
// not reach the prefetch, and wrap says so, one line per variable; the
// rest of its env does.
func TestHostsWrapPrefetchEnvRefused(t *testing.T) {
	home, project := launcherSandbox(t)
	mcp := `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"],
  "env": {"npm_config_cache": "${HOME}/.ssh", "npm_config_registry": "https://r.example/"}}}}
`
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(mcp), 0o644); err != nil {
		t.Fatal(err)
	}
	var outb, errb bytes.Buffer
	if err := run([]string{"hosts", "wrap", "claude", "--yes", "--prefetch", "--project", project}, &outb, &errb); err != nil {
		t.Fatalf("wrap: %v\n%s", err, errb.String())
	}
	// The diff says it, once, before anything runs: for the prefetch and
	// for the server the proxy will run enforced.
	if both := outb.String() + errb.String(); strings.Count(both, "npm_config_cache=~/.ssh is not granted") != 1 ||
		!strings.Contains(both, "warning: fs: env npm_config_cache=~/.ssh is not granted when it runs enforced: ") {
		t.Errorf("the wrap does not say once what the server will not be granted:\n%s", both)
	}
	calls := prefetchesIn(project)
	if len(calls) != 1 {
		t.Fatalf("%d prefetches; want 1", len(calls))
	}
	if env := calls[0].opts.Env; slices.Contains(env, "npm_config_cache="+filepath.Join(home, ".ssh")) || !slices.Contains(env, "npm_config_registry=https://r.example/") {
		t.Errorf("the prefetch's env %q: want npm_config_cache=~/.ssh left out, the registry kept", env)
	}
}

// TestHostsPrefetchFailureGoesOn: a launcher that fails is said with its
// last words, the consequence and the command that fetches by hand; the
// wrap goes on.
func TestHostsPrefetchFailureGoesOn(t *testing.T) {
	bin := t.TempDir()
	fakeLauncher(t, filepath.Join(bin, "npx"), "echo 'npm error code E404' >&2\necho 'npm error 404' >&2\necho 'npm error A complete log of this run can be found in: /x.log' >&2\nexit 1")
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	l, _ := prefetch.Of([]string{"npx", "-y", "@scope/missing"})
	var errb bytes.Buffer
	ch := hostsChange{wrap: true, prefetch: prefetch.Run, confine: unconfined}
	ch.prefetchAll(&env{stderr: &errb}, []*wrapplan.File{{Launches: []wrapplan.Launch{{Name: "gone", Launcher: l, Dir: t.TempDir()}}}})
	text := errb.String()
	for _, want := range []string{
		"gone: fetching @scope/missing with npx…",
		"gone: npx could not fetch @scope/missing (exit status 1): npm error code E404\n",
		"The file is written anyway. What cannot be fetched now, the host's first start cannot fetch either",
		"To fetch it by hand: npx --yes --package=@scope/missing -- node -e 0",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the message lacks %q:\n%s", want, text)
		}
	}
}

// TestHostsPrefetchNotConfinedIsNotRun: where the prefetch cannot be
// confined (not Linux, no Landlock: here a Confine that says so), nothing
// runs and wrap says why; the file is written all the same.
func TestHostsPrefetchNotConfinedIsNotRun(t *testing.T) {
	home, project := launcherSandbox(t)
	realPrefetch(t, func(*exec.Cmd) (func(error) error, error) {
		return nil, errors.New("Landlock is Linux-only")
	})
	var errb bytes.Buffer
	if err := run([]string{"hosts", "wrap", "claude", "--yes", "--prefetch", "--project", project}, io.Discard, &errb); err != nil {
		t.Fatalf("wrap: %v\n%s", err, errb.String())
	}
	if b, err := os.ReadFile(npxRuns(home)); err == nil {
		t.Errorf("an unconfined prefetch ran: %s", b)
	}
	if want := "fs: not fetched ahead: it runs only confined as its server will be, and cannot be here: Landlock is Linux-only; with the network off its first start cannot download @modelcontextprotocol/server-filesystem"; !strings.Contains(errb.String(), want) {
		t.Errorf("the wrap does not say %q:\n%s", want, errb.String())
	}
	if b, _ := os.ReadFile(filepath.Join(project, ".mcp.json")); !bytes.Contains(b, []byte(`"proxy"`)) {
		t.Errorf("not wrapped:\n%s", b)
	}
}

// TestHostsWrapSaysWhatItFetches: asked before writing, the person is told
// which packages a yes also fetches, and that their install scripts run
// then — a project's file's, the repository's choice (it may name a
// package the host would only start after asking); --no-prefetch asks
// without it, and an answer of no fetches nothing.
func TestHostsWrapSaysWhatItFetches(t *testing.T) {
	for _, noPrefetch := range []bool{false, true} {
		_, project := launcherSandbox(t)
		var errb bytes.Buffer
		var asked string
		ch := hostsChange{targets: []string{"claude"}, wrap: true, project: project, proxy: hostcfg.Proxy{Exe: "/bin/rootpick"}}
		if !noPrefetch {
			ch.prefetch = prefetchRun
		}
		e := &env{stdout: io.Discard, stderr: &errb, dirs: paths.FromEnv()}
		err := ch.run(e, func(string) (bool, error) { asked = errb.String(); return false, nil })
		if err != nil {
			t.Fatal(err)
		}
		const plan = "Before writing, wrap fetches @modelcontextprotocol/server-filesystem (npx) as the host's first start would: the install scripts run now (--no-prefetch skips this)." +
			" A project file, which came with the repository, names @modelcontextprotocol/server-filesystem (npx): those install scripts are the repository's choice of package, not yours."
		if got := strings.Contains(asked, plan); got == noPrefetch {
			t.Errorf("--no-prefetch %v: the fetch plan said before the question: %v\n%s", noPrefetch, got, asked)
		}
		if calls := prefetchesIn(project); len(calls) > 0 {
			t.Errorf("answered no, yet fetched %q", calls[0].launcher.Prefetch)
		}
	}
}
