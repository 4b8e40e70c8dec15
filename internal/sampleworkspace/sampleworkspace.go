// Package sampleworkspace writes a realistic workspace of repositories into
// a folder: a few dozen Git repositories with histories by several authors
// over months and years, branches, upstreams ahead and behind, uncommitted
// changes, a linked worktree, a submodule, a bare mirror, a separate git
// folder, Mercurial, Subversion and Jujutsu working copies, plain projects,
// a stale worktree whose git folder was pruned, a symlink to a repository
// and a service with a .env file. `rootpick demo` opens the picker on it, so
// that the first minute with rootpick shows what it is for without a
// person's own folders.
//
// It has its own package because the root package holds only commands (one
// file each), and because tests and benchmarks may build the same workspace
// to run against. It writes everything with go-git and plain file writes:
// the git program need not be installed.
package sampleworkspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/rootpick/rootpick/internal/panics"

	"github.com/rootpick/rootpick/vcsdetect"
)

// Info says what Create made.
type Info struct {
	// Dir is the workspace's folder, absolute, as Create was given it.
	Dir string
	// Repos are the folders a default scan of Dir reports (vcsdetect.Scan
	// with zero Options), sorted by Rel.
	Repos []Repo
	// Links are the symbolic links to repositories, sorted by Rel. A default
	// scan does not follow them. There are none where the system refused to
	// make one.
	Links []Link
}

// Repo is one repository or project of the workspace.
type Repo struct {
	// Rel is the folder relative to Info.Dir, with slashes.
	Rel string
	// Kind is what vcsdetect reports it as.
	Kind vcsdetect.Kind
	// Branch is the checked-out branch as vcsdetect reads it, "" for a
	// detached HEAD or a kind that has none.
	Branch string
	// Dirty says the work tree has uncommitted changes (modified or
	// untracked files).
	Dirty bool
	// Secrets lists the secret files at the folder's top (".env"), which
	// the consent dialog warns about.
	Secrets []string
}

// Link is a symbolic link in the workspace.
type Link struct {
	// Rel is the link, relative to Info.Dir, with slashes.
	Rel string
	// Target is what the link holds (a path relative to the link's folder).
	Target string
}

// Create writes the sample workspace into dir, which must be absent or an
// empty folder; it is made with its parents. Commit dates are counted back
// from now, so that "2 hours ago" stays true whenever it is run. On error
// what was written is left for the caller to remove.
func Create(dir string) (Info, error) {
	return CreateAt(dir, time.Now())
}

// CreateAt is Create with the dates counted back from now instead: the same
// now gives the same commits, byte for byte (as pictures of the picker need).
func CreateAt(dir string, now time.Time) (Info, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Info{}, err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return Info{}, err
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return Info{}, err
	}
	if len(entries) > 0 {
		return Info{}, fmt.Errorf("sampleworkspace: %s is not empty", abs)
	}
	w := &writer{root: abs, now: now.Truncate(time.Second)}
	// The repositories are independent (a worktree or a submodule is
	// written with its repository): write them side by side, since most of
	// the time goes to creating files.
	errs := make([]error, len(gitRepos)+len(otherRepos))
	sem := make(chan struct{}, max(2, runtime.NumCPU()))
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer panics.Guard()
			defer func() { <-sem; wg.Done() }()
			if i < len(gitRepos) {
				if err := w.gitRepo(&gitRepos[i]); err != nil {
					errs[i] = fmt.Errorf("sampleworkspace: %s: %w", gitRepos[i].rel, err)
				}
				return
			}
			o := otherRepos[i-len(gitRepos)]
			if err := w.other(o); err != nil {
				errs[i] = fmt.Errorf("sampleworkspace: %s: %w", o.rel, err)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return Info{}, err
	}
	for _, l := range links {
		// Optional: Windows makes symlinks only with a privilege or in
		// developer mode (and says so with errors of its own).
		if os.Symlink(filepath.FromSlash(l.Target), w.path(l.Rel)) == nil {
			w.links = append(w.links, l)
		}
	}
	slices.SortFunc(w.repos, func(a, b Repo) int {
		switch {
		case a.Rel < b.Rel:
			return -1
		case a.Rel > b.Rel:
			return 1
		}
		return 0
	})
	return Info{Dir: abs, Repos: w.repos, Links: w.links}, nil
}

// writer writes the workspace under root and notes what it wrote.
type writer struct {
	root  string
	now   time.Time
	mu    sync.Mutex // repos
	repos []Repo
	links []Link
}

// add notes that r was written. It may be called from any goroutine.
func (w *writer) add(r Repo) {
	w.mu.Lock()
	w.repos = append(w.repos, r)
	w.mu.Unlock()
}

// path is rel (slashes) under the workspace's root.
func (w *writer) path(rel string) string {
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

// writeFiles writes files (slash paths relative to dir to contents) with
// their folders.
func writeFiles(dir string, files map[string]string) error {
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if isSecret(name) {
			mode = 0o600
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			return err
		}
	}
	return nil
}

// isSecret says whether a file name is one the consent dialog warns about
// at a folder's top (as consent's list has it, for the files this
// workspace holds).
func isSecret(name string) bool { return name == ".env" }
