package vcsdetect

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/rootpick/rootpick/internal/testskip"
)

func TestStripCredentials(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"https://user:s3cret@github.com/o/r.git", "https://github.com/o/r.git"},
		{"https://ghp_TOKEN@github.com/o/r.git", "https://github.com/o/r.git"},
		{"https://github.com/o/r.git?access_token=abc", "https://github.com/o/r.git"},
		{"ssh://git:pw@host:22/o/r.git", "ssh://git@host:22/o/r.git"},
		{"ssh://git@host/o/r.git", "ssh://git@host/o/r.git"},
		{"git@github.com:o/r.git", "git@github.com:o/r.git"},
		{"/srv/git/r.git", "/srv/git/r.git"},
		{"../r", "../r"},
		{"user:pw@host:o/r", "host:o/r"},
	} {
		if got := StripCredentials(tt.in); got != tt.want {
			t.Errorf("StripCredentials(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if strings.Contains(StripCredentials(tt.in), "s3cret") || strings.Contains(StripCredentials(tt.in), "TOKEN") {
			t.Errorf("%q keeps a secret", tt.in)
		}
	}
}

// describeFixture makes, with the git program: an upstream repository, a
// clone of it with a credentialed origin URL that is one commit ahead and
// one behind, holding an untracked file, and a detached worktree of the
// clone. It returns the clone and the worktree.
func describeFixture(t testing.TB) (clone, wt string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testskip.Skip(t, "git", "git not installed: apt-get install git")
	}
	root := t.TempDir()
	up := filepath.Join(root, "up")
	clone = filepath.Join(root, "clone")
	mkdirs(t, up)
	gitCLI(t, up, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(up, "a"), "a")
	gitCLI(t, up, "add", "a")
	gitCLI(t, up, "commit", "-q", "-m", "first")
	gitCLI(t, root, "clone", "-q", up, clone)
	writeFile(t, filepath.Join(up, "b"), "b")
	gitCLI(t, up, "add", "b")
	gitCLI(t, up, "commit", "-q", "-m", "upstream moves")
	gitCLI(t, clone, "fetch", "-q")
	writeFile(t, filepath.Join(clone, "c"), "c")
	gitCLI(t, clone, "add", "c")
	gitCLI(t, clone, "-c", "user.name=T", "commit", "-q", "-m", "local work\n\nbody")
	gitCLI(t, clone, "remote", "set-url", "origin", "https://me:s3cret@example.com/up.git")
	wt = filepath.Join(root, "wt")
	gitCLI(t, clone, "worktree", "add", "-q", "--detach", wt, "HEAD~1")
	writeFile(t, filepath.Join(clone, "untracked"), "u")
	return clone, wt
}

func TestDescribe(t *testing.T) {
	clone, wt := describeFixture(t)
	for _, git := range []string{"", "-"} {
		name := map[string]string{"": "git", "-": "go-git"}[git]
		t.Run(name, func(t *testing.T) {
			d := NewDescriber(DescribeOptions{Git: git})
			ctx := context.Background()
			got := d.Describe(ctx, Repo{Path: clone, Kind: KindGit})
			if got.Head != "main" || got.Detached || got.Remote != "https://example.com/up.git" ||
				got.Subject != "local work" || got.State != StateDirty || time.Since(got.LastCommit) > time.Hour {
				t.Errorf("clone: %+v", got)
			}
			if got.Upstream != "origin/main" {
				t.Errorf("clone upstream %q, want origin/main", got.Upstream)
			}
			if got.Ahead != 1 || got.Behind != 1 || !got.Counted {
				t.Errorf("clone ahead/behind %d/%d counted %v, want 1/1 counted", got.Ahead, got.Behind, got.Counted)
			}
			w := d.Describe(ctx, Repo{Path: wt, Kind: KindWorktree})
			if !w.Detached || len(w.Head) != 7 || w.Subject != "first" || w.State != StateClean || w.Remote != "https://example.com/up.git" {
				t.Errorf("worktree: %+v", w)
			}
			if w.Counted || w.Upstream != "" {
				t.Errorf("detached worktree: %+v, want no upstream and nothing counted", w)
			}
		})
	}
}

