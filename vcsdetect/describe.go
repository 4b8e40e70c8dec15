package vcsdetect

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/rootpick/rootpick/internal/panics"
)

// The states Details.State takes.
const (
	StateClean   = "clean"
	StateDirty   = "dirty"
	StateUnknown = "unknown" // git failed or took longer than the budget
)

// Details are the facts people choose a repository by. They cost more than
// finding the repository (a few file reads and, for the dirty state, a walk
// of the work tree), so they are read lazily by a Describer, off the walk.
type Details struct {
	// Head is the checked-out branch, or the abbreviated commit hash when
	// HEAD is detached.
	Head string `json:"head,omitempty"`
	// Detached says that HEAD names a commit, not a branch.
	Detached bool `json:"detached,omitempty"`
	// Upstream is the branch's upstream ("origin/main").
	Upstream string `json:"upstream,omitempty"`
	// Ahead and Behind count the commits on the branch and not on its
	// upstream, and the other way round (git status; with go-git when git
	// is not installed, within the budget and a cap on the commits read).
	// Counted says they were counted: a branch in step with its upstream
	// is Counted with both 0. Counted is false, and both are 0 and mean
	// nothing, when there is no upstream, the upstream branch is gone, or
	// counting failed or ran out of budget or commits.
	//
	// They are not in Details' own JSON: list --json writes "ahead" and
	// "behind" (0 included) exactly when Counted, and leaves both out
	// otherwise, so that a missing count cannot read as in step.
	Ahead   int  `json:"-"`
	Behind  int  `json:"-"`
	Counted bool `json:"-"`
	// Remote is the URL of the remote named origin, with any credentials
	// removed.
	Remote string `json:"remote,omitempty"`
	// LastCommit is the committer time of HEAD, Subject its first line.
	LastCommit time.Time `json:"last_commit,omitzero"`
	Subject    string    `json:"subject,omitempty"`
	// State is StateClean, StateDirty or StateUnknown for a work tree, ""
	// when it does not apply (a bare repository, a project) or was not
	// asked for.
	State string `json:"state,omitempty"`
}

// DescribeOptions tune a Describer. The zero value is ready to use.
type DescribeOptions struct {
	// Git is the git program; "" looks for git on PATH, and "-" never runs
	// git (go-git reads the repository instead, with the same budget).
	Git string
	// Budget bounds the time spent on one repository's commit and state;
	// what is not known by then is left out or StateUnknown. 0 means 2 s.
	Budget time.Duration
	// NoState skips the dirty/clean state, the slow part (git status walks
	// the work tree).
	NoState bool
	// Logger receives why a fact could not be read, at Debug. Nil discards.
	Logger *slog.Logger
}

// Describer reads Details and keeps them for the run: describing the same
// path again costs a map lookup. It is safe for concurrent use, so a caller
// can run several Describe calls at once (visible rows first).
type Describer struct {
	opts  DescribeOptions
	git   string // "" when go-git is used
	log   *slog.Logger
	mu    sync.Mutex
	cache map[string]Details
}

// NewDescriber returns a Describer with an empty cache.
func NewDescriber(opts DescribeOptions) *Describer {
	d := &Describer{opts: opts, log: opts.Logger, cache: map[string]Details{}}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if d.opts.Budget <= 0 {
		d.opts.Budget = 2 * time.Second
	}
	switch opts.Git {
	case "-":
	case "":
		if p, err := exec.LookPath("git"); err == nil {
			d.git = p
		}
	default:
		d.git = opts.Git
	}
	return d
}

// Describe returns the details of r, from the cache when it has them.
// It never blocks for longer than the budget (plus a file read or two).
func (d *Describer) Describe(ctx context.Context, r Repo) Details {
	d.mu.Lock()
	det, ok := d.cache[r.Path]
	d.mu.Unlock()
	if ok {
		return det
	}
	det = d.describe(ctx, r)
	if ctx.Err() == nil { // a cancelled read is not worth keeping
		d.mu.Lock()
		d.cache[r.Path] = det
		d.mu.Unlock()
	}
	return det
}

