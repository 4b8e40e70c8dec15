package e2e

// End-to-end tests of what rootpick believes of its state files: records
// planted or mangled as another user on the machine (or a cloned
// repository) could, read back by the built binary's proxy and by
// --resume, asserting what a real server-filesystem ends up allowing.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn/proxy"
)

// plantCase mangles the consent of profile "p" under state, which holds a
// good record of alpha (scanned folder tree) when it runs, and says what
// the server behind the proxy must then allow.
type plantCase struct {
	id     string // the subtest's name: short, for tmux's socket path
	name   string
	root   bool // needs root (chown to another user)
	plant  func(t *testing.T, store *consent.Store, tree, home string)
	allows func(tree string) []string // nil: nothing
	why    string                     // what the proxy's entry and the picker's status line say
}

// rawRecord writes a record holding roots as given, bypassing Save's
// defaults, as someone planting a file would.
func rawRecord(t *testing.T, store *consent.Store, dir string, granted map[string][]string, paths ...string) {
	t.Helper()
	var roots []consent.Root
	for _, p := range paths {
		roots = append(roots, consent.Root{Path: p, URI: consent.PathToURI(p), Name: filepath.Base(p)})
	}
	if err := store.Save(consent.Record{Dir: dir, Roots: roots, Granted: granted, Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

func replacePath(t *testing.T, path string, make func(string) error) {
	t.Helper()
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
	if err := make(path); err != nil {
		t.Fatal(err)
	}
}

var plantCases = []plantCase{
	{id: "good", name: "the good record", allows: func(tree string) []string { return []string{filepath.Join(tree, "alpha")} }},
	{id: "link", why: "is a symbolic link", name: "a symlink to a record elsewhere", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		elsewhere := filepath.Join(t.TempDir(), "planted.json")
		b, _ := os.ReadFile(s.Path())
		if err := os.WriteFile(elsewhere, b, 0o600); err != nil {
			t.Fatal(err)
		}
		replacePath(t, s.Path(), func(p string) error { return os.Symlink(elsewhere, p) })
	}},
	{id: "0666", why: "is writable by others (mode 0666)", name: "a record writable by all", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		if err := os.Chmod(s.Path(), 0o666); err != nil {
			t.Fatal(err)
		}
	}},
	{id: "fifo", why: "is a FIFO", name: "a FIFO", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		replacePath(t, s.Path(), func(p string) error { return syscall.Mkfifo(p, 0o600) })
	}},
	{id: "zero", why: "is a symbolic link", name: "a link to /dev/zero", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		replacePath(t, s.Path(), func(p string) error { return os.Symlink("/dev/zero", p) })
	}},
	{id: "owner", why: "belongs to user 65534", name: "another user's record", root: true, plant: func(t *testing.T, s *consent.Store, tree, home string) {
		if err := os.Chown(s.Path(), 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}},
	{id: "statedir", why: "belongs to user 65534", name: "a state folder made by another user, open to all", root: true, plant: func(t *testing.T, s *consent.Store, tree, home string) {
		state := filepath.Dir(s.Dir())
		if err := os.Chown(state, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(state, 0o777); err != nil {
			t.Fatal(err)
		}
	}},
	{id: "loose", why: "is open to others (mode 0755", name: "a consent folder open to others", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		if err := os.Chmod(s.Dir(), 0o755); err != nil {
			t.Fatal(err)
		}
	}},
	{id: "fsroot", why: "never granted in the picker: the whole file system (/)", name: "a record naming /", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		rawRecord(t, s, tree, nil, "/")
	}},
	{id: "etc", why: "never granted in the picker", name: "a record naming /etc", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		rawRecord(t, s, tree, nil, "/etc")
	}},
	{id: "home", why: "never granted in the picker: your home folder", name: "a record naming the home folder", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		rawRecord(t, s, tree, nil, home)
	}},
	{id: "outside", why: "never granted in the picker: outside the scanned folder", name: "a record naming a folder outside its DIR", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		outside := filepath.Join(filepath.Dir(tree), "outside")
		if err := os.Mkdir(outside, 0o755); err != nil {
			t.Fatal(err)
		}
		rawRecord(t, s, tree, nil, outside)
	}},
	{id: "dotdot", why: "not a clean absolute path", name: "a record with a ..-path", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		rawRecord(t, s, tree, nil, filepath.Join(tree, "alpha")+"/../../..")
	}},
	{id: "rel", why: "does not match its URI", name: "a record with a relative path", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		rawRecord(t, s, tree, nil, "alpha")
	}},
	{id: "mixed", why: "never granted in the picker", name: "a good root beside /etc", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		rawRecord(t, s, tree, nil, filepath.Join(tree, "alpha"), "/etc")
	}, allows: func(tree string) []string { return []string{filepath.Join(tree, "alpha")} }},
	{id: "socket", why: "is a socket", name: "a socket", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		replacePath(t, s.Path(), func(p string) error { return syscall.Mknod(p, syscall.S_IFSOCK|0o600, 0) })
	}},
	{id: "dir", why: "is a folder, not a regular file", name: "a folder", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		replacePath(t, s.Path(), func(p string) error { return os.Mkdir(p, 0o700) })
	}},
	{id: "big", why: "more than 1048576", name: "a record over 1 MiB", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		b, _ := os.ReadFile(s.Path())
		pad := `,"pad":"` + strings.Repeat("x", consent.MaxStateFile) + `"}`
		replacePath(t, s.Path(), func(p string) error { return os.WriteFile(p, append(b[:len(b)-2], pad...), 0o600) })
	}},
	{id: "cut", why: "unexpected end of JSON input", name: "a truncated record", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		b, _ := os.ReadFile(s.Path())
		replacePath(t, s.Path(), func(p string) error { return os.WriteFile(p, b[:len(b)/2], 0o600) })
	}},
	{id: "empty", why: "unexpected end of JSON input", name: "an empty record", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		replacePath(t, s.Path(), func(p string) error { return os.WriteFile(p, nil, 0o600) })
	}},
	{id: "profile", why: `"q"`, name: "another profile's record", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		b, _ := os.ReadFile(s.Path())
		var rec map[string]any
		if err := json.Unmarshal(b, &rec); err != nil || rec["profile"] != "p" {
			t.Fatalf("profile p's record %s: %v", b, err)
		}
		rec["profile"] = "q"
		b, _ = json.Marshal(rec)
		replacePath(t, s.Path(), func(p string) error { return os.WriteFile(p, b, 0o600) })
	}},
	{id: "wrongcode", why: "never granted in the picker", name: "/etc granted for another reason only", plant: func(t *testing.T, s *consent.Store, tree, home string) {
		rawRecord(t, s, tree, map[string][]string{"file:///etc": {consent.WarnOutside}}, "/etc")
	}},
}

