package launch

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/rootpick/rootpick/consent"
)

// The rules that keep the environment from widening a server's runtime
// set (BuildPolicy). A server's environment is not the person's word: a
// project file that arrives with a cloned repository (.mcp.json's "env")
// sets it, and so can name ~/.ssh as npx's cache or move HOME elsewhere.
// So the home folders that are never granted come from the person's
// identity as well as from $HOME, and a folder a variable names is
// granted as a launcher's cache only when it is a cache folder; what is
// refused is recorded in Policy.Refused, to be shown.

// passwdHome returns the current user's home folder as the password
// database has it, its symbolic links resolved, or "" when it cannot be
// told. A variable, so that tests can stand in another home (a test
// cannot change the password database); the real one is looked up once.
var passwdHome = sync.OnceValue(lookupPasswdHome)

// lookupPasswdHome is passwdHome's real lookup: os/user's HomeDir, when
// it is absolute and exists.
func lookupPasswdHome() string {
	u, err := user.Current()
	if err != nil || !filepath.IsAbs(u.HomeDir) {
		return ""
	}
	r, err := filepath.EvalSymlinks(u.HomeDir)
	if err != nil {
		return ""
	}
	return r
}

// homeCacheAreas are the folders of a home, relative to it, that hold
// launchers' caches: a launcher's cache inside a home folder must be one
// of them or below one. They are narrower than the launchers' install
// folders on purpose: ~/go/bin and ~/.bun/bin hold programs the person
// runs outside any boundary, so a "cache" there would let a server plant
// code.
var homeCacheAreas = []string{".npm", ".cache", ".bun/install/cache", ".local/share/pnpm", ".local/share/uv", "go/pkg/mod"}

// notCacheWhy is why a folder inside a home that is not in one of its
// homeCacheAreas is refused, naming them.
var notCacheWhy = func() string {
	names := make([]string, len(homeCacheAreas))
	for i, a := range homeCacheAreas {
		names[i] = "~/" + a
	}
	last := len(names) - 1
	return "not a cache folder: inside the home folder but outside " + strings.Join(names[:last], ", ") + " and " + names[last]
}()

// machineDirs are the folders of the machine itself: the system folders
// and the ones that hold every person's files, temporary files, devices
// and state. A launcher's cache is never one of them nor a folder that
// holds one, and a script's package never climbs to one. A folder below
// one of them may be a cache (/tmp/npm-cache, /var/cache/npm) unless it
// is in readOnlyDirs.
var machineDirs = sync.OnceValue(func() []string {
	dirs := append([]string{}, systemDirs...)
	dirs = append(dirs, "/usr/local", "/var", "/var/cache", "/var/tmp", "/var/lib", "/srv", "/run", "/tmp", "/home", "/root", "/boot", "/dev", "/proc", "/sys", "/mnt", "/media")
	return withResolved(dirs)
})

// readOnlyDirs are the folders a server may at most read and run: its
// programs and libraries, the kernel's views and the runtime state of the
// session (/run/user/UID holds the person's sockets). Nothing below them
// is a cache: a server that could write there could change the programs
// everyone runs.
var readOnlyDirs = sync.OnceValue(func() []string {
	return withResolved(append(append([]string{}, systemDirs...), "/boot", "/dev", "/proc", "/sys", "/run"))
})

// withResolved returns dirs with, after each, where its symbolic links
// lead when that differs (/bin is often /usr/bin, /tmp is /private/tmp on
// macOS): the paths compared with them are resolved.
func withResolved(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		out = append(out, d)
		if r, err := filepath.EvalSymlinks(d); err == nil && r != d {
			out = append(out, r)
		}
	}
	return out
}

// resolveDeep returns the absolute path p with its symbolic links
// resolved, for a path that may not exist yet (a cache to be made): the
// deepest part that exists is resolved and the rest appended, and a
// dangling link on the way is followed, so that ~/.cache/link-to-ssh/x
// becomes ~/.ssh/x. It returns "" when links loop.
func resolveDeep(p string) string {
	return resolveDeepN(filepath.Clean(p), 0)
}

