package main

// Tests of rootpick hosts: the command on copies of internal/hostcfg's
// fixture configurations, and the built binary writing them
// (e2e/hosts_cli_test.go has the real hosts reading what it wrote).

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/internal/wrapplan"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/ui"
)

// hostFixtures is internal/hostcfg's testdata: a home folder and a
// project folder holding every host's files.
var hostFixtures = filepath.Join("internal", "hostcfg", "testdata")

// copyTree copies the folder src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// hostsSandbox copies the fixtures to a temporary folder and makes it the
// home folder; it returns the home and project folders.
func hostsSandbox(t *testing.T) (home, project string) {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, hostFixtures, dir)
	home, project = filepath.Join(dir, "home"), filepath.Join(dir, "project")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	return home, project
}

// snapshot reads every file under dirs.
func snapshot(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				out[p] = string(b)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestHostsList: every host's servers, with their kind; a remote URL's
// secrets are not shown.
func TestHostsList(t *testing.T) {
	_, project := hostsSandbox(t)
	var out, errb bytes.Buffer
	if err := run([]string{"hosts", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	text := out.String()
	for _, want := range []string{
		"claude  " + filepath.Join(project, ".mcp.json") + " (project)",
		"filesystem  direct    npx -y @modelcontextprotocol/server-filesystem '/home/someone/My Projects/ünïcode ☃'",
		"git         proxied   rootpick proxy --profile work -- uvx mcp-server-git",
		// Not this rootpick (no such file here): a server like any other.
		"git           direct    /usr/local/bin/rootpick proxy -- uvx mcp-server-git",
		"notion      remote    https://mcp.notion.com/mcp (type http; the proxy speaks stdio only)",
		"local /home/someone/src/app:",
		"developer     other     goose extension of type builtin, not a command",
		"rp           proxied   rootpick proxy --profile work mcp-server-filesystem",
		"139 servers: 5 through rootpick proxy, 92 direct stdio",
		"odd      other     command is not an array (OpenCode takes [command, args...])",
		"bare                 direct    echo-server",
		"copilot", "playwright  direct    npx -y @playwright/mcp@latest",
		"crush", "time  direct    uvx mcp-server-time --local-timezone=Europe/Paris",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the list lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "secret") || strings.Contains(text, "SECRET") {
		t.Errorf("the list shows a URL's secret:\n%s", text)
	}
	out.Reset()
	if err := run([]string{"hosts", "codex", "--project", project}, &out, io.Discard); err != nil || strings.Contains(out.String(), "claude") || !strings.Contains(out.String(), "noargs-inline") {
		t.Errorf("hosts codex: %v\n%s", err, out.String())
	}
	var ee exitError
	if err := run([]string{"hosts", "emacs"}, io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("an unknown host: %v, want exit 2", err)
	}
}

// TestHostsListServing: under each server behind the proxy, its profile,
// what that profile grants now (count and first folders, from the consent
// store the entry's proxy reads) and whether this kernel enforces it.
func TestHostsListServing(t *testing.T) {
	home, project := hostsSandbox(t)
	list := func() string {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run([]string{"hosts", "claude", "--project", project}, &out, &errb); err != nil {
			t.Fatalf("%v\n%s", err, errb.String())
		}
		return out.String()
	}
	enforced := launch.WouldEnforce(launch.EnforceOn).String()
	if !strings.HasPrefix(enforced, "enforced (Landlock ABI ") && !strings.HasPrefix(enforced, "advisory: ") {
		t.Fatalf("WouldEnforce says %q", enforced)
	}
	if text := list(); !strings.Contains(text, "profile work: nothing yet: choose with 'rootpick --profile work DIR'; "+enforced+"\n") {
		t.Errorf("before any consent, the list lacks what work grants:\n%s", text)
	}
	// Run as root, the list warns that enforced is not as narrow; as
	// yourself it says nothing of it.
	for _, root := range []bool{true, false} {
		saved := runningAsRoot
		runningAsRoot = func() bool { return root }
		text := list()
		runningAsRoot = saved
		if said := strings.Contains(text, "warning: rootpick runs as root here: a proxied server, enforced, still reads all that root can"); said != root {
			t.Errorf("as root %v, the root warning said %v:\n%s", root, said, text)
		}
	}
	var roots []consent.Root
	for _, name := range []string{"a", "b", "c", "d"} {
		dir := filepath.Join(home, "src", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		r, err := consent.NewRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		roots = append(roots, r)
	}
	store, _ := consent.OpenStoreIn(filepath.Join(os.Getenv("XDG_STATE_HOME"), "rootpick"), "work")
	if err := store.Save(consent.Record{Dir: filepath.Join(home, "src"), Roots: roots, Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("profile work: now 4 folders: %s, %s, %s and 1 more; %s\n", roots[0].Path, roots[1].Path, roots[2].Path, enforced)
	if text := list(); !strings.Contains(text, want) {
		t.Errorf("the list lacks %q:\n%s", want, text)
	}

	// An entry with --enforce=off is advisory, whatever the kernel; one
	// with --state-dir is served from that folder's store.
	other := filepath.Join(t.TempDir(), "state")
	store, _ = consent.OpenStoreIn(other, consent.DefaultProfile)
	if err := store.Save(consent.Record{Dir: filepath.Join(home, "src"), Roots: roots[3:], Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
	writeHostFile(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {"off": {"command": "rootpick", "args": ["proxy", "--enforce=off", "--state-dir", `+strconv.Quote(other)+`, "--", "srv"]}}}`)
	if text := list(); !strings.Contains(text, "profile default: now 1 folder: "+roots[3].Path+"; advisory: enforce is off for this server\n") {
		t.Errorf("an entry with --enforce=off and its own state folder:\n%s", text)
	}
}

// writeHostFile writes a host's configuration file for a test.
func writeHostFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHostsWrapAsksFirst: without --yes nothing is written unless the
// person says y on the terminal; with no terminal, the command refuses.
func TestHostsWrapAsksFirst(t *testing.T) {
	home, project := hostsSandbox(t)
	before := snapshot(t, home, project)
	ch := hostsChange{targets: []string{"claude"}, project: project, wrap: true, proxy: hostcfg.Proxy{Exe: "/bin/rootpick"}}
	var out, errb bytes.Buffer
	var ee exitError
	if err := ch.run(&env{stdout: &out, stderr: &errb, dirs: paths.FromEnv()}, nil); !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(ee.msg, "--yes") {
		t.Errorf("no terminal, no --yes: %v, want exit 1 naming --yes", err)
	}
	if !strings.Contains(out.String(), `+      "command": "/bin/rootpick",`) || !strings.Contains(out.String(), `+      "command": "rootpick",`) {
		t.Errorf("the diff was not shown:\n%s", out.String())
	}
	asked := ""
	no := func(q string) (bool, error) { asked = q; return false, nil }
	if err := ch.run(&env{stdout: io.Discard, stderr: io.Discard, dirs: paths.FromEnv()}, no); err != nil {
		t.Errorf("answered n: %v", err)
	}
	if !strings.Contains(asked, "[y/N]") {
		t.Errorf("asked %q", asked)
	}
	if after := snapshot(t, home, project); !maps2Equal(before, after) {
		t.Fatal("files changed without a yes")
	}
	yes := func(string) (bool, error) { return true, nil }
	if err := ch.run(&env{stdout: io.Discard, stderr: io.Discard, dirs: paths.FromEnv()}, yes); err != nil {
		t.Fatal(err)
	}
	// The project's .mcp.json names rootpick by name (PATH), the user's
	// ~/.claude.json this executable.
	b, _ := os.ReadFile(filepath.Join(project, ".mcp.json"))
	if !strings.Contains(string(b), `"command": "rootpick"`) {
		t.Errorf("answered y, the file holds:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".claude.json")); !strings.Contains(string(b), `"command": "/bin/rootpick"`) {
		t.Errorf("answered y, ~/.claude.json holds:\n%s", b)
	}
	mcp := filepath.Join(project, ".mcp.json")
	if bk, _ := os.ReadFile(filepath.Join(os.Getenv("XDG_STATE_HOME"), "rootpick", "backups", hostcfg.BackupName(mcp))); string(bk) != before[mcp] {
		t.Error("no backup of the original in the state folder")
	}
	if _, err := os.Lstat(mcp + hostcfg.BackupSuffix); err == nil {
		t.Error("a backup beside the project's .mcp.json")
	}
}

func maps2Equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestHostsWrapByName: a remote server named is refused with the reason;
// a name no host has is a usage error; one already wrapped is left alone.
func TestHostsWrapByName(t *testing.T) {
	home, project := hostsSandbox(t)
	before := snapshot(t, home, project)
	var errb bytes.Buffer
	var ee exitError
	err := run([]string{"hosts", "wrap", "claude", "notion", "git", "--yes", "--project", project}, io.Discard, &errb)
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(errb.String(), "notion in "+filepath.Join(project, ".mcp.json")+": not wrapped: remote server (type http): rootpick proxy speaks stdio only") {
		t.Errorf("wrapping a remote server: %v\n%s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "claude git: left alone: already runs through rootpick proxy (profile work)") {
		t.Errorf("the wrapped server is not said to be left alone:\n%s", errb.String())
	}
	if err := run([]string{"hosts", "wrap", "claude", "nope", "--project", project}, io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("an unknown server: %v, want exit 2", err)
	}
	if err := run([]string{"hosts", "wrap", "--profile", "../x", "--project", project}, io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("a bad profile: %v, want exit 2", err)
	}
	if !maps2Equal(before, snapshot(t, home, project)) {
		t.Error("files changed")
	}
}

// TestHostsWrapUnwrapRoundTrip: hosts wrap --yes wraps every host's
// fixtures, wraps nothing the second time, and unwrap puts them back.
// (e2e/hosts_cli_test.go does the same with the built binary and the
// hosts' own CLIs.)
func TestHostsWrapUnwrapRoundTrip(t *testing.T) {
	bin := proxyExecutable() // what wrap writes as the proxy's command
	home, project := hostsSandbox(t)
	original := snapshot(t, home, project)
	places := hostcfg.Places{Home: home, Project: project, Getenv: os.Getenv}
	load := func() []*hostcfg.Config {
		t.Helper()
		var out []*hostcfg.Config
		hosts := map[string]bool{}
		for _, f := range hostcfg.Files(places) {
			f.Rootpick = []string{bin}
			c, err := hostcfg.Load(f)
			if errors.Is(err, fs.ErrNotExist) {
				continue // another editor's copy of an extension's file (Cline in Cursor, …)
			}
			if err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			out = append(out, c)
			hosts[f.Host] = true
		}
		for _, h := range hostcfg.Hosts {
			if !hosts[h] {
				t.Fatalf("no fixture of %s: the round trip would not cover it", h)
			}
		}
		return out
	}
	rootpick := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(append(args, "--project", project), &out, &errb); err != nil {
			t.Fatalf("rootpick %q: %v\n%s\n%s", args, err, out.String(), errb.String())
		}
		return errb.String()
	}
	before := load()
	state := filepath.Join(os.Getenv("XDG_STATE_HOME"), "rootpick")
	rootpick("hosts", "wrap", "--yes", "--profile", "e2e")
	wrapped := snapshot(t, home, project)
	var names = map[string][]string{} // host: the servers wrapped
	for i, c := range load() {
		for j, s := range c.Servers {
			b := before[i].Servers[j]
			if b.Kind != hostcfg.Stdio {
				if s.Kind != b.Kind || s.Command != b.Command || !slices.Equal(s.Args, b.Args) {
					t.Errorf("%s %s changed: %v %q %q", c.File.Path, s.Name, s.Kind, s.Command, s.Args)
				}
				continue
			}
			names[c.File.Host] = append(names[c.File.Host], s.Name)
			// Folder arguments become {roots}, kept after --orig-arg.
			args, orig := slices.Clone(b.Args), []string{}
			runs := before[i].FolderArgs(j)
			for k := len(runs) - 1; k >= 0; k-- {
				args = slices.Replace(args, runs[k].Start, runs[k].End, hostcfg.RootsArg)
			}
			for k, r := range runs {
				if k > 0 {
					orig = append(orig, hostcfg.OrigNextFlag)
				}
				for _, a := range r.Args {
					orig = append(orig, hostcfg.OrigArgFlag, a)
				}
			}
			// A project file holds rootpick by name and no state
			// folder; a user file this executable and the state folder.
			flags, exe := []string{"proxy", "--profile", "e2e"}, hostcfg.PortableExe
			if c.File.Scope != "project" {
				flags, exe = append(flags, "--state-dir", state), bin
			}
			// Servers known to need no network get it off.
			if slices.ContainsFunc(append([]string{b.Command}, b.Args...), func(w string) bool {
				return slices.Contains([]string{"@modelcontextprotocol/server-filesystem", "mcp-server-filesystem", "mcp-server-git",
					"@modelcontextprotocol/server-memory", "mcp-server-memory", "@modelcontextprotocol/server-sequential-thinking"}, w)
			}) && b.Command != "/home/someone/bin/rootpick" && b.Command != "/usr/local/bin/rootpick" {
				flags = append(flags, "--network=off")
			}
			flags = append(flags, "--host="+hostcfg.LogTag(c.File), "--name="+s.Name)
			want := append(append(append(flags, orig...), "--", b.Command), args...)
			if s.Kind != hostcfg.Proxied || s.Command != exe || !slices.Equal(s.Args, want) {
				t.Errorf("%s %s: %q %q, want %q %q", c.File.Path, s.Name, s.Command, s.Args, exe, want)
			}
		}
		if bk, err := os.ReadFile(filepath.Join(state, "backups", hostcfg.BackupName(c.File.Path))); err != nil || string(bk) != original[c.File.Path] {
			t.Errorf("%s: no backup of the original in the state folder: %v", c.File.Path, err)
		}
		if _, err := os.Lstat(c.File.Path + hostcfg.BackupSuffix); err == nil {
			t.Errorf("%s: a backup beside it", c.File.Path)
		}
	}
	if msg := rootpick("hosts", "wrap", "--yes", "--profile", "e2e"); !strings.Contains(msg, "Nothing to wrap.") {
		t.Errorf("the second wrap said:\n%s", msg)
	}
	if again := snapshot(t, home, project); !maps2Equal(wrapped, again) {
		t.Error("the second wrap changed files")
	}
	// Unwrap by host and name what was wrapped: each file as it was (the
	// servers that had no args keep an empty one).
	for host, servers := range names {
		rootpick(append([]string{"hosts", "unwrap", "--yes", host}, servers...)...)
	}
	for i, c := range load() {
		got, _ := os.ReadFile(c.File.Path)
		if string(got) == original[c.File.Path] {
			continue
		}
		for j, s := range c.Servers {
			b := before[i].Servers[j]
			if s.Kind != b.Kind || s.Command != b.Command || !slices.Equal(s.Args, b.Args) {
				t.Errorf("%s %s after unwrap: %v %q %q, was %q %q", c.File.Path, s.Name, s.Kind, s.Command, s.Args, b.Command, b.Args)
			}
		}
		if !strings.Contains(hostcfg.Diff("a", "b", []byte(original[c.File.Path]), got), "args") {
			t.Errorf("%s differs from the original in more than an empty args", c.File.Path)
		}
	}
}

// TestHostsHelpGolden: the --help of hosts and its commands, at 80 columns
// (go test -run TestHostsHelpGolden -update rewrites testdata/help).
func TestHostsHelpGolden(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	for _, args := range [][]string{{"hosts"}, {"hosts", "list"}, {"hosts", "wrap"}, {"hosts", "unwrap"}} {
		var out bytes.Buffer
		if err := run(append(args, "--help"), &out, io.Discard); err != nil && !errors.Is(err, exitError{code: 0}) {
			t.Fatalf("%q: %v", args, err)
		}
		file := filepath.Join("testdata", "help", strings.Join(args, "-")+".golden")
		if *update {
			if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (go test -run TestHostsHelpGolden -update writes it)", err)
		}
		if out.String() != string(want) {
			t.Errorf("%s --help differs from %s (-update rewrites it):\n%s", strings.Join(args, " "), file, out.String())
		}
	}
}

// TestHostsHelpNamesEveryHost: the help of hosts, hosts list, hosts wrap
// and proxy (--print-config) names every host hostcfg reads, from its
// list: a host added there is in every help text without typing its name
// again.
func TestHostsHelpNamesEveryHost(t *testing.T) {
	t.Setenv("COLUMNS", "1000") // one line per paragraph: a name is never cut by wrapping
	// A host that only the list has: every help text must name it too.
	saved := hostcfg.Hosts
	hostcfg.Hosts = append(slices.Clone(saved), "new-host")
	t.Cleanup(func() { hostcfg.Hosts = saved })
	for _, args := range [][]string{{"hosts"}, {"hosts", "list"}, {"hosts", "wrap"}, {"proxy"}} {
		var out bytes.Buffer
		if err := run(append(args, "--help"), &out, io.Discard); err != nil && !errors.Is(err, exitError{code: 0}) {
			t.Fatalf("%q: %v", args, err)
		}
		words := map[string]bool{}
		for _, w := range strings.FieldsFunc(out.String(), func(r rune) bool { return !(r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
			words[w] = true
		}
		var missing []string
		for _, h := range hostcfg.Hosts {
			if !words[h] {
				missing = append(missing, h)
			}
		}
		if len(missing) > 0 {
			t.Errorf("%s --help does not name %d of the %d hosts: %s", strings.Join(args, " "), len(missing), len(hostcfg.Hosts), strings.Join(missing, ", "))
		}
	}
}

// folderSandbox is hostsSandbox with the fixtures' absolute folders
// (/home/someone, /srv/docs) moved into the sandbox, and every folder a
// fixture's server names made, so that each host's fixture has servers
// with folder arguments.
func folderSandbox(t *testing.T) (home, project string) {
	t.Helper()
	home, project = hostsSandbox(t)
	dir := filepath.Dir(home)
	moved := strings.NewReplacer("/home/someone", home, "/srv/docs", filepath.Join(dir, "srv", "docs"))
	for name, text := range snapshot(t, home, project) {
		if err := os.WriteFile(name, []byte(moved.Replace(text)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{
		"home/My Projects/ünïcode ☃", "home/notes", "home/projects", "home/shared", "home/archive",
		"home/My Files/ünï", "srv/docs/My Documents/ünïcode", "project/docs and notes",
	} {
		if err := os.MkdirAll(filepath.Join(dir, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return home, project
}

// folderServers are, by host, the fixtures' servers with folder arguments,
// and those arguments as the diff's words show them.
var folderServers = map[string]map[string][]string{
	"claude": {"filesystem": {"'@HOME@/My Projects/ünïcode ☃'"}, "memory": {"'${HOME}/notes'"}},
	"vscode": {"filesystem": {"'${workspaceFolder}/docs and notes'"}},
	"cursor": {"fs": {"'${workspaceFolder}' '${userHome}/shared'"}},
	"gemini": {"files": {"'$HOME/projects'", "'${PWD}'"}},
	"codex":  {"docs": {"'@DIR@/srv/docs/My Documents/ünïcode'"}},
	"goose":  {"filesystem": {"'@HOME@/My Files/ünï'"}, "notes": {"~/notes ~/archive"}},
}

// TestHostsWrapFolderArgs: hosts wrap of each host's fixture replaces
// every folder argument by {roots} and says so in words under the diff,
// naming what each server was limited to and what its profile grants;
// unwrap gives every file back byte for byte; --keep-args keeps them and
// warns.
func TestHostsWrapFolderArgs(t *testing.T) {
	home, project := folderSandbox(t)
	dir := filepath.Dir(home)
	words := strings.NewReplacer("@HOME@", home, "@DIR@", dir)
	original := snapshot(t, home, project)
	rootpick := func(args ...string) (stdout, stderr string) {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(append(args, "--project", project), &out, &errb); err != nil {
			t.Fatalf("rootpick %q: %v\n%s\n%s", args, err, out.String(), errb.String())
		}
		return out.String(), errb.String()
	}
	// What profile work grants: one folder.
	granted := filepath.Join(project, "docs and notes")
	root, err := consent.NewRoot(granted)
	if err != nil {
		t.Fatal(err)
	}
	store, _ := consent.OpenStoreIn(filepath.Join(dir, "state", "rootpick"), "work")
	if err := store.Save(consent.Record{Dir: project, Roots: []consent.Root{root}, Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for host, servers := range folderServers {
		names := slices.Sorted(maps.Keys(servers))
		out, _ := rootpick(append([]string{"hosts", "wrap", "--yes", "--profile", "work", host}, names...)...)
		if host == "claude" && !strings.Contains(out, "filesystem: network off: @modelcontextprotocol/server-filesystem needs none (hosts wrap --network on keeps it on)\n") {
			t.Errorf("claude: the diff does not say the network is off, and why:\n%s", out)
		}
		for name, runs := range servers {
			var limited []string
			for _, r := range runs {
				r = words.Replace(r)
				limited = append(limited, r)
				if want := name + ": " + r + " → {roots}: it will see only what you consent\n"; !strings.Contains(out, want) {
					t.Errorf("%s: the diff does not say %q:\n%s", host, want, out)
				}
			}
			want := name + " was limited to " + strings.Join(limited, " and ") + "; behind profile work it sees what you consent for work (now 1 folder: " + granted + ")\n"
			if !strings.Contains(out, want) {
				t.Errorf("%s: the diff does not say %q:\n%s", host, want, out)
			}
		}
	}
	// Read back: each server runs the proxy, with {roots} where its
	// folders were and the folders after --orig-arg.
	places := hostcfg.Places{Home: home, Project: project, Getenv: os.Getenv, Rootpick: []string{proxyExecutable()}}
	seen := 0
	for _, f := range hostcfg.Files(places) {
		c, err := hostcfg.Load(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Servers {
			if _, ok := folderServers[f.Host][s.Name]; !ok {
				continue
			}
			seen++
			if s.Kind != hostcfg.Proxied || !slices.Contains(s.Behind, hostcfg.RootsArg) || !slices.Contains(s.Args, hostcfg.OrigArgFlag) || slices.Equal(s.Behind, s.Restored) {
				t.Errorf("%s %s after wrap: %v %q", f.Host, s.Name, s.Kind, s.Args)
			}
			for i, a := range s.Args {
				if a == hostcfg.OrigArgFlag && slices.Contains(s.Behind, s.Args[i+1]) {
					t.Errorf("%s %s keeps the folder argument %q: %q", f.Host, s.Name, s.Args[i+1], s.Behind)
				}
			}
		}
	}
	if seen != 8 {
		t.Errorf("%d servers with folder arguments read back, want 8", seen)
	}
	for host, servers := range folderServers {
		out, _ := rootpick(append([]string{"hosts", "unwrap", "--yes", host}, slices.Sorted(maps.Keys(servers))...)...)
		if !strings.Contains(out, "{roots} → ") {
			t.Errorf("%s: unwrap does not say it puts the folders back:\n%s", host, out)
		}
	}
	for name, text := range snapshot(t, home, project) {
		if strings.Contains(name, hostcfg.BackupSuffix) || strings.Contains(name, "/state/") {
			continue
		}
		if text != original[name] {
			t.Errorf("%s after wrap and unwrap:\n%s", name, hostcfg.Diff("original", "unwrapped", []byte(original[name]), []byte(text)))
		}
	}

	// --keep-args: the arguments stay, and the diff warns.
	out, _ := rootpick("hosts", "wrap", "--yes", "--keep-args", "cursor", "fs")
	if want := "warning: --keep-args: fs keeps '${workspaceFolder}' '${userHome}/shared': the server gets those folders whatever you consent for default (enforced, it cannot open them unless consented)\n"; !strings.Contains(out, want) {
		t.Errorf("--keep-args does not warn %q:\n%s", want, out)
	}
	if strings.Contains(out, "{roots}") {
		t.Errorf("--keep-args replaced arguments:\n%s", out)
	}
	b, _ := os.ReadFile(filepath.Join(project, ".cursor", "mcp.json"))
	if !strings.Contains(string(b), `"--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "${workspaceFolder}", "${userHome}/shared"]`) {
		t.Errorf("--keep-args wrote:\n%s", b)
	}
}

// TestHostsUnwrapNoteNamesTheFolders: the note under unwrap's diff names
// the folder arguments it puts back for each {roots}, and nothing else of
// the command (not the launcher's -y PACKAGE, not the other arguments).
func TestHostsUnwrapNoteNamesTheFolders(t *testing.T) {
	home, project := hostsSandbox(t)
	a, b := filepath.Join(home, "src", "a"), filepath.Join(home, "src", "b")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeHostFile(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {
  "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", `+strconv.Quote(b)+`]},
  "two": {"command": "srv", "args": [`+strconv.Quote(a)+`, "--mode", "fast", `+strconv.Quote(b)+`, `+strconv.Quote(a)+`]}
}}`)
	rootpick := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(append(args, "--yes", "--project", project), &out, &errb); err != nil {
			t.Fatalf("rootpick %q: %v\n%s\n%s", args, err, out.String(), errb.String())
		}
		return out.String()
	}
	rootpick("hosts", "wrap", "claude", "fs", "two")
	out := rootpick("hosts", "unwrap", "claude", "fs", "two")
	for _, want := range []string{
		"fs: {roots} → " + b + ": it sees those folders again whatever you consent\n",
		"two: {roots} → " + a + ", {roots} → " + b + " " + a + ": it sees those folders again whatever you consent\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("unwrap does not say %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "{roots} →") && (strings.Contains(line, "server-filesystem") || strings.Contains(line, "fast")) {
			t.Errorf("the note names more than the folders: %q", line)
		}
	}
}

// TestHostsWrapNamesTheFolderToPick: the line that closes a wrap names
// the folder to run the picker on: the one the profile's consent was
// given for when there is one (there the remembered consent applies);
// else, run in a repository, the folder that holds it (the picker on the
// repository itself opens one "whole folder" row); else the folder it ran
// for.
func TestHostsWrapNamesTheFolderToPick(t *testing.T) {
	home, _ := hostsSandbox(t)
	src := filepath.Join(home, "src")
	alpha := filepath.Join(src, "alpha")
	plain := filepath.Join(home, "notes")
	for _, d := range []string{filepath.Join(alpha, ".git"), plain} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	entry := `{"mcpServers": {"fs": {"command": "srv"}}}`
	closing := func(project, profile string) string {
		t.Helper()
		writeHostFile(t, filepath.Join(project, ".mcp.json"), entry)
		var errb bytes.Buffer
		if err := run([]string{"hosts", "wrap", "claude", "fs", "--yes", "--profile", profile, "--project", project}, io.Discard, &errb); err != nil {
			t.Fatalf("%v\n%s", err, errb.String())
		}
		lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
		return lines[len(lines)-1]
	}
	want := func(got, folder, why string) {
		t.Helper()
		if w := "1 server now runs through rootpick proxy: restart the host, then choose its folders with 'rootpick --profile work " + folder + "'" + why + "."; got != w {
			t.Errorf("the closing line is\n%s\nwant\n%s", got, w)
		}
	}
	// No consent yet: in a repository, the folder that holds it.
	want(closing(alpha, "work"), "~/src", " (the folder that holds this repository)")
	// Not a repository: that folder.
	want(closing(plain, "work"), "~/notes", "")
	// A server started with a folder (replaced by {roots}): that folder,
	// where the person's repositories are (found walking a newcomer's
	// first wrap, run in ~: it said 'rootpick --profile work ~').
	entry = `{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", ` + strconv.Quote(src) + `]}}}`
	want(closing(plain, "work"), "~/src", " (the folder the servers were given)")
	entry = `{"mcpServers": {"fs": {"command": "srv"}}}`
	// A consent of profile work given for ~/src, run elsewhere: ~/src.
	r, err := consent.NewRoot(alpha)
	if err != nil {
		t.Fatal(err)
	}
	store, _ := consent.OpenStoreIn(filepath.Join(os.Getenv("XDG_STATE_HOME"), "rootpick"), "work")
	if err := store.Save(consent.Record{Dir: src, Roots: []consent.Root{r}, Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
	want(closing(plain, "work"), "~/src", " (where work's consent was given)")
}

// TestHostsGeminiUntrustedFolder: when Gemini CLI's trusted folders mark
// the project folder untrusted, rootpick hosts and hosts wrap of Gemini's
// servers say that Gemini CLI starts no MCP server there, once; a trusted
// folder, or another host's listing, says nothing of it.
func TestHostsGeminiUntrustedFolder(t *testing.T) {
	home, project := hostsSandbox(t)
	trust := filepath.Join(home, ".gemini", "trustedFolders.json")
	note := "note: Gemini CLI's trusted folders mark " + project + " untrusted (~/.gemini/trustedFolders.json: " + project + " is DO_NOT_TRUST): run there, Gemini CLI reads no .gemini/settings.json of the folder and starts no MCP server at all, yours included, wrapped or not; /permissions in Gemini CLI changes it\n"
	rootpick := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(append(args, "--project", project), &out, &errb); err != nil {
			t.Fatalf("rootpick %q: %v\n%s\n%s", args, err, out.String(), errb.String())
		}
		return out.String()
	}
	writeHostFile(t, trust, `{`+strconv.Quote(project)+`: "TRUST_FOLDER"}`)
	if out := rootpick("hosts"); strings.Contains(out, "trusted folders") {
		t.Errorf("a trusted folder is said untrusted:\n%s", out)
	}
	writeHostFile(t, trust, `{`+strconv.Quote(filepath.Dir(project))+`: "TRUST_FOLDER", `+strconv.Quote(project)+`: "DO_NOT_TRUST"}`)
	for _, args := range [][]string{{"hosts"}, {"hosts", "gemini"}} {
		if out := rootpick(args...); strings.Count(out, note) != 1 {
			t.Errorf("%q does not say once %q:\n%s", args, note, out)
		}
	}
	if out := rootpick("hosts", "claude"); strings.Contains(out, "trusted folders") {
		t.Errorf("hosts claude speaks of Gemini CLI:\n%s", out)
	}
	if out := rootpick("hosts", "wrap", "gemini", "--yes", "--no-prefetch"); strings.Count(out, note) != 1 {
		t.Errorf("hosts wrap gemini does not say once %q:\n%s", note, out)
	}
}

// TestHostsWrapGitRepository: mcp-server-git's --repository takes exactly
// one folder, which {roots} (none, or several) cannot be: wrap keeps the
// folder and the diff says why; it never writes --repository {roots}.
func TestHostsWrapGitRepository(t *testing.T) {
	home, project := hostsSandbox(t)
	repo := filepath.Join(home, "src", "app")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	mcp := filepath.Join(project, ".mcp.json")
	writeHostFile(t, mcp, `{"mcpServers": {"git": {"command": "uvx", "args": ["mcp-server-git", "--repository", `+strconv.Quote(repo)+`]}}}`)
	var out, errb bytes.Buffer
	if err := run([]string{"hosts", "wrap", "claude", "git", "--yes", "--no-prefetch", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	want := "warning: git keeps --repository " + repo + ": --repository takes exactly one folder, and {roots} stands for as many as you consent (none before a consent), which the server would refuse; so it gets that folder whatever you consent (enforced, it cannot open it unless consented)\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("the diff does not say %q:\n%s", want, out.String())
	}
	b, _ := os.ReadFile(mcp)
	if !strings.Contains(string(b), `"--", "uvx", "mcp-server-git", "--repository", `+strconv.Quote(repo)+`]`) || strings.Contains(string(b), "{roots}") {
		t.Errorf("wrap wrote:\n%s", b)
	}
}

// TestHostsWrapOneFileTwoHosts: a file two hosts read (a project's
// .cursor/mcp.json a link to its .mcp.json; a .vscode/mcp.json link to a
// file holding both "servers" and "mcpServers") is shown, written and
// reported once, with every server either host starts wrapped once; unwrap
// gives it back.
func TestHostsWrapOneFileTwoHosts(t *testing.T) {
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{home, filepath.Join(project, ".cursor"), filepath.Join(project, ".vscode")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	mcp := filepath.Join(project, ".mcp.json")
	original := `{
  "mcpServers": {
    "both": {"command": "srv-both", "args": ["-v"]}
  },
  "servers": {
    "vs": {"type": "stdio", "command": "srv-vs"}
  }
}
`
	if err := os.WriteFile(mcp, []byte(original), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{".cursor/mcp.json", ".vscode/mcp.json"} {
		if err := os.Symlink("../.mcp.json", filepath.Join(project, l)); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	if err := run([]string{"hosts", "wrap", "--yes", "--profile", "two", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
	if n := strings.Count(out.String(), "--- "+mcp+"\n"); n != 1 {
		t.Errorf("the diff of %s is shown %d times", mcp, n)
	}
	report := "claude, vscode, cursor " + mcp + " (also read as " + filepath.Join(project, ".vscode", "mcp.json") + ", " + filepath.Join(project, ".cursor", "mcp.json") + "): both, vs to run through rootpick proxy\n"
	if !strings.Contains(errb.String(), report) || strings.Count(errb.String(), "Wrote ") != 1 || strings.Contains(errb.String(), "changed since") {
		t.Errorf("not reported and written once, as %q:\n%s", report, errb.String())
	}
	f, _ := hostcfg.FileFor("claude", "project", mcp)
	f.Rootpick = []string{proxyExecutable()}
	c, err := hostcfg.Load(f)
	if err != nil || len(c.Servers) != 1 || c.Servers[0].Kind != hostcfg.Proxied || !slices.Equal(c.Servers[0].Behind, []string{"srv-both", "-v"}) {
		t.Fatalf("after wrap, claude reads %+v (%v)", c, err)
	}
	b, _ := os.ReadFile(mcp)
	if strings.Count(string(b), `"proxy"`) != 2 {
		t.Errorf("each server wrapped once? the file:\n%s", b)
	}
	out.Reset()
	errb.Reset()
	if err := run([]string{"hosts", "unwrap", "--yes", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), errb.String())
	}
	if b, _ := os.ReadFile(mcp); string(b) != strings.Replace(original, `"command": "srv-vs"}`, `"command": "srv-vs", "args": []}`, 1) {
		t.Errorf("after unwrap:\n%s", b)
	}
}

// TestHostsRefusalNamesThePathOnce: a file refused (a link to a device)
// and a file that does not parse are each named once in their line.
func TestHostsRefusalNamesThePathOnce(t *testing.T) {
	_, project := hostsSandbox(t)
	vs := filepath.Join(project, ".vscode", "mcp.json")
	if err := os.Remove(vs); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", vs); err != nil {
		t.Fatal(err)
	}
	mcp := filepath.Join(project, ".mcp.json")
	if err := os.WriteFile(mcp, []byte(`{"mcpServers": `), 0o644); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	var ee exitError
	if err := run([]string{"hosts", "--project", project}, io.Discard, &errb); !errors.As(err, &ee) || ee.code != 1 {
		t.Errorf("hosts with a refused file: %v, want exit 1", err)
	}
	want := `rootpick: "` + vs + `" (a symbolic link to "/dev/zero") is a device, not a regular file; not read` + "\n"
	if !strings.Contains(errb.String(), want) {
		t.Errorf("the refusal is not %q:\n%s", want, errb.String())
	}
	for _, path := range []string{vs, mcp} {
		for _, line := range strings.Split(errb.String(), "\n") {
			if strings.Contains(line, path) && strings.Count(line, path) != 1 {
				t.Errorf("%s is named %d times: %s", path, strings.Count(line, path), line)
			}
		}
		if !strings.Contains(errb.String(), path) {
			t.Errorf("%s is not named:\n%s", path, errb.String())
		}
	}
}

// TestHostsWrapDuplicateServersKey: a file that gives "mcpServers" twice
// is not rewritten, and says why in words.
func TestHostsWrapDuplicateServersKey(t *testing.T) {
	home, project := hostsSandbox(t)
	mcp := filepath.Join(project, ".mcp.json")
	if err := os.WriteFile(mcp, []byte(`{"mcpServers": {"a": {"command": "x"}}, "mcpServers": {"a": {"command": "y"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, home, project)
	var errb bytes.Buffer
	var ee exitError
	err := run([]string{"hosts", "wrap", "--yes", "claude", "a", "--project", project}, io.Discard, &errb)
	want := `rootpick: claude a in ` + mcp + `: not wrapped: the file gives "mcpServers" twice (the host reads only the last one): rootpick rewrites neither; make it one, then run again`
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(errb.String(), want) || strings.Contains(errb.String(), "changed otherwise") {
		t.Errorf("wrapping a in a file with two mcpServers: %v\n%s\nwant %q", err, errb.String(), want)
	}
	if !maps2Equal(before, snapshot(t, home, project)) {
		t.Error("files changed")
	}
}

// TestHostsWrapChoose: --except leaves a server alone; the question names
// the servers when there are several; the success line says how many, in
// the right number, and the command that chooses their folders, with the
// folder; a server named with another --profile moves to it (the diff
// shows it, exit 0), and one not named is left alone with the command
// that would move it.
func TestHostsWrapChoose(t *testing.T) {
	home, project := hostsSandbox(t)
	mcp := filepath.Join(project, ".mcp.json")
	asked := ""
	no := func(q string) (bool, error) { asked = q; return false, nil }
	ch := hostsChange{targets: []string{"claude"}, project: project, wrap: true, proxy: hostcfg.Proxy{Exe: "/bin/rootpick"}}
	if err := ch.run(&env{stdout: io.Discard, stderr: io.Discard, dirs: paths.FromEnv()}, no); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(asked, "4 servers: filesystem, time, everything, memory") {
		t.Errorf("the question does not list the servers: %q", asked)
	}

	var errb bytes.Buffer
	if err := run([]string{"hosts", "wrap", "claude", "--except", "time", "--except", "memory", "--yes", "--project", project}, io.Discard, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	b, _ := os.ReadFile(mcp)
	if !strings.Contains(string(b), `"command": "mcp-server-time"`) || !strings.Contains(errb.String(), "claude time: left alone: --except") {
		t.Errorf("--except time wrapped it:\n%s\n%s", b, errb.String())
	}
	if want := "2 servers now run through rootpick proxy: restart the host, then choose their folders with 'rootpick " + wrapplan.ShownFolder(project, home) + "'."; !strings.Contains(errb.String(), want) {
		t.Errorf("the success line is not %q:\n%s", want, errb.String())
	}

	errb.Reset()
	if err := run([]string{"hosts", "wrap", "claude", "time", "--profile", "work", "--yes", "--project", project}, io.Discard, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if want := "1 server now runs through rootpick proxy: restart the host, then choose its folders with 'rootpick --profile work " + wrapplan.ShownFolder(project, home) + "'."; !strings.Contains(errb.String(), want) {
		t.Errorf("the success line is not %q:\n%s", want, errb.String())
	}

	// git runs behind the proxy with profile work: named, it moves.
	var out bytes.Buffer
	errb.Reset()
	if err := run([]string{"hosts", "wrap", "claude", "git", "--profile", "other", "--yes", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("moving git: %v\n%s", err, errb.String())
	}
	for _, want := range []string{`-      "args": ["proxy", "--profile", "work", "--", "uvx", "mcp-server-git"]`, `+      "args": ["proxy", "--profile", "other", "--", "uvx", "mcp-server-git"]`, "git: profile work → other"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the move does not show %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(errb.String(), "Nothing to wrap") {
		t.Errorf("the move says Nothing to wrap:\n%s", errb.String())
	}
	places := hostcfg.Places{Home: os.Getenv("HOME"), Project: project}
	for _, f := range hostcfg.Files(places) {
		if f.Path != mcp {
			continue
		}
		f.Rootpick = []string{"rootpick"}
		c, err := hostcfg.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Servers {
			if s.Name == "git" && (s.Kind != hostcfg.Proxied || s.Profile != "other" || !slices.Equal(s.Behind, []string{"uvx", "mcp-server-git"})) {
				t.Errorf("git after the move: %v profile %q behind %q", s.Kind, s.Profile, s.Behind)
			}
		}
	}

	// Not named: left alone, with the command that moves it.
	before, _ := os.ReadFile(mcp)
	errb.Reset()
	if err := run([]string{"hosts", "wrap", "claude", "--profile", "third", "--yes", "--project", project}, io.Discard, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if after, _ := os.ReadFile(mcp); !bytes.Equal(before, after) {
		t.Errorf("a wrap of every server moved one of another profile:\n%s", after)
	}
	if want := "claude git: left alone: runs through rootpick proxy with profile other; to move it to third: rootpick hosts wrap claude git --profile third"; !strings.Contains(errb.String(), want) {
		t.Errorf("no %q:\n%s", want, errb.String())
	}
}

// TestHostsWrapChecklist: with no server named on a terminal, wrap shows
// the host's wrappable servers as a checklist, the ones that take folder
// arguments checked to start with; only what is chosen is wrapped, and a
// cancel writes nothing. (It took every stdio server, memory, time and a
// docker postgres included.)
func TestHostsWrapChecklist(t *testing.T) {
	_, project := hostsSandbox(t)
	mcp := filepath.Join(project, ".mcp.json")
	b, err := os.ReadFile(mcp)
	if err != nil {
		t.Fatal(err)
	}
	// A server given the project folder itself, as hosts' docs show.
	b = []byte(strings.Replace(string(b), `"time": {`, `"fsproj": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", `+strconv.Quote(project)+`]},
    "time": {`, 1))
	if err := os.WriteFile(mcp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var shown []ui.ChecklistItem
	pick := func(want ...string) chooseFunc {
		return func(_ string, items []ui.ChecklistItem) ([]int, bool, error) {
			shown = items
			var out []int
			for i, it := range items {
				for _, w := range want {
					if strings.HasSuffix(it.Name, " · "+w) {
						out = append(out, i)
					}
				}
			}
			return out, true, nil
		}
	}
	yes := func(string) (bool, error) { return true, nil }
	ch := hostsChange{targets: []string{"claude"}, project: project, wrap: true, proxy: hostcfg.Proxy{Exe: "/bin/rootpick"}, choose: pick("time")}
	if err := ch.run(&env{stdout: io.Discard, stderr: io.Discard, dirs: paths.FromEnv()}, yes); err != nil {
		t.Fatal(err)
	}
	checked := map[string]bool{}
	for _, it := range shown {
		checked[it.Name] = it.Checked
	}
	if c, ok := checked["claude · project · fsproj"]; !ok || !c {
		t.Errorf("the server given a folder is not listed checked: %+v", shown)
	}
	if c, ok := checked["claude · project · time"]; !ok || c {
		t.Errorf("time is not listed unchecked: %+v", shown)
	}
	if _, ok := checked["claude · project · notion"]; ok {
		t.Errorf("a remote server is offered: %+v", shown)
	}
	after, _ := os.ReadFile(mcp)
	if s := string(after); !strings.Contains(s, `"--name=time"`) || strings.Contains(s, `"--name=fsproj"`) {
		t.Errorf("wrapped other than the one chosen:\n%s", s)
	}
	// Cancelled: nothing written.
	before := snapshot(t, project)
	ch.choose = func(string, []ui.ChecklistItem) ([]int, bool, error) { return nil, false, nil }
	if err := ch.run(&env{stdout: io.Discard, stderr: io.Discard, dirs: paths.FromEnv()}, yes); err != nil {
		t.Fatal(err)
	}
	if !maps2Equal(before, snapshot(t, project)) {
		t.Error("a cancelled checklist wrote")
	}
}

// TestHostsWrapVSCodeProfile: a server in a VS Code profile's own mcp.json
// (User/profiles/ID) is wrapped like one in the default profile's, and
// unwrap puts the file back byte for byte.
func TestHostsWrapVSCodeProfile(t *testing.T) {
	home, project := hostsSandbox(t)
	file := filepath.Join(home, ".config", "Code", "User", "profiles", "-51c7e1a2", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	all := t.TempDir() // the folder the server was given: everything it may read
	original := "{\n\t// the work profile's servers\n\t\"servers\": {\n\t\t\"files\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"" + all + "\"]},\n\t},\n}\n"
	if err := os.WriteFile(file, []byte(original), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := run([]string{"hosts", "list", "vscode", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("hosts list: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), file) {
		t.Errorf("hosts list does not name the profile's file:\n%s", out.String())
	}
	if err := run([]string{"hosts", "wrap", "vscode", "files", "--yes", "--project", project}, io.Discard, &errb); err != nil {
		t.Fatalf("hosts wrap: %v\n%s", err, errb.String())
	}
	b, _ := os.ReadFile(file)
	if got := string(b); !strings.Contains(got, `"proxy"`) || !strings.Contains(got, "// the work profile's servers") || strings.Contains(got, all+`"]`) || !strings.Contains(got, "{roots}") {
		t.Errorf("the profile's server is not wrapped (comment kept, folder argument replaced):\n%s", got)
	}
	if err := run([]string{"hosts", "unwrap", "vscode", "--yes", "--project", project}, io.Discard, &errb); err != nil {
		t.Fatalf("hosts unwrap: %v\n%s", err, errb.String())
	}
	if b, _ := os.ReadFile(file); string(b) != original {
		t.Errorf("unwrap did not put the file back:\n%s\nwant\n%s", b, original)
	}
}

// TestHostsWrapNetworkOff: hosts wrap --network off writes --network=off
// into each wrapped server's proxy arguments, which the proxy takes.
func TestHostsWrapNetworkOff(t *testing.T) {
	_, project := hostsSandbox(t)
	var out, errb bytes.Buffer
	if err := run([]string{"hosts", "wrap", "claude", "time", "--network", "off", "--yes", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), `"--network=off"`) {
		t.Fatalf("the wrap does not pass --network=off:\n%s", out.String())
	}
	if c, _ := parseWith(t, "proxy", "--host=claude", "--name=time", "--network=off", "--", "uvx", "mcp-server-time"); c.Proxy.Network != "off" {
		t.Errorf("the proxy reads --network=off as %q", c.Proxy.Network)
	}
}
