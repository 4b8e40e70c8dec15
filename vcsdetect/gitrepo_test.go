package vcsdetect

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/memory"
	"github.com/rootpick/rootpick/internal/testskip"
)

// The tests in this file hold gitrepo.go to go-git's own answers: the
// package reads repositories without go-git's top-level package and
// plumbing/object (deps_test.go keeps them out of the binary), but its
// tests may use them.

const (
	treeHex   = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	parentHex = "1111111111111111111111111111111111111111"
	otherHex  = "2222222222222222222222222222222222222222"
)

func TestParseCommitMatchesGoGit(t *testing.T) {
	sig := "A U Thor <a@example.com> 1700000000 +0130\n"
	for name, body := range map[string]string{
		"plain":        "tree " + treeHex + "\nauthor " + sig + "committer " + sig + "\nsubject\n\nbody\n",
		"merge":        "tree " + treeHex + "\nparent " + parentHex + "\nparent " + otherHex + "\nauthor " + sig + "committer C <c@x> 1600000000 -0745\n\nmerge\n",
		"signed":       "tree " + treeHex + "\nparent " + parentHex + "\nauthor " + sig + "committer " + sig + "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nsigned\n",
		"mergetag":     "tree " + treeHex + "\nauthor " + sig + "committer " + sig + "mergetag object " + parentHex + "\n type commit\n tag v1\n\nwith a tag\n",
		"encoding":     "tree " + treeHex + "\nauthor " + sig + "committer " + sig + "encoding ISO-8859-1\n\nlatin\n",
		"no author":    "tree " + treeHex + "\ncommitter " + sig + "\nno author\n",
		"late parent":  "tree " + treeHex + "\nauthor " + sig + "parent " + parentHex + "\ncommitter " + sig + "\nlate\n",
		"late commit":  "tree " + treeHex + "\nauthor " + sig + "extra x\ncommitter " + sig + "\nout of place\n",
		"two commits":  "tree " + treeHex + "\nauthor " + sig + "committer " + sig + "committer B <b@x> 1 +0000\n\ntwice\n",
		"no message":   "tree " + treeHex + "\nauthor " + sig + "committer " + sig,
		"no newline":   "tree " + treeHex + "\nauthor " + sig + "committer C <c@x> 1600000000 +0200",
		"empty msg":    "tree " + treeHex + "\nauthor " + sig + "committer " + sig + "\n",
		"tree only":    "tree " + treeHex,
		"no time":      "tree " + treeHex + "\ncommitter C <c@x>\n\nm\n",
		"no zone":      "tree " + treeHex + "\ncommitter C <c@x> 1600000000\n\nm\n",
		"bad zone":     "tree " + treeHex + "\ncommitter C <c@x> 1600000000 +01x0\n\nm\n",
		"short zone":   "tree " + treeHex + "\ncommitter C <c@x> 1600000000 +01\n\nm\n",
		"bad time":     "tree " + treeHex + "\ncommitter C <c@x> 16000x0000 +0100\n\nm\n",
		"no brackets":  "tree " + treeHex + "\ncommitter C c@x 1600000000 +0100\n\nm\n",
		"crossed":      "tree " + treeHex + "\ncommitter C >c@x< 1600000000 +0100\n\nm\n",
		"negative":     "tree " + treeHex + "\ncommitter C <c@x> 1600000000 -0030\n\nm\n",
		"cont in head": "tree " + treeHex + "\n continued\ncommitter " + sig + "\nm\n",
		"crlf":         "tree " + treeHex + "\r\ncommitter " + sig + "\nm\n",
		"empty":        "",
		"blank first":  "\ntree " + treeHex + "\n",
		"tree second":  "author " + sig + "tree " + treeHex + "\n\nm\n",
		"bad tree":     "tree 12345\n\nm\n",
		"bad parent":   "tree " + treeHex + "\nparent xyz\n\nm\n",
		"short parent": "tree " + treeHex + "\nparent " + parentHex[:39] + "\n\nm\n",
	} {
		t.Run(name, func(t *testing.T) {
			o := memory.NewStorage().NewEncodedObject()
			o.SetType(plumbing.CommitObject)
			w, _ := o.Writer()
			if _, err := w.Write([]byte(body)); err != nil {
				t.Fatal(err)
			}
			_ = w.Close()
			var want object.Commit
			wantErr := want.Decode(o)
			got, err := parseCommit([]byte(body))
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("error %v, go-git's %v", err, wantErr)
			}
			if err != nil {
				return
			}
			if got.tree != want.TreeHash || !slicesEqual(got.parents, want.ParentHashes) || got.message != want.Message {
				t.Errorf("tree %s parents %v message %q, go-git's %s %v %q", got.tree, got.parents, got.message, want.TreeHash, want.ParentHashes, want.Message)
			}
			if !got.committer.Equal(want.Committer.When) || got.committer.Format("-0700 MST") != want.Committer.When.Format("-0700 MST") {
				t.Errorf("committer time %v, go-git's %v", got.committer, want.Committer.When)
			}
		})
	}
}

