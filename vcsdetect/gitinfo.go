package vcsdetect

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// maxGitFileSize bounds how much of a .git file is read: a real one holds a
// single "gitdir:" line, so anything longer than a path is not worth reading.
const maxGitFileSize = 16 << 10

// errNoGitDirLine is returned for a .git file that does not start with a
// "gitdir: " line.
var errNoGitDirLine = errors.New(`no "gitdir: " line`)

// readGitFile reads a .git file and returns the folder its "gitdir: X" line
// points to, as written (X is relative to the folder holding the file unless
// it is absolute). Like git, it strips only the line ending, so paths that
// end in spaces survive.
func readGitFile(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxGitFileSize))
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	line = strings.TrimSuffix(line, "\r")
	gitdir, ok := strings.CutPrefix(line, "gitdir: ")
	if !ok || gitdir == "" {
		return "", errNoGitDirLine
	}
	return gitdir, nil
}

// classifyGitDir tells, from the folder a .git file points to, what kind of
// link it is. Git keeps a worktree's data in <common>/worktrees/<name> and a
// submodule's in <super>/.git/modules/<name>, where a submodule's name may
// itself hold slashes and modules nest (modules/a/modules/b). The last
// "worktrees" or "modules" element before the final one decides, so that a
// worktree of a submodule (modules/a/worktrees/w) is a worktree and a
// submodule of a repository kept under a folder named "worktrees" is a
// submodule. The path is classified as written, not joined to the folder
// holding the .git file, so the names of the folders above a relative link do
// not count.
func classifyGitDir(gitdir string) Kind {
	elems := strings.Split(filepath.ToSlash(gitdir), "/")
	for i := len(elems) - 2; i >= 0; i-- {
		switch elems[i] {
		case "worktrees":
			return KindWorktree
		case "modules":
			return KindSubmodule
		}
	}
	return KindGitFile
}

// branch returns the short name of the branch checked out in the work tree at
// path, or "" when HEAD is detached or cannot be read. linked says that
// path/.git is a symlink. Failures are logged at Debug: the repository is
// reported anyway.
func (w *walker) branch(path string, linked bool) string {
	repo, err := openRepo(path, linked)
	if err != nil {
		w.log.Debug("vcsdetect: cannot open repository", "path", path, "err", err)
		return ""
	}
	head, err := repo.Head()
	if err == nil {
		if head.Name().IsBranch() {
			return head.Name().Short()
		}
		return "" // detached: Head resolved to HEAD itself
	}
	if !errors.Is(err, plumbing.ErrReferenceNotFound) {
		w.log.Debug("vcsdetect: cannot read HEAD", "path", path, "err", err)
		return ""
	}
	// An unborn branch (git init, no commit yet): HEAD names a branch that
	// has no ref, so Head cannot resolve it; the symbolic HEAD still says
	// which branch the first commit will land on.
	sym, err := repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		w.log.Debug("vcsdetect: cannot read HEAD", "path", path, "err", err)
		return ""
	}
	if sym.Type() == plumbing.SymbolicReference && sym.Target().IsBranch() {
		return sym.Target().Short()
	}
	return ""
}

// openRepo opens the repository whose work tree is path. linked says that
// path/.git is a symlink: go-git reads .git through a chroot of the work
// tree that refuses symlinks leading out of it ("chroot boundary crossed"),
// so such a repository is opened from its resolved git folder instead.
func openRepo(path string, linked bool) (*git.Repository, error) {
	if !linked {
		// EnableDotGitCommonDir makes a worktree's HEAD come from its own
		// gitdir while its branches come from the main repository's.
		return git.PlainOpenWithOptions(path, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	}
	gitdir, err := resolveGitDir(path)
	if err != nil {
		return nil, err
	}
	var common billy.Filesystem
	b, err := os.ReadFile(filepath.Join(gitdir, "commondir"))
	switch {
	case err == nil:
		dir := strings.TrimRight(string(b), "\r\n")
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(gitdir, dir)
		}
		common = osfs.New(dir)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	st := filesystem.NewStorage(dotgit.NewRepositoryFilesystem(osfs.New(gitdir), common), cache.NewObjectLRUDefault())
	return git.Open(st, osfs.New(path))
}

// resolveGitDir returns the git folder of the work tree at path: path/.git
// with symlinks resolved, or the folder its .git file points to.
func resolveGitDir(path string) (string, error) {
	dotGit := filepath.Join(path, gitName)
	fi, err := os.Stat(dotGit)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return filepath.EvalSymlinks(dotGit)
	}
	gitdir, err := readGitFile(dotGit)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(path, gitdir)
	}
	return gitdir, nil
}
