package vcsdetect

import (
	"errors"
	"path/filepath"
	"strings"
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
	b, err := readSmall(name, maxGitFileSize)
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