// DescribeAll describes repos on a Pool of workers goroutines (0: 4) and
// returns the details in the same order. When ctx ends it returns at once,
// the details not read by then left zero.
func (d *Describer) DescribeAll(ctx context.Context, repos []Repo, workers int) []Details {
	if workers <= 0 {
		workers = 4
	}
	out := make([]Details, len(repos))
	at := make(map[string][]int, len(repos)) // the pool describes a path once
	for i, r := range repos {
		at[r.Path] = append(at[r.Path], i)
	}
	p := NewPool(workers, d.Describe)
	defer p.Close()
	defer context.AfterFunc(ctx, p.Close)()
	p.Want(repos)
	for left := len(at); left > 0; {
		rs, ok := p.Wait()
		if !ok {
			break
		}
		for _, res := range rs {
			for _, i := range at[res.Repo.Path] {
				out[i] = res.Value
			}
			left--
		}
	}
	return out
}

func (d *Describer) describe(ctx context.Context, r Repo) Details {
	switch r.Kind {
	case KindHg:
		return Details{Head: readHgBranch(r.Path), Remote: hgRemote(r.Path)}
	case KindGit, KindWorktree, KindSubmodule, KindGitFile, KindBare:
	case KindJJ, KindSvn, KindProject, KindBroken:
		fallthrough
	default:
		return Details{}
	}
	gitdir, common := r.Path, r.Path
	if r.Kind != KindBare {
		var err error
		if gitdir, err = resolveGitDir(r.Path); err != nil {
			d.log.Debug("vcsdetect: describe", "path", r.Path, "err", err)
			return Details{State: d.unknownState(r)}
		}
		common = commonDir(gitdir)
	}
	var det Details
	head, _ := readSmall(filepath.Join(gitdir, "HEAD"), maxHeadSize)
	line := strings.TrimSpace(string(head))
	if ref, ok := strings.CutPrefix(line, "ref: refs/heads/"); ok {
		det.Head = ref
	} else if isHash(line) {
		det.Head, det.Detached = line[:7], true
	}
	det.Remote = originURL(filepath.Join(common, "config"))

	ctx, cancel := context.WithTimeout(ctx, d.opts.Budget)
	defer cancel()
	// The last commit is read with go-git even when git is installed:
	// starting git log cost 31 ms a repository under load, go-git 0.46 ms
	// (BenchmarkDescribe). git status, which walks the work tree, is where
	// git is much faster than go-git.
	var wg sync.WaitGroup
	if d.git != "" && !d.opts.NoState && r.Kind != KindBare {
		wg.Add(1)
		go func() {
			defer panics.Guard()
			defer wg.Done()
			d.statusViaGit(ctx, r, &det)
		}()
	}
	d.viaGoGit(ctx, r, gitdir, &det, d.git == "")
	wg.Wait()
	return det
}

func (d *Describer) unknownState(r Repo) string {
	if d.opts.NoState || r.Kind == KindBare {
		return ""
	}
	return StateUnknown
}

// gitEnv keeps git from taking locks (status would refresh the index
// otherwise, racing with the person's own git), prompting or translating.
var gitEnv = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")

func (d *Describer) runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, d.git, append([]string{"-C", dir}, args...)...)
	cmd.Env = gitEnv
	// WaitDelay bounds a wait on a pipe a git child still holds after git
	// exits, but it also starts when git exits and cuts off output not yet
	// copied: 100 ms lost a whole git status on a loaded machine (state
	// "unknown" for a dirty repository under go test -race twice at once).
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errors.New(err.Error() + ": " + strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// statusViaGit reads the upstream, ahead/behind and state with
// git status --porcelain=v2 --branch.
func (d *Describer) statusViaGit(ctx context.Context, r Repo, det *Details) {
	status, err := d.runGit(ctx, r.Path, "status", "--porcelain=v2", "--branch")
	if err != nil {
		d.log.Debug("vcsdetect: git status", "path", r.Path, "err", err)
		det.State = StateUnknown
		return
	}
	parseStatus(status, det)
}

// parseStatus reads git status --porcelain=v2 --branch output.
func parseStatus(out []byte, det *Details) {
	det.State = StateClean
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# branch.upstream "):
			det.Upstream = strings.TrimPrefix(line, "# branch.upstream ")
		case strings.HasPrefix(line, "# branch.ab "):
			// "+A -B", printed only when the upstream exists (not when
			// it is gone): counted.
			a, b, ok := parseAB(strings.TrimPrefix(line, "# branch.ab "))
			if ok {
				det.Ahead, det.Behind, det.Counted = a, b, true
			}
		case strings.HasPrefix(line, "#"):
		case line != "":
			det.State = StateDirty
		}
	}
}

