package sampleworkspace

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootpick/rootpick/vcsdetect"
)

// allKinds are the kinds vcsdetect reports; the workspace shows each.
var allKinds = []vcsdetect.Kind{
	vcsdetect.KindGit, vcsdetect.KindWorktree, vcsdetect.KindSubmodule, vcsdetect.KindGitFile,
	vcsdetect.KindBare, vcsdetect.KindHg, vcsdetect.KindJJ, vcsdetect.KindSvn,
	vcsdetect.KindProject, vcsdetect.KindBroken,
}

// shared is the workspace made once for the tests that only read it
// (removed by TestMain).
var shared struct {
	once sync.Once
	dir  string
	info Info
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		_ = os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// created returns the shared workspace, made on first use.
func created(t *testing.T) Info {
	t.Helper()
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "sampleworkspace-test-"); shared.err == nil {
			shared.info, shared.err = Create(filepath.Join(shared.dir, "src"))
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.info
}

func scan(t *testing.T, dir string) []vcsdetect.Repo {
	t.Helper()
	var repos []vcsdetect.Repo
	if _, err := vcsdetect.Scan(context.Background(), dir, vcsdetect.Options{}, func(r vcsdetect.Repo) { repos = append(repos, r) }); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(repos, func(a, b vcsdetect.Repo) int { return strings.Compare(a.Path, b.Path) })
	return repos
}

// TestCreateScan: a default scan reports exactly the repositories Info
// lists, with their kinds and branches, and every kind vcsdetect knows
// appears.
func TestCreateScan(t *testing.T) {
	info := created(t)
	repos := scan(t, info.Dir)
	var got, want []string
	for _, r := range repos {
		rel, err := filepath.Rel(info.Dir, r.Path)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, filepath.ToSlash(rel)+" "+string(r.Kind)+" "+r.Branch)
	}
	kinds := map[vcsdetect.Kind]int{}
	for _, r := range info.Repos {
		want = append(want, r.Rel+" "+string(r.Kind)+" "+r.Branch)
		kinds[r.Kind]++
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("scan reported\n%s\nInfo says\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, k := range allKinds {
		if kinds[k] == 0 {
			t.Errorf("no repository of kind %s", k)
		}
	}
	if n := len(info.Repos); n < 30 || n > 40 {
		t.Errorf("%d repositories, want a few dozen (30–40)", n)
	}
	// Branches other than main are checked out, and a HEAD is detached.
	var others, detached int
	for _, r := range info.Repos {
		switch {
		case r.Kind == vcsdetect.KindGit && r.Branch == "":
			detached++
		case r.Kind == vcsdetect.KindGit && r.Branch != "main":
			others++
		}
	}
	if others < 2 || detached < 1 {
		t.Errorf("%d repositories on a branch other than main, %d detached; want 2 and 1 at least", others, detached)
	}
	// A long name and names in other scripts, which the list must draw.
	if !slices.ContainsFunc(info.Repos, func(r Repo) bool { return len(filepath.Base(r.Rel)) > 60 }) {
		t.Error("no repository with a long name")
	}
	if !slices.ContainsFunc(info.Repos, func(r Repo) bool { return strings.ContainsFunc(r.Rel, func(c rune) bool { return c > 0x7f }) }) {
		t.Error("no repository with a non-ASCII name")
	}
}

// TestCreateDetails: what people choose by (dirty state, last commit,
// upstream) is there, read with go-git as on a machine without git, and
// with git when it is installed.
func TestCreateDetails(t *testing.T) {
	info := created(t)
	repos := scan(t, info.Dir)
	byRel := map[string]Repo{}
	for _, r := range info.Repos {
		byRel[r.Rel] = r
	}
	gits := []string{"-"} // go-git
	if _, err := exec.LookPath("git"); err == nil {
		gits = append(gits, "")
	}
	for _, git := range gits {
		d := vcsdetect.NewDescriber(vcsdetect.DescribeOptions{Git: git, Budget: 10 * time.Second})
		var dirty int
		var times []time.Time
		var ahead, behind bool
		for _, r := range repos {
			rel, _ := filepath.Rel(info.Dir, r.Path)
			want := byRel[filepath.ToSlash(rel)]
			det := d.Describe(context.Background(), r)
			switch r.Kind {
			case vcsdetect.KindGit, vcsdetect.KindWorktree, vcsdetect.KindSubmodule, vcsdetect.KindGitFile:
				state := vcsdetect.StateClean
				if want.Dirty {
					state = vcsdetect.StateDirty
					dirty++
				}
				if det.State != state {
					t.Errorf("git=%q %s: state %q, want %q", git, want.Rel, det.State, state)
				}
				fallthrough
			case vcsdetect.KindBare:
				if det.LastCommit.IsZero() || det.Subject == "" {
					t.Errorf("git=%q %s: no last commit: %+v", git, want.Rel, det)
				}
				times = append(times, det.LastCommit)
			}
			ahead = ahead || det.Counted && det.Ahead > 0
			behind = behind || det.Counted && det.Behind > 0
			if strings.Contains(det.Remote, "demo-token") {
				t.Errorf("%s: the remote's token is shown: %s", want.Rel, det.Remote)
			}
		}
		if dirty < 3 {
			t.Errorf("git=%q: %d dirty repositories, want a few", git, dirty)
		}
		if !ahead || !behind {
			t.Errorf("git=%q: a repository ahead of its upstream: %v, behind: %v; want both", git, ahead, behind)
		}
		// Sorting by last commit means something: hours to years ago, no
		// two alike.
		slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
		if len(times) < 20 || time.Since(times[len(times)-1]) > day || time.Since(times[0]) < 2*year {
			t.Errorf("git=%q: last commits from %v to %v ago, want hours to years", git, time.Since(times[len(times)-1]), time.Since(times[0]))
		}
		if len(slices.Compact(times)) != len(times) {
			t.Errorf("git=%q: two repositories share a last commit time", git)
		}
	}
}

// TestCreateFiles: the symlink, the .env the consent dialog warns about,
// and the folders a default scan skips.
func TestCreateFiles(t *testing.T) {
	info := created(t)
	if len(info.Links) == 0 {
		t.Skip("cannot make symlinks here")
	}
	for _, l := range info.Links {
		p := filepath.Join(info.Dir, filepath.FromSlash(l.Rel))
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s: not a symlink: %v %v", l.Rel, fi, err)
		}
		if _, err := os.Stat(filepath.Join(p, ".git")); err != nil {
			t.Errorf("%s → %s: not a repository: %v", l.Rel, l.Target, err)
		}
	}
	var secrets int
	for _, r := range info.Repos {
		for _, s := range r.Secrets {
			secrets++
			b, err := os.ReadFile(filepath.Join(info.Dir, filepath.FromSlash(r.Rel), s))
			if err != nil || !strings.Contains(string(b), "=") {
				t.Errorf("%s/%s: %q, %v", r.Rel, s, b, err)
			}
		}
	}
	if secrets == 0 {
		t.Error("no repository holds a .env")
	}
	for _, heavy := range []string{"web/web-frontend/node_modules", "infra/terraform/.terraform", "experiments/rust-parser/target"} {
		if _, err := os.Stat(filepath.Join(info.Dir, filepath.FromSlash(heavy))); err != nil {
			t.Errorf("no %s for a scan to skip: %v", heavy, err)
		}
	}
}