func resolveDeepN(p string, depth int) string {
	if depth > 40 { // as the kernel's ELOOP limit
		return ""
	}
	rest := ""
	for dir := p; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		if fi, err := os.Lstat(dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(dir)
			if err != nil {
				return ""
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(dir), target)
			}
			return resolveDeepN(filepath.Join(target, rest), depth+1)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

// envPath is a path read from the server's environment, with the
// variable it was read from, or derived from ("HOME" for ~/.npm,
// "XDG_CACHE_HOME" for $XDG_CACHE_HOME/uv): a refusal names it.
type envPath struct {
	name, path string
}

// envPath is the variable name as an envPath, its path "" unless the
// variable holds an absolute path.
func (b *policyBuilder) envPath(name string) envPath {
	return envPath{name, b.absEnv(name)}
}

// inHome is a path in the home folder the server's launchers use for
// their defaults ($HOME), "" without one.
func (b *policyBuilder) inHome(p ...string) envPath {
	if b.home == "" {
		return envPath{}
	}
	return envPath{"HOME", filepath.Join(append([]string{b.home}, p...)...)}
}

// firstPath is the first of vs with a path.
func firstPath(vs ...envPath) envPath {
	for _, v := range vs {
		if v.path != "" {
			return v
		}
	}
	return envPath{}
}

// or is v, or else def(): def runs only when v has no path, so that a
// default that records a refusal (xdgCache) is not looked at when the
// launcher would not use it.
func (v envPath) or(def func() envPath) envPath {
	if v.path != "" {
		return v
	}
	return def()
}

// under is base/p…, derived from the same variable; nothing when base is
// nothing.
func under(base envPath, p ...string) envPath {
	if base.path == "" {
		return envPath{}
	}
	return envPath{base.name, filepath.Join(append([]string{base.path}, p...)...)}
}

// cacheRefusal checks the folder v names as a launcher's cache. It
// returns the folder resolved (what would be granted) and, when it may
// not be one, why in plain words: it is /, a home folder or holds one, a
// system folder or holds one, inside a folder servers only read, or
// inside a home folder but outside that home's cache areas. The rule
// holds for every home (the password database's and $HOME), so that
// moving HOME does not make the person's real home a stranger's.
func (b *policyBuilder) cacheRefusal(v envPath) (resolved, why string) {
	p := resolveDeep(b.abs(v.path))
	if p == "" {
		return v.path, "its symbolic links loop"
	}
	if v.name == "HOME" && b.home == "/" {
		// Every folder is in a home that is /: its ~/.npm is the
		// machine's, not the person's cache.
		return p, "HOME is /, which is no home folder"
	}
	if p == "/" {
		return p, "the root folder, which holds every file"
	}
	for _, h := range b.homes {
		if p == h {
			return p, "the home folder itself"
		}
		if within(h, p) {
			return p, "holds the home folder " + h
		}
	}
	for _, d := range machineDirs() {
		if p == d {
			return p, "a system folder"
		}
		if within(d, p) {
			return p, "holds the system folder " + d
		}
	}
	for _, d := range readOnlyDirs() {
		if within(p, d) {
			return p, "inside the system folder " + d + ", which servers may only read"
		}
	}
	for _, h := range b.homes {
		if within(p, h) && !inCacheArea(p, h) {
			return p, notCacheWhy
		}
	}
	return p, ""
}

// inCacheArea reports whether p is in one of home's homeCacheAreas.
func inCacheArea(p, home string) bool {
	for _, a := range homeCacheAreas {
		if within(p, filepath.Join(home, filepath.FromSlash(a))) {
			return true
		}
	}
	return false
}

// refuse records that v was not granted, and why. what names the folder
// v stands for ("npm cache"): when v's value is not the folder that was
// checked (it was derived from it, or its links lead elsewhere), the
// reason says which folder that was.
func (b *policyBuilder) refuse(v envPath, checked, what, why string) {
	value := b.env[v.name]
	if checked != "" && checked != filepath.Clean(value) {
		if what == "" {
			why += fmt.Sprintf(" (it leads to %s)", checked)
		} else {
			why += fmt.Sprintf(" (the %s would be %s)", what, checked)
		}
	}
	r := PolicyRefusal{Var: v.name, Value: value, Why: why}
	for _, have := range b.refused {
		if have == r {
			return
		}
	}
	b.refused = append(b.refused, r)
}

// xdgCache is the folder launchers keep their caches in:
// $XDG_CACHE_HOME when it passes cacheRefusal, else ~/.cache. A refused
// $XDG_CACHE_HOME is recorded and stands for no folder at all, not for
// the default: the launcher will use the refused one, so granting
// ~/.cache for it would only open more.
func (b *policyBuilder) xdgCache() envPath {
	v := b.envPath("XDG_CACHE_HOME")
	if v.path == "" {
		return b.inHome(".cache")
	}
	if checked, why := b.cacheRefusal(v); why != "" {
		b.refuse(v, checked, "", why)
		return envPath{}
	}
	return v
}

// isMachineDir reports whether p is one of machineDirs.
func isMachineDir(p string) bool {
	for _, d := range machineDirs() {
		if p == d {
			return true
		}
	}
	return false
}

// secretInHome reports whether p is, right under a home folder, a
// well-known secret or in one (~/.ssh, ~/.gnupg, ~/.aws, a .env file, id_*…: consent's list),
// and records the refusal. The command is a project file's word too: a
// .mcp.json whose server is `node --import=./x.mjs ~/.ssh/id_ed25519`
// would otherwise have the key granted as the script to run, and read by
// the module that runs first.
func (b *policyBuilder) secretInHome(p string) bool {
	for _, h := range b.homes {
		rel, err := filepath.Rel(h, p)
		if err != nil || rel == "." || !within(p, h) {
			continue
		}
		// The entry right under the home: deeper names (a package called
		// id_token in node_modules) are no one's keys.
		first, _, _ := strings.Cut(rel, string(filepath.Separator))
		if !consent.IsSecretName(first) {
			continue
		}
		// One refusal per secret, however many of its files the command's
		// script and package named.
		r := PolicyRefusal{Var: RefusedCommand, Value: filepath.Join(h, first), Why: "the command names a file in it, a well-known secret: never part of a server's runtime"}
		if !slices.Contains(b.refused, r) {
			b.refused = append(b.refused, r)
		}
		return true
	}
	return false
}
