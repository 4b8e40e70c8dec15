package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/mcpconn"
)

// launch is one wrapped server whose command is a launcher that
// downloads it first (npx, uvx, pnpm dlx…), with what its start needs.
type launch struct {
	name     string
	launcher prefetch.Launcher
	// env is the entry's own environment (its npm cache or registry);
	// dir is where the host starts the server.
	env map[string]string
	dir string
	// line is the entry's command line, to tell its secrets (what).
	line []string
	// places are the folders the launcher's program must not be in (see
	// prefetch.Installed): the project, the folders the entry is given
	// and those its profile consents.
	places []prefetch.Place
	// project says it is a project file's entry: it came with the
	// repository, which chose its package.
	project bool
	// skip says why it is not fetched ahead, said below the diff: its
	// command is no installed launcher, it is a project file's and --yes
	// came without --prefetch, or the entry is disabled (off). "" when
	// it is fetched.
	skip string
	// off says the entry is disabled (hostcfg.Server.Disabled): its host
	// does not start it, so nothing is fetched for it, asked or not — a
	// fetch runs install scripts for a start that will not come.
	off bool
	// offline says the wrapped entry runs with the network off: enforced,
	// its launcher is told to stay offline (mcpconn's offlineEnv), so a
	// start finds the package in its cache or fails at once.
	offline bool
}

// prefetchFunc fetches what a launcher would download (prefetch.Run).
type prefetchFunc func(ctx context.Context, l prefetch.Launcher, opts prefetch.Options) (time.Duration, error)

// prefetchRun is what hosts wrap uses; the root package's tests replace
// it so that no test downloads by accident (hosts_prefetch_test.go).
var prefetchRun prefetchFunc = prefetch.Run

// confineFunc puts a prefetch under the boundary its server will run
// under (mcpconn.Confine).
type confineFunc = func(cmd *exec.Cmd) (finish func(error) error, err error)

// prefetchConfine is what hosts wrap confines a prefetch with; only the
// tests that break one defence on purpose, to see that the other holds,
// replace it.
var prefetchConfine confineFunc = mcpconn.Confine

// launchOf is server i of c as a launch, ok false when its command is no
// downloading launcher. Planned by pl, it says why it will not be
// fetched ahead, if it will not.
func (pl *planner) launchOf(c *hostcfg.Config, i int) (launch, bool) {
	s := c.Servers[i]
	line := append([]string{s.Command}, s.Args...)
	l, ok := prefetch.Of(line)
	if !ok {
		return launch{}, false
	}
	ln := launch{name: s.Name, launcher: l, line: line, env: c.Env(i), dir: c.File.Workspace, project: s.Scope == hostcfg.ScopeProject,
		offline: cmp.Or(pl.ch.proxy.Network, offlineNetwork(line)) == string(mcpconn.NetworkOff)}
	ln.places = append(ln.places, prefetch.Place{Path: c.File.Workspace, Name: "the project"})
	for _, r := range c.FolderArgs(i) {
		for _, p := range r.Paths {
			ln.places = append(ln.places, prefetch.Place{Path: p, Name: "the folder " + shownFolder(p, c.File.Home) + " it is given"})
		}
	}
	profile := cmp.Or(pl.ch.proxy.Profile, consent.DefaultProfile)
	for _, p := range consentedFolders(pl.grants.dirs, profile) {
		ln.places = append(ln.places, prefetch.Place{Path: p, Name: "the folder " + shownFolder(p, c.File.Home) + " consented for " + shown(profile)})
	}
	if pl.ch.prefetch == nil || len(l.Prefetch) == 0 {
		return ln, true
	}
	if s.Disabled != "" {
		ln.skip, ln.off = "the entry is disabled ("+shown(s.Disabled)+"): its host does not start it", true
		return ln, true
	}
	if _, err := prefetch.Installed(l.Prefetch[0], ln.dir, ln.places); err != nil {
		ln.skip = shown(err.Error())
	} else if ln.project && pl.ch.yes && !pl.ch.prefetchProject {
		ln.skip = "it is a project file's entry, which came with the repository: with --yes, wrap fetches those only with --prefetch"
	}
	return ln, true
}

// skipNote says, below the diff, why l is not fetched ahead.
func (l launch) skipNote() string { return l.notFetched(l.skip) }

