package vcsdetect

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
	"github.com/go-git/go-git/v5/utils/merkletrie"
	fsnoder "github.com/go-git/go-git/v5/utils/merkletrie/filesystem"
	mindex "github.com/go-git/go-git/v5/utils/merkletrie/index"
	"github.com/go-git/go-git/v5/utils/merkletrie/noder"
)

// This file reads a repository with go-git's storage layer alone: HEAD, a
// reference, the config, commits and the work tree's state. go-git's
// top-level package (git.Open, Worktree.Status) links its transports
// (ssh, http, with golang.org/x/crypto), and plumbing/object links
// OpenPGP (ProtonMail/go-crypto, cloudflare/circl) to verify commit
// signatures; the describer needs neither, and they were 87 of the 447
// packages a cold build of rootpick compiled ("Build cost" in
// docs/performance.md; deps_test.go keeps them out). What is here does
// what those packages did for the describer, step by step, and the tests
// check it against go-git's own answers (and FuzzParseCommit and
// FuzzReadTree against go-git's decoders).
//
// When to delete it: when go-git's plumbing/object no longer links
// OpenPGP (its pull request to move signature verification out of the
// core is open as of December 2026) and a build with plumbing/object
// compiles no more packages than this one (deps_test.go, and go list
// -deps . | wc -l against docs/performance.md's Build cost), read commits
// and trees with plumbing/object again.

// gitRepo is a git repository opened for reading.
type gitRepo struct {
	st *filesystem.Storage
	wt billy.Filesystem // the work tree; nil for a bare repository
}

// errNoRepository is openRepo's answer for a git folder without HEAD.
var errNoRepository = errors.New("repository does not exist")

// openRepo opens r with go-git's storage from its git folder, so that
// symlinked .git folders (which go-git's own opening refuses as "chroot
// boundary crossed"), .git files and worktrees (HEAD in gitdir, branches in
// the common folder) work alike. It refuses what git.Open refuses: no HEAD,
// an unreadable config, a repository format or extension go-git does not
// know.
func openRepo(r Repo, gitdir string) (*gitRepo, error) {
	var common billy.Filesystem
	if c := commonDir(gitdir); c != gitdir {
		common = osfs.New(c)
	}
	st := filesystem.NewStorage(dotgit.NewRepositoryFilesystem(osfs.New(gitdir), common), cache.NewObjectLRUDefault())
	if err := checkOpenable(st); err != nil {
		return nil, err
	}
	g := &gitRepo{st: st}
	if r.Kind != KindBare {
		g.wt = osfs.New(r.Path)
	}
	return g, nil
}

// checkOpenable does git.Open's checks of a storage: HEAD exists (any other
// error reading it is not one, as in git.Open), the config reads, and its
// format version and extensions are ones go-git supports.
func checkOpenable(st storage.Storer) error {
	if _, err := st.Reference(plumbing.HEAD); errors.Is(err, plumbing.ErrReferenceNotFound) {
		return errNoRepository
	}
	cfg, err := st.Config()
	if err != nil {
		return err
	}
	return checkExtensions(cfg)
}

// checkExtensions refuses a repository that go-git v5 refuses to open
// (its verifyExtensions): a core.repositoryformatversion other than 0 or 1,
// or any extension but noop (and noop-v1 in a version 1 repository).
func checkExtensions(cfg *config.Config) error {
	version := string(cfg.Core.RepositoryFormatVersion)
	switch version {
	case "", "0", "1":
	default:
		return fmt.Errorf("core.repositoryformatversion not supported: %q", version)
	}
	if cfg.Raw == nil || !cfg.Raw.HasSection("extensions") {
		return nil
	}
	for _, opt := range cfg.Raw.Section("extensions").Options {
		switch name := strings.ToLower(opt.Key); {
		case name == "noop", name == "noop-v1" && version == "1":
		default:
			return fmt.Errorf("unsupported extension: %s", name)
		}
	}
	return nil
}

// head is HEAD, resolved to a commit hash.
func (g *gitRepo) head() (*plumbing.Reference, error) {
	return storer.ResolveReference(g.st, plumbing.HEAD)
}

// commit is what the describer reads of a commit.
type commit struct {
	hash      plumbing.Hash
	tree      plumbing.Hash
	parents   []plumbing.Hash
	committer time.Time // with the committer's own zone
	message   string
}

