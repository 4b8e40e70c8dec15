package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/internal/prefetch"
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
// Claude Code's ${HOME}) and a server with bunx.
func launcherSandbox(t *testing.T) (home, project string) {
	t.Helper()
	dir := t.TempDir()
	home, project = filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	mcp := `{"mcpServers": {
  "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"], "env": {"npm_config_cache": "${HOME}/alt-npm"}},
  "b": {"command": "bunx", "args": ["some-server"]}
}}
`
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(mcp), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, project
}

// TestHostsWrapPrefetches: wrap fetches what a wrapped npx entry would
// download, after the yes and before the file is written, in the project
// folder (where the host starts it), with the entry's own env over the
// person's; a launcher with no way to fetch ahead is named with the
// reason. --no-prefetch fetches nothing, and nor does a wrap that writes
// nothing.
func TestHostsWrapPrefetches(t *testing.T) {
	home, project := launcherSandbox(t)
	var errb bytes.Buffer
	if err := run([]string{"hosts", "wrap", "claude", "--project", project}, io.Discard, io.Discard); err == nil {
		t.Fatal("no terminal, no --yes: the wrap wrote")
	}
	if calls := prefetchesIn(project); len(calls) > 0 {
		t.Fatalf("a wrap that wrote nothing fetched %q", calls[0].launcher.Prefetch)
	}
	if err := run([]string{"hosts", "wrap", "claude", "--yes", "--project", project}, io.Discard, &errb); err != nil {
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
	if c.wrapped {
		t.Error("the prefetch ran after the file was written")
	}
	if c.opts.Name != "fs" || !slices.Contains(c.opts.Env, "npm_config_cache="+filepath.Join(home, "alt-npm")) || !slices.Contains(c.opts.Env, "HOME="+home) {
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
}

// TestHostsPrefetchFailureGoesOn: a launcher that fails is said with its
// last words, the consequence and the command that fetches by hand; the
// wrap goes on.
func TestHostsPrefetchFailureGoesOn(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake launcher is a shell script")
	}
	npx := filepath.Join(t.TempDir(), "npx")
	if err := os.WriteFile(npx, []byte("#!/bin/sh\necho 'npm error code E404' >&2\necho 'npm error 404' >&2\necho 'npm error A complete log of this run can be found in: /x.log' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	l, _ := prefetch.Of([]string{npx, "-y", "@scope/missing"})
	var errb bytes.Buffer
	ch := hostsChange{wrap: true, prefetch: prefetch.Run}
	ch.prefetchAll(&env{stderr: &errb}, []*planned{{launches: []launch{{name: "gone", launcher: l, dir: t.TempDir()}}}})
	text := errb.String()
	for _, want := range []string{
		"gone: fetching @scope/missing with npx…",
		"gone: npx could not fetch @scope/missing (exit status 1): npm error code E404\n",
		"The file is written anyway. What cannot be fetched now, the host's first start cannot fetch either",
		"To fetch it by hand: " + npx + " --yes --package=@scope/missing -- node -e 0",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the message lacks %q:\n%s", want, text)
		}
	}
}

// TestHostsWrapSaysWhatItFetches: asked before writing, the person is told
// which packages a yes also fetches, and that their install scripts run
// then (a project's file may name a package the host would only start
// after asking); --no-prefetch asks without it, and an answer of no
// fetches nothing.
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
		const plan = "Before writing, wrap fetches @modelcontextprotocol/server-filesystem (npx) as the host's first start would: the install scripts run now (--no-prefetch skips this)."
		if got := strings.Contains(asked, plan); got == noPrefetch {
			t.Errorf("--no-prefetch %v: the fetch plan said before the question: %v\n%s", noPrefetch, got, asked)
		}
		if calls := prefetchesIn(project); len(calls) > 0 {
			t.Errorf("answered no, yet fetched %q", calls[0].launcher.Prefetch)
		}
	}
}
