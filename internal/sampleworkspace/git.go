package sampleworkspace

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/memory"
	"github.com/rootpick/rootpick/vcsdetect"
)

// gitSpec describes one Git repository: its history on main, its other
// branches, what is checked out, its upstream and its uncommitted changes.
type gitSpec struct {
	rel  string // folder, relative to the workspace, with slashes
	lang lang   // what its files are
	// commits is the number of commits on main (1 or more); the last one is
	// last ago, the first one span before it.
	commits    int
	last, span time.Duration
	author     int // index in people of whoever commits most
	// files are added to the first commit, on top of lang's.
	files map[string]string

	remote   string // origin's URL; "" for none
	branches []branchSpec
	head     string // the branch checked out; "" is main
	detach   string // when set, a tag on main~1 that HEAD is detached at
	// ahead and behind place origin/<head>: ahead commits behind HEAD's
	// branch, with behind commits of its own on top. They need remote.
	ahead, behind int

	modify    []string          // tracked files changed, not committed
	untracked map[string]string // files written, not committed
	ignored   map[string]string // files written that .gitignore ignores

	worktrees  []worktreeSpec
	submodules []submoduleSpec
	bare       bool   // a bare repository (rel is its git folder)
	gitDir     string // when set, the git folder, apart from the work tree
}

// branchSpec is a branch made from main.
type branchSpec struct {
	name    string
	from    int // the commit of main it forks from, counted back from main's tip
	commits int
	last    time.Duration // how long ago its last commit was
}

// worktreeSpec is a linked worktree (git worktree add) of one of the
// repository's branches.
type worktreeSpec struct{ rel, branch string }

// submoduleSpec is a submodule at path in its superproject, with its own
// history; it is checked out detached at its tip, as git submodule update
// leaves it.
type submoduleSpec struct {
	path, url string
	repo      gitSpec
}

// person is an author of commits.
type person struct {
	name, email string
	zone        *time.Location
}

// people commit to the workspace, from their own time zones.
var people = []person{
	{"Ada Okafor", "ada@acme.example", time.FixedZone("", 1*3600)},
	{"Mateo Rossi", "mateo@acme.example", time.FixedZone("", 2*3600)},
	{"Priya Raman", "priya@acme.example", time.FixedZone("", 5*3600+1800)},
	{"Lena Fischer", "lena@acme.example", time.FixedZone("", 1*3600)},
	{"Sam Whitaker", "sam@acme.example", time.FixedZone("", -5*3600)},
	{"Yuki Tanaka", "yuki@acme.example", time.FixedZone("", 9*3600)},
}

// gitRepo writes the repository of s, its worktrees and submodules.
func (w *writer) gitRepo(s *gitSpec) error {
	dir := w.path(s.rel)
	var st *filesystem.Storage
	var kind vcsdetect.Kind
	gitdir := filepath.Join(dir, ".git")
	switch {
	case s.bare:
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		st, kind, gitdir = newStorage(dir), vcsdetect.KindBare, dir
		if err := initRepo(st, nil); err != nil {
			return err
		}
	case s.gitDir != "":
		// initRepo writes the .git file and core.worktree, as
		// git init --separate-git-dir does.
		gitdir = w.path(s.gitDir)
		for _, d := range []string{dir, gitdir} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		st, kind = newStorage(gitdir), vcsdetect.KindGitFile
		if err := initRepo(st, osfs.New(dir)); err != nil {
			return err
		}
	default:
		st, kind = newStorage(gitdir), vcsdetect.KindGit
		if err := initRepo(st, osfs.New(dir)); err != nil {
			return err
		}
	}
	h := newHistory(st, s, w.now)

	files := langFiles(s.lang, path.Base(s.rel))
	for k, v := range s.files {
		files[k] = v
	}
	// Submodules come in halfway through main's history.
	addAt := map[int]map[string]string{}
	var submodules []*config.Submodule
	for _, sm := range s.submodules {
		tip, err := w.submodule(s.rel, sm)
		if err != nil {
			return fmt.Errorf("submodule %s: %w", sm.path, err)
		}
		at := s.commits / 2
		if addAt[at] == nil {
			addAt[at] = map[string]string{}
		}
		addAt[at][".gitmodules"] += fmt.Sprintf("[submodule %q]\n\tpath = %s\n\turl = %s\n", sm.path, sm.path, sm.url)
		h.gitlinks = append(h.gitlinks, gitlink{at: at, path: sm.path, hash: tip})
		submodules = append(submodules, &config.Submodule{Name: sm.path, URL: sm.url})
	}
	if err := h.write(files, addAt); err != nil {
		return err
	}
	if err := h.pack(gitdir); err != nil {
		return err
	}
	if err := h.configure(submodules); err != nil {
		return err
	}
	if !s.bare {
		if err := checkout(dir, gitdir, h.snaps[h.tip]); err != nil {
			return err
		}
		if err := dirty(dir, s); err != nil {
			return err
		}
	}
	branch := cmp.Or(s.head, "main")
	if s.detach != "" {
		branch = ""
	}
	var secrets []string
	for name := range s.ignored {
		if isSecret(name) {
			secrets = append(secrets, name)
		}
	}
	w.add(Repo{Rel: s.rel, Kind: kind, Branch: branch,
		Dirty: len(s.modify) > 0 || len(s.untracked) > 0, Secrets: secrets})
	for _, wt := range s.worktrees {
		if err := w.worktree(gitdir, h, wt); err != nil {
			return fmt.Errorf("worktree %s: %w", wt.rel, err)
		}
	}
	return nil
}