// readCommit reads and decodes the commit h.
func readCommit(s storer.EncodedObjectStorer, h plumbing.Hash) (*commit, error) {
	b, err := readObject(s, plumbing.CommitObject, h)
	if err != nil {
		return nil, err
	}
	c, err := parseCommit(b)
	if err != nil {
		return nil, err
	}
	c.hash = h
	return c, nil
}

// readObject reads the object h, which must be of type t.
func readObject(s storer.EncodedObjectStorer, t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	o, err := s.EncodedObject(t, h)
	if err != nil {
		return nil, err
	}
	if o.Type() != t {
		return nil, fmt.Errorf("object %s is a %s, not a %s", h, o.Type(), t)
	}
	rd, err := o.Reader()
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(rd)
	if cerr := rd.Close(); err == nil {
		err = cerr
	}
	return b, err
}

var errMalformedCommit = errors.New("malformed commit")

// parseCommit decodes a commit object's body as go-git's Commit.Decode
// does (which follows git's parse_commit_buffer): "tree" first, then the
// contiguous "parent" lines, "author" in its place after them and
// "committer" in its place after that (a header out of its place is
// ignored), other headers (with their continuation lines) up to the first
// empty line, and the message after it.
func parseCommit(b []byte) (*commit, error) {
	lines, message := commitHeaders(b)
	if len(lines) == 0 {
		return nil, fmt.Errorf("%w: missing tree header", errMalformedCommit)
	}
	key, value := header(lines[0])
	if key != "tree" || !plumbing.IsHash(value) {
		return nil, fmt.Errorf("%w: tree header must be first", errMalformedCommit)
	}
	c := &commit{tree: plumbing.NewHash(value), message: message}
	i := 1
	for ; i < len(lines); i++ {
		key, value := header(lines[i])
		if key != "parent" {
			break
		}
		if !plumbing.IsHash(value) {
			return nil, fmt.Errorf("%w: bad parent hash", errMalformedCommit)
		}
		c.parents = append(c.parents, plumbing.NewHash(value))
	}
	if i < len(lines) {
		if key, _ := header(lines[i]); key == "author" {
			i++
		}
	}
	if i < len(lines) {
		if key, value := header(lines[i]); key == "committer" {
			c.committer = signatureTime([]byte(value))
		}
	}
	return c, nil
}

// commitHeaders splits a commit object's body into its header lines
// (continuation lines included, newlines removed) and the message after
// the first empty line ("" when there is none).
func commitHeaders(b []byte) (lines []string, message string) {
	for len(b) > 0 {
		line, rest, found := bytes.Cut(b, []byte{'\n'})
		if found && len(line) == 0 {
			return lines, string(rest)
		}
		lines = append(lines, string(line))
		b = rest
	}
	return lines, ""
}

// header splits a header line into its key and value.
func header(line string) (key, value string) {
	key, value, _ = strings.Cut(line, " ")
	return key, value
}

// signatureTime reads the time of a signature ("Name <email> 1700000000
// +0100") as go-git's Signature.Decode does: zero when there is none, in
// UTC when the zone cannot be read.
func signatureTime(b []byte) time.Time {
	open, end := bytes.LastIndexByte(b, '<'), bytes.LastIndexByte(b, '>')
	if open == -1 || end == -1 || end < open || end+2 >= len(b) {
		return time.Time{}
	}
	b = b[end+2:]
	space := bytes.IndexByte(b, ' ')
	if space == -1 {
		space = len(b)
	}
	ts, err := strconv.ParseInt(string(b[:space]), 10, 64)
	if err != nil {
		return time.Time{}
	}
	when := time.Unix(ts, 0).In(time.UTC)
	const zoneLen = 5 // +0100
	if space+1 >= len(b) || space+1+zoneLen > len(b) {
		return when
	}
	zone := string(b[space+1 : space+1+zoneLen])
	hours, err1 := strconv.ParseInt(zone[0:3], 10, 64)
	mins, err2 := strconv.ParseInt(zone[3:], 10, 64)
	if err1 != nil || err2 != nil {
		return when
	}
	if hours < 0 {
		mins = -mins
	}
	return when.In(time.FixedZone("", int(hours*3600+mins*60)))
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

var errMalformedTree = errors.New("malformed tree")

// readTree reads and decodes the tree h, as go-git's Tree.Decode does.
func readTree(s storer.EncodedObjectStorer, h plumbing.Hash) ([]treeEntry, error) {
	b, err := readObject(s, plumbing.TreeObject, h)
	if err != nil {
		return nil, err
	}
	var entries []treeEntry
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp < 0 {
			return nil, fmt.Errorf("%w: missing mode terminator", errMalformedTree)
		}
		mode, err := filemode.New(string(b[:sp]))
		if err != nil {
			return nil, fmt.Errorf("%w: malformed mode", errMalformedTree)
		}
		b = b[sp+1:]
		nul := bytes.IndexByte(b, 0)
		switch {
		case nul < 0:
			return nil, fmt.Errorf("%w: missing filename terminator", errMalformedTree)
		case nul == 0:
			return nil, fmt.Errorf("%w: empty filename", errMalformedTree)
		case len(b) < nul+1+len(plumbing.ZeroHash):
			return nil, fmt.Errorf("%w: truncated object id", errMalformedTree)
		}
		e := treeEntry{name: string(b[:nul]), mode: canonicalTreeMode(mode)}
		b = b[nul+1:]
		b = b[copy(e.hash[:], b):]
		entries = append(entries, e)
	}
	return entries, nil
}

