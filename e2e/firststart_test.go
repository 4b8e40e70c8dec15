//go:build unix

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
)

const serverFilesystem = "@modelcontextprotocol/server-filesystem"

// needNpmRegistry skips unless npx is installed and npm's registry
// answers on its port.
func needNpmRegistry(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("npx"); err != nil {
		testskip.Skip(t, "npm servers", "npx not installed: bash .ci/run installs node and npm")
	}
	testskip.NpmRegistry(t)
}

// hostStart is one start of a server by an impatient host: the command
// is started with its stdin and stdout on pipes, sent initialize, and
// given patience to answer; answered says whether it did, and when.
type hostStart struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	stderr   *testproc.Buffer
	answered time.Duration // 0: not within patience
	exited   chan error
}

func startAsHost(t *testing.T, dir string, environ []string, patience time.Duration, command ...string) *hostStart {
	t.Helper()
	h := &hostStart{cmd: exec.Command(command[0], command[1:]...), stderr: &testproc.Buffer{}, exited: make(chan error, 1)}
	h.cmd.Dir, h.cmd.Env, h.cmd.Stderr = dir, environ, h.stderr
	var err error
	if h.stdin, err = h.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := h.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.cmd.Process.Kill() })
	answer := make(chan struct{}, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var m struct {
				ID     any             `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(sc.Bytes(), &m) == nil && fmt.Sprint(m.ID) == "1" && len(m.Result) > 0 {
				answer <- struct{}{}
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		h.exited <- h.cmd.Wait()
	}()
	fmt.Fprintln(h.stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"impatient-host","version":"1"}}}`)
	select {
	case <-answer:
		h.answered = time.Since(start)
	case <-time.After(patience):
	}
	return h
}

// giveUp closes the host's end, as a host that gives up does, and waits
// (up to limit) for the command to exit; it returns how long that took.
func (h *hostStart) giveUp(t *testing.T, limit time.Duration) time.Duration {
	t.Helper()
	_ = h.stdin.Close()
	start := time.Now()
	select {
	case err := <-h.exited:
		if err != nil {
			t.Logf("%s ended: %v", filepath.Base(h.cmd.Path), err)
		}
	case <-time.After(limit):
		t.Fatalf("%s did not exit within %v of the host giving up; its stderr:\n%s", filepath.Base(h.cmd.Path), limit, h.stderr)
	}
	return time.Since(start)
}

// giveUpAsTheSDK ends the command as hosts built on the TypeScript SDK
// end a server that missed their timeout (StdioClientTransport.close):
// its input closed, SIGTERM 2 s later, SIGKILL 2 s after that. It returns
// the last signal it had to send (0: none).
func (h *hostStart) giveUpAsTheSDK(t *testing.T) syscall.Signal {
	t.Helper()
	_ = h.stdin.Close()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		select {
		case err := <-h.exited:
			t.Logf("it exited by itself: %v", err)
			return 0
		case <-time.After(2 * time.Second):
		}
		_ = h.cmd.Process.Signal(sig)
		if sig == syscall.SIGKILL {
			err := <-h.exited
			t.Logf("killed: %v", err)
			return sig
		}
	}
	return 0
}

// processesWith are the processes whose environment holds entry (the
// test's own npm cache setting: only what it started has it).
func processesWith(entry string) []string {
	var pids []string
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		b, err := os.ReadFile(filepath.Join("/proc", p.Name(), "environ"))
		if err == nil && slices.Contains(strings.Split(string(b), "\x00"), entry) {
			pids = append(pids, p.Name())
		}
	}
	return pids
}