// newStorage is go-git's storage in the git folder dir.
func newStorage(dir string) *filesystem.Storage {
	return filesystem.NewStorageWithOptions(osfs.New(dir), cache.NewObjectLRUDefault(), filesystem.Options{ExclusiveAccess: true})
}

// initRepo makes an empty repository in st whose HEAD is main, as go-git's
// InitWithOptions does (git's own init lays out the same): the folders
// (objects, refs), HEAD, and the config, bare when worktree is nil. When
// st is not worktree's .git folder, it writes the .git file that points
// there and core.worktree, as git init --separate-git-dir does. (go-git's
// top-level package would do it, but it links go-git's transports and
// OpenPGP into rootpick: see deps_test.go.)
func initRepo(st *filesystem.Storage, worktree billy.Filesystem) error {
	if _, err := st.Reference(plumbing.HEAD); err == nil {
		return errors.New("a repository already exists there")
	}
	if err := st.Init(); err != nil {
		return err
	}
	if err := st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName("main"))); err != nil {
		return err
	}
	cfg, err := st.Config()
	if err != nil {
		return err
	}
	if worktree == nil {
		cfg.Core.IsBare = true
		return st.SetConfig(cfg)
	}
	gitdir := st.Filesystem().Root()
	if rel, err := filepath.Rel(worktree.Root(), gitdir); err != nil || rel != ".git" {
		if err == nil {
			gitdir = rel
		}
		if err := os.WriteFile(filepath.Join(worktree.Root(), ".git"), []byte("gitdir: "+gitdir+"\n"), 0o666); err != nil {
			return err
		}
	}
	if rel, err := filepath.Rel(st.Filesystem().Root(), worktree.Root()); err != nil || rel != ".." {
		cfg.Core.Worktree = worktree.Root()
		if err == nil {
			cfg.Core.Worktree = rel
		}
	}
	return st.SetConfig(cfg)
}

// checkout writes the files of snap into the work tree at dir, and the
// index that says they are checked out into gitdir, as git checkout does.
// (go-git's hard reset does the same from the objects, several times
// slower, and removes what it does not track, such as a submodule's files.)
func checkout(dir, gitdir string, snap snapshot) error {
	idx := &index.Index{Version: 2}
	made := map[string]bool{}
	mkdir := func(d string) error {
		if made[d] {
			return nil
		}
		made[d] = true
		return os.MkdirAll(d, 0o755)
	}
	for name, content := range snap.files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := mkdir(filepath.Dir(p)); err != nil {
			return err
		}
		mode, perm := filemode.Regular, os.FileMode(0o644)
		if executable(name) {
			mode, perm = filemode.Executable, 0o755
		}
		if err := os.WriteFile(p, []byte(content), perm); err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		// The file's own times and identity, so that git status finds it
		// unchanged without reading it.
		e := &index.Entry{Name: name, Mode: mode, Hash: plumbing.ComputeHash(plumbing.BlobObject, []byte(content)),
			CreatedAt: fi.ModTime(), ModifiedAt: fi.ModTime(), Size: uint32(fi.Size())}
		fillStat(e, fi)
		idx.Entries = append(idx.Entries, e)
	}
	for name, hash := range snap.links {
		if err := mkdir(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			return err
		}
		idx.Entries = append(idx.Entries, &index.Entry{Name: name, Mode: filemode.Submodule, Hash: hash})
	}
	var b bytes.Buffer
	if err := index.NewEncoder(&b).Encode(idx); err != nil { // sorts the entries
		return err
	}
	return os.WriteFile(filepath.Join(gitdir, "index"), b.Bytes(), 0o644)
}

