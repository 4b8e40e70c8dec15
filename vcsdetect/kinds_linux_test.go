//go:build linux

package vcsdetect

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/vcsdetect/internal/gentree"
)

func symlink(t *testing.T, to, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(to, name); err != nil {
		t.Skipf("cannot create symlinks: %v", err)
	}
}

func TestKinds(t *testing.T) {
	root := t.TempDir()
	j := func(elem ...string) string { return filepath.Join(append([]string{root}, elem...)...) }

	fakeGitDir(t, j("mirror.git"), "ref: refs/heads/main\n", "[core]\n\tbare = true\n")
	fakeGitDir(t, j("plainbare"), "ref: refs/heads/dev\n", "")
	mkdirs(t, j("mirror.git", "inner", ".git")) // never looked into: Git's own data
	// A separate git folder (git init --separate-git-dir) is not bare.
	fakeGitDir(t, j("sep.gitdir"), "ref: refs/heads/s\n", "[core]\n\tbare = false\n")
	writeFile(t, j("sep", ".git"), "gitdir: ../sep.gitdir\n")

	mkdirs(t, j("hgdefault", ".hg"))
	writeFile(t, j("hgnamed", ".hg", "branch"), "stable\n")
	mkdirs(t, j("hgdefault", ".hg", "store", "x", ".git")) // never entered
	mkdirs(t, j("jjrepo", ".jj", "repo"), j("jjrepo", ".jj", "y", ".git"))
	mkdirs(t, j("svnwc", ".svn"), j("svnwc", ".svn", "z", ".git"))
	fakeGitDir(t, j("coloc", ".git"), "ref: refs/heads/co\n", "")
	mkdirs(t, j("coloc", ".jj"))
	mkdirs(t, j("hgdefault", "nested", ".git")) // nested below an hg working copy

	writeFile(t, j("proj", "go.mod"), "module x\n")
	writeFile(t, j("proj", "package.json"), "{}\n")
	writeFile(t, j("proj", "web", "package.json"), "{}\n")         // nested project: reported
	writeFile(t, j("hgnamed", "sub", "Cargo.toml"), "[package]\n") // in a repository: not a project
	mkdirs(t, j("proj", "notmarker", "package.json"))              // a folder named like a marker is not one

	writeFile(t, j("noline", ".git"), "hello\n")
	writeFile(t, j("gone", ".git"), "gitdir: ../missing/.git/worktrees/w\n")
	writeFile(t, j("tofile", ".git"), "gitdir: ../proj/go.mod\n")
	symlink(t, "../nowhere", j("dangling", ".git"))
	symlink(t, ".git", j("selfloop", ".git"))
	fakeGitDir(t, j("store"), "ref: refs/heads/linked\n", "[core]\n\tbare = false\n")
	symlink(t, "../store", j("linked", ".git"))
	mkdirs(t, j("fifo"))
	if err := syscall.Mkfifo(j("fifo", ".git"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A FIFO planted as HEAD must not hang the read of the branch.
	mkdirs(t, j("fifohead", ".git"))
	if err := syscall.Mkfifo(j("fifohead", ".git", "HEAD"), 0o644); err != nil {
		t.Fatal(err)
	}

	done := make(chan struct{})
	var repos []Repo
	go func() {
		defer close(done)
		repos, _ = scanAll(t, root, Options{})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Scan hangs (a FIFO opened?)")
	}
	got := relSeen(t, root, repos)
	want := []seen{
		{"coloc", KindGit, 1, "co"},
		{"dangling", KindBroken, 1, ""},
		{"fifohead", KindGit, 1, ""},
		{"gone", KindBroken, 1, ""},
		{"hgdefault", KindHg, 1, "default"},
		{"hgdefault/nested", KindGit, 2, ""},
		{"hgnamed", KindHg, 1, "stable"},
		{"jjrepo", KindJJ, 1, ""},
		{"linked", KindGit, 1, "linked"},
		{"mirror.git", KindBare, 1, "main"},
		{"noline", KindBroken, 1, ""},
		{"plainbare", KindBare, 1, "dev"},
		{"proj", KindProject, 1, ""},
		{"proj/web", KindProject, 2, ""},
		{"selfloop", KindBroken, 1, ""},
		{"sep", KindGitFile, 1, "s"},
		{"svnwc", KindSvn, 1, ""},
		{"tofile", KindBroken, 1, ""},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Scan reported\n%v\nwant\n%v", got, want)
	}
	for _, r := range repos {
		if (r.Kind == KindBroken) != (r.Reason != "") {
			t.Errorf("%s: kind %s, reason %q", r.Name, r.Kind, r.Reason)
		}
		if r.Kind == KindProject && r.Name == "proj" && r.Marker != "go.mod" {
			t.Errorf("proj: marker %q, want go.mod (the smallest name)", r.Marker)
		}
		if r.Name == "dangling" && !strings.Contains(r.Reason, "symlink") {
			t.Errorf("dangling: reason %q does not say symlink", r.Reason)
		}
	}

	// Markers can be replaced, or turned off.
	repos, _ = scanAll(t, filepath.Join(root, "proj"), Options{Markers: []string{}})
	if len(repos) != 0 {
		t.Errorf("with no markers: %v", relSeen(t, root, repos))
	}
	repos, _ = scanAll(t, filepath.Join(root, "proj"), Options{Markers: []string{"go.mod"}})
	if got := relSeen(t, root, repos); !slices.Equal(got, []seen{{"proj", KindProject, 0, ""}}) {
		t.Errorf("with go.mod only: %v", got)
	}
	// NoBranch reads no HEAD.
	repos, _ = scanAll(t, j("coloc"), Options{NoBranch: true})
	if len(repos) != 1 || repos[0].Branch != "" {
		t.Errorf("NoBranch: %+v", repos)
	}
}

func TestSkips(t *testing.T) {
	root := t.TempDir()
	j := func(elem ...string) string { return filepath.Join(append([]string{root}, elem...)...) }
	mkdirs(t,
		j("app", ".git"),
		j("app", "node_modules", "dep", ".git"),
		j("app", "node_modules", "a", "b"),
		j("py", ".venv", "lib", "x", ".git"),
		j("gomod", "vendor", "v", ".git"),
		j("novendor", "vendor", "v", ".git"), // no go.mod beside: walked
		j("rust", "target", "t", ".git"),
		j("target", ".git"), // a repository named target, no Cargo.toml: walked
		j("mine", "big", ".git"),
	)
	writeFile(t, j("gomod", "go.mod"), "module m\n")
	writeFile(t, j("rust", "Cargo.toml"), "[package]\n")

	names := func(repos []Repo) []string {
		var out []string
		for _, s := range relSeen(t, root, repos) {
			out = append(out, s.Rel)
		}
		return out
	}
	repos, st := scanAll(t, root, Options{})
	if got, want := names(repos), []string{"app", "gomod", "novendor/vendor/v", "rust", "target", "mine/big"}; !slices.Equal(got, sorted(want)) {
		t.Errorf("default: %q, want %q", got, sorted(want))
	}
	if st.Skipped != 4 { // node_modules, .venv, vendor, target
		t.Errorf("default: Skipped = %d, want 4", st.Skipped)
	}
	repos, st = scanAll(t, root, Options{All: true})
	if got, want := names(repos), []string{"app", "app/node_modules/dep", "py/.venv/lib/x", "gomod", "gomod/vendor/v", "novendor/vendor/v", "rust", "rust/target/t", "target", "mine/big"}; !slices.Equal(got, sorted(want)) {
		t.Errorf("All: %q, want %q", got, sorted(want))
	}
	if st.Skipped != 0 {
		t.Errorf("All: Skipped = %d, want 0", st.Skipped)
	}
	repos, st = scanAll(t, root, Options{All: true, Skip: []string{"big"}})
	if got := names(repos); slices.Contains(got, "mine/big") || !slices.Contains(got, "app/node_modules/dep") {
		t.Errorf("All + Skip big: %q", got)
	}
	if st.Skipped != 1 {
		t.Errorf("All + Skip big: Skipped = %d, want 1", st.Skipped)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestFollow(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	mkdirs(t, filepath.Join(root, "real", ".git"), filepath.Join(outside, "far", ".git"))
	symlink(t, "..", filepath.Join(root, "real", "loop"))  // a loop
	symlink(t, "real", filepath.Join(root, "alias"))       // the same folder twice
	symlink(t, outside, filepath.Join(root, "out"))        // outside the tree
	symlink(t, "missing", filepath.Join(root, "dangling")) // points nowhere
	fakeGitDir(t, filepath.Join(root, "real", ".git"), "ref: refs/heads/main\n", "")
	symlink(t, "real/.git", filepath.Join(root, "togitfolder")) // never entered, or it would be a bare repository

	repos, st := scanAll(t, root, Options{Follow: true})
	var got []string
	for _, r := range repos {
		rel, _ := filepath.Rel(root, r.Path)
		got = append(got, filepath.ToSlash(rel))
	}
	slices.Sort(got)
	// real is reached as real and as alias (and as real/loop/real…): listed
	// once, under whichever path the walk reached first.
	if len(got) != 2 || !slices.Contains(got, "out/far") || !(slices.Contains(got, "alias") || slices.Contains(got, "real")) {
		t.Errorf("Follow found %q, want [real|alias, out/far]", got)
	}
	if st.Skipped < 2 { // alias or real, and loop
		t.Errorf("Skipped = %d, want at least 2 (the second way into real, the loop); %+v %q", st.Skipped, st, got)
	}

	// Without Follow none of the symlinks is entered.
	repos, _ = scanAll(t, root, Options{})
	if got := relSeen(t, root, repos); !slices.Equal(got, []seen{{"real", KindGit, 1, "main"}}) {
		t.Errorf("no Follow: %v", got)
	}
}

func devOf(t *testing.T, path string) uint64 {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	return uint64(st.Dev)
}

func TestOneFileSystem(t *testing.T) {
	root := t.TempDir()
	other, err := os.MkdirTemp("/dev/shm", "rootpick-test-")
	if err != nil {
		t.Skipf("no /dev/shm to stand for another file system: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(other) })
	if devOf(t, root) == devOf(t, other) {
		t.Skip("/dev/shm is on the same file system as the temp folder")
	}
	mkdirs(t, filepath.Join(root, "here", ".git"), filepath.Join(other, "there", ".git"))
	symlink(t, other, filepath.Join(root, "shm"))

	repos, _ := scanAll(t, root, Options{Follow: true})
	if len(relSeen(t, root, repos)) != 2 {
		t.Fatalf("Follow: %v, want here and shm/there", relSeen(t, root, repos))
	}
	repos, st := scanAll(t, root, Options{Follow: true, OneFileSystem: true})
	if got := relSeen(t, root, repos); !slices.Equal(got, []seen{{"here", KindGit, 1, ""}}) || st.Skipped != 1 {
		t.Errorf("OneFileSystem: %v, Stats %+v; want only here and 1 skipped", got, st)
	}
}

// TestBindMountListedOnce mounts a folder of the tree a second time inside
// it: its repository is reached by two paths and must be listed once.
func TestBindMountListedOnce(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, filepath.Join(root, "src", "r", ".git"), filepath.Join(root, "again"))
	if err := syscall.Mount(filepath.Join(root, "src"), filepath.Join(root, "again"), "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount (needs root or CAP_SYS_ADMIN): %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(filepath.Join(root, "again"), syscall.MNT_DETACH); err != nil {
			t.Errorf("umount: %v", err)
		}
	})
	repos, st := scanAll(t, root, Options{})
	if len(repos) != 1 || repos[0].Name != "r" {
		t.Errorf("found %v, want r once", relSeen(t, root, repos))
	}
	if st.Skipped != 1 {
		t.Errorf("Skipped = %d, want 1 (the second way in)", st.Skipped)
	}
}

// genTree makes a small generated tree holding every kind, once per test
// binary run.
func genTree(t *testing.T, spec gentree.Spec) (string, gentree.Manifest) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tree")
	m, err := gentree.Generate(dir, spec)
	if err != nil {
		t.Fatal(err)
	}
	return dir, m
}

func TestGeneratedTree(t *testing.T) {
	root, m := genTree(t, gentree.Spec{Dirs: 2000, Repos: 300, Heavy: 0.3, Seed: 7})
	kindsSeen := map[string]bool{}
	for _, e := range m.Entries {
		kindsSeen[e.Kind] = true
	}
	for _, k := range []Kind{KindGit, KindWorktree, KindSubmodule, KindGitFile, KindBare, KindHg, KindJJ, KindSvn, KindProject, KindBroken} {
		if !kindsSeen[string(k)] {
			t.Errorf("the generated tree holds no %s", k)
		}
	}
	for _, all := range []bool{false, true} {
		var want []string
		heavy := 0
		for _, e := range m.Entries {
			if e.Kind == "" || (e.Heavy && !all) {
				continue
			}
			if e.Heavy {
				heavy++
			}
			want = append(want, e.Rel+" "+e.Kind+" "+e.Branch)
		}
		repos, st := scanAll(t, root, Options{All: all})
		var got []string
		for _, r := range repos {
			rel, _ := filepath.Rel(root, r.Path)
			got = append(got, filepath.ToSlash(rel)+" "+string(r.Kind)+" "+r.Branch)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("All=%v: got %d repositories, want %d; first difference:\n%s", all, len(got), len(want), firstDiff(got, want))
		}
		if all && (st.Dirs != m.Dirs || st.Skipped != 0 || heavy == 0) {
			t.Errorf("All: Stats %+v, want Dirs %d, none skipped (and some heavy repositories: %d)", st, m.Dirs, heavy)
		}
		if !all && (st.Dirs > m.Dirs-m.HeavyDirs || st.Skipped == 0) {
			t.Errorf("default: Stats %+v, want at most %d folders and some skipped", st, m.Dirs-m.HeavyDirs)
		}
	}
	// Following symlinks meets the loops and ends.
	if _, err := Scan(context.Background(), root, Options{Follow: true, All: true}, nil); err != nil {
		t.Fatal(err)
	}
}

func firstDiff(got, want []string) string {
	for i := range max(len(got), len(want)) {
		g, w := "(none)", "(none)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return "got  " + g + "\nwant " + w
		}
	}
	return ""
}

// TestCancelStopsWalk cancels a scan of a big tree at its first result:
// Scan must return soon, having walked a small part, with every walking
// goroutine gone. The scanned folder holds the tree as its one subfolder,
// and with one worker nothing is ever handed over: only the worker's own
// check of the cancellation can stop it.
func TestCancelStopsWalk(t *testing.T) {
	tree, m := genTree(t, gentree.Spec{Dirs: 2000, Repos: 50, Seed: 3})
	root := filepath.Dir(tree)
	// Folders read after the cancel: each takes 2 ms more, so a walk that
	// ignores the cancellation reads on for seconds while the scan gets
	// every chance to tell its workers (the count does not depend on how
	// far the walk got before the first repository reached the caller).
	var cancelled atomic.Bool
	var late atomic.Int64
	testHookBeforeRead = func(string) {
		if cancelled.Load() {
			late.Add(1)
			time.Sleep(2 * time.Millisecond)
		}
	}
	t.Cleanup(func() { testHookBeforeRead = nil })
	for _, workers := range []int{1, 4} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			cancelled.Store(false)
			late.Store(0)
			before := runtime.NumGoroutine()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			calls := 0
			st, err := Scan(ctx, root, Options{Workers: workers, Progress: func(Stats) {}, ProgressEvery: time.Millisecond}, func(Repo) {
				calls++
				cancel()
				cancelled.Store(true)
			})
			if !errors.Is(err, context.Canceled) || calls != 1 {
				t.Fatalf("err %v, %d calls; want context.Canceled after 1", err, calls)
			}
			// A worker finishes the folder it is reading, and may start
			// a few more before the scan's AfterFunc runs; 100 is 200 ms.
			if n := late.Load(); n > 100 {
				t.Errorf("%d folders read after the cancel (%d of %d in all): the walk did not stop", n, st.Dirs, m.Dirs)
			}
			// Scan waits for its goroutines; give the runtime a moment to reap.
			noGoroutinesLeft(t, before, 2*time.Second)
		})
	}
}

func TestProgress(t *testing.T) {
	root, m := genTree(t, gentree.Spec{Dirs: 1000, Repos: 50, Seed: 5})
	var calls []Stats
	testHookBeforeRead = func(string) { time.Sleep(200 * time.Microsecond) } // make the walk last several ticks
	t.Cleanup(func() { testHookBeforeRead = nil })
	st, err := Scan(context.Background(), root, Options{All: true, ProgressEvery: 5 * time.Millisecond, Progress: func(s Stats) {
		calls = append(calls, s) // no lock: Progress runs on this goroutine
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) < 2 {
		t.Fatalf("Progress called %d times", len(calls))
	}
	for i := 1; i < len(calls); i++ {
		if calls[i].Dirs < calls[i-1].Dirs {
			t.Errorf("Dirs went back: %+v then %+v", calls[i-1], calls[i])
		}
	}
	if last := calls[len(calls)-1]; last.Dirs > st.Dirs || st.Dirs != m.Dirs {
		t.Errorf("last progress %+v, final %+v, tree %d folders", last, st, m.Dirs)
	}
}
