package testproc

import (
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testskip"
)

// The helpers the tests of mcpconn, mcpconn/proxy and mcpconn/enforcetest
// share: a test file cannot be imported by another package's tests.

// SelfServer is a command that runs the test binary as the fault server
// mode (ROOTPICK_TEST_SERVE; each package's TestMain dispatches it);
// marker appears in its command line, so that a test finds its process.
func SelfServer(t testing.TB, mode, marker string, args ...string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"env", "ROOTPICK_TEST_SERVE=" + mode, exe, marker}, args...)
}

// UniqueMarker is a word no other process's command line holds.
func UniqueMarker(kind string) string {
	return fmt.Sprintf("%s-%d-%d", kind, os.Getpid(), time.Now().UnixNano())
}

// Eventually polls check every 50 ms until it reports true, and fails t
// after 15 s with what check last saw.
func Eventually(t testing.TB, what string, check func() (string, bool)) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		got, ok := check()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s; last saw:\n%s", what, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Collect gathers what ch sends, from now on, and returns a function that
// says what it has gathered so far.
func Collect[E any](ch <-chan E) func() []E {
	got := make(chan []E, 1)
	got <- nil
	go func() {
		for e := range ch {
			es := <-got
			got <- append(es, e)
		}
	}()
	return func() []E {
		es := <-got
		got <- es
		return slices.Clone(es)
	}
}

// Root makes the folder path (and its parents) and returns its root.
func Root(t testing.TB, path string) consent.Root {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := consent.NewRoot(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Logger logs to t under -v, and nowhere otherwise (nil).
func Logger(t testing.TB) *slog.Logger {
	if !testing.Verbose() {
		return nil
	}
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// NPMServer is the command that runs an MCP server from npm
// (@modelcontextprotocol/PKG's dist/BIN) with node, as .ci/run installs
// it under .ci/node_modules (or $ROOTPICK_NODE_MODULES); t is skipped
// without node or the package, and in -short mode.
func NPMServer(t testing.TB, pkg, bin string) []string {
	t.Helper()
	if testing.Short() {
		t.Skip("interop with npm servers is skipped in -short mode")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		testskip.Skip(t, "npm servers", "node not installed: bash .ci/run installs it and the servers")
	}
	dir := os.Getenv("ROOTPICK_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join(moduleRoot(), ".ci", "node_modules")
	}
	script, _ := filepath.Abs(filepath.Join(dir, "@modelcontextprotocol", pkg, "dist", bin))
	if _, err := os.Stat(script); err != nil {
		testskip.Skip(t, "npm servers", "not installed: npm ci --prefix .ci, or bash .ci/run")
	}
	return []string{node, script}
}

// moduleRoot is the folder above the test's own that holds go.mod ("."
// if none does).
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return "."
		}
	}
}

// ListenAndDrop listens on address (network "tcp" or "unix") until t
// ends, accepting and closing every connection, and returns the address
// listened on: a peer a server under test tries to reach.
func ListenAndDrop(t testing.TB, network, address string) string {
	t.Helper()
	ln, err := net.Listen(network, address)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	return ln.Addr().String()
}