// notFetched says that l was not fetched ahead, why, and what that means
// for its first start: a download the host may not wait for, or, with
// the network off, a start that fails until the package is fetched.
func (l launch) notFetched(why string) string {
	first := "its first start"
	if l.off {
		first = "turned on, its first start"
	}
	if l.offline {
		return fmt.Sprintf("warning: %s: not fetched ahead: %s; with the network off %s cannot download %s and fails (npm: ENOTCACHED) until it is fetched: hosts wrap --prefetch, or its command run once",
			shown(l.name), why, first, l.what())
	}
	return fmt.Sprintf("%s: not fetched ahead: %s; %s downloads %s and may take longer than the host waits",
		shown(l.name), why, first, l.what())
}

// what names what l installs, for messages, escaped: each package, or
// REDACTED where hiding the secrets of the entry's command line hides it
// (redact.Text reads the line as a whole: in `uvx --token T`, which the
// launcher's reading takes for the package T, T is a token).
func (l launch) what() string {
	words := strings.Fields(strings.Join(l.line, " "))
	red := strings.Fields(redact.Text(strings.Join(l.line, " ")))
	var hidden []string
	for i, w := range words {
		if len(red) != len(words) {
			hidden = append(hidden, w) // cannot tell: hide every word
			continue
		}
		if red[i] != w {
			_, v, _ := strings.Cut(w, "=")
			hidden = append(hidden, w, v)
		}
	}
	out := make([]string, len(l.launcher.Packages))
	for i, p := range l.launcher.Packages {
		out[i] = shown(p)
		for _, h := range hidden {
			if h != "" && (strings.Contains(p, h) || strings.Contains(h, p)) {
				out[i] = "REDACTED"
				break
			}
		}
	}
	return strings.Join(out, ", ")
}

// consentedFolders are the folders profile's consent record names (as
// claims: a launcher inside one is refused whether or not the record
// would be believed); none when there is no record or it cannot be read.
func consentedFolders(dirs paths.Dirs, profile string) []string {
	st, err := dirs.State()
	if err != nil {
		return nil
	}
	store, err := consent.OpenStoreAt(st, profile)
	if err != nil {
		return nil
	}
	rec, err := store.Load()
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range rec.Roots {
		if filepath.IsAbs(r.Path) {
			out = append(out, r.Path)
		}
	}
	return out
}

// prefetchAll fetches, one after the other, what the wrapped launchers
// would download on the host's first start: the host gives a server a
// few tens of seconds (Claude Code about 27 s), and a cold npx download of
// server-filesystem took 51 s. A launcher reached twice (one server in
// two files) is fetched once. A failure is said, with the command that
// fetches it by hand, and the wrap goes on: the entry is right either
// way, and the proxy lets a first start's download finish even when the
// host gives up, so a later start works.
//
// A fetch runs a package's install scripts on the person's behalf, so it
// starts only a launcher installed on PATH, never a program of the
// project (prefetch.Installed, checked again just before it starts),
// confined as its server will be (ch.confine: Landlock, through the
// guard), or not at all; and with the entry's env less what the server's
// policy would not grant (grantedEnv). Each refusal is said in one line.
//
// ctrl+c (or SIGTERM, SIGHUP) during a fetch lets that fetch finish — a
// launcher interrupted mid-install leaves its cache broken — fetches
// nothing more and writes nothing: interrupted is the signal, and the
// caller ends with it. A second one stops the fetch at once.
func (ch hostsChange) prefetchAll(e *env, plans []*planned) (interrupted os.Signal) {
	terminal := false
	if f, ok := e.stderr.(*os.File); ok {
		terminal = term.IsTerminal(f.Fd())
	}
	ctx, stop, got := prefetchSignals(e)
	defer stop()
	seen := map[string]bool{}
	for _, p := range plans {
		for _, l := range p.launches {
			if sig := got(); sig != nil {
				return sig
			}
			if l.skip != "" {
				continue // said below the diff
			}
			key := strings.Join(append(append(slices.Clone(l.launcher.Prefetch), l.dir), envList(nil, l.env)...), "\x00")
			if seen[key] {
				continue
			}
			seen[key] = true
			if len(l.launcher.Prefetch) == 0 {
				fmt.Fprintf(e.stderr, "%s: not fetched ahead: %s; its first start downloads %s and may take longer than the host waits\n",
					shown(l.name), l.launcher.NoPrefetch, l.what())
				continue
			}
			ch.fetchOne(ctx, e, l, terminal, got)
		}
	}
	return got()
}