// executable says whether the file name is committed as executable.
func executable(name string) bool { return strings.HasSuffix(name, ".sh") }

// dirty makes the uncommitted changes of s in its work tree at dir.
func dirty(dir string, s *gitSpec) error {
	for _, name := range s.modify {
		p := filepath.Join(dir, filepath.FromSlash(name))
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return fmt.Errorf("modifying a tracked file: %w", err)
		}
		_, err = f.WriteString(commentLine(name, "work in progress, not committed yet"))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	if err := writeFiles(dir, s.untracked); err != nil {
		return err
	}
	return writeFiles(dir, s.ignored)
}

// submodule writes the submodule sm of the superproject at superRel, its
// git folder in the superproject's .git/modules/PATH as git submodule
// does, and returns the commit it is checked out at.
func (w *writer) submodule(superRel string, sm submoduleSpec) (plumbing.Hash, error) {
	s := sm.repo
	s.rel = superRel + "/" + sm.path
	s.remote = sm.url
	dir := w.path(s.rel)
	gitdir := filepath.Join(w.path(superRel), ".git", "modules", filepath.FromSlash(sm.path))
	for _, d := range []string{dir, gitdir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	// initRepo writes the .git file ("gitdir: ../../.git/modules/PATH") and
	// core.worktree, as git submodule add does.
	st := newStorage(gitdir)
	if err := initRepo(st, osfs.New(dir)); err != nil {
		return plumbing.ZeroHash, err
	}
	h := newHistory(st, &s, w.now)
	if err := h.write(langFiles(s.lang, path.Base(sm.path)), nil); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := h.pack(gitdir); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := h.configure(nil); err != nil {
		return plumbing.ZeroHash, err
	}
	// git submodule update checks out the recorded commit, detached.
	if err := st.SetReference(plumbing.NewHashReference(plumbing.HEAD, h.tip)); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := checkout(dir, gitdir, h.snaps[h.tip]); err != nil {
		return plumbing.ZeroHash, err
	}
	w.add(Repo{Rel: s.rel, Kind: vcsdetect.KindSubmodule})
	return h.tip, nil
}

// worktree writes a linked worktree of the repository whose git folder is
// mainGitDir and whose history is h, laid out as git worktree add does
// (go-git has no command for it): the worktree's own git folder in
// .git/worktrees/NAME with HEAD, commondir, gitdir and its index, and a
// .git file pointing there.
func (w *writer) worktree(mainGitDir string, h *history, wt worktreeSpec) error {
	dir := w.path(wt.rel)
	gitdir := filepath.Join(mainGitDir, "worktrees", path.Base(wt.rel))
	tip, ok := h.branches[wt.branch]
	if !ok {
		return fmt.Errorf("no branch %s", wt.branch)
	}
	if err := writeFiles(gitdir, map[string]string{
		"HEAD":      "ref: refs/heads/" + wt.branch + "\n",
		"commondir": "../..\n",
		"gitdir":    filepath.Join(dir, ".git") + "\n",
	}); err != nil {
		return err
	}
	if err := writeFiles(dir, map[string]string{".git": "gitdir: " + gitdir + "\n"}); err != nil {
		return err
	}
	if err := checkout(dir, gitdir, h.snaps[tip]); err != nil {
		return err
	}
	w.add(Repo{Rel: wt.rel, Kind: vcsdetect.KindWorktree, Branch: wt.branch})
	return nil
}

// history writes the commits and references of one repository.
type history struct {
	st   storage.Storer
	spec *gitSpec
	now  time.Time
	// mem and objects hold the objects made, until pack writes them.
	mem      *memory.Storage
	objects  map[plumbing.Hash]struct{}
	gitlinks []gitlink
	seed     int

	main []plumbing.Hash // main's commits, oldest first
	// tip is what HEAD holds; line is the history of HEAD's branch.
	tip  plumbing.Hash
	line []plumbing.Hash
	// when is the time of each commit written, snaps its files.
	when  map[plumbing.Hash]time.Time
	snaps map[plumbing.Hash]snapshot
	// branches are the tips of the branches.
	branches map[string]plumbing.Hash
}

// snapshot is what a commit holds: files (slash paths to contents) and
// submodules' commits.
type snapshot struct {
	files map[string]string
	links map[string]plumbing.Hash
}

func newHistory(st storage.Storer, s *gitSpec, now time.Time) *history {
	return &history{st: st, spec: s, now: now, mem: memory.NewStorage(), objects: map[plumbing.Hash]struct{}{},
		when: map[plumbing.Hash]time.Time{}, snaps: map[plumbing.Hash]snapshot{}, branches: map[string]plumbing.Hash{}}
}

// gitlink is a submodule's commit, recorded in the superproject from
// main's commit number at on.
type gitlink struct {
	at   int
	path string
	hash plumbing.Hash
}

// write writes main's history (files in the first commit, then one edit a
// commit, and the files of add at their commit), the branches, HEAD, the
// tag HEAD may be detached at and origin's branches.
func (h *history) write(files map[string]string, add map[int]map[string]string) error {
	s := h.spec
	f := fnv.New32a()
	f.Write([]byte(s.rel))
	h.seed = int(f.Sum32() % (1 << 20)) // picks subjects, files and minutes
	n := max(s.commits, 1)
	step := time.Duration(0)
	if n > 1 {
		step = s.span / time.Duration(n-1)
	}
	var links map[string]plumbing.Hash
	var parent plumbing.Hash
	for k := range n {
		// A few minutes off the round figures, so that no two
		// repositories share a time.
		at := h.now.Add(-s.last - time.Duration(n-1-k)*step - time.Duration((h.seed+k*17)%50)*time.Minute)
		msg := "Initial commit"
		if k > 0 {
			msg = h.subject(k)
		}
		for name, content := range add[k] {
			files[name] = content
		}
		added := false
		for _, g := range h.gitlinks {
			if g.at == k {
				if links == nil {
					links = map[string]plumbing.Hash{}
				}
				links[g.path] = g.hash
				msg, added = "Add "+path.Base(g.path)+" as a submodule", true
			}
		}
		if k > 0 && !added {
			h.edit(files, k, msg)
		}
		c, err := h.commit(files, links, parent, h.author(k, msg), at, msg)
		if err != nil {
			return err
		}
		h.main = append(h.main, c)
		parent = c
	}
	if err := h.st.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("main"), parent)); err != nil {
		return err
	}
	h.branches["main"] = parent
	h.tip, h.line = parent, h.main
	if s.head != "" && !slices.ContainsFunc(s.branches, func(b branchSpec) bool { return b.name == s.head }) {
		return fmt.Errorf("HEAD's branch %s is not one of the branches", s.head)
	}
	for i, b := range s.branches {
		from := len(h.main) - 1 - b.from
		if from < 0 {
			return fmt.Errorf("branch %s forks before the first commit", b.name)
		}
		line := slices.Clone(h.main[:from+1])
		bfiles := maps.Clone(files) // the files as of main's tip: a close enough snapshot
		start := h.when[line[from]]
		end := h.now.Add(-b.last - time.Duration(h.seed%43)*time.Minute)
		if !end.After(start) {
			return fmt.Errorf("branch %s ends before it starts", b.name)
		}
		for k := range b.commits {
			at := start.Add(time.Duration(k+1) * end.Sub(start) / time.Duration(b.commits))
			msg := h.subject(n + i*7 + k)
			h.edit(bfiles, n+i*7+k, msg)
			c, err := h.commit(bfiles, links, line[len(line)-1], h.author(k+1, msg), at, msg)
			if err != nil {
				return err
			}
			line = append(line, c)
		}
		if err := h.st.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(b.name), line[len(line)-1])); err != nil {
			return err
		}
		h.branches[b.name] = line[len(line)-1]
		if b.name == s.head {
			h.tip, h.line = line[len(line)-1], line
		}
	}
	head := plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(cmp.Or(s.head, "main")))
	if s.detach != "" {
		if len(h.main) < 2 {
			return errors.New("a detached HEAD needs two commits")
		}
		h.tip = h.main[len(h.main)-2]
		if err := h.st.SetReference(plumbing.NewHashReference(plumbing.NewTagReferenceName(s.detach), h.tip)); err != nil {
			return err
		}
		head = plumbing.NewHashReference(plumbing.HEAD, h.tip)
	}
	if err := h.st.SetReference(head); err != nil {
		return err
	}
	return h.upstream(files, links)
}

