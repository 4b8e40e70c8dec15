//go:build unix

package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// slowLauncher writes a fake npx that "installs" slowly, as npx does on a
// first start: it writes state "partial", sleeps delay, writes
// "complete", then execs the demo server (the test binary) with marker.
// The returned read says what the state file holds. npm's cache is an
// empty folder (npm_config_cache), so that the proxy takes the start for
// a first install, as npx's would be (see warmCache for one that is not).
func slowLauncher(t *testing.T, delay time.Duration, marker string) (npx string, read func() string) {
	t.Helper()
	return slowTool(t, "npx", delay, marker)
}

// slowTool is slowLauncher for a launcher named tool (npx, uvx).
func slowTool(t *testing.T, tool string, delay time.Duration, marker string) (npx string, read func() string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("npm_config_cache", filepath.Join(dir, "npm-cache"))
	t.Setenv("NPM_CONFIG_CACHE", "")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	state := filepath.Join(dir, "state")
	npx = filepath.Join(dir, tool)
	script := fmt.Sprintf("#!/bin/sh\necho partial > %q\nsleep %.3f\necho complete >> %q\nexec %q %q\n", state, delay.Seconds(), state, exe, marker)
	if err := os.WriteFile(npx, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return npx, func() string {
		b, _ := os.ReadFile(state)
		return strings.TrimSpace(string(b))
	}
}

// installHost starts a proxy for command with a host on an in-memory
// pipe that sends initialize and nothing else, as a host does before its
// timeout; it returns the host's end, the proxy's stderr notices and its
// result.
func installHost(t *testing.T, command []string, opts Options) (host mcp.Connection, notices *testproc.Buffer, done <-chan error) {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	notices = &testproc.Buffer{}
	opts.Command, opts.Notice, opts.Enforce = command, notices, launch.EnforceOff
	opts.Logger, opts.Timing, opts.noticeEvery = testproc.Logger(t), testTiming, 200*time.Millisecond
	d := make(chan error, 1)
	go func() { d <- Run(context.Background(), st, opts) }()
	host, err := ct.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	id, _ := jsonrpc.MakeID(float64(1))
	params, _ := json.Marshal(map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "impatient-host", "version": "1"}})
	if err := host.Write(context.Background(), &jsonrpc.Request{ID: id, Method: "initialize", Params: params}); err != nil {
		t.Fatal(err)
	}
	return host, notices, d
}

// TestProxyLetsAnInstallFinish: the host gives up while the launcher is
// still installing (it has answered nothing); the proxy says what it waits
// for while the host waits, then lets the install finish instead of
// ending it, and returns once the launcher's server has exited — nothing
// of it outlives the proxy.
func TestProxyLetsAnInstallFinish(t *testing.T) {
	marker := testproc.UniqueMarker("install-finish")
	npx, state := slowLauncher(t, 2*time.Second, marker)
	host, notices, done := installHost(t, []string{npx, "-y", "@fake/server"}, Options{InstallGrace: time.Minute})
	// The launcher has started installing (on a loaded machine the notice,
	// 200 ms after the start, may come before the script's first line).
	waitFor(t, "the install to start", func() bool { return state() == "partial" })
	waitFor(t, "the proxy to say what the host waits for", func() bool {
		return strings.Contains(notices.String(), "npx is still installing @fake/server (first start,")
	})
	if !strings.Contains(notices.String(), "the host is waiting for it") {
		t.Errorf("the notices while the host waits:\n%s", notices)
	}
	if s := state(); s != "partial" {
		t.Fatalf("before the host gave up the install is %q; want partial", s)
	}
	_ = host.Close() // the host gives up
	select {
	case err := <-done:
		t.Fatalf("the proxy returned (%v) with the install %q: it ended the launcher mid-install", err, state())
	case <-time.After(300 * time.Millisecond):
	}
	waitEnd(t, done, 30*time.Second, "the proxy did not return after the install finished")
	if s := state(); s != "partial\ncomplete" {
		t.Errorf("when the proxy returned the install was %q; want it complete", s)
	}
	text := notices.String()
	for _, want := range []string{"the host went away — letting the install finish (up to 1 min) so that the next start is fast", "npx finished after"} {
		if !strings.Contains(text, want) {
			t.Errorf("the notices lack %q:\n%s", want, text)
		}
	}
	if pids := faultserver.ServerPids(marker); len(pids) > 0 {
		t.Errorf("the server %v outlived the proxy", pids)
	}
	t.Logf("the proxy's stderr:\n%s", text)
}