// canonicalTreeMode is the mode git reads a tree entry's mode as.
func canonicalTreeMode(mode filemode.FileMode) filemode.FileMode {
	switch uint32(mode) & 0o170000 {
	case 0o040000:
		return filemode.Dir
	case 0o100000:
		if mode&0o111 != 0 {
			return filemode.Executable
		}
		return filemode.Regular
	case 0o120000:
		return filemode.Symlink
	default:
		return filemode.Submodule
	}
}

// treeNode is a tree object as a merkletrie noder (go-git's treenoder):
// its hash is the object's hash followed by its mode, so that a change of
// mode is a change.
type treeNode struct {
	s        storer.EncodedObjectStorer
	name     string
	mode     filemode.FileMode
	hash     plumbing.Hash
	entries  []treeEntry // a folder's entries, when read ahead
	read     bool        // entries were read
	children []noder.Noder
}

var _ noder.Noder = (*treeNode)(nil)

func (t *treeNode) Hash() []byte {
	mode := t.mode
	if mode == filemode.Deprecated {
		mode = filemode.Regular
	}
	return append(t.hash[:len(t.hash):len(t.hash)], mode.Bytes()...)
}

func (t *treeNode) Name() string   { return t.name }
func (t *treeNode) IsDir() bool    { return t.mode == filemode.Dir }
func (t *treeNode) Skip() bool     { return false }
func (t *treeNode) String() string { return "treeNode <" + t.name + ">" }

func (t *treeNode) NumChildren() (int, error) {
	c, err := t.Children()
	return len(c), err
}

// Children lists a folder's entries. As go-git's tree walker, it reads
// each sub-folder's tree while listing and stops at the first it cannot
// read.
func (t *treeNode) Children() ([]noder.Noder, error) {
	if !t.IsDir() {
		return noder.NoChildren, nil
	}
	if t.children != nil {
		return t.children, nil
	}
	if !t.read {
		var err error
		if t.entries, err = readTree(t.s, t.hash); err != nil {
			return nil, err
		}
	}
	children := make([]noder.Noder, 0, len(t.entries))
	for _, e := range t.entries {
		child := &treeNode{s: t.s, name: e.name, mode: e.mode, hash: e.hash}
		if e.mode == filemode.Dir {
			entries, err := readTree(t.s, e.hash)
			if err != nil {
				break
			}
			child.entries, child.read = entries, true
		}
		children = append(children, child)
	}
	t.children = children
	return children, nil
}

