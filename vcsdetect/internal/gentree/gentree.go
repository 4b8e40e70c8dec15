//go:build unix

// Package gentree writes a deterministic folder tree holding every kind of
// repository vcsdetect recognises, and a manifest of what a scan must find
// in it.
//
// It has its own package, under internal/, because two very different users
// share it: vcsdetect's tests generate small trees with it, and the scan
// benchmark (.ci/bench-scan, through cmd/gentree) generates trees of
// hundreds of thousands of folders to compare rootpick with find and fd.
// Keeping it out of vcsdetect keeps that test-only code out of the library,
// and the internal/ folder keeps it out of the module's public API.
package gentree

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Spec says what tree to generate. The same Spec always gives the same tree.
type Spec struct {
	// Dirs is the number of ordinary folders to create (repositories' own
	// data, .git and the like, come on top).
	Dirs int
	// Repos is the number of repositories and projects to create, of every
	// kind in turn.
	Repos int
	// Heavy is the share (0..1) of Dirs placed inside heavy folders
	// (node_modules, .venv, target beside Cargo.toml, __pycache__), some of
	// which hold repositories that a default scan must not report.
	Heavy float64
	// Seed picks the tree.
	Seed uint64
	// Short lays the ordinary folders out as a ~/src is: three levels,
	// TOP/orgN/repoM (src/org10/repo7121), so that relative paths are
	// about 20 characters. Without it each folder goes under a random
	// earlier one, with names such as "naïve dir-3", and the paths of a
	// tree of 100,000 folders are about 80 characters. Repositories,
	// heavy folders and projects are placed the same way in both (a
	// submodule adds "/sub-N", a bare repository is "mirror N.git").
	Short bool
}

// Entry is one repository in the manifest.
type Entry struct {
	// Rel is the folder's path relative to the tree's root, with slashes.
	Rel string
	// Kind is what vcsdetect must report ("" for a folder that looks like
	// one to a name-based search but is none, such as a FIFO named .git).
	Kind string
	// Branch is the branch a scan must read, "" for none.
	Branch string
	// Heavy says the folder is inside a heavy folder: a default scan skips
	// it, a scan with All reports it.
	Heavy bool
	// DotGit is the type of its .git entry: "dir", "file", "symlink-dir",
	// "symlink-file", "dangling", "fifo", or "" when it has none. It tells
	// what find and fd report.
	DotGit string
}

// Manifest is what Generate made.
type Manifest struct {
	// Entries lists the repositories, sorted by Rel.
	Entries []Entry
	// Dirs is the number of folders a scan with All visits (outside
	// repositories' own data), root included.
	Dirs int
	// HeavyDirs is the number of those inside heavy folders.
	HeavyDirs int
}

// words make folder names; some hold spaces, non-ASCII letters and
// characters that need escaping in URIs, as real home folders do.
var words = []string{
	"src", "docs", "lib", "app", "tools", "notes", "work", "old", "misc", "data",
	"café", "naïve dir", "データ", "Ünïcode", "with space", "x#1", "50%", "a b c",
	"projects", "build", "assets", "test", "cmd", "internal", "pkg", "web",
}

type folder struct {
	rel      string
	children int
	heavy    bool
	bare     bool // no children may be added (Git's own data)
}

// Generate writes the tree described by spec into dir (which must be empty
// or missing) and returns its manifest.
func Generate(dir string, spec Spec) (Manifest, error) {
	g := &gen{root: dir, repoRels: map[string]bool{}, taken: map[string]bool{}, rng: rand.New(rand.NewPCG(spec.Seed, spec.Seed^0x9e3779b97f4a7c15))}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Manifest{}, err
	}
	g.folders = []*folder{{rel: ""}}
	g.m.Dirs = 1

	heavyDirs := int(float64(spec.Dirs) * spec.Heavy)
	plain := spec.Dirs - heavyDirs
	// Ordinary folders: each new one under a random existing one, which
	// gives a random recursive tree about log(n) deep; or, Short, three
	// levels.
	if spec.Short {
		if err := g.shortFolders(plain); err != nil {
			return Manifest{}, err
		}
	} else {
		for range plain {
			if err := g.addFolder(g.pick(false)); err != nil {
				return Manifest{}, err
			}
		}
	}
	// Repositories first, then heavy folders (which need to know which
	// folders are in a repository), then the repositories inside heavy
	// folders, then projects, which must be in no repository.
	var heavyRepos, projects []int
	for i := range spec.Repos {
		switch kinds[i%len(kinds)] {
		case "heavy-git":
			heavyRepos = append(heavyRepos, i)
		case "project":
			projects = append(projects, i)
		default:
			if err := g.addRepo(i, kinds[i%len(kinds)], false); err != nil {
				return Manifest{}, err
			}
		}
	}
	for heavyDirs > 0 {
		n := min(heavyDirs, 50+g.rng.IntN(400))
		if err := g.addHeavy(n); err != nil {
			return Manifest{}, err
		}
		heavyDirs -= n
	}
	for _, i := range heavyRepos {
		if g.m.HeavyDirs == 0 {
			break
		}
		if err := g.addRepo(i, "git", true); err != nil {
			return Manifest{}, err
		}
	}
	for _, i := range projects {
		if err := g.addRepo(i, "project", false); err != nil {
			return Manifest{}, err
		}
	}
	if err := g.addLoop(); err != nil {
		return Manifest{}, err
	}
	slices.SortFunc(g.m.Entries, func(a, b Entry) int { return strings.Compare(a.Rel, b.Rel) })
	return g.m, nil
}