func TestDescribeCachesAndBudget(t *testing.T) {
	clone, _ := describeFixture(t)
	d := NewDescriber(DescribeOptions{})
	r := Repo{Path: clone, Kind: KindGit}
	first := d.Describe(context.Background(), r)
	writeFile(t, filepath.Join(clone, ".git", "HEAD"), "ref: refs/heads/other\n")
	if again := d.Describe(context.Background(), r); again != first {
		t.Errorf("second Describe %+v, want the cached %+v", again, first)
	}

	// A budget too small for git: unknown, and quickly.
	d = NewDescriber(DescribeOptions{Budget: time.Microsecond})
	start := time.Now()
	got := d.Describe(context.Background(), r)
	if got.State != StateUnknown || got.Head != "other" {
		t.Errorf("with no budget: %+v, want state unknown and the head read from the file", got)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("Describe took %v with a 1µs budget", el)
	}
}

func TestDescribeAllKeepsOrder(t *testing.T) {
	root := t.TempDir()
	var repos []Repo
	for _, b := range []string{"a", "b", "c", "d", "e"} {
		fakeGitDir(t, filepath.Join(root, b, ".git"), "ref: refs/heads/"+b+"\n", "")
		repos = append(repos, Repo{Path: filepath.Join(root, b), Kind: KindGit})
	}
	repos = append(repos, Repo{Path: root, Kind: KindProject})
	dets := NewDescriber(DescribeOptions{Git: "-", NoState: true}).DescribeAll(context.Background(), repos, 3)
	for i, b := range []string{"a", "b", "c", "d", "e", ""} {
		if dets[i].Head != b {
			t.Errorf("details %d: head %q, want %q", i, dets[i].Head, b)
		}
	}
}

// TestDescribeAllDuplicatesAndCancel: a path listed twice gets its details
// at both places (the pool describes it once), and cancelling ctx ends
// DescribeAll at once, even with every git status hanging, leaving no
// worker behind.
func TestDescribeAllDuplicatesAndCancel(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	fakeGitDir(t, filepath.Join(a, ".git"), "ref: refs/heads/a\n", "")
	fakeGitDir(t, filepath.Join(b, ".git"), "ref: refs/heads/b\n", "")
	repos := []Repo{{Path: a, Kind: KindGit}, {Path: b, Kind: KindGit}, {Path: a, Kind: KindGit}}
	dets := NewDescriber(DescribeOptions{Git: "-", NoState: true}).DescribeAll(context.Background(), repos, 2)
	if got := []string{dets[0].Head, dets[1].Head, dets[2].Head}; !slices.Equal(got, []string{"a", "b", "a"}) {
		t.Errorf("heads %q, want [a b a]", got)
	}

	hang := filepath.Join(root, "git")
	writeFile(t, hang, "#!/bin/sh\nexec sleep 30\n")
	if err := os.Chmod(hang, 0o755); err != nil {
		t.Fatal(err)
	}
	var many []Repo
	for i := range 20 {
		p := filepath.Join(root, "r"+strconv.Itoa(i))
		fakeGitDir(t, filepath.Join(p, ".git"), "ref: refs/heads/x\n", "")
		many = append(many, Repo{Path: p, Kind: KindGit})
	}
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	NewDescriber(DescribeOptions{Git: hang, Budget: 5 * time.Second}).DescribeAll(ctx, many, 2)
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("DescribeAll took %v after its context ended at 200 ms", el)
	}
	noGoroutinesLeft(t, before, 5*time.Second)
}

// noGoroutinesLeft fails the test if, within wait, the goroutines do not
// fall back to before (the count when the test began), and shows them.
func noGoroutinesLeft(t *testing.T, before int, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines left behind:\n%s", n-before, buf[:runtime.Stack(buf, true)])
	}
}

