package picker

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootpick/rootpick/vcsdetect"
)

func repoAt(path, name, branch string) vcsdetect.Repo {
	return vcsdetect.Repo{Path: path, Name: name, Branch: branch, Kind: vcsdetect.KindGit}
}

func workspace() *State {
	var s State
	s.SetBase("/w")
	s.AddAll([]vcsdetect.Repo{
		repoAt("/w", "w", "main"),
		repoAt("/w/payments-service", "payments-service", "main"),
		repoAt("/w/payments-service-legacy", "payments-service-legacy", "main"),
		repoAt("/w/play/sandbox", "sandbox", "dev"),
		repoAt("/w/web", "web", "feature/svc"),
		repoAt("/w/api", "api", "main"),
	})
	return &s
}

func TestFuzzyFilterLikeFzf(t *testing.T) {
	s := workspace()
	for _, tc := range []struct {
		q    string
		want []string
	}{
		// Letters in order, not a substring: paysvc finds both services.
		{"paysvc", []string{"/w/payments-service", "/w/payments-service-legacy"}},
		// Ranked as fzf ranks: play's adjacent "pl" at the start of a
		// segment beats legacy's l after a separator 16 letters on.
		{"pl", []string{"/w/play/sandbox", "/w/payments-service-legacy"}},
		// Each space-separated term must match; the branch is matched too.
		{"web svc", []string{"/w/web"}},
		// The row for DIR itself is drawn as "." and a filter of "." finds it.
		{".", []string{"/w"}},
		{"zzz", []string{}},
	} {
		s.SetFilter(tc.q)
		if got := paths(s.Shown()); !slices.Equal(got, tc.want) {
			t.Errorf("filter %q: %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestRankTiesByPath(t *testing.T) {
	var s State
	s.SetBase("/w")
	s.AddAll([]vcsdetect.Repo{repoAt("/w/b/x", "x", ""), repoAt("/w/a/x", "x", ""), repoAt("/w/c/x", "x", "")})
	s.SetFilter("x")
	if got, want := paths(s.Shown()), []string{"/w/a/x", "/w/b/x", "/w/c/x"}; !slices.Equal(got, want) {
		t.Fatalf("equal scores ranked %v, want path order %v", got, want)
	}
}

func TestMatchedAtPointsAtTheMatchedCharacters(t *testing.T) {
	s := workspace()
	s.SetFilter("web svc")
	if s.ShownLen() != 1 {
		t.Fatalf("web svc: %v", paths(s.Shown()))
	}
	hay := Haystack("/w", s.ShownAt(0))
	var got []byte
	for _, p := range s.MatchedAt(0) {
		got = append(got, hay[p])
	}
	if string(got) != "websvc" {
		t.Fatalf("matched %q in %q (offsets %v), want the letters of web and svc", got, hay, s.MatchedAt(0))
	}
	s.SetFilter("")
	if s.MatchedAt(0) != nil {
		t.Fatal("offsets without a filter")
	}
}

func TestShownAtMatchesShown(t *testing.T) {
	s := workspace()
	for _, q := range []string{"", "pay", "a"} {
		s.SetFilter(q)
		all := s.Shown()
		if s.ShownLen() != len(all) {
			t.Fatalf("%q: ShownLen %d, Shown %d", q, s.ShownLen(), len(all))
		}
		for i := range all {
			if s.ShownAt(i) != all[i] {
				t.Fatalf("%q: ShownAt(%d) = %v, Shown()[%d] = %v", q, i, s.ShownAt(i), i, all[i])
			}
		}
	}
}

func TestCheckedCountIsIncremental(t *testing.T) {
	s := workspace()
	v := s.CheckedVersion()
	s.Toggle()
	s.CheckShown(true)
	if s.CheckedCount() != len(s.Checked()) || s.CheckedCount() != 6 {
		t.Fatalf("CheckedCount %d, Checked %d", s.CheckedCount(), len(s.Checked()))
	}
	if s.CheckedVersion() == v {
		t.Fatal("checking did not change CheckedVersion")
	}
	v = s.CheckedVersion()
	s.CheckShown(true) // no change
	if s.CheckedVersion() != v {
		t.Fatal("checking what was checked changed CheckedVersion")
	}
	s.Uncheck("/w/api")
	s.SetChecked([]string{"/elsewhere"}) // not a candidate
	if s.CheckedCount() != 1 {
		t.Fatalf("CheckedCount %d after SetChecked of one path", s.CheckedCount())
	}
}

// TestStaleResultDropped: a result prepared before a candidate changed is
// refused; one prepared before candidates were added is completed with them.
func TestStaleResultDropped(t *testing.T) {
	s := workspace()
	q := s.Prepare("pay")
	s.Add(repoAt("/w/api", "api", "payday")) // api's haystack changes
	if s.Apply(q.Run()) {
		t.Fatal("a result computed before a candidate changed was applied")
	}
	if s.Filter() != "" {
		t.Fatalf("filter %q after a dropped result", s.Filter())
	}
	q = s.Prepare("pay")
	s.Add(repoAt("/w/z/pay", "pay", "")) // appended after Prepare
	if !s.Apply(q.Run()) {
		t.Fatal("a result for the current candidates was dropped")
	}
	if got := paths(s.Shown()); !slices.Contains(got, "/w/z/pay") || !slices.Contains(got, "/w/api") {
		t.Fatalf("pay shows %v: the added and the changed candidates are missing", got)
	}
}

// TestNarrowingEqualsFullMatch: typing on (the query extends the applied
// one) searches only the previous matches; the result, and the result
// after backspaces, must equal a match over everything.
func TestNarrowingEqualsFullMatch(t *testing.T) {
	var s, fresh State
	repos := genRepos(3000)
	s.SetBase("/src")
	fresh.SetBase("/src")
	s.AddAll(repos)
	fresh.AddAll(repos)
	typed := "team01 repo9"
	var steps []string
	for i := 1; i <= len(typed); i++ {
		steps = append(steps, typed[:i]) // typing on narrows
	}
	for i := len(typed) - 1; i > 0; i-- {
		steps = append(steps, typed[:i]) // backspace must widen again
	}
	for _, q := range steps {
		s.SetFilter(q)
		fresh.matches, fresh.filter, fresh.kept = nil, "", nil
		fresh.SetFilter(q)
		if !slices.Equal(paths(s.Shown()), paths(fresh.Shown())) {
			t.Fatalf("%q narrowed: %d shown, full match: %d", q, s.ShownLen(), fresh.ShownLen())
		}
	}
	if s.ShownLen() == 0 {
		t.Fatal("the test query matches nothing")
	}
}

// TestErasingReusesTheKeptResult: as in fzf, erasing back to a text typed
// before shows that text's result without matching again; candidates
// appended since are matched on top, and a candidate changed in place
// makes the kept results stale.
func TestErasingReusesTheKeptResult(t *testing.T) {
	var s State
	repos := genRepos(3000)
	s.SetBase("/src")
	s.AddAll(repos[:2000])
	full := func(q string) []string {
		var f State
		f.SetBase("/src")
		f.AddAll(repos[:s.Len()])
		f.SetFilter(q)
		return paths(f.Shown())
	}
	typed := "team01 repo9"
	first := map[string]*Match{} // the result first shown for each text
	for i := 1; i <= len(typed); i++ {
		if q := s.Prepare(typed[:i]); q.Ready(0) {
			t.Fatalf("%q is ready before it was ever matched", typed[:i])
		} else {
			s.Apply(q.Run())
		}
		first[typed[:i]] = &s.matches[0]
	}
	for i := len(typed) - 1; i > 0; i-- {
		q := s.Prepare(typed[:i])
		if !q.Ready(0) {
			t.Fatalf("erasing to %q matches again", typed[:i])
		}
		if !s.Apply(q.Run()) || !slices.Equal(paths(s.Shown()), full(typed[:i])) {
			t.Fatalf("erased to %q: %d shown, a full match shows %d", typed[:i], s.ShownLen(), len(full(typed[:i])))
		}
		if &s.matches[0] != first[typed[:i]] {
			t.Fatalf("erased to %q: matched again instead of showing the kept result", typed[:i])
		}
	}
	// Type again, then candidates are appended (a scan batch) before erasing.
	for _, q := range []string{"team0", "team01", "team01 ", "team01 r"} {
		s.Apply(s.Prepare(q).Run())
	}
	s.AddAll(repos[2000:])
	var others []Result // matched before q is prepared, applied while it runs
	for _, x := range []string{"x", "xy", "z"} {
		others = append(others, s.Prepare(x).Run())
	}
	q := s.Prepare("team01")
	if q.Ready(999) || !q.Ready(1000) {
		t.Fatal("a kept result ignores the 1,000 candidates appended since")
	}
	// Not ready for the UI's threshold, so run off its goroutine (go test
	// -race watches it) while the State keeps going: Run matches the
	// appended candidates itself, leaving Apply nothing to match.
	done := make(chan Result)
	go func() { done <- q.Run() }()
	for _, r := range others {
		s.Apply(r) // drops and moves what the State keeps
	}
	res := <-done
	if int(res.n) != len(repos) {
		t.Fatalf("the kept result was run up to candidate %d, want all %d", res.n, len(repos))
	}
	if !s.Apply(res) || !slices.Equal(paths(s.Shown()), full("team01")) {
		t.Fatalf("team01 after appending: %d shown, a full match shows %d", s.ShownLen(), len(full("team01")))
	}
	// A text that does not extend the kept ones drops them.
	s.Apply(s.Prepare("q").Run())
	if s.Prepare("team01").Ready(len(repos)) {
		t.Fatal("team01 still kept after typing x instead")
	}
	// A candidate whose haystack changes makes what is kept stale.
	s.Apply(s.Prepare("te").Run())
	s.Apply(s.Prepare("tea").Run())
	r := repos[5]
	r.Branch = "renamed"
	s.AddAll([]vcsdetect.Repo{r})
	if s.Prepare("te").Ready(len(repos)) {
		t.Fatal("a kept result survived a candidate's change")
	}
}

// TestQueryRunsBesideUpdates runs a query on another goroutine while the
// State changes; go test -race reports any shared write.
func TestQueryRunsBesideUpdates(t *testing.T) {
	var s State
	s.SetBase("/src")
	repos := genRepos(2000)
	s.AddAll(repos)
	q := s.Prepare("repo1")
	var wg sync.WaitGroup
	var res Result
	wg.Go(func() { res = q.Run() })
	for i := range 50 {
		s.Add(repoAt(repos[i].Path, "x", "dev")) // in place
		s.Add(repoAt(fmt.Sprintf("/src/new/%d", i), "n", ""))
		s.SetSort(SortKey(i % 3))
	}
	wg.Wait()
	if s.Apply(res) {
		t.Fatal("stale result applied")
	}
}

func TestRescanKeepsTheCursor(t *testing.T) {
	s := workspace()
	s.MoveTo(3) // /w/payments-service-legacy
	want, _ := s.Current()
	s.Reset()
	s.AddAll([]vcsdetect.Repo{repoAt("/w/api", "api", "main"), repoAt("/w/zz", "zz", "main")})
	if c, _ := s.Current(); c.Path != "/w/api" {
		t.Fatalf("before the repository reappears the cursor is on %s", c.Path)
	}
	s.AddAll([]vcsdetect.Repo{repoAt("/w/payments-service-legacy", "payments-service-legacy", "main"), repoAt("/w/b", "b", "")})
	if c, _ := s.Current(); c.Path != want.Path {
		t.Fatalf("after rescan the cursor is on %s, want %s", c.Path, want.Path)
	}
	// A move during the rescan wins over the remembered row.
	s.Reset()
	s.AddAll([]vcsdetect.Repo{repoAt("/w/api", "api", ""), repoAt("/w/b", "b", "")})
	s.Move(1)
	s.AddAll([]vcsdetect.Repo{repoAt("/w/payments-service-legacy", "p", "")})
	if c, _ := s.Current(); c.Path != "/w/b" {
		t.Fatalf("the cursor left the row the person moved to, for %s", c.Path)
	}
}

func TestSortCyclesAndKeepsTheCursor(t *testing.T) {
	var s State
	s.SetBase("/w")
	s.AddAll([]vcsdetect.Repo{repoAt("/w/a/zeta", "zeta", ""), repoAt("/w/b/alpha", "alpha", ""), repoAt("/w/c/mid", "mid", "")})
	s.MoveTo(2) // c/mid
	if k := s.CycleSort(); k != ByLastCommit {
		t.Fatalf("first s: %v", k)
	}
	// No commit times yet: last commit sorts by path.
	if got := paths(s.Shown()); !slices.Equal(got, []string{"/w/a/zeta", "/w/b/alpha", "/w/c/mid"}) {
		t.Fatalf("by last commit without times: %v", got)
	}
	if k := s.CycleSort(); k != ByName {
		t.Fatalf("second s: %v", k)
	}
	if got := paths(s.Shown()); !slices.Equal(got, []string{"/w/b/alpha", "/w/c/mid", "/w/a/zeta"}) {
		t.Fatalf("by name: %v", got)
	}
	if c, _ := s.Current(); c.Path != "/w/c/mid" {
		t.Fatalf("sorting moved the cursor to %s", c.Path)
	}
	s.AddAll([]vcsdetect.Repo{repoAt("/w/d/beta", "beta", "")})
	if got := paths(s.Shown()); !slices.Equal(got, []string{"/w/b/alpha", "/w/d/beta", "/w/c/mid", "/w/a/zeta"}) {
		t.Fatalf("added under sort by name: %v", got)
	}
	if c, _ := s.Current(); c.Path != "/w/c/mid" {
		t.Fatalf("adding moved the cursor to %s", c.Path)
	}
	when := map[string]time.Time{"/w/a/zeta": time.Unix(300, 0), "/w/c/mid": time.Unix(100, 0)}
	s.SetCommitTime(func(r vcsdetect.Repo) (time.Time, bool) { t, ok := when[r.Path]; return t, ok })
	if k := s.CycleSort(); k != ByPath {
		t.Fatalf("third s: %v", k)
	}
	s.SetSort(ByLastCommit)
	if got := paths(s.Shown()); !slices.Equal(got, []string{"/w/a/zeta", "/w/c/mid", "/w/b/alpha", "/w/d/beta"}) {
		t.Fatalf("by last commit: %v", got)
	}
	if c, _ := s.Current(); c.Path != "/w/c/mid" {
		t.Fatalf("sorting moved the cursor to %s", c.Path)
	}
}

func genRepos(n int) []vcsdetect.Repo {
	words := []string{"payments", "service", "legacy", "api", "web", "tools", "cli", "infra", "auth", "billing"}
	repos := make([]vcsdetect.Repo, n)
	for i := range repos {
		name := fmt.Sprintf("%s-%s-repo%05d", words[i%len(words)], words[(i/7)%len(words)], i)
		repos[i] = repoAt(fmt.Sprintf("/src/team%03d/%s", i%97, name), name, "main")
	}
	return repos
}

// BenchmarkFilter compares the fuzzy matcher with the substring matcher it
// replaced, over 50,000 paths (one keystroke's work, without narrowing).
func BenchmarkFilter(b *testing.B) {
	repos := genRepos(50000)
	var s State
	s.SetBase("/src")
	s.AddAll(repos)
	for _, q := range []string{"p", "pay", "paysvc", "payments"} {
		b.Run("fuzzy/"+q, func(b *testing.B) {
			var n int
			for b.Loop() {
				s.filter, s.matches = "", nil
				n = len(s.Prepare(q).Run().matches)
			}
			b.ReportMetric(float64(n), "matches")
		})
		hay := make([]string, s.Len())
		for i := range s.rows {
			hay[i] = s.rows[i].hayOf()
		}
		b.Run("substring/"+q, func(b *testing.B) {
			var n int
			for b.Loop() {
				n = substringCount(hay, q)
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}

// TestUpdatesUnderFilterEqualFullMatch: repositories updated in place
// (their branch changes, some twice in one batch) and added while a
// filter is set are matched again on their own; the result must equal a
// match over everything.
func TestUpdatesUnderFilterEqualFullMatch(t *testing.T) {
	repos := genRepos(2000)
	var s State
	s.SetBase("/src")
	s.AddAll(repos)
	s.SetFilter("pay dev")
	before := s.ShownLen()
	var batch []vcsdetect.Repo
	for i := 0; i < 2000; i += 7 {
		r := repos[i]
		r.Branch = "dev"
		batch = append(batch, r)
		if i%3 == 0 {
			batch = append(batch, r) // twice in one batch
		}
	}
	batch = append(batch, repoAt("/src/new/payments-x", "payments-x", "dev"), repoAt("/src/new/payments-x", "payments-x", "dev"))
	s.AddAll(batch)
	var fresh State
	fresh.SetBase("/src")
	fresh.AddAll(s.All())
	fresh.SetFilter("pay dev")
	if got, want := paths(s.Shown()), paths(fresh.Shown()); !slices.Equal(got, want) {
		t.Fatalf("after updates %d shown, a full match shows %d", len(got), len(want))
	}
	if s.ShownLen() <= before {
		t.Fatalf("%d shown before the branches became dev, %d after", before, s.ShownLen())
	}
	// Some go back to main: they must leave the matches, once each.
	s.AddAll(batch[:len(batch)/2])
	for i := range batch[:len(batch)/4] {
		batch[i].Branch = "main"
	}
	s.AddAll(batch[:len(batch)/4])
	fresh.AddAll(s.All())
	fresh.SetFilter("")
	fresh.SetFilter("pay dev")
	if got, want := paths(s.Shown()), paths(fresh.Shown()); !slices.Equal(got, want) {
		t.Fatalf("after reverting updates %d shown, a full match shows %d", len(got), len(want))
	}
}

// TestNewerQuerySupersedesOlder: a query prepared after another makes the
// older one stop early, and its partial result is never applied.
func TestNewerQuerySupersedesOlder(t *testing.T) {
	var s State
	s.SetBase("/src")
	s.AddAll(genRepos(3*stopChunk + 1))
	old := s.Prepare("p")
	newer := s.Prepare("pa")
	r := old.Run()
	if !r.Superseded() || len(r.matches) != 0 {
		t.Fatalf("the older query ran to the end: superseded %v, %d matches", r.Superseded(), len(r.matches))
	}
	if s.Apply(r) {
		t.Fatal("a superseded result was applied")
	}
	if r := newer.Run(); r.Superseded() || !s.Apply(r) || s.Filter() != "pa" || s.ShownLen() == 0 {
		t.Fatalf("the newest query: superseded %v, filter %q, %d shown", r.Superseded(), s.Filter(), s.ShownLen())
	}
}

// TestSortByNameKeptUntilTheListChanges: the order by name is reused
// when nothing was added since, and sorted again when something was.
func TestSortByNameKeptUntilTheListChanges(t *testing.T) {
	var s State
	s.SetBase("/w")
	s.AddAll([]vcsdetect.Repo{repoAt("/w/a/zeta", "zeta", ""), repoAt("/w/b/mid", "mid", "")})
	s.SetSort(ByName)
	s.SetSort(ByPath)
	s.AddAll([]vcsdetect.Repo{repoAt("/w/c/alpha", "alpha", "")})
	s.SetSort(ByName)
	if got := paths(s.Shown()); !slices.Equal(got, []string{"/w/c/alpha", "/w/b/mid", "/w/a/zeta"}) {
		t.Fatalf("by name after an add under another sort: %v", got)
	}
	s.SetSort(ByPath)
	s.SetSort(ByName)
	if got := paths(s.Shown()); !slices.Equal(got, []string{"/w/c/alpha", "/w/b/mid", "/w/a/zeta"}) {
		t.Fatalf("by name again: %v", got)
	}
}

// TestResortAgreesWithLess: the keyed sort of resort and the less that
// merges scan batches into a sorted order agree, for every sort key, with
// unknown and equal commit times among the candidates.
func TestResortAgreesWithLess(t *testing.T) {
	repos := genRepos(3000)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	times := map[string]time.Time{}
	for i, r := range repos {
		if i%5 != 0 { // a fifth unknown; many equal
			times[r.Path] = base.Add(time.Duration(i%37) * time.Hour)
		}
	}
	for _, k := range []SortKey{ByPath, ByName, ByLastCommit} {
		var s State
		s.SetBase("/src")
		s.SetCommitTime(func(r vcsdetect.Repo) (time.Time, bool) { t, ok := times[r.Path]; return t, ok })
		s.AddAll(repos)
		s.SetSort(k)
		want := slices.Clone(s.byPath)
		slices.SortStableFunc(want, func(a, b int32) int {
			switch {
			case s.less(a, b):
				return -1
			case s.less(b, a):
				return 1
			}
			return 0
		})
		if !slices.Equal(s.order, want) {
			t.Fatalf("sorted by %v, resort and less disagree", k)
		}
	}
}

// TestNewQueryHighlightsBestMatch: as in fzf, every query change puts the
// cursor on the best match, even when the highlighted row still matches
// further down (issue 17: "/ pay ⇥" checked the second-ranked row); the
// same query applied again (a scan batch arrived) keeps the row.
func TestNewQueryHighlightsBestMatch(t *testing.T) {
	var s State
	s.SetBase("/w")
	s.AddAll([]vcsdetect.Repo{
		repoAt("/w/archive/2021/old-payments", "old-payments", "main"),
		repoAt("/w/services/payouts", "payouts", "main"),
		repoAt("/w/web-frontend", "web-frontend", "main"),
	})
	s.MoveTo(0) // archive/2021/old-payments, which "pay" ranks second
	s.SetFilter("pay")
	if c, _ := s.Current(); c.Path != "/w/services/payouts" {
		t.Fatalf("after a new query the cursor is on %s, want the best match /w/services/payouts (shown %v)", c.Path, paths(s.Shown()))
	}
	s.Move(1)
	s.AddAll([]vcsdetect.Repo{repoAt("/w/zz/pay", "pay", "main")})
	s.SetFilter("pay")
	if c, _ := s.Current(); c.Path != "/w/archive/2021/old-payments" {
		t.Fatalf("the same query applied again moved the cursor to %s", c.Path)
	}
	s.SetFilter("")
	if s.Cursor() != 0 {
		t.Fatalf("erasing the query left the cursor at %d, want the top", s.Cursor())
	}
}

// A list long enough to be matched in parts, one a processor, gives the
// matches one pass over it gives, in the same order, for one-term,
// two-term and non-ASCII queries.
func TestMatchInPartsIsMatchInOne(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: the list is never cut into parts")
	}
	repos := genRepos(3 * matchPartMin)
	var s State
	s.SetBase("/src")
	s.AddAll(repos)
	for _, q := range []string{"p", "pay", "team01 main", "svc pay", "ü", "repo0"} {
		terms := strings.Fields(q)
		one := matchTerms(terms, s.rows, allIDs(len(s.rows)), func() bool { return false })
		parts := matchStop(q, s.rows, nil, func() bool { return false })
		if len(one) == 0 && q != "ü" {
			t.Fatalf("%q matches nothing: the test tries nothing", q)
		}
		if !slices.Equal(one, parts) {
			t.Errorf("%q: matched in parts, %d matches differ from the %d of one pass", q, len(parts), len(one))
		}
	}
}

func allIDs(n int) []int32 {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	return ids
}

// BenchmarkNarrow is typing one more character within the 1,625 matches
// of "mi" among 48,750 short paths shaped as .ci/bench-keys' short tree:
// back to back, and 20 ms after the last as a person types, once the
// processor has gone idle (docs/performance.md, round three).
func BenchmarkNarrow(b *testing.B) {
	repos := make([]vcsdetect.Repo, 48750)
	for i := range repos {
		p := fmt.Sprintf("/k/work/org%d/repo%d", i%113, (i*7919)%48750)
		if i%30 == 0 {
			p = fmt.Sprintf("/k/old/org%d/repo%d/mirror %d.git", i%113, i, (i*31)%50000)
		}
		repos[i] = repoAt(p, p[strings.LastIndexByte(p, '/')+1:], fmt.Sprintf("b%d", i))
	}
	var s State
	s.SetBase("/k")
	s.AddAll(repos)
	s.SetFilter("mi")
	for _, idle := range []time.Duration{0, 20 * time.Millisecond} {
		b.Run(fmt.Sprintf("idle=%v", idle), func(b *testing.B) {
			var n int
			for b.Loop() {
				if idle > 0 {
					b.StopTimer()
					time.Sleep(idle)
					b.StartTimer()
				}
				n = len(s.Prepare("mir").Run().matches)
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}
