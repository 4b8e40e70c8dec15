// Package vcsdetect walks a folder tree and recognises repositories in it.
//
// It owns the walk (which folders are visited, how symlinks and permission
// errors are treated) and the facts read from each repository (kind, current
// branch). It never imports a UI package: a test or a script can drive it with
// no terminal.
package vcsdetect

import (
	"context"
	"log/slog"
)

// Kind says how a repository was recognised.
type Kind string

// The kinds of repository Scan reports.
const (
	// KindGit is a folder with a .git folder inside.
	KindGit Kind = "git"
	// KindWorktree is a folder whose .git file points into another
	// repository's worktrees/ folder (git worktree add).
	KindWorktree Kind = "worktree"
	// KindSubmodule is a folder whose .git file points into another
	// repository's modules/ folder (git submodule).
	KindSubmodule Kind = "submodule"
	// KindGitFile is a folder with a .git file that is neither a worktree
	// nor a submodule link (for example git init --separate-git-dir).
	KindGitFile Kind = "gitfile"
)

// Repo is one repository found by Scan.
type Repo struct {
	// Path is the absolute, cleaned path of the repository's work tree, as
	// reached by the walk (symlinks are not resolved here; consent does that).
	Path string `json:"path"`
	// Name is the last element of Path.
	Name string `json:"name"`
	// Kind says how the repository was recognised.
	Kind Kind `json:"kind"`
	// Branch is the short name of the checked-out branch, "" when HEAD is
	// detached or cannot be read.
	Branch string `json:"branch,omitempty"`
	// Depth is the number of path elements between the scanned folder and
	// Path (0 when the scanned folder is itself a repository).
	Depth int `json:"depth"`
}

// Options tune a scan. The zero value is ready to use.
type Options struct {
	// MaxDepth stops the walk this many levels below the scanned folder;
	// 0 means no limit.
	MaxDepth int
	// Logger receives warnings (unreadable folders, unreadable repositories).
	// Nil discards them.
	Logger *slog.Logger
}

// Stats summarises a finished scan.
type Stats struct {
	// Dirs is the number of folders visited.
	Dirs int
	// Repos is the number of repositories reported.
	Repos int
	// Warnings counts folders that could not be read (permission denied,
	// removed during the walk); they are skipped, not fatal.
	Warnings int
}

// Scan walks dir and calls found for every repository, in the order they are
// found, from the calling goroutine. It never descends into a .git folder but
// does continue below a repository, so nested repositories are reported too.
// Symlinked folders are not followed. It stops early, returning ctx.Err(),
// when ctx is cancelled. An error is returned only when dir itself cannot be
// read.
func Scan(ctx context.Context, dir string, opts Options, found func(Repo)) (Stats, error) {
	return scan(ctx, dir, opts, found)
}
