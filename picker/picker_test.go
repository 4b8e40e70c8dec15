package picker

import (
	"slices"
	"testing"

	"github.com/rootpick/rootpick/vcsdetect"
)

func r(path, branch string) vcsdetect.Repo {
	return vcsdetect.Repo{Path: path, Branch: branch, Kind: vcsdetect.KindGit}
}

func paths(rs []vcsdetect.Repo) []string {
	out := make([]string, len(rs))
	for i, x := range rs {
		out[i] = x.Path
	}
	return out
}

func TestAddKeepsSortedAndCursorOnSameRepo(t *testing.T) {
	var s State
	s.Add(r("/d/m", "main"))
	s.Add(r("/d/z", "main"))
	s.Move(1) // on /d/z
	s.Add(r("/d/a", "main"))
	s.Add(r("/d/m", "dev")) // update in place
	if got, want := paths(s.Shown()), []string{"/d/a", "/d/m", "/d/z"}; !slices.Equal(got, want) {
		t.Fatalf("shown %v, want %v", got, want)
	}
	if c, _ := s.Current(); c.Path != "/d/z" {
		t.Fatalf("cursor moved to %s when a repo was inserted above it", c.Path)
	}
	if s.Shown()[1].Branch != "dev" {
		t.Fatal("re-adding a path did not update it")
	}
}

func TestFilter(t *testing.T) {
	var s State
	for _, p := range []string{"/d/api", "/d/web", "/d/tools/cli", "/d/Tools/API-gen"} {
		s.Add(r(p, "main"))
	}
	s.Add(r("/d/x", "feature/Login"))
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"", []string{"/d/Tools/API-gen", "/d/api", "/d/tools/cli", "/d/web", "/d/x"}},
		{"api", []string{"/d/Tools/API-gen", "/d/api"}},
		{"tools api", []string{"/d/Tools/API-gen"}},
		{"login", []string{"/d/x"}},
		{"nothing", []string{}},
	} {
		s.SetFilter(tc.q)
		if got := paths(s.Shown()); !slices.Equal(got, tc.want) {
			t.Errorf("filter %q: %v, want %v", tc.q, got, tc.want)
		}
	}
	s.SetFilter("nothing")
	if _, ok := s.Current(); ok {
		t.Fatal("Current with nothing shown")
	}
	s.Toggle() // no-op, must not panic
	s.Move(3)
}

func TestCheckShownRespectsFilterAndSurvivesReset(t *testing.T) {
	var s State
	for _, p := range []string{"/d/a1", "/d/a2", "/d/b1"} {
		s.Add(r(p, ""))
	}
	s.SetFilter("a")
	s.CheckShown(true)
	s.SetFilter("")
	if got := s.Checked(); !slices.Equal(got, []string{"/d/a1", "/d/a2"}) {
		t.Fatalf("checked %v", got)
	}
	s.MoveTo(2)
	s.Toggle()
	s.CheckShown(false)
	if got := s.Checked(); len(got) != 0 {
		t.Fatalf("uncheck all left %v", got)
	}
	s.SetChecked([]string{"/d/b1"})
	s.Reset()
	if s.Len() != 0 || !s.IsChecked("/d/b1") {
		t.Fatal("Reset must drop candidates and keep checks")
	}
}

func TestMoveClamps(t *testing.T) {
	var s State
	s.Move(1)
	for _, p := range []string{"/a", "/b", "/c"} {
		s.Add(r(p, ""))
	}
	s.Move(-5)
	if s.Cursor() != 0 {
		t.Fatal(s.Cursor())
	}
	s.Move(10)
	if s.Cursor() != 2 {
		t.Fatal(s.Cursor())
	}
}
