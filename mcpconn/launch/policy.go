package launch

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A stdio server's file access, as the kernel enforces it on Linux
// (landlock_linux.go): BuildPolicy lists every folder and file the server
// may open, each with its access and the reason it is there, so that what
// is enforced is also what can be shown ("what else it can read").
//
// The server may open the consented folders (read, write, execute; a
// folder shared read-only: read and list only, see PolicyPath.ReadOnly),
// its runtime (read and execute: the system folders, its program and
// interpreter as found on PATH and through symlinks and #! lines, the
// package it runs from), a private temporary folder and the cache of the
// launcher it was started with (read, write, execute), the folders the
// person allowed on top (allow-read, allow-write), and nothing else of the
// person's: no other folder of $HOME, no /tmp, no /run, no /var, no
// terminal.
//
// The runtime set comes from the person's identity and the programs
// themselves, not from what the server's environment says: a project
// file can set that environment (see homes_policy.go). A home folder is
// the password database's as well as $HOME; a launcher's cache that a
// variable names is granted only when it is a cache folder, and what is
// refused is said (Policy.Refused).

// Enforce says whether the kernel enforces a stdio server's access to files.
type Enforce string

// The values of Enforce.
const (
	// EnforceDefault is the default: EnforceOn.
	EnforceDefault Enforce = ""
	// EnforceOn: enforced where the kernel can (Linux with Landlock), the
	// server runs advisory elsewhere, and every status says so.
	EnforceOn Enforce = "on"
	// EnforceOff: never enforced; roots are advice the server may ignore.
	EnforceOff Enforce = "off"
	// EnforceRequire: enforced, or the server is not started at all.
	EnforceRequire Enforce = "require"
)

// ParseEnforce reads an enforce setting: on, off or require.
func ParseEnforce(s string) (Enforce, error) {
	switch e := Enforce(s); e {
	case EnforceOn, EnforceOff, EnforceRequire:
		return e, nil
	case EnforceDefault: // "" is not a value one writes
	}
	return "", fmt.Errorf("want on, off or require, got %q", s)
}

// Resolve returns the setting EnforceDefault stands for.
func (e Enforce) Resolve() Enforce {
	if e == EnforceDefault {
		return EnforceOn
	}
	return e
}

// Access is what a server may do with a path of its Policy.
type Access uint8

// The bits of Access.
const (
	// AccessRead: read files, list folders.
	AccessRead Access = 1 << iota
	// AccessWrite: write, truncate, create, rename and remove files and
	// folders (not device nodes).
	AccessWrite
	// AccessExec: execute files.
	AccessExec
)