func slicesEqual(a, b []plumbing.Hash) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestReadTreeMatchesGoGit(t *testing.T) {
	h := func(b byte) string { return strings.Repeat(string([]byte{b}), 20) }
	for name, body := range map[string]string{
		"modes":     "100644 a\x00" + h(1) + "100755 b\x00" + h(2) + "120000 c\x00" + h(3) + "160000 d\x00" + h(4) + "40000 e\x00" + h(5) + "100664 f\x00" + h(6) + "100775 g\x00" + h(7),
		"empty":     "",
		"no space":  "100644",
		"bad mode":  "10x644 a\x00" + h(1),
		"no nul":    "100644 a",
		"no name":   "100644 \x00" + h(1),
		"truncated": "100644 a\x00" + h(1)[:19],
		"odd name":  "100644 a b\tc\x00" + h(1),
	} {
		t.Run(name, func(t *testing.T) {
			st := memory.NewStorage()
			o := st.NewEncodedObject()
			o.SetType(plumbing.TreeObject)
			w, _ := o.Writer()
			if _, err := w.Write([]byte(body)); err != nil {
				t.Fatal(err)
			}
			_ = w.Close()
			hash, err := st.SetEncodedObject(o)
			if err != nil {
				t.Fatal(err)
			}
			want, wantErr := object.GetTree(st, hash)
			got, err := readTree(st, hash)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("error %v, go-git's %v", err, wantErr)
			}
			if err != nil {
				return
			}
			if len(got) != len(want.Entries) {
				t.Fatalf("%d entries, go-git's %d", len(got), len(want.Entries))
			}
			for i, e := range want.Entries {
				if g := got[i]; g.name != e.Name || g.mode != e.Mode || g.hash != e.Hash {
					t.Errorf("entry %d: %+v, go-git's %+v", i, g, e)
				}
			}
		})
	}
}

