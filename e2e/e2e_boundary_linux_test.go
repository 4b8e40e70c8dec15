package e2e

// End-to-end tests of the boundary as a person lives with it: a folder
// shared read-only, and a server enforcement refused, allowed from the
// pane. The servers are the test binary (fault servers); what they could
// open is what they report on stderr (the log) and what is on disk.

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn"
)

func init() {
	// writer fetches its roots like a roots-aware server and, for each,
	// tries to create a file in it and to list it, reporting each result
	// on stderr: "probe PATH write=ok|ERR list=ok|ERR".
	faultServers["writer"] = func() {
		probe := func(roots []*mcp.Root) {
			for _, r := range roots {
				p := strings.TrimPrefix(r.URI, "file://")
				write, list := "ok", "ok"
				if err := os.WriteFile(filepath.Join(p, ".rootpick-probe"), []byte("x"), 0o600); err != nil {
					write = errName(err)
				}
				if _, err := os.ReadDir(p); err != nil {
					list = errName(err)
				}
				fmt.Fprintf(os.Stderr, "probe %s write=%s list=%s\n", p, write, list)
			}
		}
		fetch := func(ss *mcp.ServerSession) {
			go func() {
				if res, err := ss.ListRoots(context.Background(), nil); err == nil {
					probe(res.Roots)
				}
			}()
		}
		s := mcp.NewServer(&mcp.Implementation{Name: "writer", Version: "1"}, &mcp.ServerOptions{
			InitializedHandler:      func(_ context.Context, r *mcp.InitializedRequest) { fetch(r.Session) },
			RootsListChangedHandler: func(_ context.Context, r *mcp.RootsListChangedRequest) { fetch(r.Session) },
		})
		_ = s.Run(context.Background(), &mcp.StdioTransport{})
	}
	// needs-settings reads ~/.config/myserver/settings.json before it
	// serves anything, and exits 1 with Go's own error when it cannot.
	faultServers["needs-settings"] = func() {
		home, _ := os.UserHomeDir()
		if _, err := os.ReadFile(filepath.Join(home, ".config", "myserver", "settings.json")); err != nil {
			fmt.Fprintln(os.Stderr, "reading settings:", err)
			os.Exit(1)
		}
		_ = mcpconn.NewDemo(nil, nil).ServeStdio(context.Background())
	}
}

// errName is an error's errno name (EACCES), or its text.
func errName(err error) string {
	switch {
	case strings.Contains(err.Error(), "permission denied"):
		return "EACCES"
	case strings.Contains(err.Error(), "operation not permitted"):
		return "EPERM"
	}
	return err.Error()
}

// needEnforcement skips unless this kernel has Landlock.
func needEnforcement(t *testing.T) {
	t.Helper()
	if !landlockHere() {
		testskip.Skip(t, "landlock", "this kernel has no Landlock: the boundary tests need Linux 5.13 or later with it on")
	}
}

// faultServerCommand is the config file's command for fault server name.
func faultServerCommand(t *testing.T, name string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("[%q, %q, %q]", "env", "ROOTPICK_FAULT_SERVER="+name, exe)
}

