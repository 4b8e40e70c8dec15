package hostcfg

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// folderSandbox copies testdata to a temporary folder, with the fixtures'
// absolute folders (/home/someone, /srv/docs) moved into it, and makes
// every folder a fixture's server names: home is the home folder and
// project the project folder, as Files gives them.
func folderSandbox(t *testing.T) (home, project string) {
	t.Helper()
	dir := t.TempDir()
	home, project = filepath.Join(dir, "home"), filepath.Join(dir, "project")
	moved := strings.NewReplacer("/home/someone", home, "/srv/docs", filepath.Join(dir, "srv", "docs"))
	err := filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata", p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), []byte(moved.Replace(string(b))), 0o644)
	})
	if err != nil {
		t.Fatal(err)
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

// folderFixtures are, by fixture and server, the runs of folder arguments
// FolderArgs finds in the sandbox, as [start, end) in the server's args.
var folderFixtures = map[string]map[string][][2]int{
	"project/.mcp.json":              {"filesystem": {{2, 3}}},
	"home/.claude.json":              {"memory": {{2, 3}}},
	"project/.vscode/mcp.json":       {"filesystem": {{2, 3}}},
	"project/.cursor/mcp.json":       {"fs": {{2, 4}}},
	"home/.gemini/settings.json":     {"files": {{0, 1}, {2, 3}}},
	"home/.codex/config.toml":        {"docs": {{2, 3}}},
	"home/.config/goose/config.yaml": {"filesystem": {{2, 3}}, "notes": {{2, 4}}},
}

// loadIn loads fixture fx from the sandbox, with the places Files gives.
func (fx fixture) loadIn(t *testing.T, home, project string) *Config {
	t.Helper()
	dir := filepath.Dir(home)
	f, _ := FileFor(fx.host, fx.scope, filepath.Join(dir, fx.path))
	f.Rootpick = fixtureRootpick
	f.Home, f.Workspace = home, project
	f.Getenv = func(string) string { return "" }
	c, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestHostsFolderArgsFixtures: in each host's fixture, the servers' folder
// arguments are found (a path, ~/…, the host's own variables, a run of
// two, two runs, a YAML block sequence with a comment in the run); wrap
// replaces each run with one {roots} and keeps the arguments in
// --orig-arg flags, the format's decoder reads exactly that command line,
// and unwrap gives the original bytes; with KeepArgs the arguments stay.
func TestHostsFolderArgsFixtures(t *testing.T) {
	home, project := folderSandbox(t)
	for _, fx := range fixtures {
		want, ok := folderFixtures[fx.path]
		if !ok {
			continue
		}
		t.Run(fx.path, func(t *testing.T) {
			c := fx.loadIn(t, home, project)
			got := map[string][][2]int{}
			var which []int
			for i, s := range c.Servers {
				for _, r := range c.FolderArgs(i) {
					got[s.Name] = append(got[s.Name], [2]int{r.Start, r.End})
					for k, p := range r.Paths {
						if fi, err := os.Stat(p); err != nil || !fi.IsDir() || !strings.HasPrefix(p, filepath.Dir(home)) {
							t.Errorf("%s: %q names %q, not a folder of the sandbox", s.Name, r.Args[k], p)
						}
					}
				}
				if _, ok := want[s.Name]; ok {
					which = append(which, i)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("folder runs %v, want %v", got, want)
			}

			rw, err := c.PlanWrap(which, testProxy)
			if err != nil {
				t.Fatal(err)
			}
			var d strings.Builder
			if err := rw.WriteDiff(&d, "a", "b"); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrapped:\n%s", d.String())
			c2, err := Parse(c.File, rw.New)
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range which {
				s := c.Servers[i]
				args := slices.Clone(s.Args)
				var orig []string
				runs := want[s.Name]
				for k := len(runs) - 1; k >= 0; k-- {
					args = slices.Replace(args, runs[k][0], runs[k][1], RootsArg)
				}
				for k, r := range runs {
					if k > 0 {
						orig = append(orig, OrigNextFlag)
					}
					for _, a := range s.Args[r[0]:r[1]] {
						orig = append(orig, OrigArgFlag, a)
					}
				}
				line := append(append(append(wantFlags(testProxy, c.File, s.Name), orig...), "--", s.Command), args...)
				e := decodedEntry(t, c, rw.New, s)
				if e[s.loc.commandKey] != testProxy.For(c.File).Exe || !slices.Equal(strs(e["args"]), line) {
					t.Errorf("%s wrapped: %v %q, want %q", s.Name, e[s.loc.commandKey], strs(e["args"]), line)
				}
				if b := c2.Servers[i]; b.Kind != Proxied || !slices.Equal(b.Restored, append([]string{s.Command}, s.Args...)) {
					t.Errorf("%s read back: %v, restores %q", s.Name, b.Kind, b.Restored)
				}
			}
			back, err := c2.Unwrap(which)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back, c.Data) {
				t.Fatalf("wrap then unwrap is not the original:\n%s", Diff("original", "unwrapped", c.Data, back))
			}

			kept, err := c.Wrap(which, Proxy{Exe: testProxy.Exe, KeepArgs: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range which {
				s := c.Servers[i]
				e := decodedEntry(t, c, kept, s)
				if line := append(append(wantFlags(Proxy{}, c.File, s.Name), "--", s.Command), s.Args...); !slices.Equal(strs(e["args"]), line) {
					t.Errorf("%s wrapped keeping its arguments: %q, want %q", s.Name, strs(e["args"]), line)
				}
			}
		})
	}
}

// TestHostsFolderArg: which arguments name folders, host by host, and
// which are a launcher's program.
func TestHostsFolderArg(t *testing.T) {
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{"home/src", "project/sub", "project/pkg", "other/x", "env"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "project", "server.js"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DATA": filepath.Join(dir, "env"), "HOME": "/not/this/one"}
	for _, tc := range []struct {
		host    string
		command string
		args    []string
		// want are the folders found, by argument index ("!" after a
		// path: inside --flag=).
		want map[int]string
	}{
		{Claude, "srv", []string{dir + "/other/x", "~/src", "~", "sub", ".", "server.js", "nope", "-v"},
			map[int]string{0: dir + "/other/x", 1: home + "/src", 2: home, 3: project + "/sub", 4: project}},
		{Claude, "srv", []string{"${HOME}/src", "$HOME/src", "${DATA}", "${UNSET:-" + dir + "/other}", "${UNSET}", "${CLAUDE_PROJECT_DIR}", "${PWD}/sub", "${workspaceFolder}"},
			map[int]string{0: home + "/src", 2: dir + "/env", 3: dir + "/other", 5: project, 6: project + "/sub"}},
		{VSCode, "srv", []string{"${workspaceFolder}", "${userHome}/src", "${env:DATA}", "${input:dir}", "${workspaceFolderBasename}", "${HOME}", "${workspaceFolder}${/}sub"},
			map[int]string{0: project, 1: home + "/src", 2: dir + "/env", 6: project + "/sub"}},
		{Cursor, "srv", []string{"${workspaceFolder}/pkg", "${env:NOPE}"}, map[int]string{0: project + "/pkg"}},
		{Gemini, "srv", []string{"$HOME/src", "${DATA}", "$PWD", "$NOPE", "${workspaceFolder}"},
			map[int]string{0: home + "/src", 1: dir + "/env", 2: project}},
		{Codex, "srv", []string{"$HOME/src", "~/src", "${HOME}"}, map[int]string{1: home + "/src"}},
		{Goose, "srv", []string{"$HOME/src", "~/src"}, map[int]string{1: home + "/src"}},
		// --flag=FOLDER: found, as inside.
		{Claude, "srv", []string{"--root=~/src", "--x=y", "-C=sub"}, map[int]string{0: home + "/src!", 2: project + "/sub!"}},
		// Launchers: their program is never data, whatever it is.
		{Claude, "node", []string{".", "sub"}, map[int]string{1: project + "/sub"}},
		{Claude, "go", []string{"run", ".", "sub"}, map[int]string{2: project + "/sub"}},
		{Claude, "/usr/bin/npx", []string{"-y", "pkg", "~/src"}, map[int]string{2: home + "/src"}},
		{Claude, "npx", []string{"--package", "sub", "pkg", "~/src"}, map[int]string{3: home + "/src"}},
		{Claude, "uv", []string{"--directory", "sub", "run", "server.py", "~/src"}, map[int]string{4: home + "/src"}},
		{Claude, "uv", []string{"run", "--directory", "sub", "pkg", "~/src"}, map[int]string{4: home + "/src"}},
		{Claude, "python3.12", []string{"-m", "pkg", "sub"}, map[int]string{2: project + "/sub"}},
		{Claude, "python", []string{"-u", "pkg", "sub"}, map[int]string{2: project + "/sub"}},
		{Claude, "docker", []string{"run", "-i", "--rm", "-v", dir + "/other/x:/x", "img", "sub"}, map[int]string{6: project + "/sub"}},
		{Claude, "bash", []string{"-c", "sub", "sub"}, map[int]string{2: project + "/sub"}},
		{Claude, `C:\Program Files\nodejs\node.EXE`, []string{"sub", "sub"}, map[int]string{1: project + "/sub"}},
		{Claude, "npx", []string{"-y"}, map[int]string{}},
		// A flag that takes exactly one folder: its value is a run of its
		// own, kept ("#FLAG" after the path); a folder after it is another.
		{Claude, "uvx", []string{"mcp-server-git", "--repository", "sub", "~/src"}, map[int]string{2: project + "/sub#--repository", 3: home + "/src"}},
		{Claude, "uvx", []string{"mcp-server-git==0.6.2", "-r", "sub"}, map[int]string{2: project + "/sub#-r"}},
		{Claude, "python", []string{"-m", "mcp_server_git", "--repository", "sub"}, map[int]string{3: project + "/sub#--repository"}},
		{Claude, "/usr/local/bin/mcp-server-git", []string{"--repository", "sub"}, map[int]string{1: project + "/sub#--repository"}},
		// Another server's --repository is not known to take one folder.
		{Claude, "uvx", []string{"other-server", "--repository", "sub"}, map[int]string{2: project + "/sub"}},
	} {
		f, _ := FileFor(tc.host, "user", "x")
		f.Home, f.Workspace = home, project
		f.Getenv = func(k string) string { return env[k] }
		got := map[int]string{}
		for _, r := range f.folderRuns(tc.command, tc.args) {
			for k := r.Start; k < r.End; k++ {
				got[k] = r.Paths[k-r.Start]
				if r.Inside {
					got[k] += "!"
				}
				if r.Flag != "" {
					got[k] += "#" + r.Flag
				}
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s %q: folders %v, want %v", tc.host, tc.command, tc.args, got, tc.want)
		}
	}
	// The one folder of --repository is a run of its own: the folder
	// after it is not part of it.
	f0, _ := FileFor(Claude, "user", "x")
	f0.Home, f0.Workspace = home, project
	if runs := f0.folderRuns("uvx", []string{"mcp-server-git", "--repository", "sub", "~/src"}); len(runs) != 2 || runs[0].Replaced() || !runs[1].Replaced() {
		t.Errorf("--repository sub ~/src: runs %+v", runs)
	}
	// Unknown places: nothing relative, nothing from ~ or variables.
	f, _ := FileFor(VSCode, "user", "x")
	if runs := f.folderRuns("srv", []string{".", "~", "${workspaceFolder}", "${userHome}", dir}); len(runs) != 1 || runs[0].Start != 4 {
		t.Errorf("without places: %v", runs)
	}
}

// TestHostsWrapKeepsAOneFolderFlag: wrap leaves the folder of a flag that
// takes exactly one (mcp-server-git --repository DIR) as it is: no
// {roots}, no --orig-arg; a folder argument beside it is replaced as
// usual, and unwrap gives the file back.
func TestHostsWrapKeepsAOneFolderFlag(t *testing.T) {
	dir := t.TempDir()
	repo, other := filepath.Join(dir, "repo"), filepath.Join(dir, "other")
	for _, d := range []string{repo, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := FileFor(Claude, "user", filepath.Join(dir, ".claude.json"))
	f.Home, f.Workspace = dir, dir
	in := `{"mcpServers": {"git": {"command": "uvx", "args": ["mcp-server-git", "--repository", "` + repo + `"]}, "fs": {"command": "srv", "args": ["` + other + `"]}}}`
	c, err := Parse(f, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Wrap([]int{0, 1}, Proxy{Exe: "/r"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"mcpServers": {"git": {"command": "/r", "args": ["proxy", "--host=claude", "--name=git", "--", "uvx", "mcp-server-git", "--repository", "` + repo + `"]}, "fs": {"command": "/r", "args": ["proxy", "--host=claude", "--name=fs", "--orig-arg", "` + other + `", "--", "srv", "{roots}"]}}}`
	if string(out) != want {
		t.Errorf("wrapped\n%s\nwant\n%s", out, want)
	}
	f.Rootpick = []string{"/r"}
	c2, err := Parse(f, out)
	if err != nil {
		t.Fatal(err)
	}
	back, err := c2.Unwrap([]int{0, 1})
	if err != nil || string(back) != in {
		t.Errorf("unwrapped %s, %v", back, err)
	}
}