type gen struct {
	root     string
	repoRels map[string]bool // folders that are a repository (not a project)
	taken    map[string]bool // folders that are in the manifest
	rng      *rand.Rand
	folders  []*folder
	gits     []*folder // KindGit repositories, for worktrees and submodules
	m        Manifest
}

// inRepo reports whether rel or a folder above it is a repository.
func (g *gen) inRepo(rel string) bool {
	for {
		if g.repoRels[rel] {
			return true
		}
		i := strings.LastIndexByte(rel, '/')
		if i < 0 {
			return g.repoRels[""]
		}
		rel = rel[:i]
	}
}

func (g *gen) abs(rel string) string { return filepath.Join(g.root, filepath.FromSlash(rel)) }

// pick returns a random folder that may get children, heavy or not.
func (g *gen) pick(heavy bool) *folder {
	for {
		f := g.folders[g.rng.IntN(len(g.folders))]
		if f.heavy == heavy && !f.bare {
			return f
		}
	}
}

func (g *gen) child(parent *folder, name string) *folder {
	parent.children++
	rel := name
	if parent.rel != "" {
		rel = parent.rel + "/" + name
	}
	return &folder{rel: rel, heavy: parent.heavy}
}

// addFolder creates a new ordinary folder under parent.
func (g *gen) addFolder(parent *folder) error {
	_, err := g.addFolderNamed(parent, fmt.Sprintf("%s-%d", words[g.rng.IntN(len(words))], parent.children))
	return err
}

// addFolderNamed creates an ordinary folder called name under parent.
func (g *gen) addFolderNamed(parent *folder, name string) (*folder, error) {
	f := g.child(parent, name)
	if err := os.Mkdir(g.abs(f.rel), 0o755); err != nil {
		return nil, err
	}
	g.folders = append(g.folders, f)
	g.m.Dirs++
	if f.heavy {
		g.m.HeavyDirs++
	}
	return f, nil
}

// shortTops are the top folders of a Short tree.
var shortTops = []string{"src", "work", "old"}

// shortFolders creates n ordinary folders in three levels: a few top
// folders, an org folder for about every 500 folders (orgN, under a random
// top), and the rest repoM, each under a random org.
func (g *gen) shortFolders(n int) error {
	tops := min(n, len(shortTops))
	orgs := min(max(1, n/500), n-tops)
	var parents []*folder
	for i := range tops {
		f, err := g.addFolderNamed(g.folders[0], shortTops[i])
		if err != nil {
			return err
		}
		parents = append(parents, f)
	}
	var orgFolders []*folder
	for i := range orgs {
		f, err := g.addFolderNamed(parents[g.rng.IntN(len(parents))], fmt.Sprintf("org%d", i))
		if err != nil {
			return err
		}
		orgFolders = append(orgFolders, f)
	}
	if len(orgFolders) > 0 {
		parents = orgFolders
	}
	for i := range n - tops - orgs {
		if _, err := g.addFolderNamed(parents[g.rng.IntN(len(parents))], fmt.Sprintf("repo%d", i)); err != nil {
			return err
		}
	}
	return nil
}

