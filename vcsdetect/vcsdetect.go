// Package vcsdetect walks a folder tree and recognises repositories in it.
//
// It owns the walk (which folders are visited, in parallel, how symlinks,
// heavy folders, other file systems and permission errors are treated), the
// recognition of each kind of repository or project, and the facts read from
// a repository afterwards (Describe: branch, upstream, remote, last commit,
// dirty state). It never imports a UI package: a test or a script can drive
// it with no terminal.
package vcsdetect

import (
	"context"
	"log/slog"
	"time"
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
	// KindBare is a bare Git repository: a folder holding HEAD, objects/ and
	// refs/ (git clone --bare, mirrors), whatever its name. Scan does not
	// look inside it.
	KindBare Kind = "bare"
	// KindHg is a Mercurial working copy (a .hg folder).
	KindHg Kind = "hg"
	// KindJJ is a Jujutsu repository (a .jj folder). A colocated one also
	// has a .git folder and is reported as KindGit.
	KindJJ Kind = "jj"
	// KindSvn is a Subversion working copy (a .svn folder).
	KindSvn Kind = "svn"
	// KindProject is a folder that holds a project marker file (go.mod,
	// package.json, …, see Options.Markers) and is in no repository.
	KindProject Kind = "project"
	// KindBroken is a folder whose .git file or symlink points nowhere;
	// Repo.Reason says why.
	KindBroken Kind = "broken"
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
	// detached or cannot be read (or Options.NoBranch is set). For Mercurial
	// it is the named branch of the working copy.
	Branch string `json:"branch,omitempty"`
	// Depth is the number of path elements between the scanned folder and
	// Path (0 when the scanned folder is itself a repository).
	Depth int `json:"depth"`
	// Reason says why a KindBroken repository is broken.
	Reason string `json:"reason,omitempty"`
	// Marker is the marker file that made a KindProject folder a project.
	Marker string `json:"marker,omitempty"`
}

// DefaultSkip lists the folder names Scan does not enter unless
// Options.All is set: dependency, build and cache folders that hold many
// files and no repository a person would pick. Two more are skipped only
// where their build tool puts them, since the names are common: "vendor"
// next to a go.mod and "target" next to a Cargo.toml or pom.xml (see
// SkipBeside).
//
// ".npm" is npm's cache in the home folder, and "_npx" the folder npx
// installs each server in, in that cache or one moved elsewhere
// (npm_config_cache): every install there holds a package.json, which
// would list ~/.npm/_npx/HASH as a project, first, in a scan of the home
// folder.
var DefaultSkip = []string{
	"node_modules", "bower_components", ".venv", "venv", ".tox", "__pycache__",
	".mypy_cache", ".pytest_cache", ".ruff_cache", ".cache", ".gradle",
	".next", ".terraform", ".npm", "_npx",
}

// SkipBeside lists folder names Scan does not enter, unless Options.All is
// set, when their parent folder holds one of the given files.
var SkipBeside = map[string][]string{
	"vendor": {"go.mod"},
	"target": {"Cargo.toml", "pom.xml"},
}

// DefaultMarkers lists the file names that make a folder in no repository a
// KindProject.
var DefaultMarkers = []string{
	"go.mod", "package.json", "Cargo.toml", "pyproject.toml", "setup.py",
	"pom.xml", "build.gradle", "build.gradle.kts", "Gemfile", "composer.json",
	"CMakeLists.txt", "meson.build", "mix.exs", "deno.json", "flake.nix",
}

// Options tune a scan. The zero value is ready to use.
type Options struct {
	// MaxDepth stops the walk this many levels below the scanned folder;
	// 0 means no limit.
	MaxDepth int
	// Logger receives warnings (unreadable folders, unreadable repositories).
	// Nil discards them.
	Logger *slog.Logger
	// All walks every folder: DefaultSkip and SkipBeside are off.
	All bool
	// Skip adds folder names not to enter, on top of DefaultSkip (even with
	// All, a name given here is skipped).
	Skip []string
	// Markers replaces DefaultMarkers when not nil; an empty, non-nil slice
	// turns project detection off.
	Markers []string
	// OneFileSystem does not enter folders on another file system than the
	// scanned folder.
	OneFileSystem bool
	// Follow enters symlinked folders. Every folder is then remembered by
	// device and inode, so a loop or a folder reached twice is walked once.
	Follow bool
	// NoBranch does not read HEAD: Repo.Branch stays "". It saves one small
	// file read per repository for callers that print no branch.
	NoBranch bool
	// Workers is the number of walking goroutines; 0 picks one per CPU,
	// with a minimum of 2 (a read blocks in the kernel now and then).
	Workers int
	// Progress, when set, is called from the calling goroutine about every
	// ProgressEvery while the walk runs, with the counts so far.
	Progress func(Stats)
	// ProgressEvery is the interval between Progress calls; 0 means 100 ms.
	ProgressEvery time.Duration
}

// Stats summarises a scan, or the part of it done so far.
type Stats struct {
	// Dirs is the number of folders visited.
	Dirs int
	// Repos is the number of repositories reported.
	Repos int
	// Warnings counts folders that could not be read (permission denied,
	// removed during the walk); they are skipped, not fatal.
	Warnings int
	// Skipped counts folders not entered on purpose: heavy folders
	// (DefaultSkip, SkipBeside, Options.Skip), other file systems with
	// OneFileSystem, and folders already walked (a symlink loop, a bind
	// mount reached twice).
	Skipped int
}

// Scan walks dir and calls found for every repository, from the calling
// goroutine, as they are found: the walk itself runs on Options.Workers
// goroutines, so the order is not fixed (sort the results when it matters).
// It never descends into a .git, .hg, .jj or .svn folder nor into a bare
// repository, but does continue below a work tree, so nested repositories
// are reported too. Symlinked folders are not followed unless
// Options.Follow. A folder reached twice (a bind mount) is reported once. It
// stops early, returning ctx.Err() once every walking goroutine has stopped,
// when ctx is cancelled. An error is returned only when dir itself cannot be
// read.
func Scan(ctx context.Context, dir string, opts Options, found func(Repo)) (Stats, error) {
	return scan(ctx, dir, opts, found)
}