// TestCreateGitFsck: git itself finds the hand-made packs, trees, index
// and worktree sound.
func TestCreateGitFsck(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	info := created(t)
	for _, rel := range []string{"services/payments", "web/web-frontend", "web/web-frontend/third_party/design-tokens", "mirrors/payments.git", "libs/go-common-retry-jitter", "tools/dotfiles"} {
		cmd := exec.Command("git", "-C", filepath.Join(info.Dir, filepath.FromSlash(rel)), "fsck", "--strict", "--no-progress")
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("git fsck %s: %v\n%s", rel, err, out)
		}
	}
}

// TestCreateWithoutGit: nothing runs the git program.
func TestCreateWithoutGit(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := Create(filepath.Join(t.TempDir(), "src")); err != nil {
		t.Fatal(err)
	}
}

// TestCreateRefusesNonEmpty: Create never writes among someone's files.
func TestCreateRefusesNonEmpty(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("Create into a folder with a file: %v, want an error", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d entries after a refused Create", len(entries))
	}
}

// BenchmarkCreate measures the whole workspace, as rootpick demo makes it.
func BenchmarkCreate(b *testing.B) {
	dir := b.TempDir()
	n := 0
	for b.Loop() {
		n++
		if _, err := Create(filepath.Join(dir, strconv.Itoa(n))); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCreateAtSameCommits: the same now gives the same commits, so that
// pictures of the picker come out the same (.ci/screenshots).
func TestCreateAtSameCommits(t *testing.T) {
	now := time.Date(2025, 6, 6, 12, 0, 0, 0, time.UTC)
	var packs [2][]string
	for i := range packs {
		info, err := CreateAt(filepath.Join(t.TempDir(), "src"), now)
		if err != nil {
			t.Fatal(err)
		}
		err = filepath.WalkDir(info.Dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".pack") {
				rel, _ := filepath.Rel(info.Dir, p)
				packs[i] = append(packs[i], rel)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(packs[0]) < 25 || !slices.Equal(packs[0], packs[1]) {
		t.Errorf("two workspaces at the same time have different packs:\n%q\n%q", packs[0], packs[1])
	}
}