// TestCleanMatchesGoGit makes repositories in many states with the git
// program and checks that gitRepo.clean says what git status says and,
// but where noted, what go-git's Worktree.Status().IsClean() says.
func TestCleanMatchesGoGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testskip.Skip(t, "git", "git not installed: apt-get install git")
	}
	base := func(t *testing.T) string {
		dir := t.TempDir()
		gitCLI(t, dir, "init", "-q", "-b", "main")
		writeFile(t, filepath.Join(dir, "a.txt"), "a\n")
		writeFile(t, filepath.Join(dir, "sub", "b.txt"), "b\n")
		writeFile(t, filepath.Join(dir, ".gitignore"), "*.log\nbuild/\n")
		gitCLI(t, dir, "add", ".")
		gitCLI(t, dir, "commit", "-q", "-m", "first")
		return dir
	}
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T) string
		clean bool
		// goGitDiffers: go-git v5.19 reads .git/info/exclude through its
		// work tree's filesystem, which refuses paths in .git, so it
		// counts a file only that file excludes as untracked; git does not.
		goGitDiffers bool
	}{
		{"clean", base, true, false},
		{"modified", func(t *testing.T) string {
			d := base(t)
			writeFile(t, filepath.Join(d, "sub", "b.txt"), "changed\n")
			return d
		}, false, false},
		{"untracked", func(t *testing.T) string {
			d := base(t)
			writeFile(t, filepath.Join(d, "new.txt"), "n\n")
			return d
		}, false, false},
		{"ignored files", func(t *testing.T) string {
			d := base(t)
			writeFile(t, filepath.Join(d, "x.log"), "l\n")
			writeFile(t, filepath.Join(d, "build", "out"), "o\n")
			writeFile(t, filepath.Join(d, "sub", "y.log"), "l\n")
			return d
		}, true, false},
		{"excluded by info/exclude", func(t *testing.T) string {
			d := base(t)
			writeFile(t, filepath.Join(d, ".git", "info", "exclude"), "secret\n")
			writeFile(t, filepath.Join(d, "secret"), "s\n")
			return d
		}, true, true},
		{"nested gitignore", func(t *testing.T) string {
			d := base(t)
			writeFile(t, filepath.Join(d, "sub", ".gitignore"), "tmp\n")
			gitCLI(t, d, "add", "sub/.gitignore")
			gitCLI(t, d, "commit", "-q", "-m", "ignore tmp")
			writeFile(t, filepath.Join(d, "sub", "tmp"), "t\n")
			return d
		}, true, false},
		{"staged", func(t *testing.T) string {
			d := base(t)
			writeFile(t, filepath.Join(d, "staged.txt"), "s\n")
			gitCLI(t, d, "add", "staged.txt")
			return d
		}, false, false},
		{"staged deletion", func(t *testing.T) string {
			d := base(t)
			gitCLI(t, d, "rm", "-q", "a.txt")
			return d
		}, false, false},
		{"deleted", func(t *testing.T) string {
			d := base(t)
			if err := os.Remove(filepath.Join(d, "a.txt")); err != nil {
				t.Fatal(err)
			}
			return d
		}, false, false},
		{"mode changed", func(t *testing.T) string {
			d := base(t)
			if err := os.Chmod(filepath.Join(d, "a.txt"), 0o755); err != nil {
				t.Fatal(err)
			}
			return d
		}, false, false},
		{"symlink and executable", func(t *testing.T) string {
			d := base(t)
			if err := os.Symlink("a.txt", filepath.Join(d, "link")); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(d, "run.sh"), "#!/bin/sh\n")
			if err := os.Chmod(filepath.Join(d, "run.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			gitCLI(t, d, "add", ".")
			gitCLI(t, d, "commit", "-q", "-m", "link")
			return d
		}, true, false},
		{"no commit, nothing", func(t *testing.T) string {
			d := t.TempDir()
			gitCLI(t, d, "init", "-q")
			return d
		}, true, false},
		{"no commit, a file", func(t *testing.T) string {
			d := t.TempDir()
			gitCLI(t, d, "init", "-q")
			writeFile(t, filepath.Join(d, "f"), "f\n")
			return d
		}, false, false},
		{"submodule", func(t *testing.T) string {
			d := base(t)
			inner := base(t)
			gitCLI(t, d, "-c", "protocol.file.allow=always", "submodule", "add", "-q", inner, "mod")
			gitCLI(t, d, "commit", "-q", "-m", "add mod")
			return d
		}, true, false},
		{"submodule moved", func(t *testing.T) string {
			d := base(t)
			inner := base(t)
			gitCLI(t, d, "-c", "protocol.file.allow=always", "submodule", "add", "-q", inner, "mod")
			gitCLI(t, d, "commit", "-q", "-m", "add mod")
			writeFile(t, filepath.Join(d, "mod", "c.txt"), "c\n")
			gitCLI(t, filepath.Join(d, "mod"), "add", "c.txt")
			gitCLI(t, filepath.Join(d, "mod"), "commit", "-q", "-m", "move")
			return d
		}, false, false},
		{"submodule not initialised", func(t *testing.T) string {
			d := base(t)
			inner := base(t)
			gitCLI(t, d, "-c", "protocol.file.allow=always", "submodule", "add", "-q", inner, "mod")
			gitCLI(t, d, "commit", "-q", "-m", "add mod")
			gitCLI(t, d, "submodule", "-q", "deinit", "-f", "mod")
			return d
		}, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t)
			r := Repo{Path: dir, Kind: KindGit}
			g, err := openRepo(r, filepath.Join(dir, ".git"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := g.clean()
			if err != nil {
				t.Fatal(err)
			}
			gg, err := git.Open(g.st, osfs.New(dir))
			if err != nil {
				t.Fatal(err)
			}
			wt, err := gg.Worktree()
			if err != nil {
				t.Fatal(err)
			}
			st, err := wt.Status()
			if err != nil {
				t.Fatal(err)
			}
			porcelain := gitCLI(t, dir, "status", "--porcelain")
			if got != tt.clean || got != (porcelain == "") || got != (st.IsClean() != tt.goGitDiffers) {
				t.Errorf("clean %v, want %v; git status %q; go-git's %v (%v)", got, tt.clean, porcelain, st.IsClean(), st)
			}
		})
	}
}

// TestOpenRefusesWhatGoGitRefuses checks openRepo against git.Open on
// repository formats and extensions.
func TestOpenRefusesWhatGoGitRefuses(t *testing.T) {
	for _, cfg := range []string{
		"",
		"[core]\n\trepositoryformatversion = 0\n",
		"[core]\n\trepositoryformatversion = 1\n",
		"[core]\n\trepositoryformatversion = 2\n",
		"[core]\n\trepositoryformatversion = 0\n[extensions]\n\tnoop = true\n",
		"[core]\n\trepositoryformatversion = 0\n[extensions]\n\tnoop-v1 = true\n",
		"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tnoop-v1 = true\n",
		"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = sha256\n",
		"[core]\n\trepositoryformatversion = 0\n[extensions]\n\tworktreeConfig = true\n",
		"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig = true\n",
		"[core\n",
	} {
		dir := t.TempDir()
		fakeGitDir(t, filepath.Join(dir, ".git"), "ref: refs/heads/main\n", cfg)
		_, err := openRepo(Repo{Path: dir, Kind: KindGit}, filepath.Join(dir, ".git"))
		st := filesystem.NewStorage(osfs.New(filepath.Join(dir, ".git")), cache.NewObjectLRUDefault())
		_, wantErr := git.Open(st, osfs.New(dir))
		if (err != nil) != (wantErr != nil) {
			t.Errorf("config %q: error %v, go-git's %v", cfg, err, wantErr)
		}
	}
	dir := t.TempDir()
	mkdirs(t, filepath.Join(dir, ".git", "objects"))
	if _, err := openRepo(Repo{Path: dir, Kind: KindGit}, filepath.Join(dir, ".git")); err == nil {
		t.Error("a git folder without HEAD opened")
	}
}