// clean says whether the work tree is clean as go-git's Worktree.Status
// says it (Status.IsClean): HEAD's tree and the index agree, the index and
// the work tree agree (submodules compared by their checked-out commit),
// and no file is untracked but those .gitignore and .git/info/exclude
// ignore. It reads and writes nothing else (go-git initialises the storage
// of a submodule that is in the config but has none).
func (g *gitRepo) clean() (bool, error) {
	var from noder.Noder
	head, err := g.head()
	if err != nil && !errors.Is(err, plumbing.ErrReferenceNotFound) {
		return false, err
	}
	if err == nil && !head.Hash().IsZero() {
		c, err := readCommit(g.st, head.Hash())
		if err != nil {
			return false, err
		}
		entries, err := readTree(g.st, c.tree)
		if err != nil {
			return false, err
		}
		from = &treeNode{s: g.st, mode: filemode.Dir, hash: c.tree, entries: entries, read: true}
	}
	idx, err := g.st.Index()
	if err != nil {
		return false, err
	}
	staged, err := merkletrie.DiffTree(from, mindex.NewRootNode(idx), sameHash)
	if err != nil {
		return false, err
	}
	submodules, err := g.submodules(idx)
	if err != nil {
		return false, err
	}
	to := fsnoder.NewRootNodeWithOptions(g.wt, submodules, fsnoder.Options{Index: idx})
	changed, err := merkletrie.DiffTree(mindex.NewRootNode(idx), to, sameHash)
	if err != nil {
		return false, err
	}
	return len(staged) == 0 && len(notIgnored(g.wt, changed)) == 0, nil
}

var emptyNoderHash = make([]byte, 24)

// sameHash compares two noders' hashes; a zero hash (a folder some noders
// do not hash) is never the same (go-git's diffTreeIsEquals).
func sameHash(a, b noder.Hasher) bool {
	ha, hb := a.Hash(), b.Hash()
	if bytes.Equal(ha, emptyNoderHash) || bytes.Equal(hb, emptyNoderHash) {
		return false
	}
	return bytes.Equal(ha, hb)
}

// notIgnored drops from changes the files that are new in the work tree
// and ignored by .git/info/exclude or a .gitignore (go-git's
// excludeIgnoredChanges).
func notIgnored(wt billy.Filesystem, changes merkletrie.Changes) merkletrie.Changes {
	patterns, err := gitignore.ReadPatterns(wt, nil)
	if err != nil || len(patterns) == 0 {
		return changes
	}
	m := gitignore.NewMatcher(patterns)
	var out merkletrie.Changes
	for _, ch := range changes {
		var path []string
		for _, n := range ch.To {
			path = append(path, n.Name())
		}
		if len(path) == 0 {
			for _, n := range ch.From {
				path = append(path, n.Name())
			}
		}
		if len(path) != 0 {
			isDir := (len(ch.To) > 0 && ch.To.IsDir()) || (len(ch.From) > 0 && ch.From.IsDir())
			if m.Match(path, isDir) && len(ch.From) == 0 {
				continue
			}
		}
		out = append(out, ch)
	}
	return out
}

var errGitModulesSymlink = errors.New(".gitmodules is a symlink")

// submodules maps each submodule's path to the commit the work tree is
// compared with (go-git's getSubmodulesStatus): the one checked out in the
// submodule, or, when it has none (not initialised, no storage, no HEAD),
// the one the index records.
func (g *gitRepo) submodules(idx *index.Index) (map[string]plumbing.Hash, error) {
	out := map[string]plumbing.Hash{}
	if fi, err := g.wt.Lstat(".gitmodules"); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, errGitModulesSymlink
	}
	f, err := g.wt.Open(".gitmodules")
	if os.IsNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	modules := config.NewModules()
	if err := modules.Unmarshal(b); err != nil {
		return nil, err
	}
	cfg, err := g.st.Config()
	if err != nil {
		return nil, err
	}
	for _, m := range modules.Submodules {
		var expected, current plumbing.Hash
		e, err := idx.Entry(m.Path)
		if err != nil && !errors.Is(err, index.ErrEntryNotFound) {
			return nil, err
		}
		if e != nil {
			expected = e.Hash
		}
		if c, ok := cfg.Submodules[m.Name]; ok && c != nil {
			if current, err = g.submoduleHead(c.Name); err != nil {
				return nil, err
			}
		}
		out[m.Path] = current
		if current.IsZero() {
			out[m.Path] = expected
		}
	}
	return out, nil
}

// submoduleHead is the commit checked out in the submodule whose storage
// is .git/modules/NAME; zero when it has no HEAD yet.
func (g *gitRepo) submoduleHead(name string) (plumbing.Hash, error) {
	st, err := g.st.Module(name)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := st.Reference(plumbing.HEAD); errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, nil
	} else if err != nil {
		return plumbing.ZeroHash, err
	}
	if err := checkOpenable(st); err != nil {
		return plumbing.ZeroHash, err
	}
	ref, err := storer.ResolveReference(st, plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return ref.Hash(), nil
}