// warmCache makes npm's cache (npm_config_cache, as slowLauncher set it)
// hold a complete npx install of packages: the "_npx" npx writes last.
func warmCache(t *testing.T, packages ...string) {
	t.Helper()
	dir := prefetch.NpxDir(os.Getenv("npm_config_cache"), packages)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	body := `{"dependencies": {"` + packages[0] + `": "^1"}, "_npx": {"packages": ["` + packages[0] + `"]}}`
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestProxyInstallNoticeOnlyOnAFirstInstall: while the host waits, the
// proxy says "npx is still installing … (first start" only when npx's
// cache lacks the server's complete install; a warm npx that is merely
// slow to answer is not said to install. A launcher whose cache cannot
// be read this way (uvx) is said not to have answered, and that it may be
// installing: never that it is.
func TestProxyInstallNoticeOnlyOnAFirstInstall(t *testing.T) {
	const slow = 1500 * time.Millisecond // several notices (every 200 ms)
	answered := func(t *testing.T, host mcp.Connection, done <-chan error) {
		t.Helper()
		if _, err := host.Read(context.Background()); err != nil { // the answer to initialize
			t.Fatal(err)
		}
		_ = host.Close()
		waitEnd(t, done, 30*time.Second, "the proxy did not return")
	}
	t.Run("cold npx", func(t *testing.T) {
		npx, _ := slowLauncher(t, slow, testproc.UniqueMarker("install-cold"))
		host, notices, done := installHost(t, []string{npx, "-y", "@fake/server"}, Options{InstallGrace: time.Minute})
		answered(t, host, done)
		for _, want := range []string{"npx is still installing @fake/server (first start,", "npx answered after"} {
			if !strings.Contains(notices.String(), want) {
				t.Errorf("a first install's notices lack %q:\n%s", want, notices)
			}
		}
	})
	t.Run("warm npx", func(t *testing.T) {
		npx, _ := slowLauncher(t, slow, testproc.UniqueMarker("install-warm"))
		warmCache(t, "@fake/server")
		host, notices, done := installHost(t, []string{npx, "-y", "@fake/server"}, Options{InstallGrace: time.Minute})
		answered(t, host, done)
		if text := notices.String(); strings.Contains(text, "install") || strings.Contains(text, "first start") {
			t.Errorf("a warm npx, slow to answer, was said to install:\n%s", text)
		}
	})
	t.Run("uvx", func(t *testing.T) {
		uvx, _ := slowTool(t, "uvx", slow, testproc.UniqueMarker("install-uvx"))
		host, notices, done := installHost(t, []string{uvx, "fake-server"}, Options{InstallGrace: time.Minute})
		answered(t, host, done)
		text := notices.String()
		if !strings.Contains(text, "uvx has not answered yet (") || !strings.Contains(text, "it may be installing fake-server") {
			t.Errorf("uvx's notices do not say it has not answered, and may be installing:\n%s", text)
		}
		if strings.Contains(text, "is still installing") || strings.Contains(text, "first start") {
			t.Errorf("uvx, which cannot be told cold from warm, was said to install:\n%s", text)
		}
	})
}

// TestProxyInstallWaitIsBounded: an install that outlasts InstallGrace, or
// a second signal (Hurry), is ended: the proxy never hangs on it.
func TestProxyInstallWaitIsBounded(t *testing.T) {
	t.Run("grace", func(t *testing.T) {
		marker := testproc.UniqueMarker("install-bound")
		npx, state := slowLauncher(t, 60*time.Second, marker)
		host, notices, done := installHost(t, []string{npx, "-y", "@fake/server"}, Options{InstallGrace: 500 * time.Millisecond})
		waitFor(t, "the install to start", func() bool { return state() == "partial" })
		_ = host.Close()
		start := time.Now()
		waitEnd(t, done, 20*time.Second, "the proxy waited past the bound")
		if d := time.Since(start); d < 500*time.Millisecond {
			t.Errorf("the proxy returned %v after the host went away: before the bound", d)
		}
		if !strings.Contains(notices.String(), "ending it now: its cache may be left incomplete") {
			t.Errorf("the notices do not say it gave up:\n%s", notices)
		}
		waitFor(t, "the launcher gone", func() bool { return len(faultserver.ServerPids(npx)) == 0 })
	})
	t.Run("hurry", func(t *testing.T) {
		marker := testproc.UniqueMarker("install-hurry")
		npx, state := slowLauncher(t, 60*time.Second, marker)
		hurry := make(chan struct{})
		host, notices, done := installHost(t, []string{npx, "-y", "@fake/server"}, Options{InstallGrace: time.Hour, Hurry: hurry})
		waitFor(t, "the install to start", func() bool { return state() == "partial" })
		_ = host.Close()
		waitFor(t, "the proxy to wait for the install", func() bool { return strings.Contains(notices.String(), "letting the install finish") })
		close(hurry)
		waitEnd(t, done, 20*time.Second, "a second signal did not end the wait")
		if !strings.Contains(notices.String(), "told to stop again") {
			t.Errorf("the notices:\n%s", notices)
		}
		waitFor(t, "the launcher gone", func() bool { return len(faultserver.ServerPids(npx)) == 0 })
	})
}

// TestProxyStopsAnInstalledLauncherAtOnce: a launcher whose server has
// answered is installed: when the host goes away it is ended at once, as
// any server is, and nothing is said of an install.
func TestProxyStopsAnInstalledLauncherAtOnce(t *testing.T) {
	marker := testproc.UniqueMarker("install-done")
	npx, _ := slowLauncher(t, 0, marker)
	host, notices, done := installHost(t, []string{npx, "-y", "@fake/server"}, Options{InstallGrace: time.Hour})
	msg, err := host.Read(context.Background()) // the answer to initialize
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := msg.(*jsonrpc.Response); !ok || r.Error != nil {
		t.Fatalf("initialize answered %+v", msg)
	}
	_ = host.Close()
	waitEnd(t, done, 10*time.Second, "the proxy waited for an installed launcher")
	// Before it answered, a slow start (a loaded machine) may be told as
	// "still installing … the host is waiting": that is true then. Once
	// it has answered, its end is no install to let finish.
	if strings.Contains(notices.String(), "letting the install finish") {
		t.Errorf("an installed launcher was let finish an install:\n%s", notices)
	}
	if pids := faultserver.ServerPids(marker); len(pids) > 0 {
		t.Errorf("the server %v outlived the proxy", pids)
	}
}

// waitEnd waits up to within for the proxy to return, and fails the
// test with late if it does not.
func waitEnd(t *testing.T, done <-chan error, within time.Duration, late string) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Logf("the proxy returned %v", err)
		}
	case <-time.After(within):
		t.Fatal(late)
	}
}

