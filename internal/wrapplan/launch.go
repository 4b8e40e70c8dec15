package wrapplan

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// Launch is one wrapped server whose command is a launcher that
// downloads it first (npx, uvx, pnpm dlx…), with what its start needs.
type Launch struct {
	Name     string
	Launcher prefetch.Launcher
	// env is the entry's own environment (its npm cache or registry);
	// Dir is where the host starts the server.
	env map[string]string
	Dir string
	// line is the entry's command line, to tell its secrets (What).
	line []string
	// Places are the folders the launcher's program must not be in (see
	// prefetch.Installed): the project, the folders the entry is given
	// and those its profile consents.
	Places []prefetch.Place
	// project says it is a project file's entry: it came with the
	// repository, which chose its package.
	project bool
	// Skip says why it is not fetched ahead, said below the diff: its
	// command is no installed launcher, it is a project file's and --yes
	// came without --prefetch, or the entry is disabled (off). "" when
	// it is fetched.
	Skip string
	// off says the entry is disabled (hostcfg.Server.Disabled): its host
	// does not start it, so nothing is fetched for it, asked or not — a
	// fetch runs install scripts for a start that will not come.
	off bool
	// offline says the wrapped entry runs with the network off: enforced,
	// its launcher is told to stay offline (mcpconn's offlineEnv), so a
	// start finds the package in its cache or fails at once.
	offline bool
}

// launchOf is server i of c as a launch, ok false when its command is no
// downloading launcher. Planned by pl, it says why it will not be
// fetched ahead, if it will not.
func (pl *planner) launchOf(c *hostcfg.Config, i int) (Launch, bool) {
	s := c.Servers[i]
	line := append([]string{s.Command}, s.Args...)
	l, ok := prefetch.Of(line)
	if !ok {
		return Launch{}, false
	}
	ln := Launch{Name: s.Name, Launcher: l, line: line, env: c.Env(i), Dir: c.File.Workspace, project: s.Scope == hostcfg.ScopeProject,
		offline: cmp.Or(pl.Proxy.Network, OfflineNetwork(line)) == string(launch.NetworkOff)}
	ln.Places = append(ln.Places, prefetch.Place{Path: c.File.Workspace, Name: "the project"})
	for _, r := range c.FolderArgs(i) {
		for _, p := range r.Paths {
			ln.Places = append(ln.Places, prefetch.Place{Path: p, Name: "the folder " + ShownFolder(p, c.File.Home) + " it is given"})
		}
	}
	profile := cmp.Or(pl.Proxy.Profile, consent.DefaultProfile)
	for _, p := range consentedFolders(pl.Grants.dirs, profile) {
		ln.Places = append(ln.Places, prefetch.Place{Path: p, Name: "the folder " + ShownFolder(p, c.File.Home) + " consented for " + shown(profile)})
	}
	if !pl.Prefetch || len(l.Prefetch) == 0 {
		return ln, true
	}
	if s.Disabled != "" {
		ln.Skip, ln.off = "the entry is disabled ("+shown(s.Disabled)+"): its host does not start it", true
		return ln, true
	}
	if _, err := prefetch.Installed(l.Prefetch[0], ln.Dir, ln.Places); err != nil {
		ln.Skip = shown(err.Error())
	} else if ln.project && pl.Yes && !pl.PrefetchProject {
		ln.Skip = "it is a project file's entry, which came with the repository: with --yes, wrap fetches those only with --prefetch"
	}
	return ln, true
}

// skipNote says, below the diff, why l is not fetched ahead.
func (l Launch) skipNote() string { return l.NotFetched(l.Skip) }

// NotFetched says that l was not fetched ahead, why, and what that means
// for its first start: a download the host may not wait for, or, with
// the network off, a start that fails until the package is fetched.
func (l Launch) NotFetched(why string) string {
	first := "its first start"
	if l.off {
		first = "turned on, its first start"
	}
	if l.offline {
		return fmt.Sprintf("warning: %s: not fetched ahead: %s; with the network off %s cannot download %s and fails (npm: ENOTCACHED) until it is fetched: hosts wrap --prefetch, or its command run once",
			shown(l.Name), why, first, l.What())
	}
	return fmt.Sprintf("%s: not fetched ahead: %s; %s downloads %s and may take longer than the host waits",
		shown(l.Name), why, first, l.What())
}

// What names what l installs, for messages, escaped: each package, or
// REDACTED where hiding the secrets of the entry's command line hides it
// (redact.Text reads the line as a whole: in `uvx --token T`, which the
// launcher's reading takes for the package T, T is a token).
func (l Launch) What() string {
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
	out := make([]string, len(l.Launcher.Packages))
	for i, p := range l.Launcher.Packages {
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

// grantedEnv is l's env without what the server's policy would not
// grant (launch.EnvRefusals, over the person's environment: a cache
// variable that points at ~/.ssh, a HOME moved elsewhere): a project
// file's env widens nothing, the prefetch's boundary included, and the
// launcher uses the person's own setting instead. The wrap's diff has
// said each variable left out (refusedNotes).
func (l Launch) grantedEnv() map[string]string {
	env := maps.Clone(l.env)
	for _, r := range launch.EnvRefusals(l.Launcher.Prefetch, envList(os.Environ(), l.env)) {
		delete(env, r.Var)
	}
	return env
}

// Environ is the environment l's fetch runs with: the person's, with l's
// own env over it less what the server's policy would not grant
// (grantedEnv).
func (l Launch) Environ() []string {
	return envList(os.Environ(), l.grantedEnv())
}

// Key tells launches apart for fetching: two with one key (one server in
// two files) fetch the same thing, once.
func (l Launch) Key() string {
	return strings.Join(append(append(slices.Clone(l.Launcher.Prefetch), l.Dir), envList(nil, l.env)...), "\x00")
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

// FetchPlan says, before the question, what a yes also fetches, and that
// fetching runs the packages' install scripts: a project's file may name
// a package the person has not vetted, which the host would only start
// after asking; those of a project file's entries are named apart, as
// the repository's choice. "" when nothing is to be fetched. It is for
// a wrap that fetches ahead (Request.Prefetch).
func FetchPlan(plans []*File) string {
	var what, project []string
	for _, p := range plans {
		for _, l := range p.Launches {
			w := l.What() + " (" + l.Launcher.Tool + ")"
			if len(l.Launcher.Prefetch) == 0 || l.Skip != "" || slices.Contains(what, w) {
				continue
			}
			what = append(what, w)
			if l.project {
				project = append(project, w)
			}
		}
	}
	if len(what) == 0 {
		return ""
	}
	plan := "Before writing, wrap fetches " + strings.Join(what, ", ") + " as the host's first start would: the install scripts run now (--no-prefetch skips this)."
	if len(project) > 0 {
		plan += " A project file, which came with the repository, names " + strings.Join(project, ", ") + ": those install scripts are the repository's choice of package, not yours."
	}
	return plan
}