// upstream writes origin's branches: main and HEAD's branch, the latter
// ahead commits behind and behind commits ahead.
func (h *history) upstream(files map[string]string, links map[string]plumbing.Hash) error {
	s := h.spec
	if s.remote == "" || s.bare {
		return nil
	}
	set := func(branch string, c plumbing.Hash) error {
		return h.st.SetReference(plumbing.NewHashReference(plumbing.NewRemoteReferenceName("origin", branch), c))
	}
	if err := set("main", h.main[len(h.main)-1]); err != nil {
		return err
	}
	if s.detach != "" {
		return nil
	}
	if s.ahead >= len(h.line) {
		return errors.New("ahead goes before the first commit")
	}
	up := h.line[len(h.line)-1-s.ahead]
	upFiles := maps.Clone(files)
	for k := range s.behind {
		// Pushed by colleagues since the last fetch.
		at := h.when[h.tip].Add(time.Duration(k+1) * s.last / time.Duration(s.behind+1))
		msg := h.subject(100 + k)
		h.edit(upFiles, 100+k, msg)
		c, err := h.commit(upFiles, links, up, h.author(k*4+3, msg), at, msg)
		if err != nil {
			return err
		}
		up = c
	}
	return set(cmp.Or(s.head, "main"), up)
}

// configure writes the repository's config: origin, the upstream of
// HEAD's branch, and the submodules.
func (h *history) configure(submodules []*config.Submodule) error {
	s := h.spec
	cfg, err := h.st.Config()
	if err != nil {
		return err
	}
	if s.remote != "" {
		rc := &config.RemoteConfig{Name: "origin", URLs: []string{s.remote},
			Fetch: []config.RefSpec{"+refs/heads/*:refs/remotes/origin/*"}}
		if s.bare {
			rc.Mirror, rc.Fetch = true, []config.RefSpec{"+refs/*:refs/*"}
		}
		cfg.Remotes["origin"] = rc
		if !s.bare && s.detach == "" {
			b := cmp.Or(s.head, "main")
			cfg.Branches[b] = &config.Branch{Name: b, Remote: "origin", Merge: plumbing.NewBranchReferenceName(b)}
		}
	}
	for _, sm := range submodules {
		cfg.Submodules[sm.Name] = sm
	}
	return h.st.SetConfig(cfg)
}

