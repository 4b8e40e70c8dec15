package vcsdetect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/rootpick/rootpick/internal/testskip"
)

// seen is the part of a Repo the tests compare, with Path made relative to
// the scanned folder so that expectations do not depend on the temp folder.
type seen struct {
	Rel    string
	Kind   Kind
	Depth  int
	Branch string
}

// String quotes the path and branch so that odd names are readable in
// failure messages.
func (s seen) String() string {
	return fmt.Sprintf("{%q %s depth=%d branch=%q}", s.Rel, s.Kind, s.Depth, s.Branch)
}

// scanAll runs Scan and collects what it reports, failing on an error.
func scanAll(t testing.TB, dir string, opts Options) ([]Repo, Stats) {
	t.Helper()
	var repos []Repo
	st, err := Scan(context.Background(), dir, opts, func(r Repo) { repos = append(repos, r) })
	if err != nil {
		t.Fatalf("Scan(%q): %v", dir, err)
	}
	if st.Repos != len(repos) {
		t.Errorf("Stats.Repos = %d, found was called %d times", st.Repos, len(repos))
	}
	return repos, st
}

// relSeen turns repos into seen values relative to root and checks the
// fields that follow from Path (absolute, clean, Name is its base).
func relSeen(t testing.TB, root string, repos []Repo) []seen {
	t.Helper()
	var out []seen
	for _, r := range repos {
		if !filepath.IsAbs(r.Path) || filepath.Clean(r.Path) != r.Path {
			t.Errorf("Path %q is not absolute and clean", r.Path)
		}
		if r.Name != filepath.Base(r.Path) {
			t.Errorf("Name = %q, want %q", r.Name, filepath.Base(r.Path))
		}
		rel, err := filepath.Rel(root, r.Path)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		if rel == ".git" || strings.HasPrefix(rel, ".git/") || strings.Contains(rel, "/.git/") || strings.HasSuffix(rel, "/.git") {
			t.Errorf("reported a folder inside .git: %q", rel)
		}
		out = append(out, seen{Rel: rel, Kind: r.Kind, Depth: r.Depth, Branch: r.Branch})
	}
	// The walk is parallel, so the order is not fixed: compare sorted.
	slices.SortFunc(out, func(a, b seen) int { return strings.Compare(a.Rel, b.Rel) })
	return out
}