// parseAB reads the "+A -B" of git status's branch.ab line.
func parseAB(s string) (ahead, behind int, ok bool) {
	as, bs, found := strings.Cut(s, " ")
	if !found || !strings.HasPrefix(as, "+") || !strings.HasPrefix(bs, "-") {
		return 0, 0, false
	}
	a, errA := strconv.Atoi(as[1:])
	b, errB := strconv.Atoi(bs[1:])
	if errA != nil || errB != nil || a < 0 || b < 0 {
		return 0, 0, false
	}
	return a, b, true
}

// goGitResult is what viaGoGit's goroutine read.
type goGitResult struct {
	when     time.Time
	subject  string
	upstream string
	ahead    int
	behind   int
	counted  bool
	state    string
}

// headViaGoGit reads HEAD's commit and, on a branch, its upstream (and,
// without git, the count of commits between them) into res.
func (d *Describer) headViaGoGit(ctx context.Context, repo *gitRepo, res *goGitResult) {
	ref, err := repo.head()
	if err != nil {
		return
	}
	if c, err := readCommit(repo.st, ref.Hash()); err == nil {
		res.when = c.committer
		res.subject, _, _ = strings.Cut(c.message, "\n")
	}
	if !ref.Name().IsBranch() {
		return
	}
	cfg, err := repo.st.Config()
	if err != nil {
		return
	}
	if b, ok := cfg.Branches[ref.Name().Short()]; ok && b.Remote != "" && b.Merge.IsBranch() {
		res.upstream = b.Remote + "/" + b.Merge.Short()
		if d.git == "" {
			res.ahead, res.behind, res.counted = d.countViaGoGit(ctx, repo, ref.Hash(), b.Remote, b.Merge)
		}
	}
}

// viaGoGit reads the last commit and the upstream with go-git and, when
// state is set (git is not installed), the state. go-git cannot be
// interrupted, so it runs on a goroutine and what is not known once the
// budget is spent is left out, or StateUnknown.
func (d *Describer) viaGoGit(ctx context.Context, r Repo, gitdir string, det *Details, state bool) {
	state = state && !d.opts.NoState && r.Kind != KindBare
	done := make(chan goGitResult, 1)
	go func() {
		defer panics.Guard()
		var res goGitResult
		defer func() { done <- res }()
		repo, err := openRepo(r, gitdir)
		if err != nil {
			d.log.Debug("vcsdetect: go-git open", "path", r.Path, "err", err)
			res.state = StateUnknown
			return
		}
		d.headViaGoGit(ctx, repo, &res)
		if !state {
			return
		}
		res.state = StateUnknown
		if clean, err := repo.clean(); err == nil {
			res.state = StateDirty
			if clean {
				res.state = StateClean
			}
		}
	}()
	select {
	case res := <-done:
		det.LastCommit, det.Subject = res.when, res.subject
		if d.git == "" { // with git, status says the upstream (on another goroutine)
			det.Upstream = res.upstream
			if res.counted {
				det.Ahead, det.Behind, det.Counted = res.ahead, res.behind, true
			}
		}
		if state {
			det.State = res.state
		}
	case <-ctx.Done():
		if state {
			det.State = StateUnknown
		}
	}
}