// subject is the message of the k-th commit.
func (h *history) subject(k int) string {
	pool := subjects[h.spec.lang]
	return pool[(h.seed+k)%len(pool)]
}

// author is who made the k-th commit: mostly the repository's main author.
func (h *history) author(k int, msg string) person {
	if strings.HasPrefix(msg, "Bump ") {
		return person{"dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com", time.UTC}
	}
	a := h.spec.author
	if k%4 == 3 {
		a += 1 + k/4
	}
	return people[a%len(people)]
}

// edit changes one source file of files for the k-th commit, whose
// message is msg.
func (h *history) edit(files map[string]string, k int, msg string) {
	var names []string
	for name := range files {
		if name != ".gitignore" && name != ".gitmodules" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	// Scrambled, not in step with subject's choice: a file does not get
	// the same message each time.
	name := names[(uint32(h.seed)+uint32(k)*2654435761)>>8%uint32(len(names))]
	files[name] += commentLine(name, msg)
}

// commit writes the tree of files (and gitlinks) and a commit of it.
func (h *history) commit(files map[string]string, links map[string]plumbing.Hash, parent plumbing.Hash, who person, at time.Time, msg string) (plumbing.Hash, error) {
	tree, err := h.tree(files, links, "")
	if err != nil {
		return plumbing.ZeroHash, err
	}
	// A commit object as git (and go-git's object.Commit) writes it.
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", tree)
	if !parent.IsZero() {
		fmt.Fprintf(&b, "parent %s\n", parent)
	}
	when := at.In(who.zone)
	sig := fmt.Sprintf("%s <%s> %d %s", who.name, who.email, max(when.Unix(), 0), when.Format("-0700"))
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n%s\n", sig, sig, msg)
	hash, err := h.put(plumbing.CommitObject, b.Bytes())
	h.when[hash] = at
	h.snaps[hash] = snapshot{maps.Clone(files), maps.Clone(links)}
	return hash, err
}

// tree writes the tree of the files and gitlinks below prefix ("" or a
// folder ending in "/") and returns its hash.
func (h *history) tree(files map[string]string, links map[string]plumbing.Hash, prefix string) (plumbing.Hash, error) {
	var entries []treeEntry
	dirs := map[string]bool{}
	for name, content := range files {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		if dir, _, ok := strings.Cut(rest, "/"); ok {
			dirs[dir] = true
			continue
		}
		hash, err := h.blob(content)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		mode := filemode.Regular
		if executable(rest) {
			mode = filemode.Executable
		}
		entries = append(entries, treeEntry{rest, mode, hash})
	}
	for name, hash := range links {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			if dir, _, ok := strings.Cut(rest, "/"); ok {
				dirs[dir] = true
			} else {
				entries = append(entries, treeEntry{rest, filemode.Submodule, hash})
			}
		}
	}
	for dir := range dirs {
		hash, err := h.tree(files, links, prefix+dir+"/")
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = append(entries, treeEntry{dir, filemode.Dir, hash})
	}
	// Git orders a tree's entries by name, a folder's name as if it ended
	// in a slash.
	key := func(e treeEntry) string {
		if e.mode == filemode.Dir {
			return e.name + "/"
		}
		return e.name
	}
	slices.SortFunc(entries, func(a, b treeEntry) int { return strings.Compare(key(a), key(b)) })
	var b bytes.Buffer
	for _, e := range entries {
		fmt.Fprintf(&b, "%o %s\x00", uint32(e.mode), e.name)
		b.Write(e.hash[:])
	}
	return h.put(plumbing.TreeObject, b.Bytes())
}