// addHeavy creates a heavy folder of n folders under a random ordinary
// folder.
func (g *gen) addHeavy(n int) error {
	parent := g.pick(false)
	for parent.rel == "" {
		parent = g.pick(false)
	}
	var name string
	switch g.rng.IntN(4) {
	case 0:
		name = "node_modules"
	case 1:
		name = ".venv"
	case 2:
		name = "__pycache__"
	default:
		// target is heavy only beside Cargo.toml: give the parent one
		// unless it is a repository's folder or an ordinary one that must
		// stay free of markers (a marker makes a project).
		name = "target"
		if err := write(filepath.Join(g.abs(parent.rel), "Cargo.toml"), "[package]\n"); err != nil {
			return err
		}
		if !g.inRepo(parent.rel) && !g.taken[parent.rel] {
			// Cargo.toml is a project marker too.
			g.taken[parent.rel] = true
			g.m.Entries = append(g.m.Entries, Entry{Rel: parent.rel, Kind: "project"})
		}
	}
	if _, err := os.Stat(filepath.Join(g.abs(parent.rel), name)); err == nil {
		name = fmt.Sprintf("pkg-%d/%s", parent.children, name)
		if err := os.Mkdir(filepath.Join(g.abs(parent.rel), fmt.Sprintf("pkg-%d", parent.children)), 0o755); err != nil {
			return err
		}
		parent.children++
		g.m.Dirs++
	}
	h := g.child(parent, name)
	h.heavy = true
	if err := os.Mkdir(g.abs(h.rel), 0o755); err != nil {
		return err
	}
	g.m.Dirs++
	g.m.HeavyDirs++
	sub := []*folder{h}
	for range n - 1 {
		p := sub[g.rng.IntN(len(sub))]
		name := fmt.Sprintf("m%d", p.children)
		f := g.child(p, name)
		if err := os.Mkdir(g.abs(f.rel), 0o755); err != nil {
			return err
		}
		sub = append(sub, f)
		g.m.Dirs++
		g.m.HeavyDirs++
	}
	g.folders = append(g.folders, sub...)
	return nil
}

// kinds is the order in which addRepo makes repositories: mostly plain Git,
// and every other kind in turn.
var kinds = []string{
	"git", "git", "git", "git", "worktree", "git", "submodule", "git", "bare",
	"git", "hg", "git", "jj", "git", "svn", "git", "project", "git", "gitfile",
	"broken-file", "git", "broken-line", "git", "broken-link", "git",
	"symlink-dir", "git", "fifo", "git", "jj-colocated", "git", "heavy-git",
}

func write(name, content string) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, []byte(content), 0o644)
}

// gitDirFolders is the number of folders gitDir makes, itself included.
const gitDirFolders = 7

// gitDir writes the minimal files Git needs in a git folder.
func gitDir(dir, branch string, bare bool) error {
	for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	if err := write(filepath.Join(dir, "HEAD"), "ref: refs/heads/"+branch+"\n"); err != nil {
		return err
	}
	return write(filepath.Join(dir, "config"), fmt.Sprintf("[core]\n\trepositoryformatversion = 0\n\tbare = %v\n", bare))
}