// BenchmarkDescribe measures branch + remote + last commit (no state) per
// repository, the figure the issue bounds at 1.5 ms, with a fresh
// Describer each time (no cache). Both variants read the commit with
// go-git; "git" also pays the look-up of git on PATH.
func BenchmarkDescribe(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	clone, _ := describeFixture(b)
	for _, git := range []string{"", "-"} {
		name := map[string]string{"": "git", "-": "go-git"}[git]
		b.Run(name, func(b *testing.B) {
			r := Repo{Path: clone, Kind: KindGit}
			for b.Loop() {
				d := NewDescriber(DescribeOptions{Git: git, NoState: true})
				if got := d.Describe(context.Background(), r); got.Subject == "" {
					b.Fatalf("no subject: %+v", got)
				}
			}
		})
	}
}

// TestAheadBehindWithoutGit: with no git on PATH, go-git counts the
// commits between the branch and its upstream (here a local bare
// "remote"): 2 ahead, 1 behind. Capped below what the count needs, it
// leaves them uncounted rather than wrong.
func TestAheadBehindWithoutGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed; install git to build the fixture")
	}
	root := t.TempDir()
	remote, mine, theirs := filepath.Join(root, "remote.git"), filepath.Join(root, "mine"), filepath.Join(root, "theirs")
	gitCLI(t, root, "init", "-q", "--bare", "-b", "main", remote)
	gitCLI(t, root, "clone", "-q", remote, mine)
	commit := func(dir, name string) {
		writeFile(t, filepath.Join(dir, name), name)
		gitCLI(t, dir, "add", name)
		gitCLI(t, dir, "commit", "-q", "-m", name)
	}
	commit(mine, "base")
	gitCLI(t, mine, "push", "-q", "-u", "origin", "main")
	gitCLI(t, root, "clone", "-q", remote, theirs)
	commit(theirs, "theirs")
	gitCLI(t, theirs, "push", "-q")
	commit(mine, "one")
	commit(mine, "two")
	gitCLI(t, mine, "fetch", "-q")

	t.Setenv("PATH", "")
	r := Repo{Path: mine, Kind: KindGit}
	d := NewDescriber(DescribeOptions{})
	if d.git != "" {
		t.Fatalf("git found at %q with PATH empty", d.git)
	}
	got := d.Describe(context.Background(), r)
	if got.Upstream != "origin/main" || got.Ahead != 2 || got.Behind != 1 || got.State != StateClean {
		t.Fatalf("without git: %+v, want origin/main 2 ahead 1 behind, clean", got)
	}

	defer func(n int) { maxAheadBehindCommits = n }(maxAheadBehindCommits)
	maxAheadBehindCommits = 2
	got = NewDescriber(DescribeOptions{}).Describe(context.Background(), r)
	if got.Upstream != "origin/main" || got.Ahead != 0 || got.Behind != 0 || got.Counted {
		t.Fatalf("capped at 2 commits: %+v, want the upstream and no count", got)
	}
}