func mkdirs(t testing.TB, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(t testing.TB, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fakeGitDir writes the files of a git folder by hand.
func fakeGitDir(t testing.TB, dir, head, config string) {
	t.Helper()
	mkdirs(t, filepath.Join(dir, "objects"), filepath.Join(dir, "refs", "heads"))
	writeFile(t, filepath.Join(dir, "HEAD"), head)
	if config != "" {
		writeFile(t, filepath.Join(dir, "config"), config)
	}
}

func plainInit(t testing.TB, path string, bare bool) *git.Repository {
	t.Helper()
	r, err := git.PlainInit(path, bare)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// commitFile writes a file in the work tree at dir and commits it.
func commitFile(t testing.TB, r *git.Repository, dir, name string) plumbing.Hash {
	t.Helper()
	writeFile(t, filepath.Join(dir, name), name+"\n")
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wt.Add(name); err != nil {
		t.Fatal(err)
	}
	h, err := wt.Commit("add "+name, &git.CommitOptions{
		Author: &object.Signature{Name: "Test", Email: "test@example.com", When: time.Unix(1_700_000_000, 0)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestScanTree(t *testing.T) {
	root := t.TempDir()
	odd := "odd name\n ünï %41 #x"
	j := func(elem ...string) string { return filepath.Join(append([]string{root}, elem...)...) }

	mkdirs(t, j("plain", "deeper"), j("b", "c", "d", ".git"), j("a", "nested", ".git"), j(odd, ".git"))
	plainInit(t, j("a"), false)
	// Repositories inside .git must never be reported.
	mkdirs(t, j("a", ".git", "evil", ".git"))
	plainInit(t, j("a", ".git", "modules", "sub"), true)
	writeFile(t, j("a", "sub", ".git"), "gitdir: ../.git/modules/sub\n")
	writeFile(t, j("wt", ".git"), "gitdir: "+j("a", ".git", "worktrees", "wt")+"\n")
	writeFile(t, j("sep", ".git"), "gitdir: ../elsewhere.git\n")
	writeFile(t, j("file.txt"), "not a folder")
	writeFile(t, j("plain", ".gitignore"), "*.o\n")

	repos, st := scanAll(t, root, Options{})
	got := relSeen(t, root, repos)

	want := []seen{
		{"a", KindGit, 1, "master"},
		{"a/nested", KindGit, 2, ""},
		{"a/sub", KindSubmodule, 2, "master"}, // unborn branch of the bare module repo
		{"b/c/d", KindGit, 3, ""},
		{odd, KindGit, 1, ""},
		{"sep", KindBroken, 1, ""}, // gitdir does not exist
		{"wt", KindBroken, 1, ""},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Scan reported\n%v\nwant\n%v", got, want)
	}
	// root, a, a/nested, a/sub, b, b/c, b/c/d, odd, plain, plain/deeper, sep, wt
	for _, r := range repos {
		if (r.Kind == KindBroken) != (r.Reason != "") {
			t.Errorf("%s: kind %s with reason %q", r.Path, r.Kind, r.Reason)
		}
	}
	if want := (Stats{Dirs: 12, Repos: 7}); st != want {
		t.Errorf("Stats = %+v, want %+v", st, want)
	}
	if i := slices.IndexFunc(repos, func(r Repo) bool { return r.Name == odd }); i < 0 || repos[i].Path != j(odd) {
		t.Errorf("the oddly named repository is not reported by its exact name %q", odd)
	}
}

func TestScanRootIsRepo(t *testing.T) {
	root := filepath.Join(t.TempDir(), "top repo")
	plainInit(t, root, false)
	plainInit(t, filepath.Join(root, "vendor", "inner"), false)

	// A relative, unclean dir must come back absolute and clean.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, root)
	if err != nil {
		t.Fatal(err)
	}
	repos, _ := scanAll(t, rel+string(filepath.Separator)+"."+string(filepath.Separator), Options{})
	got := relSeen(t, root, repos)
	want := []seen{{".", KindGit, 0, "master"}, {"vendor/inner", KindGit, 2, "master"}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if repos[0].Path != root || repos[0].Name != "top repo" {
		t.Errorf("root repo = %+v, want Path %q Name %q", repos[0], root, "top repo")
	}
}

func TestBranch(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"unborn default", func(t *testing.T, dir string) { plainInit(t, dir, false) }, "master"},
		{"unborn custom", func(t *testing.T, dir string) {
			_, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{
				InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("trunk")},
			})
			if err != nil {
				t.Fatal(err)
			}
		}, "trunk"},
		{"after a commit", func(t *testing.T, dir string) {
			commitFile(t, plainInit(t, dir, false), dir, "a.txt")
		}, "master"},
		{"second branch checked out", func(t *testing.T, dir string) {
			r := plainInit(t, dir, false)
			commitFile(t, r, dir, "a.txt")
			wt, err := r.Worktree()
			if err != nil {
				t.Fatal(err)
			}
			if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName("feature/x"), Create: true}); err != nil {
				t.Fatal(err)
			}
			commitFile(t, r, dir, "b.txt")
		}, "feature/x"},
		{"detached HEAD", func(t *testing.T, dir string) {
			r := plainInit(t, dir, false)
			first := commitFile(t, r, dir, "a.txt")
			commitFile(t, r, dir, "b.txt")
			wt, err := r.Worktree()
			if err != nil {
				t.Fatal(err)
			}
			if err := wt.Checkout(&git.CheckoutOptions{Hash: first}); err != nil {
				t.Fatal(err)
			}
		}, ""},
		{"garbage HEAD", func(t *testing.T, dir string) {
			plainInit(t, dir, false)
			writeFile(t, filepath.Join(dir, ".git", "HEAD"), "this is not a ref\n")
		}, ""},
		{"empty .git folder", func(t *testing.T, dir string) {
			mkdirs(t, filepath.Join(dir, ".git"))
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			tt.setup(t, filepath.Join(root, "r"))
			var logs bytes.Buffer
			repos, _ := scanAll(t, root, Options{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
			got := relSeen(t, root, repos)
			want := []seen{{"r", KindGit, 1, tt.want}}
			if !slices.Equal(got, want) {
				t.Errorf("got %v, want %v\nlog:\n%s", got, want, logs.String())
			}
		})
	}
}

func TestClassifyGitDir(t *testing.T) {
	tests := []struct {
		gitdir string
		want   Kind
	}{
		{"/src/repo/.git/worktrees/feat", KindWorktree},
		{"/src/bare.git/worktrees/feat", KindWorktree},
		{"../.git/modules/sub", KindSubmodule},
		{"../../.git/modules/libs/sub", KindSubmodule},
		{"../../../.git/modules/a/modules/b", KindSubmodule},
		{"/src/super/.git/modules/a/worktrees/w", KindWorktree},
		{"/home/u/worktrees/super/.git/modules/x", KindSubmodule},
		{"/src/modules/r/.git/worktrees/w", KindWorktree},
		{"../elsewhere.git", KindGitFile},
		{"/srv/git/project.git", KindGitFile},
		{"/srv/worktrees", KindGitFile}, // the last element is the gitdir's own name
		{"/srv/modules", KindGitFile},
		{"/srv/my-worktrees/x", KindGitFile},
		{"/srv/modules.d/x", KindGitFile},
	}
	for _, tt := range tests {
		if got := classifyGitDir(tt.gitdir); got != tt.want {
			t.Errorf("classifyGitDir(%q) = %q, want %q", tt.gitdir, got, tt.want)
		}
	}
}

func TestReadGitFile(t *testing.T) {
	tests := []struct {
		content string
		want    string
		wantErr bool
	}{
		{"gitdir: ../.git/modules/sub\n", "../.git/modules/sub", false},
		{"gitdir: /abs/path\r\n", "/abs/path", false},
		{"gitdir: no newline", "no newline", false},
		{"gitdir: ends in spaces  \n", "ends in spaces  ", false},
		{"gitdir: a # b %20 ü\nsecond line\n", "a # b %20 ü", false},
		{"", "", true},
		{"gitdir: \n", "", true},
		{"gitdir:nospace\n", "", true},
		{"ref: refs/heads/main\n", "", true},
	}
	for _, tt := range tests {
		name := filepath.Join(t.TempDir(), ".git")
		writeFile(t, name, tt.content)
		got, err := readGitFile(name)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("readGitFile(%q) = %q, %v; want %q, error %v", tt.content, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestMalformedGitFileStillReported(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "x", ".git"), "garbage\n")
	var logs bytes.Buffer
	repos, _ := scanAll(t, root, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if got, want := relSeen(t, root, repos), []seen{{"x", KindBroken, 1, ""}}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if len(repos) == 1 && !strings.Contains(repos[0].Reason, "gitdir") {
		t.Errorf("reason %q does not say what is wrong", repos[0].Reason)
	}
	if !strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("no warning logged for a malformed .git file:\n%s", logs.String())
	}
}

// gitCLI runs the git command in dir with the user's and system's
// configuration out of the way, failing the test on error.
func gitCLI(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.com",
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %q: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestGitCLIWorktreeAndSubmodule(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testskip.Skip(t, "git", "git not installed: apt-get install git")
	}
	root := t.TempDir()
	subsrc := t.TempDir()
	main := filepath.Join(root, "main repo")
	mkdirs(t, main)

	gitCLI(t, subsrc, "init", "-q", "-b", "trunk")
	writeFile(t, filepath.Join(subsrc, "s.txt"), "s")
	gitCLI(t, subsrc, "add", "s.txt")
	gitCLI(t, subsrc, "commit", "-q", "-m", "s")

	gitCLI(t, main, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(main, "m.txt"), "m")
	gitCLI(t, main, "add", "m.txt")
	gitCLI(t, main, "commit", "-q", "-m", "m")
	gitCLI(t, main, "worktree", "add", "-q", "-b", "feat/ü#1", filepath.Join(root, "wt ü"))
	gitCLI(t, main, "-c", "protocol.file.allow=always", "submodule", "add", "-q", subsrc, "libs/sub")
	gitCLI(t, main, "commit", "-q", "-m", "add submodule")
	// A second copy of the submodule, checked out by update: detached HEAD.
	gitCLI(t, main, "worktree", "add", "-q", "--detach", filepath.Join(root, "wt2"))
	gitCLI(t, filepath.Join(root, "wt2"), "-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init")

	repos, _ := scanAll(t, root, Options{})
	got := relSeen(t, root, repos)
	want := []seen{
		{"main repo", KindGit, 1, "main"},
		{"main repo/libs/sub", KindSubmodule, 3, "trunk"}, // submodule add clones onto the default branch
		{"wt ü", KindWorktree, 1, "feat/ü#1"},
		{"wt2", KindWorktree, 1, ""},
		{"wt2/libs/sub", KindSubmodule, 3, ""}, // submodule update detaches
	}
	slices.SortFunc(want, func(a, b seen) int { return strings.Compare(a.Rel, b.Rel) })
	if !slices.Equal(got, want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
}

func TestSymlinksNotFollowed(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	plainInit(t, filepath.Join(outside, "target"), false)
	plainInit(t, filepath.Join(root, "real"), false)
	for link, to := range map[string]string{
		"link":     outside,
		"linkrepo": filepath.Join(outside, "target"),
		"alias":    filepath.Join(root, "real"),
		"dangling": filepath.Join(root, "missing"),
	} {
		if err := os.Symlink(to, filepath.Join(root, link)); err != nil {
			t.Skipf("cannot create symlinks: %v", err)
		}
	}

	repos, st := scanAll(t, root, Options{})
	if got, want := relSeen(t, root, repos), []seen{{"real", KindGit, 1, "master"}}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if st.Warnings != 0 {
		t.Errorf("Warnings = %d, want 0 (symlinks are skipped on purpose)", st.Warnings)
	}

	// The scanned folder itself may be a symlink; paths stay as reached.
	link := filepath.Join(root, "link")
	repos, _ = scanAll(t, link, Options{})
	if len(repos) != 1 || repos[0].Path != filepath.Join(link, "target") {
		t.Errorf("Scan(symlink) = %+v, want one repo at %q", repos, filepath.Join(link, "target"))
	}
}

func TestSymlinkedDotGit(t *testing.T) {
	root := t.TempDir()
	store := t.TempDir()
	// go-git refuses a .git symlink that leads out of the work tree
	// ("chroot boundary crossed"); the branch must be read all the same.
	r := plainInit(t, filepath.Join(store, "r"), false)
	h := commitFile(t, r, filepath.Join(store, "r"), "a.txt")
	if err := r.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("wtb"), h)); err != nil {
		t.Fatal(err)
	}
	// A linked worktree made by hand, as git worktree add lays it out.
	wtGitDir := filepath.Join(store, "r", ".git", "worktrees", "w")
	writeFile(t, filepath.Join(wtGitDir, "HEAD"), "ref: refs/heads/wtb\n")
	writeFile(t, filepath.Join(wtGitDir, "commondir"), "../..\n")
	writeFile(t, filepath.Join(store, "gitfile"), "gitdir: "+wtGitDir+"\n")
	mkdirs(t, filepath.Join(root, "viadir"), filepath.Join(root, "dangling"))
	for link, to := range map[string]string{
		"viadir/.git":   filepath.Join(store, "r", ".git"),
		"viafile/.git":  filepath.Join(store, "gitfile"),
		"dangling/.git": filepath.Join(store, "missing"),
	} {
		mkdirs(t, filepath.Dir(filepath.Join(root, link)))
		if err := os.Symlink(to, filepath.Join(root, link)); err != nil {
			t.Skipf("cannot create symlinks: %v", err)
		}
	}
	repos, _ := scanAll(t, root, Options{})
	want := []seen{{"dangling", KindBroken, 1, ""}, {"viadir", KindGit, 1, "master"}, {"viafile", KindWorktree, 1, "wtb"}}
	if got := relSeen(t, root, repos); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestMaxDepth(t *testing.T) {
	root := t.TempDir()
	mkdirs(t,
		filepath.Join(root, "r1", ".git"),
		filepath.Join(root, "x", "r2", ".git"),
		filepath.Join(root, "x", "y", "r3", ".git"),
	)
	tests := []struct {
		maxDepth int
		want     []string
		dirs     int
	}{
		{0, []string{"r1", "x/r2", "x/y/r3"}, 6},
		{-1, []string{"r1", "x/r2", "x/y/r3"}, 6},
		{1, []string{"r1"}, 3},
		{2, []string{"r1", "x/r2"}, 5},
		{3, []string{"r1", "x/r2", "x/y/r3"}, 6},
		{4, []string{"r1", "x/r2", "x/y/r3"}, 6},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.maxDepth), func(t *testing.T) {
			repos, st := scanAll(t, root, Options{MaxDepth: tt.maxDepth})
			var got []string
			for _, s := range relSeen(t, root, repos) {
				got = append(got, s.Rel)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if st.Dirs != tt.dirs {
				t.Errorf("Dirs = %d, want %d", st.Dirs, tt.dirs)
			}
		})
	}
}

func TestCancel(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, filepath.Join(root, "a", ".git"), filepath.Join(root, "b", ".git"), filepath.Join(root, "c", ".git"))

	t.Run("before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		calls := 0
		_, err := Scan(ctx, root, Options{}, func(Repo) { calls++ })
		if !errors.Is(err, context.Canceled) || calls != 0 {
			t.Errorf("err = %v, calls = %d; want context.Canceled, 0", err, calls)
		}
	})
	t.Run("during", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var got []string
		st, err := Scan(ctx, root, Options{}, func(r Repo) {
			got = append(got, r.Name)
			cancel() // found is not called again once ctx is cancelled
		})
		if err != context.Canceled {
			t.Errorf("err = %v, want context.Canceled itself", err)
		}
		if len(got) != 1 || st.Repos != 1 {
			t.Errorf("found %q, Stats %+v; want one repository", got, st)
		}
	})
}

func TestUnreadableFolder(t *testing.T) {
	testskip.SkipAsRoot(t)
	root := t.TempDir()
	locked := filepath.Join(root, "locked")
	mkdirs(t, filepath.Join(root, "ok", ".git"), filepath.Join(locked, "inner", ".git"), filepath.Join(root, "z", ".git"))
	gitFile := filepath.Join(root, "q", ".git")
	writeFile(t, gitFile, "gitdir: ../x/.git/modules/q\n")
	for _, p := range []string{locked, gitFile} {
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		if err := os.Chmod(locked, 0o755); err != nil {
			t.Error(err)
		}
	})

	var logs bytes.Buffer
	repos, st := scanAll(t, root, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	want := []seen{{"ok", KindGit, 1, ""}, {"q", KindBroken, 1, ""}, {"z", KindGit, 1, ""}}
	if got := relSeen(t, root, repos); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if st.Warnings != 1 {
		t.Errorf("Warnings = %d, want 1", st.Warnings)
	}
	if log := logs.String(); !strings.Contains(log, "level=WARN") || !strings.Contains(log, locked) || !strings.Contains(log, "permission denied") {
		t.Errorf("log does not warn about %s:\n%s", locked, log)
	}
}

func TestVanishedFolder(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, filepath.Join(root, "a", ".git"), filepath.Join(root, "b", "c", ".git"))
	// b was listed in root; remove it just before it is read, as a
	// concurrent rm -rf would.
	testHookBeforeRead = func(path string) {
		if path == filepath.Join(root, "b") {
			if err := os.RemoveAll(path); err != nil {
				t.Error(err)
			}
		}
	}
	t.Cleanup(func() { testHookBeforeRead = nil })
	repos, st := scanAll(t, root, Options{})
	if got := relSeen(t, root, repos); !slices.Equal(got, []seen{{"a", KindGit, 1, ""}}) || st.Warnings != 1 {
		t.Errorf("found %v, Stats %+v; want only a and 1 warning", got, st)
	}
}

func TestRootErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	writeFile(t, file, "x")
	locked := filepath.Join(dir, "locked")
	mkdirs(t, filepath.Join(locked, "r", ".git"))
	tests := []struct {
		name string
		dir  string
		want error
	}{
		{"missing", filepath.Join(dir, "missing"), fs.ErrNotExist},
		{"file", file, syscall.ENOTDIR},
		{"unreadable", locked, fs.ErrPermission},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == fs.ErrPermission {
				testskip.SkipAsRoot(t)
				if err := os.Chmod(locked, 0); err != nil {
					t.Fatal(err)
				}
				defer func() {
					if err := os.Chmod(locked, 0o755); err != nil {
						t.Error(err)
					}
				}()
			}
			calls := 0
			_, err := Scan(context.Background(), tt.dir, Options{}, func(Repo) { calls++ })
			if !errors.Is(err, tt.want) || calls != 0 {
				t.Errorf("err = %v, calls = %d; want %v, 0", err, calls, tt.want)
			}
		})
	}
}

func TestFoundOnCallingGoroutine(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a", "a/x", "a b/x", "a.b/x", "b"} {
		mkdirs(t, filepath.Join(root, filepath.FromSlash(p), ".git"))
	}
	returned := false
	var got []string
	_, err := Scan(context.Background(), root, Options{}, func(r Repo) {
		if returned {
			t.Errorf("found called after Scan returned")
		}
		// found must run on the caller's goroutine, below Scan in its stack.
		buf := make([]byte, 64<<10)
		stack := string(buf[:runtime.Stack(buf, false)])
		if !strings.Contains(stack, "TestFoundOnCallingGoroutine") || !strings.Contains(stack, "vcsdetect.Scan(") {
			t.Errorf("found not called from the calling goroutine:\n%s", stack)
		}
		rel, _ := filepath.Rel(root, r.Path)
		got = append(got, filepath.ToSlash(rel))
	})
	returned = true
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := []string{"a", "a b/x", "a.b/x", "a/x", "b"}; !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}