// TestE2EFirstStartThroughLaunchers: server-filesystem through `rootpick
// proxy -- npx -y` with a cold npm cache (its own, npm_config_cache). A
// host that gives up while npx still installs (after 1.5 s; the cold start
// took 4–50 s) and then ends the proxy as the TypeScript SDK's hosts do
// (SIGTERM 2 s later, SIGKILL 2 s after that) does not break the cache:
// the proxy says it lets the install finish, the install outlives the
// proxy's SIGKILL, finishes and ends; the cache then holds the package
// with its dependencies (zod), nothing of it runs, and a host that gives
// up after 5 s connects. Then,
// in a second cache that has the downloaded tarballs but no npx install,
// `hosts wrap` fills the very folder that the wrapped entry's npx runs
// from (the entry's own npm_config_cache), and that entry's first start,
// offline, answers a 5 s host without installing anything.
func TestE2EFirstStartThroughLaunchers(t *testing.T) {
	t.Parallel()
	bin := rootpickBin(t)
	needNpmRegistry(t)
	_, project, environ := hostCLISandbox(t)
	cache := filepath.Join(t.TempDir(), "npm-cache")
	environ = append(environ, "npm_config_cache="+cache, "npm_config_update_notifier=false")
	installDir := prefetch.NpxDir(cache, []string{serverFilesystem})

	// 1. The cold start; the host gives up mid-install.
	start := time.Now()
	h := startAsHost(t, project, environ, 1500*time.Millisecond, bin, "proxy", "--name=fs", "--", "npx", "-y", serverFilesystem)
	if h.answered > 0 {
		t.Skipf("the cold npx start answered in %v: too fast to give up during it", h.answered)
	}
	sig := h.giveUpAsTheSDK(t)
	marker := filepath.Join(installDir, "package.json")
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		b, _ := os.ReadFile(marker)
		if bytes.Contains(b, []byte(`"_npx"`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("npx's install did not finish (no _npx in %s); the proxy's stderr:\n%s", marker, h.stderr)
		}
	}
	installed := time.Since(start)
	for deadline := time.Now().Add(time.Minute); len(processesWith("npm_config_cache="+cache)) > 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("processes %v still run a minute after the install finished", processesWith("npm_config_cache="+cache))
		}
	}
	t.Logf("cold start: the host gave up after 1.5 s (then %v); the install finished %v after the start, and everything of it ended %v after the start",
		sig, installed.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	stderr := h.stderr.String()
	for _, want := range []string{
		"the host went away — letting the install finish (up to 3 min) so that the next start is fast",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the proxy's stderr lacks %q:\n%s", want, stderr)
		}
	}
	for _, p := range []string{"node_modules/" + serverFilesystem + "/package.json", "node_modules/zod/package.json"} {
		if _, err := os.Stat(filepath.Join(installDir, p)); err != nil {
			t.Errorf("after the host gave up, npx's install lacks %s: %v", p, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(installDir, "package.json")); err != nil || !bytes.Contains(b, []byte(`"_npx"`)) {
		t.Errorf("npx did not finish its install (no _npx in its package.json): %v\n%s", err, b)
	}

	// 2. The next start: a 5 s host connects (5 s on an idle machine,
	// scaled by the load; that nothing is installed again is what step 3
	// checks, offline, with the install folder unchanged).
	h = startAsHost(t, project, environ, loadBound(t, 5*time.Second), bin, "proxy", "--name=fs", "--", "npx", "-y", serverFilesystem)
	if h.answered == 0 {
		t.Fatalf("the start after the interrupted first one did not answer a 5 s host; the proxy's stderr:\n%s", h.stderr)
	}
	t.Logf("the next start answered initialize in %v", h.answered.Round(time.Millisecond))
	h.giveUp(t, 30*time.Second)

	// 3. hosts wrap fetches ahead, into the entry's own cache.
	cache2 := filepath.Join(t.TempDir(), "npm-cache")
	copyDir(t, filepath.Join(cache, "_cacache"), filepath.Join(cache2, "_cacache"))
	writeFile(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "`+serverFilesystem+`"], "env": {"npm_config_cache": `+jsonQuote(cache2)+`}}}}`+"\n")
	start = time.Now()
	// --prefetch: with --yes, a project file's entries are fetched only on
	// request (they came with the repository).
	out := runIn(t, project, environ, bin, "hosts", "wrap", "claude", "--yes", "--prefetch")
	t.Logf("hosts wrap with its prefetch took %v", time.Since(start).Round(time.Millisecond))
	if !strings.Contains(out, "fs: fetched "+serverFilesystem+" with npx in ") {
		t.Errorf("hosts wrap does not say it fetched the package:\n%s", out)
	}
	installDir2 := prefetch.NpxDir(cache2, []string{serverFilesystem})
	pkg := filepath.Join(installDir2, "package.json")
	before, err := os.Stat(pkg)
	if err != nil {
		t.Fatalf("hosts wrap did not fill %s, where the entry's npx runs from: %v\n%s", installDir2, err, out)
	}
	var wrapped struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	b, _ := os.ReadFile(filepath.Join(project, ".mcp.json"))
	if err := json.Unmarshal(b, &wrapped); err != nil {
		t.Fatal(err)
	}
	fs := wrapped.MCPServers["fs"]
	if !slices.Contains(fs.Args, "proxy") {
		t.Fatalf("not wrapped:\n%s", b)
	}
	// The host's first start, as the host makes it (rootpick by name,
	// from PATH; the entry's env): nothing left to install. The entry has
	// the network off (server-filesystem needs none): enforced, the proxy
	// itself tells npx to stay offline, as a real host's start meets it
	// (npx -y waited a minute on the registry before it did); advisory,
	// the test does.
	env2 := slices.Clone(environ)
	if !landlockHere() {
		env2 = append(env2, "npm_config_offline=true")
	}
	for k, v := range fs.Env {
		env2 = append(env2, k+"="+v)
	}
	command := fs.Command
	if command == "rootpick" {
		command = bin // what the environment's PATH finds first (hostCLISandbox)
	}
	h = startAsHost(t, project, env2, loadBound(t, 5*time.Second), append([]string{command}, fs.Args...)...)
	if h.answered == 0 {
		t.Fatalf("after hosts wrap's prefetch, the first start did not answer a 5 s host; the proxy's stderr:\n%s", h.stderr)
	}
	t.Logf("after the prefetch, the first start answered initialize in %v", h.answered.Round(time.Millisecond))
	h.giveUp(t, 30*time.Second)
	if after, err := os.Stat(pkg); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the first start installed again (%s changed): the prefetch filled another folder than the one npx -y runs from", pkg)
	}
	entries, _ := os.ReadDir(filepath.Join(cache2, "_npx"))
	if len(entries) != 1 {
		t.Errorf("the entry's cache holds %d npx installs; want the prefetched one only", len(entries))
	}
}

// copyDir copies the regular files under from to to.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}