// TestAheadBehindCounted: "in step" (counted, 0 and 0) and "not counted"
// differ, with git and with go-git: a clone in step with its upstream is
// counted; one whose upstream branch is gone, one with no upstream and a
// go-git walk over its cap are not, and then both counts are 0.
func TestAheadBehindCounted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testskip.Skip(t, "git", "git not installed: apt-get install git")
	}
	root := t.TempDir()
	remote := filepath.Join(root, "remote.git")
	inStep, gone, alone := filepath.Join(root, "in-step"), filepath.Join(root, "gone"), filepath.Join(root, "alone")
	gitCLI(t, root, "init", "-q", "--bare", "-b", "main", remote)
	gitCLI(t, root, "clone", "-q", remote, inStep)
	for _, name := range []string{"a", "b", "c"} {
		writeFile(t, filepath.Join(inStep, name), name)
		gitCLI(t, inStep, "add", name)
		gitCLI(t, inStep, "commit", "-q", "-m", name)
	}
	gitCLI(t, inStep, "push", "-q", "-u", "origin", "main")
	gitCLI(t, root, "clone", "-q", remote, gone)
	gitCLI(t, gone, "update-ref", "-d", "refs/remotes/origin/main")
	gitCLI(t, root, "init", "-q", "-b", "main", alone)
	gitCLI(t, alone, "commit", "-q", "--allow-empty", "-m", "x")

	type want struct {
		upstream string
		counted  bool
	}
	check := func(t *testing.T, d *Describer, path string, w want) {
		t.Helper()
		got := d.Describe(context.Background(), Repo{Path: path, Kind: KindGit})
		if got.Upstream != w.upstream || got.Counted != w.counted || got.Ahead != 0 || got.Behind != 0 {
			t.Errorf("%s: upstream %q, %d/%d counted %v; want upstream %q, 0/0 counted %v",
				filepath.Base(path), got.Upstream, got.Ahead, got.Behind, got.Counted, w.upstream, w.counted)
		}
	}
	for _, git := range []string{"", "-"} {
		t.Run(map[string]string{"": "git", "-": "go-git"}[git], func(t *testing.T) {
			d := NewDescriber(DescribeOptions{Git: git, NoState: git == "-"})
			check(t, d, inStep, want{"origin/main", true})
			check(t, d, gone, want{"origin/main", false})
			check(t, d, alone, want{"", false})
		})
	}
	t.Run("go-git capped", func(t *testing.T) {
		defer func(n int) { maxAheadBehindCommits = n }(maxAheadBehindCommits)
		maxAheadBehindCommits = 0
		check(t, NewDescriber(DescribeOptions{Git: "-", NoState: true}), inStep, want{"origin/main", false})
	})
}

func TestParseStatus(t *testing.T) {
	const head = "# branch.oid 3d40818a45870c4f9caa2136e26b717000225b9a\n# branch.head main\n"
	for _, tt := range []struct {
		name, out      string
		ahead, behind  int
		counted, dirty bool
	}{
		{"in step", head + "# branch.upstream origin/main\n# branch.ab +0 -0\n", 0, 0, true, false},
		{"ahead and behind", head + "# branch.upstream origin/main\n# branch.ab +12 -3\n? new\n", 12, 3, true, true},
		{"upstream gone", head + "# branch.upstream origin/main\n", 0, 0, false, false},
		{"no upstream", head + "1 .M N... 100644 100644 100644 a a f\n", 0, 0, false, true},
		{"garbled", head + "# branch.upstream origin/main\n# branch.ab +x -1\n", 0, 0, false, false},
	} {
		var d Details
		parseStatus([]byte(tt.out), &d)
		if d.Ahead != tt.ahead || d.Behind != tt.behind || d.Counted != tt.counted || (d.State == StateDirty) != tt.dirty {
			t.Errorf("%s: %d/%d counted %v state %s, want %d/%d counted %v dirty %v",
				tt.name, d.Ahead, d.Behind, d.Counted, d.State, tt.ahead, tt.behind, tt.counted, tt.dirty)
		}
	}
}

// TestAheadBehindMatchesGit: on histories of commits and merges between
// two branches, all made within a second or two (so committer dates tie),
// the go-git count equals git rev-list --left-right --count.
func TestAheadBehindMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed; install git to build the fixture")
	}
	for seed := range 2 {
		dir := t.TempDir()
		gitCLI(t, dir, "init", "-q", "-b", "a")
		n := 0
		commit := func() {
			n++
			name := "f" + strconv.Itoa(n)
			writeFile(t, filepath.Join(dir, name), name)
			gitCLI(t, dir, "add", name)
			gitCLI(t, dir, "commit", "-q", "-m", name)
		}
		commit()
		gitCLI(t, dir, "branch", "b")
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		for range 16 {
			br := []string{"a", "b"}[rng.IntN(2)]
			gitCLI(t, dir, "checkout", "-q", br)
			if rng.IntN(4) == 0 {
				other := map[string]string{"a": "b", "b": "a"}[br]
				gitCLI(t, dir, "merge", "-q", "--no-ff", "-m", "merge", other)
			} else {
				commit()
			}
		}
		want := strings.Fields(gitCLI(t, dir, "rev-list", "--left-right", "--count", "a...b"))
		repo, err := git.PlainOpen(dir)
		if err != nil {
			t.Fatal(err)
		}
		ra, _ := repo.Reference("refs/heads/a", true)
		rb, _ := repo.Reference("refs/heads/b", true)
		ahead, behind, err := aheadBehind(context.Background(), repo.Storer, ra.Hash(), rb.Hash())
		if err != nil {
			t.Fatal(err)
		}
		if got := []string{strconv.Itoa(ahead), strconv.Itoa(behind)}; !slices.Equal(got, want) {
			t.Errorf("seed %d: go-git counts %v, git %v", seed, got, want)
		}
	}
}

