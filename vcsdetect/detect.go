package vcsdetect

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Names of the entries that mark a work tree, and are never entered.
const (
	gitName = ".git"
	hgName  = ".hg"
	jjName  = ".jj"
	svnName = ".svn"
)

// listing is what one folder's entries tell, gathered while they are read.
// subdirs holds the subfolders' paths.
type listing struct {
	dotGit            entryType // type of the .git entry; typeUnknown when absent
	hasGit            bool
	hg, jj, svn       bool     // .hg, .jj, .svn folders
	head, obj, refs   bool     // HEAD file, objects/ and refs/ folders: a bare repository
	beside            []string // file names that SkipBeside rules look for
	marker            string   // the smallest marker file name present
	subdirs, symlinks []string
}

// mayBeRepo reports whether the listing can make a repository or project
// of its folder (a superset: a .git FIFO answers yes).
func (l *listing) mayBeRepo(inRepo bool) bool {
	return l.hasGit || (l.head && l.obj && l.refs) || l.hg || l.jj || l.svn || (!inRepo && l.marker != "")
}

// testHookBeforeRead, when set by a test, runs before each folder is read,
// so that a test can change the disk at that exact moment.
var testHookBeforeRead func(path string)

// visit reads the folder of j, reports it if it is a repository and appends
// its subfolders to children. It returns the error that made the folder
// unreadable, if any. Its steps: read the entries into a listing (note),
// tell what the folder is (classify), report it (report), queue what is
// below it (queueChildren).
func (s *shared) visit(w *worker, j job, children *[]job, isRoot bool) error {
	if testHookBeforeRead != nil {
		testHookBeforeRead(j.path)
	}
	defer w.r.release()
	// Subfolders are kept by their whole path, the name a suffix of it:
	// one string each, not a name and then a path (nor a prefix string
	// per folder).
	sep := string(filepath.Separator)
	if strings.HasSuffix(j.path, sep) {
		sep = ""
	}
	l := listing{subdirs: w.subdirs[:0]}
	defer func() { w.subdirs = l.subdirs[:0] }()
	// The folder's identity is wanted when it turns out to be a
	// repository, to list a folder reached twice once.
	wantID := func() bool { return !s.opts.Follow && l.mayBeRepo(j.inRepo) }
	read, id, err := w.r.read(j.path, j.link, s.readCheck(isRoot), wantID, func(name []byte, typ entryType) {
		s.note(&l, j.path, sep, name, typ)
	})
	if err != nil {
		return err
	}
	if !read {
		s.skipped.Add(1) // another file system, or a folder already walked
		return nil
	}
	s.dirs.Add(1)

	repo, gitdir := s.classify(j, &l)
	if repo.Kind != "" && !s.report(w, j, repo, gitdir, id) {
		return nil
	}
	if repo.Kind == KindBare || (s.opts.MaxDepth > 0 && j.depth >= s.opts.MaxDepth) {
		return nil // a bare repository's folders are Git's own data
	}
	s.queueChildren(j, &l, repo.Kind, sep, children)
	return nil
}

// readCheck is the check of a folder's identity before it is read: with
// OneFileSystem, a folder below the root on another device is not read;
// with Follow, a folder already walked (by another link) is not read
// again. nil when neither applies.
func (s *shared) readCheck(isRoot bool) func(fileID) bool {
	if !s.opts.Follow && !s.opts.OneFileSystem {
		return nil
	}
	return func(id fileID) bool {
		if s.opts.OneFileSystem && !isRoot && id.dev != s.rootDev {
			return false
		}
		return !s.opts.Follow || s.markOnce(id)
	}
}

// note adds the entry name, of type typ, of the folder dir to l: a VCS
// marker, a bare repository's part, a marker or SkipBeside file, or a
// subfolder (its path dir+sep+name) or symbolic link to walk.
func (s *shared) note(l *listing, dir, sep string, name []byte, typ entryType) {
	if typ == typeUnknown {
		typ, _ = lstatType(dir + string(filepath.Separator) + string(name))
	}
	switch typ {
	case typeDir:
		if l.noteVCSDir(string(name)) {
			return
		}
		l.subdirs = append(l.subdirs, dir+sep+string(name))
	case typeFile:
		switch {
		case string(name) == "HEAD":
			l.head = true
		case string(name) == gitName:
			l.dotGit, l.hasGit = typ, true
		case s.besideFiles[string(name)]:
			l.beside = append(l.beside, string(name))
		}
		if s.markers[string(name)] && (l.marker == "" || string(name) < l.marker) {
			l.marker = string(name)
		}
	case typeSymlink:
		if string(name) == gitName {
			l.dotGit, l.hasGit = typ, true
		} else if s.opts.Follow {
			l.symlinks = append(l.symlinks, string(name))
		}
	case typeUnknown, typeOther:
		fallthrough
	default:
		if string(name) == gitName {
			l.dotGit, l.hasGit = typ, true
		}
	}
}