// addRepo makes repository number i, of the given kind, inside a heavy
// folder or not.
func (g *gen) addRepo(i int, kind string, heavy bool) error {
	// Most repositories are existing folders (so others nest below them);
	// kinds that must stay leaves or must not be inside a repository get
	// a new folder.
	var f *folder
	switch kind {
	case "bare", "fifo":
		p := g.pick(false)
		f = g.child(p, fmt.Sprintf("mirror %d.git", i))
		if err := os.Mkdir(g.abs(f.rel), 0o755); err != nil {
			return err
		}
		g.m.Dirs++
		if kind == "fifo" {
			g.folders = append(g.folders, f)
		}
	case "project":
		for {
			p := g.pick(false)
			if !g.inRepo(p.rel) {
				f = g.child(p, fmt.Sprintf("proj-%d", i))
				break
			}
		}
		if err := os.Mkdir(g.abs(f.rel), 0o755); err != nil {
			return err
		}
		g.m.Dirs++
		g.folders = append(g.folders, f)
	case "submodule", "worktree":
		if len(g.gits) == 0 {
			kind = "git"
		}
		fallthrough
	default:
		for {
			f = g.pick(heavy)
			if f.rel != "" && !g.taken[f.rel] {
				break
			}
		}
		if kind == "submodule" {
			super := g.gits[g.rng.IntN(len(g.gits))]
			f = g.child(super, fmt.Sprintf("sub-%d", i))
			if err := os.Mkdir(g.abs(f.rel), 0o755); err != nil {
				return err
			}
			g.m.Dirs++
			g.folders = append(g.folders, f)
		}
	}
	d := g.abs(f.rel)
	e := Entry{Rel: f.rel, Kind: kind, Heavy: f.heavy}
	branch := fmt.Sprintf("b%d", i)
	var err error
	switch kind {
	case "git":
		e.DotGit, e.Branch = "dir", branch
		err = gitDir(filepath.Join(d, ".git"), branch, false)
		if !f.heavy {
			g.gits = append(g.gits, f)
		}
	case "jj-colocated":
		e.Kind, e.DotGit, e.Branch = "git", "dir", branch
		err = gitDir(filepath.Join(d, ".git"), branch, false)
		if err == nil {
			err = os.MkdirAll(filepath.Join(d, ".jj", "repo", "store"), 0o755)
		}
	case "worktree":
		main := g.gits[g.rng.IntN(len(g.gits))]
		wtdir := filepath.Join(g.abs(main.rel), ".git", "worktrees", fmt.Sprintf("wt%d", i))
		rel, _ := filepath.Rel(d, wtdir)
		e.DotGit, e.Branch = "file", branch
		err = write(filepath.Join(wtdir, "HEAD"), "ref: refs/heads/"+branch+"\n")
		if err == nil {
			err = write(filepath.Join(wtdir, "commondir"), "../..\n")
		}
		if err == nil {
			err = write(filepath.Join(d, ".git"), "gitdir: "+rel+"\n")
		}
	case "submodule":
		super := g.abs(strings.TrimSuffix(f.rel, "/"+filepath.Base(f.rel)))
		mod := filepath.Join(super, ".git", "modules", filepath.Base(f.rel))
		rel, _ := filepath.Rel(d, mod)
		e.DotGit, e.Branch = "file", branch
		err = gitDir(mod, branch, false)
		if err == nil {
			err = write(filepath.Join(d, ".git"), "gitdir: "+rel+"\n")
		}
	case "gitfile":
		// git init --separate-git-dir: the git folder lives beside, and
		// says it is not bare, so it is not a bare repository.
		sep := d + ".gitdir"
		e.DotGit, e.Branch = "file", branch
		err = gitDir(sep, branch, false)
		if err == nil {
			err = write(filepath.Join(d, ".git"), "gitdir: ../"+filepath.Base(sep)+"\n")
		}
	case "bare":
		e.Branch = branch
		err = gitDir(d, branch, true)
		f.bare = true
	case "hg":
		e.Branch = "default"
		err = write(filepath.Join(d, ".hg", "requires"), "revlogv1\nstore\n")
		if i%2 == 0 {
			e.Branch = "stable"
			err = write(filepath.Join(d, ".hg", "branch"), "stable\n")
		}
	case "jj":
		err = os.MkdirAll(filepath.Join(d, ".jj", "repo", "store"), 0o755)
	case "svn":
		err = write(filepath.Join(d, ".svn", "wc.db"), "")
	case "project":
		err = write(filepath.Join(d, "package.json"), "{}\n")
	case "broken-file":
		e.Kind, e.DotGit = "broken", "file"
		err = write(filepath.Join(d, ".git"), "gitdir: ../gone/.git/worktrees/x\n")
	case "broken-line":
		e.Kind, e.DotGit = "broken", "file"
		err = write(filepath.Join(d, ".git"), "not a gitdir line\n")
	case "broken-link":
		e.Kind, e.DotGit = "broken", "dangling"
		err = os.Symlink("../nowhere/.git", filepath.Join(d, ".git"))
	case "symlink-dir":
		// A .git symlink to a git folder kept elsewhere: a repository that
		// fd, which does not follow symlinks, misses.
		store := d + ".store"
		e.Kind, e.DotGit, e.Branch = "git", "symlink-dir", branch
		err = gitDir(store, branch, false)
		if err == nil {
			err = os.Symlink("../"+filepath.Base(store), filepath.Join(d, ".git"))
		}
		g.m.Dirs += gitDirFolders // the store is walked: its config says it is not bare
	case "fifo":
		// A FIFO named .git is no repository (find lists it all the same).
		e.Kind, e.DotGit = "", "fifo"
		err = syscall.Mkfifo(filepath.Join(d, ".git"), 0o644)
	}
	if err != nil {
		return err
	}
	if e.Kind != "" && e.Kind != "project" {
		g.repoRels[f.rel] = true
	}
	g.taken[f.rel] = true
	if kind == "gitfile" {
		g.m.Dirs += gitDirFolders // the separate git folder is walked too
	}
	g.m.Entries = append(g.m.Entries, e)
	return nil
}

// addLoop adds a symlink loop (loop/back → ..) and a symlink to a folder:
// only a scan that follows symlinks meets them, and it must end.
func (g *gen) addLoop() error {
	d := g.abs("loop")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	g.m.Dirs++
	if err := os.Symlink("..", filepath.Join(d, "back")); err != nil {
		return err
	}
	return os.Symlink(".", filepath.Join(d, "self"))
}
