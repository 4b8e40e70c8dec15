package vcsdetect

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// gitName is the name of the entry that marks a Git work tree.
const gitName = ".git"

// walker holds the state of one Scan: the options, the callback and the
// running statistics. It is used from a single goroutine.
type walker struct {
	ctx   context.Context
	opts  Options
	log   *slog.Logger
	found func(Repo)
	stats Stats
}

// scan implements Scan: it checks dir, then walks it depth-first.
func scan(ctx context.Context, dir string, opts Options, found func(Repo)) (Stats, error) {
	root, err := filepath.Abs(dir) // Abs also cleans the path.
	if err != nil {
		return Stats{}, fmt.Errorf("vcsdetect: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return Stats{}, err
	}
	// The scanned folder itself may be reached through a symlink (the user
	// named it); only symlinks met during the walk are not followed.
	fi, err := os.Stat(root)
	if err != nil {
		return Stats{}, fmt.Errorf("vcsdetect: %w", err)
	}
	if !fi.IsDir() {
		return Stats{}, fmt.Errorf("vcsdetect: %w", &fs.PathError{Op: "scan", Path: root, Err: syscall.ENOTDIR})
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return Stats{}, fmt.Errorf("vcsdetect: %w", err)
	}

	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if found == nil {
		found = func(Repo) {}
	}
	w := &walker{ctx: ctx, opts: opts, log: log, found: found}
	err = w.visit(root, 0, entries)
	return w.stats, err
}

// visit handles one folder whose entries have been read: it reports the folder
// if it is a repository, then descends into its subfolders in name order.
// The only error it returns is the context's.
func (w *walker) visit(path string, depth int, entries []os.DirEntry) error {
	w.stats.Dirs++
	if kind, linked, ok := w.detect(path, entries); ok {
		w.stats.Repos++
		w.found(Repo{
			Path:   path,
			Name:   filepath.Base(path),
			Kind:   kind,
			Branch: w.branch(path, linked),
			Depth:  depth,
		})
	}
	if w.opts.MaxDepth > 0 && depth >= w.opts.MaxDepth {
		return nil
	}
	for _, e := range entries {
		// IsDir is false for a symlink, whatever it points to, so symlinked
		// folders are neither descended nor reported. A .git folder is the
		// repository's own data, never a place to look for work trees.
		if !e.IsDir() || e.Name() == gitName {
			continue
		}
		if err := w.ctx.Err(); err != nil {
			return err
		}
		sub := filepath.Join(path, e.Name())
		children, err := os.ReadDir(sub)
		if err != nil {
			// Permission denied, removed or replaced since the parent was
			// listed: skip it, the rest of the tree is still worth scanning.
			w.stats.Warnings++
			w.log.Warn("vcsdetect: skipping unreadable folder", "path", sub, "err", err)
			continue
		}
		if err := w.visit(sub, depth+1, children); err != nil {
			return err
		}
	}
	return nil
}

// detect reports whether the folder at path, whose sorted entries are given,
// is a repository work tree, of which kind, and whether its .git is a
// symlink.
func (w *walker) detect(path string, entries []os.DirEntry) (kind Kind, linked, ok bool) {
	i, found := slices.BinarySearchFunc(entries, gitName, func(e os.DirEntry, name string) int {
		return strings.Compare(e.Name(), name)
	})
	if !found {
		return "", false, false
	}
	dotGit := filepath.Join(path, gitName)
	typ := entries[i].Type()
	if typ&fs.ModeSymlink != 0 {
		// Git accepts a symlinked .git; look at what it points to.
		fi, err := os.Stat(dotGit)
		if err != nil {
			w.log.Debug("vcsdetect: ignoring dangling .git symlink", "path", dotGit, "err", err)
			return "", false, false
		}
		typ, linked = fi.Mode().Type(), true
	}
	switch {
	case typ.IsDir():
		return KindGit, linked, true
	case typ.IsRegular():
		gitdir, err := readGitFile(dotGit)
		if err != nil {
			// Still a folder meant to be a repository; say so and move on.
			w.log.Warn("vcsdetect: cannot read .git file", "path", dotGit, "err", err)
			return KindGitFile, linked, true
		}
		return classifyGitDir(gitdir), linked, true
	default:
		// A socket, device or FIFO named .git: not a repository, and not
		// something to open (a FIFO would block).
		return "", false, false
	}
}
