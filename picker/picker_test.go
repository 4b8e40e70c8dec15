package picker

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

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
		{"api", []string{"/d/api", "/d/Tools/API-gen"}}, // ranked: the shorter, tighter match first
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

func TestFilterIgnoresTheBaseFolder(t *testing.T) {
	var s State
	s.SetBase("/home/u/src")
	s.AddAll([]vcsdetect.Repo{r("/home/u/src/api", "main"), r("/home/u/src/web", "main"), r("/home/u/src/src-tools", "dev")})
	s.SetFilter("src")
	if got := paths(s.Shown()); !slices.Equal(got, []string{"/home/u/src/src-tools"}) {
		t.Fatalf("filter src under /home/u/src shows %v; only src-tools has it in its name", got)
	}
	s.SetFilter("home")
	if n := len(s.Shown()); n != 0 {
		t.Fatalf("a word of the base folder matched %d repos", n)
	}
}

func TestAddAllMatchesAdd(t *testing.T) {
	var one, batch State
	in := []vcsdetect.Repo{r("/d/q", ""), r("/d/b", ""), r("/d/q", "x"), r("/d/a", ""), r("/d/z", "")}
	for _, x := range in {
		one.Add(x)
	}
	batch.AddAll(in[:2])
	batch.AddAll(in[2:])
	if !slices.Equal(paths(one.Shown()), paths(batch.Shown())) || batch.Shown()[2].Branch != "x" {
		t.Fatalf("Add gave %v, AddAll gave %v", one.Shown(), batch.Shown())
	}
}

// BenchmarkAddAll feeds 20,000 repositories in batches of 512, as a scan
// does, with a filter set.
func BenchmarkAddAll(b *testing.B) {
	repos := make([]vcsdetect.Repo, 20000)
	for i := range repos {
		repos[i] = r(fmt.Sprintf("/src/team%03d/repo%05d", i%97, i), "main")
	}
	for b.Loop() {
		var s State
		s.SetBase("/src")
		s.SetFilter("team0")
		for i := 0; i < len(repos); i += 512 {
			s.AddAll(repos[i:min(i+512, len(repos))])
		}
	}
}

func TestInside(t *testing.T) {
	var s State
	for _, p := range []string{"/w/a", "/w/a/b", "/w/a/b/c", "/w/a-b", "/w/ab", "/w/a.x", "/w/z"} {
		s.Add(vcsdetect.Repo{Path: p})
	}
	paths := func(rs []vcsdetect.Repo) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Path)
		}
		return out
	}
	if got, want := paths(s.Inside("/w/a")), []string{"/w/a/b", "/w/a/b/c"}; !slices.Equal(got, want) {
		t.Errorf("Inside(/w/a) = %v, want %v", got, want)
	}
	if got := paths(s.Inside("/w/z")); got != nil {
		t.Errorf("Inside(/w/z) = %v", got)
	}
	if got := len(s.Inside("/")); got != 7 {
		t.Errorf("Inside(/) = %d repos, want 7", got)
	}
	if got := len(s.Inside("/w/")); got != 7 {
		t.Errorf("Inside(/w/) = %d repos, want 7", got)
	}
}

func TestCountInside(t *testing.T) {
	var s State
	for _, p := range []string{"/w/a", "/w/a/b", "/w/a/b/c", "/w/a-b", "/w/ab", "/w/a.x", "/w/z"} {
		s.Add(vcsdetect.Repo{Path: p})
	}
	for _, root := range []string{"/w/a", "/w/z", "/", "/w", "/w/a/b", "/nope", "/w/a-b"} {
		if got, want := s.CountInside(root), len(s.Inside(root)); got != want {
			t.Errorf("CountInside(%q) = %d, want %d", root, got, want)
		}
	}
}