// countViaGoGit counts the commits between head and the branch's
// upstream (remote/merge, or merge itself when remote is ".") with go-git,
// for when git is not installed; counted is false when the upstream
// cannot be read or the count did not finish within ctx and its cap.
func (d *Describer) countViaGoGit(ctx context.Context, repo *gitRepo, head plumbing.Hash, remote string, merge plumbing.ReferenceName) (ahead, behind int, counted bool) {
	name := merge
	if remote != "." {
		name = plumbing.NewRemoteReferenceName(remote, merge.Short())
	}
	up, err := storer.ResolveReference(repo.st, name)
	if err == nil {
		ahead, behind, err = aheadBehind(ctx, repo.st, head, up.Hash())
	}
	if err != nil {
		d.log.Debug("vcsdetect: go-git ahead/behind", "upstream", name.String(), "err", err)
		return 0, 0, false
	}
	return ahead, behind, true
}

// resolveGitDir returns the git folder of the work tree at path: path/.git,
// or the folder its .git file points to.
func resolveGitDir(path string) (string, error) {
	dotGit := filepath.Join(path, gitName)
	fi, err := os.Stat(dotGit)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return dotGit, nil
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

// commonDir returns the folder holding a worktree's shared data (config,
// refs, objects): gitdir/commondir when it exists, else gitdir.
func commonDir(gitdir string) string {
	b, err := readSmall(filepath.Join(gitdir, "commondir"), 4096)
	if err != nil {
		return gitdir
	}
	dir := strings.TrimRight(string(b), "\r\n")
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(gitdir, dir)
	}
	return dir
}

func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// originURL reads the url of [remote "origin"] from a git config file.
// It reads the file directly: no go-git config parsing for one value.
func originURL(config string) string {
	b, err := readSmall(config, 1<<20)
	if err != nil {
		return ""
	}
	inOrigin := false
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			inOrigin = line == `[remote "origin"]`
			continue
		}
		if !inOrigin {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "url") {
			return StripCredentials(strings.Trim(strings.TrimSpace(v), `"`))
		}
	}
	return ""
}

// hgRemote reads paths.default from a Mercurial working copy's .hg/hgrc.
func hgRemote(path string) string {
	b, err := readSmall(filepath.Join(path, hgName, "hgrc"), 1<<20)
	if err != nil {
		return ""
	}
	inPaths := false
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			inPaths = line == "[paths]"
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok && inPaths && strings.TrimSpace(k) == "default" {
			return StripCredentials(strings.TrimSpace(v))
		}
	}
	return ""
}

// StripCredentials removes what could be a secret from a remote URL: the
// whole user part of an http(s) URL (a token often stands alone there, as
// in https://TOKEN@host), the password of any other URL, and query
// parameters. scp-like addresses (git@host:path) are kept: their user is a
// login name, not a secret.
func StripCredentials(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		if at := strings.LastIndex(raw, "@"); at >= 0 && strings.Contains(raw[:at], ":") && !strings.Contains(raw, "://") {
			// user:password@host:path is not a form git knows; be safe.
			return raw[at+1:]
		}
		return raw
	}
	switch u.Scheme {
	case "http", "https":
		u.User = nil
	default:
		if u.User != nil {
			u.User = url.User(u.User.Username())
		}
	}
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}

// LastCommitTime reads the committer time of r's HEAD commit with go-git
// and nothing else (a few file reads, no work tree walk), so that a long
// list can be sorted by last commit without describing every repository.
// ok is false when r is not a git repository or has no commit yet.
func LastCommitTime(r Repo) (t time.Time, ok bool) {
	gitdir := r.Path
	switch r.Kind {
	case KindBare:
	case KindGit, KindWorktree, KindSubmodule, KindGitFile:
		var err error
		if gitdir, err = resolveGitDir(r.Path); err != nil {
			return time.Time{}, false
		}
	case KindHg, KindJJ, KindSvn, KindProject, KindBroken:
		fallthrough
	default:
		return time.Time{}, false
	}
	repo, err := openRepo(r, gitdir)
	if err != nil {
		return time.Time{}, false
	}
	ref, err := repo.head()
	if err != nil {
		return time.Time{}, false
	}
	c, err := readCommit(repo.st, ref.Hash())
	if err != nil {
		return time.Time{}, false
	}
	return c.committer, true
}