// noteVCSDir notes the subfolder name if it says what its folder is: a
// VCS's own folder (.git, .hg, .jj, .svn), which is never entered
// (true), or a bare repository's objects/ or refs/, which is (false).
func (l *listing) noteVCSDir(name string) bool {
	switch name {
	case gitName:
		l.dotGit, l.hasGit = typeDir, true
		return true
	case hgName:
		l.hg = true
		return true
	case jjName:
		l.jj = true
		return true
	case svnName:
		l.svn = true
		return true
	case "objects":
		l.obj = true
	case "refs":
		l.refs = true
	}
	return false
}

// classify tells what the folder of j is from its listing: the Repo to
// report (Kind "" when it is none) and, for a repository whose git folder
// is elsewhere (a worktree, a submodule, a bare repository), that folder.
// Git comes first, then a bare repository, Jujutsu, Mercurial, Subversion,
// and last a project marker outside any repository.
func (s *shared) classify(j job, l *listing) (Repo, string) {
	repo := Repo{Path: j.path, Name: filepath.Base(j.path), Depth: j.depth}
	var gitdir string
	if l.hasGit {
		repo.Kind, gitdir, repo.Reason = s.gitKind(j.path, l.dotGit)
	}
	switch {
	case repo.Kind != "":
	case l.head && l.obj && l.refs && !notBare(j.path):
		repo.Kind, gitdir = KindBare, j.path
	case l.jj:
		repo.Kind = KindJJ
	case l.hg:
		repo.Kind = KindHg
	case l.svn:
		repo.Kind = KindSvn
	case !j.inRepo && l.marker != "":
		repo.Kind, repo.Marker = KindProject, l.marker
	}
	return repo, gitdir
}

// report reads repo's branch and hands it to w, unless its folder (of
// identity id) was reported already: without Follow, a folder reached
// twice (bind mounts) is only recognised at repositories, where it
// matters, one stat each. It returns false for a folder already reported.
func (s *shared) report(w *worker, j job, repo Repo, gitdir string, id fileID) bool {
	if !s.opts.Follow && !s.markOnce(id) {
		s.skipped.Add(1)
		return false
	}
	if !s.opts.NoBranch {
		switch {
		case repo.Kind == KindGit:
			// PATH/.git, in the folder just read: relative to it.
			b, err := w.r.readIn(j.path, gitName+string(filepath.Separator)+"HEAD")
			if err == nil {
				repo.Branch = headBranch(b)
			}
		case gitdir != "":
			repo.Branch = readHeadBranch(gitdir)
		case repo.Kind == KindHg:
			repo.Branch = readHgBranch(j.path)
		}
	}
	w.add(repo)
	return true
}

// queueChildren appends to children the subfolders of j's folder (of kind
// kind, "" for none) that the walk enters: those no Skip or SkipBeside
// rule skips, and with Follow the symbolic links to folders that do not
// lead into a VCS's own data.
func (s *shared) queueChildren(j job, l *listing, kind Kind, sep string, children *[]job) {
	inRepo := j.inRepo || (kind != "" && kind != KindProject)
	nameAt := len(j.path) + len(sep)
	for _, path := range l.subdirs {
		name := path[nameAt:]
		if s.skip[name] || (!s.opts.All && s.skipBeside(name, l.beside)) {
			s.skipped.Add(1)
			continue
		}
		*children = append(*children, job{path: path, depth: j.depth + 1, inRepo: inRepo})
	}
	for _, name := range l.symlinks {
		if s.skip[name] {
			s.skipped.Add(1)
			continue
		}
		path := j.path + sep + name
		if _, typ, err := statID(path); err == nil && typ == typeDir && !linksIntoVCSData(path) {
			*children = append(*children, job{path: path, depth: j.depth + 1, inRepo: inRepo, link: true})
		}
	}
}

