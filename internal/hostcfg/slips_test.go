package hostcfg

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestHostsDuplicateServerName: a server name given twice in the same
// servers object marks both entries (the host keeps one, and which one is
// its business), so neither is wrapped; a name given once beside them is
// not marked.
func TestHostsDuplicateServerName(t *testing.T) {
	for _, tc := range []struct{ host, scope, text string }{
		{Claude, "project", `{"mcpServers": {"a": {"command": "x"}, "b": {"command": "z"}, "a": {"command": "y"}}}`},
		{VSCode, "project", `{"servers": {"a": {"command": "x"}, "b": {"command": "z"}, "a": {"command": "y"}}}`},
	} {
		f, _ := FileFor(tc.host, tc.scope, "x.json")
		c, err := Parse(f, []byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		var as int
		for _, s := range c.Servers {
			ok, why := s.CanWrap()
			switch s.Name {
			case "a":
				as++
				if want := "the name a is given twice"; ok || !strings.Contains(why, want) {
					t.Errorf("%s: server a (command %s): CanWrap %v %q, want refused with %q", tc.text, s.Command, ok, why, want)
				}
			case "b":
				if !ok {
					t.Errorf("%s: server b, named once, refused: %q", tc.text, why)
				}
			}
		}
		if as != 2 {
			t.Errorf("%s: %d servers named a, want both entries listed", tc.text, as)
		}
	}
}

// TestHostsDepthExactLimit: the limit is exact: each format is read at
// MaxDepth levels and refused at one level more, not only ten past it.
// Two generators build one level less than asked (TOML's innermost empty
// array holds nothing at the last level; YAML sequences in mappings come
// two levels a line), so for them the refusal is one step further on.
func TestHostsDepthExactLimit(t *testing.T) {
	slack := map[string]int{
		"TOML arrays": 1,
		"TOML, closing brackets in strings and comments at each level": 1,
		"YAML sequences in mappings":                                   1,
	}
	for _, tc := range depthCases {
		f, _ := FileFor(tc.host, tc.scope, "/p/config")
		if _, err := Parse(f, []byte(tc.deep(MaxDepth))); err != nil {
			t.Errorf("%s, %d levels: %v, want it read", tc.name, MaxDepth, err)
		}
		n := MaxDepth + 1 + slack[tc.name]
		var r *RefusedError
		_, err := Parse(f, []byte(tc.deep(n)))
		if !errors.As(err, &r) || !strings.Contains(err.Error(), "nested more than 100 levels deep") {
			t.Errorf("%s, %d levels: %v, want a refusal for depth", tc.name, n, err)
		}
	}
}

// TestHostsFolderAfterFlagValue: a folder argument right after a
// --flag=FOLDER argument is a run of its own, one {roots} may replace;
// it is not joined to the flag's run, which wrap leaves as it is.
func TestHostsFolderAfterFlagValue(t *testing.T) {
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{"home/src", "project/sub"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := FileFor(Claude, "user", "x")
	f.Home, f.Workspace = home, project
	got := f.folderRuns("srv", []string{"--root=~/src", "sub", "~/src", "--x=sub"})
	want := []FolderRun{
		{Start: 0, End: 1, Args: []string{"--root=~/src"}, Paths: []string{home + "/src"}, Inside: true},
		{Start: 1, End: 3, Args: []string{"sub", "~/src"}, Paths: []string{project + "/sub", home + "/src"}},
		{Start: 3, End: 4, Args: []string{"--x=sub"}, Paths: []string{project + "/sub"}, Inside: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("folder runs\n %+v\nwant %+v", got, want)
	}
}