// TestProxyRestartLetsAnInstallFinish: a consented change restarts a
// server that takes {roots} while its launcher still installs: the new
// launcher starts at once, and the old one is not ended mid-install — it
// finishes beside it, then ends; nothing of either outlives the proxy.
func TestProxyRestartLetsAnInstallFinish(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	marker := testproc.UniqueMarker("install-restart")
	log := filepath.Join(dir, "log")
	npx := filepath.Join(dir, "npx")
	// Each run says when it starts and when its install is done, by pid.
	script := fmt.Sprintf("#!/bin/sh\necho \"start $$\" >> %q\nsleep 2\necho \"done $$\" >> %q\nexec %q %q\n", log, log, exe, marker)
	if err := os.WriteFile(npx, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	lines := func() []string {
		b, _ := os.ReadFile(log)
		return strings.Fields(strings.ReplaceAll(string(b), "\n", " "))
	}
	src := testproc.NewSource()
	host, notices, done := installHost(t, []string{npx, "-y", "@fake/server", "{roots}"}, Options{Source: src, InstallGrace: time.Minute})
	waitFor(t, "the first install to start", func() bool { return len(lines()) == 2 })
	first := lines()[1]
	src.Set([]consent.Root{root(t, "a")}, nil) // a change: the server takes {roots}, so it is restarted
	waitFor(t, "the second launcher to start", func() bool { return strings.Count(strings.Join(lines(), " "), "start") == 2 })
	waitFor(t, "the first install to finish", func() bool { return strings.Contains(strings.Join(lines(), " "), "done "+first) })
	if !strings.Contains(notices.String(), "the server is restarted (the folders changed and the server takes them as arguments) — letting the install finish") {
		t.Errorf("the notices:\n%s", notices)
	}
	// The host's initialize was in flight: it fails with the restart's
	// error, as any request in flight does (TestProxyInFlightCallFailsOnRestart).
	msg, err := host.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := msg.(*jsonrpc.Response); !ok || r.Error == nil || !strings.Contains(r.Error.Error(), "rootpick restarted the server") {
		t.Errorf("initialize answered %+v", msg)
	}
	_ = host.Close()
	waitEnd(t, done, 30*time.Second, "the proxy did not return")
	if pids := faultserver.ServerPids(marker); len(pids) > 0 {
		t.Errorf("a server %v outlived the proxy", pids)
	}
}

// TestFirstInstall: an npx server whose install folder lacks the "_npx"
// npx writes last is a first start (it may outlive the proxy); a complete
// folder, or another launcher, or no launcher, is not.
func TestFirstInstall(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("npm_config_cache", cache)
	t.Setenv("NPM_CONFIG_CACHE", "")
	first := func(command ...string) bool {
		p := &proxy{log: slog.New(slog.DiscardHandler)}
		if l, ok := prefetch.Of(command); ok {
			p.launcher = &l
		}
		return p.firstInstall()
	}
	const pkg = "@modelcontextprotocol/server-filesystem"
	if !first("npx", "-y", pkg) {
		t.Error("an empty cache: not a first start")
	}
	dir := prefetch.NpxDir(cache, []string{pkg})
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// Mid-install: npx wrote the dependency, not yet its _npx mark.
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"dependencies": {"`+pkg+`": "^1"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if !first("npx", "-y", pkg) || !first("npm", "exec", "--yes", "--", pkg) {
		t.Error("a half-done install: not a first start")
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"dependencies": {"`+pkg+`": "^1"}, "_npx": {"packages": ["`+pkg+`"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if first("npx", "-y", pkg) {
		t.Error("a complete install: a first start")
	}
	if !first("npx", "-y", "@other/pkg") {
		t.Error("another package's empty folder: not a first start")
	}
	if first("uvx", "mcp-server-git") || first("node", "server.js") {
		t.Error("uvx or node: a first start (only npx can be told)")
	}
}