func FuzzScanNames(f *testing.F) {
	for _, s := range []string{"a", "with space", "new\nline", "ünïcödé", "%41%", "#frag", "?q=1", ".hidden", "-dash", " lead", "trail ", ".git", "..x", "\x1b[31mred", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if name == "" || name == "." || name == ".." || len(name) > 200 || strings.ContainsAny(name, "/\x00") {
			t.Skip("not a valid file name")
		}
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, name, ".git"), 0o755); err != nil {
			t.Skipf("file system refuses %q: %v", name, err)
		}
		var repos []Repo
		// All: a name like node_modules is walked too.
		if _, err := Scan(context.Background(), root, Options{All: true}, func(r Repo) { repos = append(repos, r) }); err != nil {
			t.Fatal(err)
		}
		want := Repo{Path: filepath.Join(root, name), Name: name, Kind: KindGit, Depth: 1}
		if name == ".git" {
			// root/.git/.git: root is the repository, and .git is not entered.
			want = Repo{Path: root, Name: filepath.Base(root), Kind: KindGit}
		}
		if len(repos) != 1 || repos[0] != want {
			t.Fatalf("Scan reported %+v, want exactly %+v", repos, want)
		}
	})
}

// BenchmarkScan scans a generated tree of about 2000 folders holding 200
// repositories (made with go-git, so branch reading is included).
func BenchmarkScan(b *testing.B) {
	root := b.TempDir()
	for g := range 20 {
		for p := range 10 {
			proj := filepath.Join(root, fmt.Sprintf("group%02d", g), fmt.Sprintf("project%02d", p))
			plainInit(b, proj, false)
			for _, d := range []string{"src/a", "src/b", "src/c", "docs/a", "test/a", "test/b"} {
				mkdirs(b, filepath.Join(proj, filepath.FromSlash(d)))
			}
			writeFile(b, filepath.Join(proj, "README.md"), "readme\n")
		}
	}
	var st Stats
	for b.Loop() {
		var err error
		st, err = Scan(context.Background(), root, Options{}, func(Repo) {})
		if err != nil {
			b.Fatal(err)
		}
	}
	if st.Repos != 200 || st.Dirs != 2021 {
		b.Fatalf("Stats = %+v, want 200 repos in 2021 folders", st)
	}
	b.ReportMetric(float64(st.Repos), "repos/op")
	b.ReportMetric(float64(st.Dirs), "dirs/op")
}