// TestE2EProxyServesOnlyOwnConsent: for each planted or mangled record,
// rootpick proxy in front of a real server-filesystem leaves the server
// allowing nothing (or only the plainly granted root), answers at once (a
// FIFO never blocks it), stays small (/dev/zero is never read), and says
// in its registry entry why it serves nothing.
func TestE2EProxyServesOnlyOwnConsent(t *testing.T) {
	t.Parallel()
	fs := npmPath(t, filepath.Join("@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	bin := rootpickBin(t)
	for _, c := range plantCases {
		t.Run(c.id, func(t *testing.T) {
			t.Parallel()
			t.Log(c.name)
			if c.root && os.Geteuid() != 0 {
				t.Skip("needs root to give a file to another user")
			}
			base := t.TempDir()
			state, home := filepath.Join(base, "state"), filepath.Join(base, "home")
			if err := os.MkdirAll(home, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(base, "tree"), 0o755); err != nil {
				t.Fatal(err)
			}
			tree := makeRepos(t, filepath.Join(base, "tree"), "alpha", "beta")
			store, err := consent.OpenStoreIn(filepath.Join(state, "rootpick"), "p")
			if err != nil {
				t.Fatal(err)
			}
			rawRecord(t, store, tree, nil, filepath.Join(tree, "alpha"))
			if c.plant != nil {
				c.plant(t, store, tree, home)
			}

			// The log goes to a file of its own, except where the state
			// folder is not believed: there it goes to stderr, the host's
			// log of the server.
			logFile := filepath.Join(base, "proxy.log")
			args := []string{"proxy", "--profile", "p", "--log", logFile, "--", "node", fs}
			if c.id == "statedir" {
				args = slices.Delete(args, 3, 5)
			}
			cmd := exec.Command(bin, args...)
			cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state, "HOME="+home)
			stderr, err := os.Create(filepath.Join(base, "stderr"))
			if err != nil {
				t.Fatal(err)
			}
			defer stderr.Close()
			cmd.Stderr = stderr
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "1"}, nil)
			session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer session.Close()
			// The barrier: the server has taken the proxy's answer to its
			// roots/list (its own words, relayed to the proxy's log).
			waitLog(t, []string{logFile, stderr.Name()}, "valid directories", "No valid root directories")
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "list_allowed_directories", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			got := allowedDirs(res.Content[0].(*mcp.TextContent).Text)
			var want []string
			if c.allows != nil {
				want = c.allows(tree)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("the server allows %v, want %v", got, want)
			}
			if rss := rssKiB(cmd.Process.Pid); rss > 100<<10 {
				t.Errorf("the proxy holds %d KiB", rss)
			} else {
				t.Logf("the proxy's RSS: %d KiB", rss)
			}
			if c.plant == nil || c.allows != nil && c.name != "a good root beside /etc" {
				return
			}
			// The proxy says why, where the picker reads it. (A registry
			// under a state folder that is not the person's own is not
			// written at all.)
			entry := readEntry(t, state, cmd.Process.Pid)
			if entry == nil {
				if !strings.Contains(c.name, "state folder") {
					t.Error("the proxy did not register")
				}
				return
			}
			if said := entry.Problem + " " + strings.Join(entry.Dropped, " "); !strings.Contains(said, c.why) {
				t.Errorf("the proxy's entry does not say %q: %+v", c.why, entry.Status)
			}
		})
	}
}