// linksIntoVCSData reports whether the symlink at path leads to a .git,
// .hg, .jj or .svn folder, which the walk never enters by any name.
func linksIntoVCSData(path string) bool {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return true
	}
	switch filepath.Base(real) {
	case gitName, hgName, jjName, svnName:
		return true
	}
	return false
}

// skipBeside reports whether a SkipBeside rule skips the folder name in a
// folder holding the files beside.
func (s *shared) skipBeside(name string, beside []string) bool {
	for _, f := range SkipBeside[name] {
		for _, b := range beside {
			if f == b {
				return true
			}
		}
	}
	return false
}

// gitKind tells what the .git entry of the folder at path, of type typ,
// makes of it, the git folder to read HEAD from, and for KindBroken the
// reason. A .git that is a FIFO, socket or device makes no repository.
// For KindGit the git folder is path/.git, returned as "": the walk
// reads its HEAD relative to the folder (and building the path for
// nothing cost an allocation per repository).
func (s *shared) gitKind(path string, typ entryType) (Kind, string, string) {
	if typ == typeDir {
		return KindGit, "", ""
	}
	dotGit := path + string(filepath.Separator) + gitName
	if typ == typeSymlink || typ == typeUnknown {
		// Git accepts a symlinked .git; look at what it points to.
		_, t, err := statID(dotGit)
		if err != nil {
			if typ == typeUnknown {
				return "", "", ""
			}
			target, _ := os.Readlink(dotGit)
			return KindBroken, "", ".git is a symlink to " + strconvQuote(target) + " that cannot be followed: " + errText(err)
		}
		typ = t
	}
	switch typ {
	case typeDir:
		return KindGit, "", ""
	case typeFile:
		gitdir, err := readGitFile(dotGit)
		if err != nil {
			s.log.Warn("vcsdetect: cannot read .git file", "path", dotGit, "err", err)
			return KindBroken, "", ".git file: " + errText(err)
		}
		kind := classifyGitDir(gitdir)
		abs := gitdir
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(path, abs)
		}
		if _, t, err := statID(abs); err != nil || t != typeDir {
			if err == nil {
				err = errors.New("not a folder")
			}
			return KindBroken, "", ".git file points to " + strconvQuote(gitdir) + ": " + errText(err)
		}
		return kind, abs, ""
	case typeUnknown, typeSymlink, typeOther:
		// no repository: a .git that is a FIFO, socket or device (or a
		// link to one)
	}
	return "", "", ""
}

// notBare reports whether the git folder at path says in its config that
// it is not bare: the folder of git init --separate-git-dir, whose work tree
// is elsewhere (and is found there by its .git file).
func notBare(path string) bool {
	b, err := readSmall(filepath.Join(path, "config"), 64<<10)
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(b)) {
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "bare") && strings.EqualFold(strings.TrimSpace(v), "false") {
			return true
		}
	}
	return false
}

// errText is the part of an error that does not repeat the path.
func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// strconvQuote quotes a path taken from the disk for a reason text.
func strconvQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// maxHeadSize bounds the read of HEAD: a ref line is short.
const maxHeadSize = 1024

// readHeadBranch returns the branch HEAD names in the git folder gitdir
// ("ref: refs/heads/X"), or "" when HEAD is detached or unreadable. It is
// one small file read, in place of opening the repository with go-git.
func readHeadBranch(gitdir string) string {
	b, err := readSmall(filepath.Join(gitdir, "HEAD"), maxHeadSize)
	if err != nil {
		return ""
	}
	return headBranch(b)
}

// headBranch is the branch a HEAD file's content names, or "" (detached).
// Only the name is copied out of b.
func headBranch(b []byte) string {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	line = bytes.TrimRight(line, "\r")
	ref, ok := bytes.CutPrefix(line, []byte("ref: refs/heads/"))
	if !ok {
		return ""
	}
	return string(bytes.TrimSpace(ref))
}

// readHgBranch returns a Mercurial working copy's named branch: .hg/branch,
// which Mercurial leaves out for "default".
func readHgBranch(path string) string {
	b, err := readSmall(filepath.Join(path, hgName, "branch"), maxHeadSize)
	if errors.Is(err, os.ErrNotExist) {
		return "default"
	}
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