// BenchmarkScanTree scans the tree named by $ROOTPICK_BENCH_TREE (such as
// the big tree .ci/bench-scan generates) with Options.All, for profiling:
//
//	ROOTPICK_BENCH_TREE=/tmp/rootpick-bench/big go test -run '^$' -bench ScanTree -cpuprofile cpu.out ./vcsdetect
//	go tool pprof -top vcsdetect.test cpu.out
func BenchmarkScanTree(b *testing.B) {
	root := os.Getenv("ROOTPICK_BENCH_TREE")
	if root == "" {
		b.Skip("set ROOTPICK_BENCH_TREE to a generated tree (bash .ci/bench-scan makes them)")
	}
	var st Stats
	for b.Loop() {
		var err error
		st, err = Scan(context.Background(), root, Options{All: true}, nil)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Dirs), "dirs/op")
	b.ReportMetric(float64(st.Repos), "repos/op")
}

// TestScanSkipsNpmCache: scanning the home folder does not list npm's
// cache — npx installs each server in ~/.npm/_npx/HASH with a
// package.json, which would read as a project row (issue 39) — nor npx's
// install folders in a cache moved elsewhere (npm_config_cache); --all
// walks them.
func TestScanSkipsNpmCache(t *testing.T) {
	home := t.TempDir()
	j := func(elem ...string) string { return filepath.Join(append([]string{home}, elem...)...) }
	mkdirs(t, j("src", "app", ".git"), j(".npm", "_npx", "a3241bba59c344f5"), j("cache", "npm", "_npx", "0123456789abcdef"), j(".npm", "_cacache"))
	writeFile(t, j(".npm", "_npx", "a3241bba59c344f5", "package.json"), `{"_npx": {}}`)
	writeFile(t, j("cache", "npm", "_npx", "0123456789abcdef", "package.json"), `{"_npx": {}}`)
	var got []string
	repos, _ := scanAll(t, home, Options{})
	for _, s := range relSeen(t, home, repos) {
		got = append(got, s.Rel)
	}
	if !slices.Equal(got, []string{"src/app"}) {
		t.Errorf("scanning home found %q; want only src/app", got)
	}
	repos, _ = scanAll(t, home, Options{All: true})
	if len(repos) != 3 {
		t.Errorf("--all found %d repositories; want npx's two installs too", len(repos))
	}
}