// TestE2EReadOnlyFolder: a folder checked read-only (ctrl+l) is listed
// under read-only in the dialog and served so: the server that ignores
// the consent's access can list it and not write in it, and can write in
// the read and write folder beside it; --print says read_only.
func TestE2EReadOnlyFolder(t *testing.T) {
	t.Parallel()
	needEnforcement(t)
	tree := makeRepos(t, t.TempDir(), "app", "docs")
	out := filepath.Join(t.TempDir(), "out.json")
	tt := newTUI(t)
	writeFile(t, filepath.Join(tt.dir, "config", "rootpick", "config.toml"), "[servers.writer]\ncommand = "+faultServerCommand(t, "writer")+"\n")
	tt.start(tuiOptions{width: 110, height: 30, args: []string{"--print", tree}, stdout: out})
	tt.waitRows(2)
	tt.send("Space", "Down", "Space", "C-l")
	tt.waitText("docs: read-only")
	tt.send("Enter")
	tt.waitArmed(2, 0)
	tt.waitText("+ added, read and write (1)", "+ app", "+ added, read-only (1)", "+ docs")
	tt.send("y")
	app, docs := filepath.Join(tree, "app"), filepath.Join(tree, "docs")
	tt.waitFor("the server's probes", func(string) bool {
		l := tt.log()
		return strings.Contains(l, "probe "+app+" ") && strings.Contains(l, "probe "+docs+" ")
	})
	log := tt.log()
	for _, want := range []string{"probe " + app + " write=ok list=ok", "probe " + docs + " write=EACCES list=ok"} {
		if !strings.Contains(log, want) {
			t.Errorf("the server's probes lack %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(docs, ".rootpick-probe")); err == nil {
		t.Error("the server wrote in the read-only folder")
	}
	if _, err := os.Stat(filepath.Join(app, ".rootpick-probe")); err != nil {
		t.Errorf("the server could not write in the read and write folder: %v", err)
	}
	tt.send("Escape")
	if code := tt.waitExit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	roots := readPrinted(t, out)
	if len(roots) != 2 || roots[0].Path != app || roots[0].ReadOnly || roots[1].Path != docs || !roots[1].ReadOnly {
		t.Errorf("--print: %+v", roots)
	}
}

// TestE2ERefusedAllowedFromThePane: a server of the config file that
// cannot read its settings file under enforcement is said stopped by
// enforcement, naming the file; a in the pane allows it, keeps it in the
// config file (comments kept), and the server connects, still enforced.
func TestE2ERefusedAllowedFromThePane(t *testing.T) {
	t.Parallel()
	needEnforcement(t)
	tree := makeRepos(t, t.TempDir(), "app")
	tt := newTUI(t)
	settings := filepath.Join(tt.home, ".config", "myserver", "settings.json")
	writeFile(t, settings, "{}\n")
	config := filepath.Join(tt.dir, "config", "rootpick", "config.toml")
	writeFile(t, config, "# my servers\n[servers.settings]\ncommand = "+faultServerCommand(t, "needs-settings")+"\n")
	tt.start(tuiOptions{width: 140, height: 40, args: []string{tree}})
	tt.waitRows(1)
	tt.send("C-o")
	tt.waitText("refused   ~/.config/myserver/settings.json (read)", "a lets it read ~/.config/myserver/settings.json")
	tt.waitText("stopped by enforcement? refused: " + settings + " (read)")
	tt.send("a")
	tt.waitText("enforced (Landlock ABI", "~/.config/myserver/settings.json  read+exec (allow-read)")
	tt.waitText("settings may read ~/.config/myserver/settings.json; kept in " + config)
	b, err := os.ReadFile(config)
	if err != nil || !strings.Contains(string(b), "# my servers\n[servers.settings]\nallow-read = [\"~/.config/myserver/settings.json\"]\n") {
		t.Errorf("the config file: %v\n%s", err, b)
	}
	tt.quit()
}

func init() {
	// dialer connects to the TCP address in ROOTPICK_DIAL before it
	// serves, says on stderr whether it could ("dial ok" or "dial
	// EACCES"), then serves as the demo does.
	faultServers["dialer"] = func() {
		res := "ok"
		if c, err := net.DialTimeout("tcp", os.Getenv("ROOTPICK_DIAL"), 5*time.Second); err != nil {
			res = errName(err)
		} else {
			c.Close()
		}
		fmt.Fprintln(os.Stderr, "dial "+res)
		_ = mcpconn.NewDemo(nil, nil).ServeStdio(context.Background())
	}
}

// TestE2ENetworkOff: a server of the config file with network = "off"
// cannot open a TCP connection, to loopback either; one with the default
// (on) can, from the same program; the pane says which.
func TestE2ENetworkOff(t *testing.T) {
	t.Parallel()
	needEnforcement(t)
	addr := testproc.ListenAndDrop(t, "tcp", "127.0.0.1:0")
	tree := makeRepos(t, t.TempDir(), "app")
	tt := newTUI(t)
	tt.env = append(tt.env, "ROOTPICK_DIAL="+addr)
	cmd := faultServerCommand(t, "dialer")
	writeFile(t, filepath.Join(tt.dir, "config", "rootpick", "config.toml"),
		"[servers.off]\ncommand = "+cmd+"\nnetwork = \"off\"\n[servers.on]\ncommand = "+cmd+"\n")
	tt.start(tuiOptions{width: 140, height: 40, args: []string{tree}})
	tt.waitFor("both servers' dials", func(string) bool {
		l := tt.log()
		return strings.Count(l, "dial ") >= 2
	})
	log := tt.log()
	for _, want := range []string{`server=off line="dial EACCES"`, `server=on line="dial ok"`} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %s", want)
		}
	}
	tt.send("C-o")
	tt.waitText("network   off (no TCP or UDP")
	tt.quit()
}

// TestE2EShellWrappedServerEnforced: server-filesystem started through
// `sh -c 'exec node …'` (as host configurations often do) runs enforced,
// named for what it runs, and holds exactly the consented folder.
func TestE2EShellWrappedServerEnforced(t *testing.T) {
	t.Parallel()
	needEnforcement(t)
	js := npmPath(t, filepath.Join("@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	tree := makeRepos(t, t.TempDir(), "alpha", "beta")
	tt := startTUI(t, tuiOptions{width: 200, height: 30, args: []string{tree, "--", "sh", "-c", "exec node " + js}})
	tt.shareFirstRow("server-filesystem")
	tt.send("C-o")
	tt.waitText("enforced (Landlock ABI")
	tt.quit()
}