// String names the access: "read", "read+exec", "read+write+exec"…
func (a Access) String() string {
	var parts []string
	for _, p := range []struct {
		bit  Access
		name string
	}{{AccessRead, "read"}, {AccessWrite, "write"}, {AccessExec, "exec"}, {AccessConnect, "connect"}} {
		if a&p.bit != 0 {
			parts = append(parts, p.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

// MarshalText writes the access as String does.
func (a Access) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads what MarshalText wrote.
func (a *Access) UnmarshalText(b []byte) error {
	*a = 0
	for p := range strings.SplitSeq(string(b), "+") {
		switch p {
		case "read":
			*a |= AccessRead
		case "write":
			*a |= AccessWrite
		case "exec":
			*a |= AccessExec
		case "connect":
			*a |= AccessConnect
		case "none":
		default:
			return fmt.Errorf("unknown access %q", p)
		}
	}
	return nil
}

const (
	accessRX  = AccessRead | AccessExec
	accessRW  = AccessRead | AccessWrite
	accessRWX = AccessRead | AccessWrite | AccessExec
)

// The reasons a path is in a Policy (PolicyPath.Why).
const (
	WhyConsented   = "consented"
	WhyAllowRead   = "allow-read"
	WhyAllowWrite  = "allow-write"
	WhyTmp         = "tmp"
	WhySystem      = "system"
	WhyDevice      = "device"
	WhyProgram     = "program"
	WhyInterpreter = "interpreter"
	WhyPackage     = "package"
)

// PolicyPath is one path a server may open.
type PolicyPath struct {
	// Path is absolute and canonical (symlinks resolved): a folder, with
	// everything below it, or a single file.
	Path   string `json:"path"`
	Access Access `json:"access"`
	// Why it is there: "consented", "system", "program", "interpreter",
	// "package", "tmp", "npm cache", "allow-read"…
	Why string `json:"why"`
	// Create asks the starter to make the folder (0700) when it is
	// missing: a launcher's cache that the launcher would make, but
	// could not under the ruleset.
	Create bool `json:"-"`
	// ReadOnly marks a consented folder shared read-only
	// (consent.Root.ReadOnly, or every folder of a server capped with
	// Spec.ReadOnly): the policy grants it AccessRead, reading files and
	// listing folders, nothing else.
	ReadOnly bool `json:"read_only,omitempty"`
	// Widened, on a ReadOnly folder, is the path whose grant lets the
	// server do more in it all the same, with that grant's access and
	// why. Landlock's rights add up along the tree: a folder shared
	// read-only inside a folder shared read and write (or inside an
	// allow-write folder, or a system folder, which is executable) has
	// that folder's rights too, and so does a folder granted twice
	// (read-only and allow-write). The policy does not claim otherwise:
	// Access is then what the kernel lets the server do in the folder in
	// fact (read+write+exec), the folder stays listed, and Note says why
	// in words. nil when nothing widens it.
	Widened *PolicyPath `json:"widened,omitempty"`
}

// sharedCaches are the launchers' caches a server may write, by Why, with
// the servers that share each: a server may leave in it what another
// server of that launcher then runs, which the person should see.
var sharedCaches = map[string]string{
	"npm cache": "npx", "uv cache": "uvx", "bun cache": "bunx", "pnpm store": "pnpm dlx", "pnpm cache": "pnpm dlx",
	"go build cache": "go run", "go module cache": "go run",
}

// Note says in words what a consented folder's access means, for a
// screen that lists the policy beside Access and Why: for a launcher's
// cache that it is shared ("shared with every npx server"); "" for a
// folder shared read and write and every other path that is not
// consented;
// "read-only" for a folder shared read-only; for one that a wider grant
// reaches (Widened), that it is read-only by consent and what it is in
// fact, and through which path: "read-only consent; read+write+exec in
// fact, inside ~/src (read+write+exec, consented)". path shows a path
// (shortened, escaped), escape any other text.
func (pp PolicyPath) Note(path, escape func(string) string) string {
	switch w := pp.Widened; {
	case !pp.ReadOnly && sharedCaches[pp.Why] != "":
		return "shared with every " + sharedCaches[pp.Why] + " server"
	case !pp.ReadOnly:
		return ""
	case w == nil:
		return "read-only"
	case w.Path == pp.Path:
		return "read-only consent; " + pp.Access.String() + " in fact, also " + escape(w.Why)
	default:
		return "read-only consent; " + pp.Access.String() + " in fact, inside " + path(w.Path) + " (" + w.Access.String() + ", " + escape(w.Why) + ")"
	}
}

// Policy is everything a server may open, in the order of PolicyInput's
// sources: consented, allowed, temporary, caches, program, system.
type Policy struct {
	Paths []PolicyPath `json:"paths"`
	// Refused is what the server's environment asked for and was not
	// granted: a launcher's cache in ~/.ssh, a GOROOT that is no Go
	// installation. The guard ignores it; the wrap diff and the server
	// pane show it, since the server will likely fail for it.
	Refused []PolicyRefusal `json:"refused,omitempty"`
	// NoNetwork: the server may open no IP socket (network = off): the
	// guard has Landlock refuse TCP bind and connect (ABI 4 and later)
	// and its seccomp filter refuse AF_INET and AF_INET6 sockets, so UDP
	// too, on every ABI (network.go).
	NoNetwork bool `json:"no_network,omitempty"`
}

// PolicyRefusal is a path from the server's environment that BuildPolicy
// did not grant.
type PolicyRefusal struct {
	// Var is the environment variable the path came from
	// ("npm_config_cache"), or the one a default was derived from ("HOME"
	// for ~/.npm).
	Var string `json:"var"`
	// Value is the variable's value.
	Value string `json:"value"`
	// Why it was refused, in plain words.
	Why string `json:"why"`
}

// RefusedCommand is PolicyRefusal.Var for a file the server's command
// names (its script, under ~/.ssh), not a variable.
const RefusedCommand = "command"

// Subject is what was refused, as the pane, the wrap's diff and rootpick
// policy name it: "env VAR=VALUE", or the file the command names; path
// shows a value that is a path (shortened, escaped), escape any other
// text.
func (r PolicyRefusal) Subject(path, escape func(string) string) string {
	show := escape
	if filepath.IsAbs(r.Value) {
		show = path
	}
	if r.Var == RefusedCommand {
		return show(r.Value)
	}
	return "env " + escape(r.Var) + "=" + show(r.Value)
}

// EnvRefusals returns what the environment env asks for the server
// command and would not be granted (BuildPolicy's Refused), for screens
// that show an entry's env before its server runs (the wrap diff, the
// server pane).
func EnvRefusals(command, env []string) []PolicyRefusal {
	return BuildPolicy(PolicyInput{Command: command, Env: env}).Refused
}

// Beyond returns the paths the server may open that are not consented:
// "what else it can read".
func (p Policy) Beyond() []PolicyPath {
	var out []PolicyPath
	for _, pp := range p.Paths {
		if pp.Why != WhyConsented {
			out = append(out, pp)
		}
	}
	return out
}

// PolicyInput is what BuildPolicy reads.
type PolicyInput struct {
	// Command is the server command as it is started ({roots} expanded).
	Command []string
	// Env is the server's environment: PATH finds the program, HOME and
	// the launchers' variables (npm_config_cache, UV_CACHE_DIR, GOCACHE…)
	// find their caches.
	Env []string
	// Dir is the server's working folder, for relative paths ("" is this
	// process's).
	Dir string
	// Consented are the consented folders shared read and write; ReadOnly
	// the consented folders shared read-only (SplitConsented splits
	// a consent so). A folder in both is read and write.
	Consented, ReadOnly []string
	// AllowRead and AllowWrite are folders the person allows on top, for
	// this server.
	AllowRead, AllowWrite []string
	// AllowSocket are unix sockets the person lets this server connect
	// to (policy_sockets.go).
	AllowSocket []string
	// NoNetwork turns the server's network off (Policy.NoNetwork).
	NoNetwork bool
	// TmpDir is the server's private temporary folder (its TMPDIR), ""
	// for none.
	TmpDir string
}

// systemDirs are read and executed by every program: libraries, tools,
// configuration. A folder that holds $HOME is left out (see BuildPolicy).
var systemDirs = []string{"/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/opt", "/nix/store"}

// kernelDirs are read, never executed: what a runtime reads of itself and
// the machine (/proc/self/…, /proc/meminfo, /sys/devices/system/cpu).
// Landlock's ptrace rule keeps /proc/PID/environ, mem and the like of
// processes outside the server's domain closed all the same.
var kernelDirs = []string{"/proc", "/sys"}

// devices are the device files a server may open: the bit buckets and the
// random sources. Not /dev/tty or /dev/pts (the picker's terminal), not
// /dev/shm or /dev/mqueue (other programs' shared memory): a server that
// needs one gets it with allow-write.
var devices = []struct {
	path   string
	access Access
}{
	{"/dev/null", accessRW},
	{"/dev/zero", accessRW},
	{"/dev/full", accessRW},
	{"/dev/random", AccessRead},
	{"/dev/urandom", AccessRead},
}

// etcLinks are files of /etc that are often symlinks to elsewhere
// (systemd-resolved's /run/systemd/resolve/stub-resolv.conf): their
// targets are readable too, so that name resolution and TLS work.
var etcLinks = []string{"/etc/resolv.conf", "/etc/hosts", "/etc/localtime", "/etc/nsswitch.conf", "/etc/ssl/certs", "/etc/ca-certificates", "/etc/pki"}

// EnvProgram is env(1), which runs the command after its settings
// (VAR=value…) and options: `env VAR=x node server.js`, and
// `#!/usr/bin/env node`.
const EnvProgram = "env"

// interpreters are programs that run a script named by their first
// argument that is not an option: the script's package is part of the
// runtime.
var interpreters = []string{"node", "nodejs", "bun", "deno", "python", "python3", "ruby", "perl", "php", "tsx", "ts-node", "sh", "bash"}

func isInterpreter(name string) bool {
	if slices.Contains(interpreters, name) {
		return true
	}
	// python3.12, node22
	for _, p := range []string{"python3.", "python2.", "node"} {
		if strings.HasPrefix(name, p) && strings.Trim(name[len(p):], "0123456789.") == "" {
			return true
		}
	}
	return false
}

// packageMarkers name a package's root folder.
var packageMarkers = []string{"package.json", "pyproject.toml", "setup.py", "setup.cfg", "pyvenv.cfg", "go.mod", "Cargo.toml", "deno.json", "Gemfile"}

// BuildPolicy returns what the server described by in may open. It reads
// the file system (PATH, symlinks, #! lines, package markers) and changes
// nothing. Paths that do not exist are left out, except a launcher's
// cache (Create). Nothing of the runtime set may be a home folder (the
// password database's or $HOME) or a folder holding one (nor /): such a
// folder is left out, so that only the consented and explicitly allowed
// folders open the person's files. A cache or runtime folder that the
// environment names and that fails the rules of homes_policy.go is left
// out and listed in Refused.
func BuildPolicy(in PolicyInput) Policy {
	b := &policyBuilder{in: in, env: envMap(in.Env)}
	// The launchers find their defaults (~/.npm) through $HOME, and
	// through the password database without it.
	b.home = b.absEnv("HOME")
	if b.home != "" {
		if r := resolveDeep(b.home); r != "" {
			b.home = r
		}
	}
	for _, h := range []string{passwdHome(), b.home} {
		if h != "" && h != "/" && !slices.Contains(b.homes, h) {
			b.homes = append(b.homes, h)
		}
	}
	if b.home == "" && len(b.homes) > 0 {
		b.home = b.homes[0]
	}
	for _, p := range in.Consented {
		b.add(p, accessRWX, WhyConsented, false)
	}
	for _, p := range in.ReadOnly {
		if i := b.add(p, AccessRead, WhyConsented, false); i >= 0 && b.paths[i].Access == AccessRead {
			b.paths[i].ReadOnly = true
		}
	}
	for _, p := range in.AllowWrite {
		b.add(p, accessRWX, WhyAllowWrite, false)
	}
	for _, p := range in.AllowRead {
		b.add(p, accessRX, WhyAllowRead, false)
	}
	b.allowSockets(in.AllowSocket)
	if in.TmpDir != "" {
		b.add(in.TmpDir, accessRWX, WhyTmp, false)
	}
	if len(in.Command) > 0 {
		b.commandLine(in.Command)
	}
	for _, d := range systemDirs {
		b.runtime(d, accessRX, WhySystem)
	}
	for _, l := range etcLinks {
		b.runtime(l, AccessRead, WhySystem)
	}
	for _, d := range kernelDirs {
		b.runtime(d, AccessRead, WhySystem)
	}
	for _, d := range devices {
		b.runtime(d.path, d.access, WhyDevice)
	}
	return Policy{Paths: widen(prune(b.paths)), Refused: b.refused, NoNetwork: in.NoNetwork}
}

// widen gives each read-only consented folder the access that the paths
// holding it grant, as Landlock does (its rights add up along the
// tree), and names in Widened the path that grants the most of it
// (write first), unless a grant on the folder itself did already (add).
// So what the policy says of the folder is what the kernel enforces:
// never read-only where the server may in fact write.
func widen(paths []PolicyPath) []PolicyPath {
	// The grants as made: a read-only folder widened here widens none
	// below it (what widened it holds those too).
	grants := slices.Clone(paths)
	for i := range paths {
		p := &paths[i]
		if !p.ReadOnly {
			continue
		}
		for _, q := range grants {
			if q.Path == p.Path || !within(p.Path, q.Path) || q.Access&^p.Access == 0 {
				continue
			}
			p.Access |= q.Access
			if p.Widened == nil || (p.Widened.Path != p.Path && p.Widened.Access&AccessWrite == 0 && q.Access&AccessWrite != 0) {
				p.Widened = &PolicyPath{Path: q.Path, Access: q.Access, Why: q.Why}
			}
		}
	}
	return paths
}

// commandLine grants what the command line command runs: env's command
// after its settings, its launcher's cache, its program, the script an interpreter runs, the commands of a
// shell's -c string (policy_shell.go).
func (b *policyBuilder) commandLine(command []string) {
	if filepath.Base(command[0]) == EnvProgram {
		b.program(command[0], WhyProgram)
		if command = EnvCommand(command[1:]); len(command) == 0 {
			return
		}
	}
	b.launcher(command)
	b.program(command[0], WhyProgram)
	base := filepath.Base(command[0])
	if isInterpreter(base) {
		b.script(command[1:])
	}
	if slices.Contains(shells, base) {
		b.shellC(command[1:])
	}
}

// prune drops a path that another one grants already (it is below it,
// with as much access), so that each path shown says something; consented
// folders always stay.
func prune(paths []PolicyPath) []PolicyPath {
	var out []PolicyPath
	for i, p := range paths {
		covered := false
		for j, q := range paths {
			if i != j && p.Why != WhyConsented && q.Access&p.Access == p.Access && within(p.Path, q.Path) && (p.Path != q.Path || j < i) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, p)
		}
	}
	return out
}

type policyBuilder struct {
	in  PolicyInput
	env map[string]string
	// home is $HOME resolved (the password database's home without one):
	// where the launchers keep their default caches.
	home string
	// homes are the home folders nothing of the runtime set may hold:
	// the password database's and $HOME, resolved (/ left out, which
	// holdsHome knows).
	homes   []string
	paths   []PolicyPath
	refused []PolicyRefusal
	seen    map[string]int // path → index in paths
	depth   int            // #! lines followed, against loops
}

func envMap(env []string) map[string]string {
	m := map[string]string{}
	for _, e := range env {
		if k, v, ok := strings.Cut(e, "="); ok {
			m[k] = v // the last one counts, as for exec
		}
	}
	return m
}

// absEnv is the environment variable name when it holds an absolute path
// ("" otherwise: a relative one counts as unset).
func (b *policyBuilder) absEnv(name string) string {
	if v := b.env[name]; filepath.IsAbs(v) {
		return filepath.Clean(v)
	}
	return ""
}

// abs makes p absolute against the server's working folder.
func (b *policyBuilder) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	dir := b.in.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	return filepath.Join(dir, p)
}

// add puts p in the policy, resolved, and returns its index in b.paths;
// a path that does not exist is left out (-1) unless create is set (it
// is kept as written, to be made). A path added again keeps its first
// why and gets both accesses; a read-only consented folder that gains
// access so says by what (Widened).
func (b *policyBuilder) add(p string, access Access, why string, create bool) int {
	if p == "" {
		return -1
	}
	p = b.abs(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p, create = r, false
	} else if !create {
		return -1
	}
	if b.seen == nil {
		b.seen = map[string]int{}
	}
	if i, ok := b.seen[p]; ok {
		pp := &b.paths[i]
		if pp.ReadOnly && access&^pp.Access != 0 && pp.Widened == nil {
			pp.Widened = &PolicyPath{Path: p, Access: access, Why: why}
		}
		pp.Access |= access
		return i
	}
	b.seen[p] = len(b.paths)
	b.paths = append(b.paths, PolicyPath{Path: p, Access: access, Why: why, Create: create})
	return len(b.paths) - 1
}

// holdsHome reports whether granting p would grant a home folder: p is
// /, the password database's home or $HOME, or a folder above one. Both,
// because HOME is only a variable: set elsewhere, it must not make the
// person's real home an ordinary folder.
func (b *policyBuilder) holdsHome(p string) bool {
	if p == "/" {
		return true
	}
	for _, h := range b.homes {
		if within(h, p) {
			return true
		}
	}
	return false
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// runtime adds p unless it would grant $HOME (p resolved first: /lib may
// be a link to /usr/lib).
func (b *policyBuilder) runtime(p string, access Access, why string) {
	r, err := filepath.EvalSymlinks(b.abs(p))
	if err != nil || b.holdsHome(r) {
		return
	}
	b.add(r, access, why, false)
}

// cache adds a launcher's cache folder v, read, written and run from
// (accessRWX), to be made if missing, when it passes cacheRefusal; else
// it is recorded as refused. Its value comes from the environment, which
// a project file can set: npm_config_cache=~/.ssh must not open the keys.
func (b *policyBuilder) cache(v envPath, why string) {
	if v.path == "" {
		return
	}
	p, refused := b.cacheRefusal(v)
	if refused != "" {
		b.refuse(v, p, why, refused)
		return
	}
	b.add(p, accessRWX, why, true)
}

// envFolder adds a runtime folder v that the environment names (uv's
// Pythons), read and run from, when it exists and passes the rules of a
// cache (cacheRefusal); else a folder that exists is recorded as
// refused.
func (b *policyBuilder) envFolder(v envPath, why string) {
	if v.path == "" || !exists(v.path) {
		return
	}
	p, refused := b.cacheRefusal(v)
	if refused != "" {
		b.refuse(v, p, why, refused)
		return
	}
	b.folder(p, why)
}

// lookPath finds name as exec would with the server's PATH: a name with a
// slash is a path; else the first executable regular file of that name
// in PATH's folders.
func (b *policyBuilder) lookPath(name string) string {
	if strings.Contains(name, "/") {
		return b.abs(name)
	}
	for _, dir := range filepath.SplitList(b.env["PATH"]) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // exec refuses the current folder through PATH
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// program adds the program name (as written in a command or a #! line)
// with what it needs: the file it resolves to, the interpreter of a
// script and the script's package, and for an interpreter installed in a
// folder of its own (~/.nvm/versions/node/v22) that folder.
func (b *policyBuilder) program(name, why string) {
	found := b.lookPath(name)
	if found == "" {
		return
	}
	resolved, err := filepath.EvalSymlinks(found)
	if err != nil {
		return
	}
	b.runtimeFile(resolved, accessRX, why)
	// A Python virtual environment: its bin/python is a link to the base
	// interpreter, and the environment's site-packages are beside it.
	for _, p := range []string{found, resolved} {
		if venv := filepath.Dir(filepath.Dir(p)); filepath.Base(filepath.Dir(p)) == "bin" && exists(filepath.Join(venv, "pyvenv.cfg")) {
			b.folder(venv, WhyPackage)
			if home := readPyvenvHome(filepath.Join(venv, "pyvenv.cfg")); home != "" {
				b.program(filepath.Join(home, filepath.Base(p)), WhyInterpreter)
			}
		}
	}
	if isInterpreter(filepath.Base(resolved)) || isInterpreter(filepath.Base(found)) {
		b.installPrefix(resolved, WhyInterpreter)
	}
	// A version manager's shim (~/.pyenv/shims/python3, ~/.asdf/shims,
	// ~/.rbenv/shims, mise's) runs the manager, which runs one of the
	// versions it keeps beside the shims.
	if shims := filepath.Dir(found); filepath.Base(shims) == "shims" {
		b.installPrefix(filepath.Join(filepath.Dir(shims), "bin", "x"), "version manager")
	}
	if interp, arg := shebang(resolved); interp != "" && b.depth < 4 {
		b.depth++
		b.pkg(resolved)
		if shell := b.interpreter(interp, arg); slices.Contains(shells, filepath.Base(shell)) {
			b.shellScript(resolved) // a wrapper: what it runs
		}
	}
}

// interpreter adds the interpreter a #! line names (interp and its
// argument: `/usr/bin/env node` names node) and returns it; "" when env
// names none.
func (b *policyBuilder) interpreter(interp, arg string) string {
	if filepath.Base(interp) != EnvProgram {
		b.program(interp, WhyInterpreter)
		return interp
	}
	rest := EnvCommand(strings.Fields(arg))
	if len(rest) == 0 {
		return ""
	}
	b.program(interp, WhyInterpreter)
	b.program(rest[0], WhyInterpreter)
	return rest[0]
}

// runtimeFile adds one file of the runtime unless it is in a folder that
// is granted already.
func (b *policyBuilder) runtimeFile(p string, access Access, why string) {
	if b.holdsHome(p) || b.secretInHome(p) {
		return
	}
	b.add(p, access, why, false)
}

// folder adds a runtime folder: read and execute, unless it holds $HOME.
func (b *policyBuilder) folder(p, why string) {
	if b.holdsHome(p) || b.secretInHome(p) {
		return
	}
	b.add(p, accessRX, why, false)
}

// installPrefix adds the folder an interpreter was installed in, PREFIX
// for PREFIX/bin/node: its libraries (PREFIX/lib/node_modules,
// PREFIX/lib/python3.12) come with it. Not for a prefix that is a folder
// of the person's in general (~/.local, the XDG folders).
func (b *policyBuilder) installPrefix(interp, why string) {
	bin := filepath.Dir(interp)
	if filepath.Base(bin) != "bin" {
		return
	}
	prefix := filepath.Dir(bin)
	for _, broad := range []string{"/usr", "/usr/local", "/", "/opt"} {
		if prefix == broad {
			return // a system folder: granted as such, or left out on purpose
		}
	}
	if b.broadInHome(prefix) {
		return
	}
	for _, v := range []string{"XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"} {
		if d := b.absEnv(v); d != "" && within(d, prefix) {
			return
		}
	}
	b.folder(prefix, why)
}

// broadInHome reports whether p is a folder of a home that holds the
// person's files in general (~/.local, ~/.config, ~/bin…), in either
// home: such a folder is no program's install prefix.
func (b *policyBuilder) broadInHome(p string) bool {
	for _, h := range b.homes {
		for _, broad := range []string{".local", ".config", ".cache", ".local/share", "bin"} {
			if p == filepath.Join(h, filepath.FromSlash(broad)) {
				return true
			}
		}
	}
	return false
}

// script adds the package of the script an interpreter runs: its first
// argument that is not an option, when it is a file.
func (b *policyBuilder) script(args []string) {
	for _, a := range args {
		if a == "--" {
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		p := b.abs(a)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				b.runtimeFile(r, AccessRead, WhyPackage)
				b.pkg(r)
			}
		}
		return
	}
}

// pkg adds the package a script belongs to: for a script inside
// node_modules, the outermost node_modules folder (a package's
// dependencies are hoisted beside it); else the nearest folder above it
// with a package marker (package.json, pyproject.toml, go.mod…). The
// search stops, granting nothing, at a home folder (either: a script in
// the real home's ~/tools must not make it a package because HOME points
// elsewhere) and at a system folder (machineDirs): a marker there is no
// package of the script's.
func (b *policyBuilder) pkg(script string) {
	parts := strings.Split(script, string(filepath.Separator))
	for i, part := range parts[:len(parts)-1] {
		if part == "node_modules" {
			b.folder(strings.Join(parts[:i+1], string(filepath.Separator)), WhyPackage)
			return
		}
	}
	for dir := filepath.Dir(script); ; dir = filepath.Dir(dir) {
		if b.holdsHome(dir) || isMachineDir(dir) {
			return
		}
		for _, m := range packageMarkers {
			if exists(filepath.Join(dir, m)) {
				b.folder(dir, WhyPackage)
				return
			}
		}
		if dir == filepath.Dir(dir) {
			return
		}
	}
}

// launcher adds the cache of the package runner command starts with, and
// for go run the Go installation and its module and build caches. Each
// cache is read from the launcher's own variable, or derived from HOME
// and the XDG folders as the launcher does, and goes through cache's
// rules whichever it came from.
func (b *policyBuilder) launcher(command []string) {
	name := filepath.Base(command[0])
	args := command[1:]
	sub := func(words ...string) bool {
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				return slices.Contains(words, a)
			}
		}
		return false
	}
	dataHome := firstPath(b.envPath("XDG_DATA_HOME"), b.inHome(".local", "share"))
	switch {
	case name == "npx" || (name == "npm" && sub("exec", "x")):
		// npm reads its settings from npm_config_* variables, in any case.
		b.cache(firstPath(b.envPath("npm_config_cache"), b.envPath("NPM_CONFIG_CACHE"), b.inHome(".npm")), "npm cache")
	case name == "uvx" || (name == "uv" && sub("run", "tool")):
		b.cache(b.envPath("UV_CACHE_DIR").or(func() envPath { return under(b.xdgCache(), "uv") }), "uv cache")
		// Pythons uv installed itself, which its tool environments run.
		b.envFolder(firstPath(b.envPath("UV_PYTHON_INSTALL_DIR"), under(dataHome, "uv", "python")), "uv python")
	case name == "bunx" || (name == "bun" && sub("x")):
		bunInstall := firstPath(b.envPath("BUN_INSTALL"), b.inHome(".bun"))
		b.cache(firstPath(b.envPath("BUN_INSTALL_CACHE_DIR"), under(bunInstall, "install", "cache")), "bun cache")
	case name == "pnpx" || (name == "pnpm" && sub("dlx")):
		b.cache(firstPath(b.envPath("PNPM_HOME"), under(dataHome, "pnpm")), "pnpm store")
		b.cache(under(b.xdgCache(), "pnpm"), "pnpm cache")
	case name == "go" && sub("run"):
		b.goRun(command)
	}
}

// goRoot is $GOROOT, or else the folder above the bin folder that the go
// command found on PATH (its links resolved) is in; nothing when neither.
func (b *policyBuilder) goRoot(goCmd string) envPath {
	if goroot := b.envPath("GOROOT"); goroot.path != "" {
		return goroot
	}
	if found := b.lookPath(goCmd); found != "" {
		if r, err := filepath.EvalSymlinks(found); err == nil && filepath.Base(filepath.Dir(r)) == "bin" {
			return envPath{"PATH", filepath.Dir(filepath.Dir(r))}
		}
	}
	return envPath{}
}

// goModCache is $GOMODCACHE, or else pkg/mod in the first folder of
// $GOPATH (~/go without one); nothing when neither can be told.
func (b *policyBuilder) goModCache() envPath {
	if modcache := b.envPath("GOMODCACHE"); modcache.path != "" {
		return modcache
	}
	gopath := envPath{}
	if l := filepath.SplitList(b.env["GOPATH"]); len(l) > 0 && filepath.IsAbs(l[0]) {
		gopath = envPath{"GOPATH", filepath.Clean(l[0])}
	}
	return under(firstPath(gopath, b.inHome("go")), "pkg", "mod")
}

// goRun adds what go run needs: GOROOT (read), the build and module caches
// (read and write), go's own settings file, and the module of a local
// package it builds.
func (b *policyBuilder) goRun(command []string) {
	if goroot := b.goRoot(command[0]); goroot.path != "" {
		// GOROOT can be set by a project file too: it counts only as a
		// Go installation (it has bin/go), not a folder of the person's
		// in general. One derived from PATH is where go was found; it is
		// left out the same way, but is nothing the environment asked.
		r := resolveDeep(goroot.path)
		why := ""
		switch fi, err := os.Stat(filepath.Join(r, "bin", "go")); {
		case r == "" || b.holdsHome(r) || b.broadInHome(r):
			why = "a folder of the person's, not a Go installation"
		case err != nil || !fi.Mode().IsRegular():
			why = "not a Go installation: it has no bin/go"
		}
		if why == "" {
			b.folder(r, "go root")
		} else if goroot.name == "GOROOT" {
			b.refuse(goroot, r, "go root", why)
		}
	}
	b.cache(b.envPath("GOCACHE").or(func() envPath { return under(b.xdgCache(), "go-build") }), "go build cache")
	b.cache(b.goModCache(), "go module cache")
	config := firstPath(b.envPath("XDG_CONFIG_HOME"), b.inHome(".config"))
	if goenv := firstPath(b.envPath("GOENV"), under(config, "go", "env")); goenv.path != "" {
		// go's settings file is named go/env; GOENV, which a project
		// file can set, names no other file (~/.ssh/id_ed25519).
		if r, err := filepath.EvalSymlinks(b.abs(goenv.path)); err == nil {
			if filepath.Base(r) == "env" && filepath.Base(filepath.Dir(r)) == "go" {
				b.runtimeFile(r, AccessRead, "go env")
			} else {
				b.refuse(goenv, r, "go settings file", "not go's settings file, which is named go/env")
			}
		}
	}
	// go run [build flags] PACKAGE [args]: a local package (., ./cmd/x,
	// main.go) is built from its module.
	run := slices.Index(command, "run")
	for _, a := range command[run+1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if a == "." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") || filepath.IsAbs(a) || strings.HasSuffix(a, ".go") {
			p := b.abs(a)
			if r, err := filepath.EvalSymlinks(p); err == nil {
				if fi, err := os.Stat(r); err == nil && fi.IsDir() {
					r = filepath.Join(r, "main.go") // pkg looks from the file's folder up
				}
				b.pkg(r)
			}
		}
		return
	}
}

// shebang returns the interpreter and its argument named by the #! line of
// file, if it has one.
func shebang(file string) (interp, arg string) {
	f, err := os.Open(file)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := io.ReadFull(f, buf)
	buf = buf[:n]
	if !bytes.HasPrefix(buf, []byte("#!")) {
		return "", ""
	}
	line, _, _ := bytes.Cut(buf[2:], []byte("\n"))
	// Linux splits the line once, at the first blank after the
	// interpreter: everything after it is one argument.
	fields := strings.TrimSpace(string(line))
	interp, arg, _ = strings.Cut(fields, " ")
	if i := strings.IndexByte(interp, '\t'); i >= 0 {
		interp, arg = interp[:i], interp[i+1:]+" "+arg
	}
	return interp, strings.TrimSpace(arg)
}

// readPyvenvHome returns the "home" folder a pyvenv.cfg names (the base
// interpreter's folder).
func readPyvenvHome(cfg string) string {
	b, err := os.ReadFile(cfg)
	if err != nil || len(b) > 64<<10 {
		return ""
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(k) == "home" {
			if v = strings.TrimSpace(v); filepath.IsAbs(v) {
				return v
			}
		}
	}
	return ""
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