// treeEntry is an entry of a tree object.
type treeEntry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

// blob writes content as a blob.
func (h *history) blob(content string) (plumbing.Hash, error) {
	return h.put(plumbing.BlobObject, []byte(content))
}

// put writes an object of type t.
func (h *history) put(t plumbing.ObjectType, content []byte) (plumbing.Hash, error) {
	o := h.mem.NewEncodedObject()
	o.SetType(t)
	wr, err := o.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := wr.Write(content); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := wr.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return h.store(o)
}

// store keeps o, for pack to write.
func (h *history) store(o plumbing.EncodedObject) (plumbing.Hash, error) {
	hash := o.Hash()
	if _, ok := h.objects[hash]; ok {
		return hash, nil
	}
	if _, err := h.mem.SetEncodedObject(o); err != nil {
		return plumbing.ZeroHash, err
	}
	h.objects[hash] = struct{}{}
	return hash, nil
}

// pack writes the objects made so far into the git folder gitdir as one
// packfile and its index, not delta-compressed. It is what makes Create
// fast: as loose objects, a file each, the same objects took most of the
// time (a temporary file, a rename and often a folder each), and go-git's
// own pack writer writes the index four bytes at a time.
func (h *history) pack(gitdir string) error {
	hashes := make([]plumbing.Hash, 0, len(h.objects))
	for hash := range h.objects {
		hashes = append(hashes, hash)
	}
	// In a fixed order, so that the same objects make the same pack.
	slices.SortFunc(hashes, func(a, b plumbing.Hash) int { return bytes.Compare(a[:], b[:]) })
	var pack bytes.Buffer
	sum, err := packfile.NewEncoder(&pack, h.mem, false).Encode(hashes, 0)
	if err != nil {
		return err
	}
	iw := new(idxfile.Writer)
	parser, err := packfile.NewParser(packfile.NewScanner(bytes.NewReader(pack.Bytes())), iw)
	if err != nil {
		return err
	}
	if _, err := parser.Parse(); err != nil {
		return err
	}
	idx, err := iw.Index()
	if err != nil {
		return err
	}
	var ib bytes.Buffer
	if _, err := idxfile.NewEncoder(&ib).Encode(idx); err != nil {
		return err
	}
	base := filepath.Join(gitdir, "objects", "pack", "pack-"+sum.String())
	if err := os.WriteFile(base+".pack", pack.Bytes(), 0o444); err != nil {
		return err
	}
	return os.WriteFile(base+".idx", ib.Bytes(), 0o444)
}