// TestAheadBehindTiedDates: X ← Y ← U… (the upstream, k commits above
// Y) and HEAD = merge(Y, X) with h commits above it, all with the same
// committer date. HEAD reaches X directly, so the walk may take X as
// HEAD's alone before it learns, through Y, that the upstream reaches it
// too: it must go on while a commit reached by both is as new as one
// reached by one side. The counts equal git's.
func TestAheadBehindTiedDates(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed; install git to build the fixture")
	}
	t.Setenv("GIT_COMMITTER_DATE", "2026-01-02T03:04:05Z")
	t.Setenv("GIT_AUTHOR_DATE", "2026-01-02T03:04:05Z")
	dir := t.TempDir()
	gitCLI(t, dir, "init", "-q", "-b", "main")
	tree := strings.TrimSpace(gitCLI(t, dir, "write-tree"))
	ct := func(msg string, parents ...string) string {
		args := []string{"commit-tree", tree, "-m", msg}
		for _, p := range parents {
			args = append(args, "-p", p)
		}
		return strings.TrimSpace(gitCLI(t, dir, args...))
	}
	x := ct("x")
	y := ct("y", x)
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 4; k++ {
		for h := range 3 {
			u := y
			for i := range k {
				u = ct("u"+strconv.Itoa(i), u)
			}
			head := ct("head", y, x)
			for i := range h {
				head = ct("h"+strconv.Itoa(i), head)
			}
			ahead, behind, err := aheadBehind(context.Background(), repo.Storer, plumbing.NewHash(head), plumbing.NewHash(u))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Fields(gitCLI(t, dir, "rev-list", "--left-right", "--count", head+"..."+u))
			if got := []string{strconv.Itoa(ahead), strconv.Itoa(behind)}; !slices.Equal(got, want) || ahead != h+1 || behind != k {
				t.Errorf("k=%d h=%d: go-git counts %v, git %v", k, h, got, want)
			}
		}
	}
}

// TestLastCommitTime: the committer time of HEAD, for a work tree and a
// detached worktree, equal to what Describe reads; nothing for a folder
// that is no repository or a repository with no commit.
func TestLastCommitTime(t *testing.T) {
	clone, wt := describeFixture(t)
	d := NewDescriber(DescribeOptions{})
	for _, r := range []Repo{{Path: clone, Kind: KindGit}, {Path: wt, Kind: KindWorktree}} {
		got, ok := LastCommitTime(r)
		want := d.Describe(context.Background(), r).LastCommit
		if !ok || got.IsZero() || !got.Equal(want) {
			t.Errorf("%s: %v %v, want %v", r.Path, got, ok, want)
		}
	}
	empty := t.TempDir()
	gitCLI(t, empty, "init", "-q")
	for _, r := range []Repo{{Path: empty, Kind: KindGit}, {Path: t.TempDir(), Kind: KindProject}, {Path: t.TempDir(), Kind: KindGit}} {
		if got, ok := LastCommitTime(r); ok {
			t.Errorf("%s (%s): %v, want none", r.Path, r.Kind, got)
		}
	}
}

// BenchmarkLastCommitTime is what sorting by last commit costs a
// repository.
func BenchmarkLastCommitTime(b *testing.B) {
	clone, _ := describeFixture(b)
	r := Repo{Path: clone, Kind: KindGit}
	for b.Loop() {
		if _, ok := LastCommitTime(r); !ok {
			b.Fatal("no time")
		}
	}
}