// substringCount is the matcher the filter had before the fuzzy one
// (every word a substring of the lower-cased haystack), kept to compare.
func substringCount(hay []string, q string) int {
	words := strings.Fields(strings.ToLower(q))
	n := 0
	for _, h := range hay {
		h = strings.ToLower(h)
		ok := true
		for _, w := range words {
			if !strings.Contains(h, w) {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}

// TestCursorStaysOnTopWhileStreaming: until the person moves, rows that
// stream in above the highlighted one do not push the highlight down; after
// a move, the highlight stays on its repository.
func TestCursorStaysOnTopWhileStreaming(t *testing.T) {
	var s State
	s.SetBase("/w")
	s.AddAll([]vcsdetect.Repo{{Path: "/w/m"}})
	s.AddAll([]vcsdetect.Repo{{Path: "/w/a"}})
	if r, _ := s.Current(); s.Cursor() != 0 || r.Path != "/w/a" {
		t.Fatalf("before any move the cursor is on row %d (%s), want the first row", s.Cursor(), r.Path)
	}
	s.Move(1) // on /w/m
	s.AddAll([]vcsdetect.Repo{{Path: "/w/b"}})
	if r, _ := s.Current(); r.Path != "/w/m" {
		t.Fatalf("after a move the cursor left its repository for %s", r.Path)
	}
}

// TestAddAllInBatchesEqualsOneSort: batches merged into the list in
// place, sorted by path, name and last commit, give the order one sort of
// everything gives, with ties (equal names, equal times) in path order.
func TestAddAllInBatchesEqualsOneSort(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	var repos []vcsdetect.Repo
	for i := range 3000 {
		name := fmt.Sprintf("n%d", rnd.IntN(50))
		repos = append(repos, vcsdetect.Repo{Path: fmt.Sprintf("/w/%d/%s", rnd.IntN(400), name), Name: name, Kind: vcsdetect.KindGit, Depth: i % 3})
	}
	when := func(r vcsdetect.Repo) (time.Time, bool) {
		h := 0
		for _, c := range r.Path {
			h = h*31 + int(c)
		}
		if h%5 == 0 {
			return time.Time{}, false
		}
		return time.Unix(int64(h%40), 0), true
	}
	for _, k := range []SortKey{ByPath, ByName, ByLastCommit} {
		var batched, whole State
		batched.SetCommitTime(when)
		whole.SetCommitTime(when)
		batched.SetSort(k)
		for i := 0; i < len(repos); {
			n := 1 + rnd.IntN(300)
			batched.AddAll(repos[i:min(i+n, len(repos))])
			i += n
		}
		whole.AddAll(repos)
		whole.SetSort(k)
		if got, want := paths(batched.Shown()), paths(whole.Shown()); !slices.Equal(got, want) {
			t.Fatalf("sort %v: batches give %d rows %v…, one sort %d rows %v…", k, len(got), got[:5], len(want), want[:5])
		}
	}
}

// TestReadOnlyAccess: a checked row's access switches with
// ToggleReadOnly (an unchecked one has none); a row checked anew takes
// SetReadOnlyNew's access; unchecking drops it; SetChecked keeps the
// access of what stays checked; every change of access is a change of
// the checked set's version.
func TestReadOnlyAccess(t *testing.T) {
	var s State
	for _, p := range []string{"/d/a", "/d/b", "/d/c"} {
		s.Add(r(p, ""))
	}
	if _, _, ok := s.ToggleReadOnly(); ok {
		t.Fatal("an unchecked row took an access")
	}
	s.Toggle() // /d/a, read and write
	v := s.CheckedVersion()
	if path, ro, ok := s.ToggleReadOnly(); !ok || path != "/d/a" || !ro || !s.IsReadOnly("/d/a") {
		t.Fatalf("ToggleReadOnly = %q %v %v", path, ro, ok)
	}
	if s.CheckedVersion() == v {
		t.Error("a change of access left the checked version as it was")
	}
	s.SetReadOnlyNew(true)
	s.MoveTo(1)
	s.Toggle() // /d/b, read-only by default now
	if !s.IsReadOnly("/d/b") {
		t.Error("a row checked under SetReadOnlyNew(true) is read and write")
	}
	s.SetReadOnlyNew(false)
	s.SetChecked([]string{"/d/a", "/d/c"}) // /d/a stays, /d/b goes, /d/c is new
	if !s.IsReadOnly("/d/a") || s.IsReadOnly("/d/b") || s.IsReadOnly("/d/c") {
		t.Errorf("after SetChecked: a %v b %v c %v; want true false false", s.IsReadOnly("/d/a"), s.IsReadOnly("/d/b"), s.IsReadOnly("/d/c"))
	}
	s.SetReadOnly("/d/b", true) // not checked: no access
	if s.IsReadOnly("/d/b") {
		t.Error("an unchecked path took an access")
	}
	s.MoveTo(0)
	s.Toggle() // uncheck /d/a: its access goes with it
	s.Toggle()
	if s.IsReadOnly("/d/a") {
		t.Error("a row unchecked and checked again kept its old access")
	}
	if got := s.ReadOnly(); len(got) != 0 {
		t.Errorf("ReadOnly() = %v", got)
	}
}