// fetchOne fetches what launch l would download, saying on e.stderr why
// not or what failed; got is the first end signal so far.
func (ch hostsChange) fetchOne(ctx context.Context, e *env, l launch, terminal bool, got func() os.Signal) {
	// Found again, now: the program started is the one checked.
	program, err := prefetch.Installed(l.launcher.Prefetch[0], l.dir, l.places)
	if err != nil {
		l.skip = shown(err.Error())
		fmt.Fprintln(e.stderr, l.skipNote())
		return
	}
	_, err = ch.prefetch(ctx, l.launcher, prefetch.Options{
		Env: envList(os.Environ(), l.grantedEnv()), Dir: l.dir, Progress: e.stderr, Terminal: terminal, Name: l.name,
		Program: program, Confine: ch.confine,
	})
	if err == nil {
		return
	}
	var nr *prefetch.NotRunError
	if errors.As(err, &nr) {
		fmt.Fprintln(e.stderr, l.notFetched(nr.Why))
		return
	}
	fmt.Fprintf(e.stderr, "%s: %s\n", shown(l.name), err)
	var pe *prefetch.Error
	if errors.As(err, &pe) && got() == nil {
		fmt.Fprintf(e.stderr, "  The file is written anyway. What cannot be fetched now, the host's first start cannot fetch either; what can be fetched then may take longer than the host waits (the proxy lets that download finish, so the next start works). To fetch it by hand: %s\n", shown(pe.Command))
	}
}

// prefetchSignals catches endSignals while wrap fetches: the first says
// that the fetch under way is let finish and nothing is written; the
// second cancels ctx, which interrupts the fetch. got is the first signal
// (nil before one came); stop undoes it all.
func prefetchSignals(e *env) (ctx context.Context, stop func(), got func() os.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, endSignals...)
	var mu sync.Mutex
	var first os.Signal
	done := make(chan struct{})
	go func() {
		defer panics.Guard()
		for {
			select {
			case sig := <-sigs:
				mu.Lock()
				again := first != nil
				if !again {
					first = sig
				}
				mu.Unlock()
				if again {
					fmt.Fprintln(e.stderr, "\nrootpick: stopping the fetch now; its cache may be left incomplete (see docs/troubleshooting.md, ERR_MODULE_NOT_FOUND)")
					cancel()
					return
				}
				fmt.Fprintln(e.stderr, "\nrootpick: letting this fetch finish, so that the launcher's cache is not left half-written; nothing will be written (press ctrl+c again to stop it now)")
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
			signal.Stop(sigs)
			close(done)
			cancel()
		}, func() os.Signal {
			mu.Lock()
			defer mu.Unlock()
			return first
		}
}

// grantedEnv is l's env without what the server's policy would not
// grant (mcpconn.EnvRefusals, over the person's environment: a cache
// variable that points at ~/.ssh, a HOME moved elsewhere): a project
// file's env widens nothing, the prefetch's boundary included, and the
// launcher uses the person's own setting instead. The wrap's diff has
// said each variable left out (refusedNotes).
func (l launch) grantedEnv() map[string]string {
	env := maps.Clone(l.env)
	for _, r := range mcpconn.EnvRefusals(l.launcher.Prefetch, envList(os.Environ(), l.env)) {
		delete(env, r.Var)
	}
	return env
}

// shownPath shows a path as a person reads it: under the home folder as
// ~/…, secrets hidden, escaped (mcpconn.PolicyRefusal.Subject's path).
func shownPath(home string) func(string) string {
	return func(p string) string { return shownFolder(filepath.Clean(p), home) }
}

// envList is base with env's settings over it, as NAME=VALUE, env's in
// name order.
func envList(base []string, env map[string]string) []string {
	names := make([]string, 0, len(env))
	for name := range env {
		names = append(names, name)
	}
	slices.Sort(names)
	out := slices.DeleteFunc(slices.Clone(base), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		_, over := env[name]
		return over
	})
	for _, name := range names {
		out = append(out, name+"="+env[name])
	}
	return out
}