// readEntry reads proxy pid's registry entry, waiting a little for it.
func readEntry(t *testing.T, state string, pid int) *proxy.Entry {
	t.Helper()
	path := filepath.Join(state, "rootpick", "run", "proxy-"+strconv.Itoa(pid)+".json")
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var e proxy.Entry
		if json.Unmarshal(b, &e) == nil && (e.Problem != "" || len(e.Dropped) > 0) {
			return &e
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var e proxy.Entry
	_ = json.Unmarshal(b, &e)
	return &e
}

// TestE2EResumeServesOnlyGranted: the picker's --resume in tmux, in front
// of a real server-filesystem, with the same planted records: nothing is
// shared without the dialog unless the record is the person's own and
// every root in it was granted for the warnings it has; the status line
// says why, and the picker never hangs on a FIFO.
func TestE2EResumeServesOnlyGranted(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	fs := npmPath(t, filepath.Join("@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	for _, c := range plantCases {
		if c.allows != nil && c.plant != nil {
			continue // a partial record does not resume: covered by the unit tests
		}
		t.Run(c.id, func(t *testing.T) {
			t.Parallel()
			t.Log(c.name)
			if c.root && os.Geteuid() != 0 {
				t.Skip("needs root to give a file to another user")
			}
			tt := newTUI(t)
			state := filepath.Join(tt.dir, "state")
			if err := os.MkdirAll(filepath.Join(tt.dir, "tree"), 0o755); err != nil {
				t.Fatal(err)
			}
			tree := makeRepos(t, filepath.Join(tt.dir, "tree"), "alpha", "beta")
			store, err := consent.OpenStoreIn(filepath.Join(state, "rootpick"), "p")
			if err != nil {
				t.Fatal(err)
			}
			rawRecord(t, store, tree, nil, filepath.Join(tree, "alpha"))
			if c.plant != nil {
				c.plant(t, store, tree, tt.home)
			}
			tt.start(tuiOptions{width: 160, height: 24, args: []string{"--profile", "p", "--resume", tree, "--", "node", fs}})
			tt.waitRows(2)
			if c.plant == nil {
				tt.waitStatus("1 root exposed", "verified", "Resumed 1 remembered root")
			} else {
				// verified: rootpick asked the server, and it allows
				// nothing.
				tt.waitStatus("nothing shared", "server-filesystem ready")
				tt.waitFor("why nothing was resumed: "+c.why, func(s string) bool { return strings.Contains(statusWithNote(s), c.why) })
			}
			tt.send("C-q")
			tt.waitFor("the quit or its question", func(s string) bool { return tt.exited() || strings.Contains(s, "Discard") })
			if !tt.exited() {
				tt.send("C-q")
			}
			if code := tt.waitExit(); code != 0 {
				t.Errorf("exit %d", code)
			}
		})
	}
}
