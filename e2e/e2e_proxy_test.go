package e2e

// End-to-end tests of rootpick proxy: a real host (the MCP Inspector's CLI
// mode) and a Go host launching the built binary's proxy in front of
// @modelcontextprotocol/server-filesystem, and the picker in tmux writing
// the consent that the proxy serves.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"mvdan.cc/sh/v3/shell"
)

// npmPath returns a file of the npm servers installed by npm ci --prefix
// .ci, or skips.
func npmPath(t *testing.T, rel string) string {
	t.Helper()
	return ciNodeModule(t, rel, "npm servers", "the servers")
}

// ciNodeModule returns the file rel under .ci/node_modules, or skips as
// part of group (whose packages what names) when it or node is missing.
func ciNodeModule(t *testing.T, rel, group, what string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", ".ci", "node_modules", rel))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		testskip.Skip(t, group, what+" not installed: npm ci --prefix .ci, or bash .ci/run")
	}
	if _, err := exec.LookPath("node"); err != nil {
		testskip.Skip(t, group, "node not installed: bash .ci/run installs it and "+what)
	}
	return p
}

// allowedDirs parses server-filesystem's list_allowed_directories text.
func allowedDirs(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "/") {
			out = append(out, l)
		}
	}
	return out
}

// saveConsent writes roots as profile's consent, as the picker does on y.
func saveConsent(t *testing.T, profile, dir string, roots ...consent.Root) {
	t.Helper()
	store, err := consent.OpenStore(profile)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Save(consent.Record{Dir: dir, Roots: roots, Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

// TestE2EInspectorThroughProxy: the MCP Inspector's CLI, a real host,
// launches rootpick proxy in front of server-filesystem and asks the server
// what it allows: nothing before consent, exactly the consented folder
// after.
//
// The Inspector calls the tool right after initialize, while
// server-filesystem may still be taking in the roots it fetched on
// initialized (on a loaded machine it often is): an answer counts only
// once the server has said, in the proxy's log, that it took its roots.
func TestE2EInspectorThroughProxy(t *testing.T) {
	inspector := npmPath(t, filepath.Join(".bin", "mcp-inspector"))
	fs := npmPath(t, filepath.Join("@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	bin := rootpickBin(t)
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	tree := makeRepos(t, t.TempDir(), "alpha", "beta")
	alpha, err := consent.NewRoot(filepath.Join(tree, "alpha"))
	if err != nil {
		t.Fatal(err)
	}
	askOnce := func() []string {
		t.Helper()
		cmd := exec.Command(inspector, "--cli", "-e", "XDG_STATE_HOME="+state,
			bin, "proxy", "--profile", "insp", "node", fs,
			"--method", "tools/call", "--tool-name", "list_allowed_directories")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("inspector: %v\n%s\n%s", err, out.String(), errb.String())
		}
		var res struct {
			Content []struct{ Text string } `json:"content"`
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res.Content) == 0 {
			t.Fatalf("inspector printed %q: %v", out.String(), err)
		}
		return allowedDirs(res.Content[0].Text)
	}
	// logs is what the proxies have logged so far, server-filesystem's
	// stderr included.
	logs := func() string {
		files, _ := filepath.Glob(filepath.Join(state, "rootpick", "proxy-insp-*.log"))
		var text string
		for _, f := range files {
			b, _ := os.ReadFile(f)
			text += string(b)
		}
		return text
	}
	// allows asks until the server allows want, within e2eWait. For
	// nothing, an empty answer proves little (it is also what the server
	// holds before it took its roots), so it takes the server's own words
	// that the roots it was given were none; words that it took some fail
	// at once.
	allows := func(when string, want ...string) {
		t.Helper()
		for deadline := time.Now().Add(e2eWait); ; {
			before := len(logs())
			got := askOnce()
			said := logs()[before:]
			if len(want) == 0 {
				if len(got) != 0 || strings.Contains(said, "Updated allowed directories from MCP roots") {
					t.Fatalf("%s the server allows %v; it said:\n%s", when, got, said)
				}
				if strings.Contains(said, "No valid root directories provided by client") {
					return
				}
			} else if slices.Equal(got, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s the server allows %v, want %v; it said:\n%s", when, got, want, said)
			}
		}
	}
	allows("before any consent")
	saveConsent(t, "insp", tree, alpha)
	allows("after consenting to alpha", alpha.Path)
	saveConsent(t, "other", tree, alpha, alpha) // another profile changes nothing here
	saveConsent(t, "insp", tree)
	allows("after revoking all")
	// A corrupt consent file serves nothing, and the proxy still works.
	saveConsent(t, "insp", tree, alpha)
	store, _ := consent.OpenStore("insp")
	if err := os.WriteFile(store.Path(), []byte(`{"roots": [garbage`), 0o600); err != nil {
		t.Fatal(err)
	}
	allows("with a corrupt consent file")
}

// TestE2EPickerAndProxy: the picker of profile t in tmux and a proxy of
// profile t driven by a Go host, sharing the default state folder, or one
// both are given with --state-dir (the default then holds nothing of
// theirs: a side that ignored the flag would not meet the other). y in
// the picker reaches the server behind the proxy at once, and the picker
// shows the proxy verified (it asked its server what it holds), with its
// protocol and when it last fetched.
func TestE2EPickerAndProxy(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	fs := npmPath(t, filepath.Join("@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	bin := rootpickBin(t)
	for _, flagged := range []bool{false, true} {
		name := "default"
		if flagged {
			name = "state-dir"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pickerAndProxy(t, bin, fs, flagged)
		})
	}
}

func pickerAndProxy(t *testing.T, bin, fs string, flagged bool) {
	tree := makeRepos(t, t.TempDir(), "alpha", "beta")
	tt := newTUI(t)
	var stateArgs []string
	if flagged {
		stateArgs = []string{"--state-dir", filepath.Join(t.TempDir(), "elsewhere")}
	}

	// The host: a go-sdk client starting the proxy as Claude Code would.
	cmd := exec.Command(bin, append(append([]string{"proxy", "--profile", "t"}, stateArgs...), "--", "node", fs)...)
	cmd.Env = tt.env
	client := mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "1"}, nil)
	ctx := context.Background()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	allowed := func() []string {
		t.Helper()
		// A call that meets the proxy restarting its server (revoke-all)
		// is answered "retry the request", as documented: retry it.
		for deadline := time.Now().Add(e2eWait); ; time.Sleep(50 * time.Millisecond) {
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "list_allowed_directories", Arguments: map[string]any{}})
			if err == nil {
				return allowedDirs(res.Content[0].(*mcp.TextContent).Text)
			}
			if !strings.Contains(err.Error(), "retry the request") || time.Now().After(deadline) {
				t.Fatal(err)
			}
		}
	}
	if got := allowed(); len(got) != 0 {
		t.Fatalf("before consent: %v", got)
	}

	tt.start(tuiOptions{width: 200, height: 24, args: append(append([]string{"--profile", "t"}, stateArgs...), tree)})
	rows := tt.waitRows(2)
	first := filepath.Join(tree, rows[0].label())
	tt.waitStatus("test-host → secure-filesystem-server (proxy)")
	tt.send("Space", "Enter")
	tt.waitArmed(1, 0)
	start := time.Now()
	tt.send("y")
	deadline := start.Add(e2eWait)
	for !slices.Equal(allowed(), []string{first}) {
		if time.Now().After(deadline) {
			t.Fatalf("%v after y the server behind the proxy allows %v, want %s", e2eWait, allowed(), first)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("y → the server behind the proxy allows the folder: %v", time.Since(start))
	tt.waitStatus("1 root exposed", "test-host → secure-filesystem-server (proxy) verified")
	tt.send("C-o")
	tt.waitFor("the proxy's protocol and last fetch in the server pane", func(s string) bool {
		return strings.Contains(s, "protocol 2025-11-25") && strings.Contains(s, "1 root fetched at ")
	})
	tt.send("C-o")
	if flagged {
		if _, err := os.Stat(filepath.Join(tt.dir, "state", "rootpick", "consent", "t.json")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("with --state-dir the default state folder has a record of profile t: %v", err)
		}
	}

	// Revoke all: the proxy restarts the server with none; the host's
	// session goes on.
	tt.send("C-d")
	tt.waitArmed(0, 1)
	tt.send("y")
	deadline = time.Now().Add(e2eWait)
	for len(allowed()) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("after revoking all the server behind the proxy allows %v", allowed())
		}
		time.Sleep(50 * time.Millisecond)
	}
	tt.waitStatus("nothing shared", "(proxy) ready")

	// The host goes away: the proxy and the server behind it end.
	proxyPid := cmd.Process.Pid
	servers := faultserver.ChildrenOf(proxyPid)
	if len(servers) == 0 {
		t.Fatal("no server process behind the proxy")
	}
	_ = session.Close()
	bound := loadBound(t, 5*time.Second)
	deadline = time.Now().Add(bound)
	for {
		var alive []int
		for _, p := range append([]int{proxyPid}, servers...) {
			if faultserver.Running(p) {
				alive = append(alive, p)
			}
		}
		if len(alive) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%v after the host went away, processes %v (proxy %d) still run", bound, alive, proxyPid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	tt.waitFor("the proxy gone from the picker", func(s string) bool { return !strings.Contains(statusLine(s), "(proxy)") })
	tt.quit()
}

// TestE2EProxyTellsTheHostWhenNoConsent: with no record of its profile,
// the proxy tells its host, in a notifications/message the host shows
// its user, why no folder is shared and the picker command that gives
// consent to this very proxy: same profile, same state folder (one with a
// space and a quote in its name), pasteable into a shell as printed.
func TestE2EProxyTellsTheHostWhenNoConsent(t *testing.T) {
	t.Parallel()
	fs := npmPath(t, filepath.Join("@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	bin := rootpickBin(t)
	state := filepath.Join(t.TempDir(), "my state's")
	cmd := exec.Command(bin, "proxy", "--profile", "work", "--state-dir", state, "--", "node", fs)
	told := make(chan string, 10)
	client := mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "1"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			if s, ok := r.Params.Data.(string); ok && r.Params.Level == "warning" {
				told <- s
			}
		},
	})
	session, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	var note string
	select {
	case note = <-told:
	case <-time.After(e2eWait):
		t.Fatalf("the host was told nothing within %v", e2eWait)
	}
	record := filepath.Join(state, "consent", "work.json")
	for _, want := range []string{"no folders are shared with this server", `no consent of profile "work"`, record} {
		if !strings.Contains(note, want) {
			t.Errorf("the host was told %q, lacking %q", note, want)
		}
	}
	_, command, ok := strings.Cut(note, "Choose the folders with: ")
	if !ok {
		t.Fatalf("the host was not told how to choose the folders: %q", note)
	}
	args, err := shell.Fields(command, nil)
	if want := []string{"rootpick", "--profile", "work", "--state-dir", state, "DIR"}; err != nil || !slices.Equal(args, want) {
		t.Errorf("the command told, %q, reads in a shell as %q (%v), want %q", command, args, err, want)
	}
}
