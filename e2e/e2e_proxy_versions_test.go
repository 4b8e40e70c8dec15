package e2e

// The version matrix of rootpick proxy: a host asking for each MCP
// revision from 2024-11-05 to 2026-07-28, in front of each kind of server
// (server-filesystem and server-everything from npm, rootpick's go-sdk demo
// server), through the built binary's stdio, message by message.

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/proxy"
)

// lineHost speaks newline-delimited JSON-RPC to a process's stdio.
type lineHost struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan map[string]any
	seq   int
}

func startLineHost(t *testing.T, cmd *exec.Cmd) *lineHost {
	t.Helper()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &lineHost{t: t, in: in, lines: make(chan map[string]any, 64)}
	go func() {
		defer close(h.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 1<<16), 64<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				h.lines <- m
			}
		}
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }() // only that it ended matters here
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("the proxy did not end 10 s after its stdin closed")
		}
	})
	return h
}

func (h *lineHost) write(m map[string]any) {
	h.t.Helper()
	m["jsonrpc"] = "2.0"
	b, _ := json.Marshal(m)
	if _, err := h.in.Write(append(b, '\n')); err != nil {
		h.t.Fatal(err)
	}
}

// call sends a request and returns its result, answering any request of
// the server's meanwhile with "method not found" (this host offers
// nothing) and noting notifications in seen.
func (h *lineHost) call(method string, params any, seen func(map[string]any)) map[string]any {
	h.t.Helper()
	h.seq++
	id := float64(h.seq)
	h.write(map[string]any{"id": id, "method": method, "params": params})
	deadline := time.After(20 * time.Second)
	for {
		select {
		case m, ok := <-h.lines:
			if !ok {
				h.t.Fatalf("the proxy closed stdout while %s was pending", method)
			}
			if m["id"] == id && m["method"] == nil {
				if e, ok := m["error"]; ok {
					h.t.Fatalf("%s: %v", method, e)
				}
				res, _ := m["result"].(map[string]any)
				return res
			}
			if m["method"] != nil && m["id"] != nil {
				h.write(map[string]any{"id": m["id"], "error": map[string]any{"code": -32601, "message": "not offered by this host"}})
			} else if seen != nil {
				seen(m)
			}
		case <-deadline:
			h.t.Fatalf("no answer to %s within 20 s", method)
		}
	}
}

// TestE2EProxyVersionMatrix: for every host version and every server, the
// host gets back the version it asked for when that version has roots, the
// pin (2025-11-25) otherwise, and the server ends up holding exactly the
// consented folder.
func TestE2EProxyVersionMatrix(t *testing.T) {
	t.Parallel()
	bin := rootpickBin(t)
	fs := npmPath(t, filepath.Join("@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	every := npmPath(t, filepath.Join("@modelcontextprotocol", "server-everything", "dist", "index.js"))
	servers := []struct {
		name    string
		command []string
		tool    string
	}{
		{"filesystem", []string{"node", fs}, "list_allowed_directories"},
		{"everything", []string{"node", every, "stdio"}, "get-roots-list"},
		{"go-sdk", []string{bin, "serve-demo"}, "list_roots"},
	}
	versions := append(append([]string(nil), proxy.RootsVersions...), "2026-07-28")
	for _, srv := range servers {
		for _, v := range versions {
			t.Run(srv.name+"/"+v, func(t *testing.T) {
				t.Parallel()
				base := t.TempDir()
				state := filepath.Join(base, "state")
				tree := makeRepos(t, mkdirAll(t, filepath.Join(base, "tree")), "alpha", "beta")
				alpha, err := consent.NewRoot(filepath.Join(tree, "alpha"))
				if err != nil {
					t.Fatal(err)
				}
				store, _ := consent.OpenStoreIn(state, "m")
				if err := store.Save(consent.Record{Dir: tree, Roots: []consent.Root{alpha}, Time: time.Now()}); err != nil {
					t.Fatal(err)
				}
				log := filepath.Join(base, "proxy.log")
				args := append([]string{"proxy", "--profile", "m", "--state-dir", state, "--log", log, "--debug", "--"}, srv.command...)
				cmd := exec.Command(bin, args...)
				cmd.Env = append(os.Environ(), "XDG_STATE_HOME=/nonexistent-so-only-state-dir-counts")
				h := startLineHost(t, cmd)

				res := h.call("initialize", map[string]any{"protocolVersion": v, "capabilities": map[string]any{},
					"clientInfo": map[string]any{"name": "matrix-host", "version": "1"}}, nil)
				want := v
				if v == "2026-07-28" {
					want = mcpconn.DefaultProtocolVersion
				}
				if got := res["protocolVersion"]; got != want {
					t.Fatalf("asked %s, got %v back; want %s", v, got, want)
				}
				h.write(map[string]any{"method": "notifications/initialized", "params": map[string]any{}})
				// The barrier: the proxy answered the server's roots/list.
				waitLog(t, []string{log}, "roots/list answered")
				var text string
				for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
					out := h.call("tools/call", map[string]any{"name": srv.tool, "arguments": map[string]any{}}, nil)
					b, _ := json.Marshal(out["content"])
					text = string(b)
					if strings.Contains(text, alpha.Path) {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("%s never held %s: %s", srv.name, alpha.Path, text)
					}
				}
				// beta, beside alpha, was not consented to.
				if n := strings.Count(text, tree); n != strings.Count(text, alpha.Path) || strings.Contains(text, filepath.Join(tree, "beta")) {
					t.Errorf("%s holds more than the consent: %s", srv.name, text)
				}
			})
		}
	}
}

func mkdirAll(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// waitLog waits until one of the files holds one of subs.
func waitLog(t *testing.T, files []string, subs ...string) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var b []byte
		for _, f := range files {
			text, _ := os.ReadFile(f)
			b = append(b, text...)
		}
		for _, s := range subs {
			if strings.Contains(string(b), s) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the log never said any of %q:\n%s", subs, b)
		}
	}
}
