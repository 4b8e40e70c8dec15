// Package prefetch knows the package runners that download a server
// before they start it — npx (and npm exec), uvx (and uv tool run), pnpm
// dlx, bunx (and bun x), yarn dlx — and fills their caches ahead of a
// host's first start (Run), so that the start fits the host's timeout.
// A fill runs a package's install scripts, so Run starts only a runner
// installed on PATH (Installed), under the boundary the caller gives it
// (Options.Confine), or nothing.
//
// It has a room of its own because two rooms read a launcher's command
// line and neither may import the other: `rootpick hosts wrap` (the root
// package) fetches what a wrapped entry's launcher would download, and the
// proxy (mcpconn) tells what a launcher that has not answered yet is
// installing, and lets it finish instead of ending it mid-install.
package prefetch

import (
	"crypto/sha512"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"
)

// Launcher is a command line that starts a server through a package
// runner that downloads it first.
type Launcher struct {
	// Tool names the runner as a person writes it: "npx", "npm exec",
	// "uvx", "uv tool run", "pnpm dlx", "pnpx", "bunx", "bun x",
	// "yarn dlx".
	Tool string
	// Packages are the package specs it installs, as written (the
	// --package values, or else the program it runs).
	Packages []string
	// Prefetch is the command line that fills the runner's cache the way
	// the host's start would, without starting the server; nil when the
	// runner has no such way (NoPrefetch says why).
	Prefetch   []string
	NoPrefetch string
}

// What names what the launcher installs, for messages:
// "@modelcontextprotocol/server-filesystem", or several joined by ", ".
func (l Launcher) What() string { return strings.Join(l.Packages, ", ") }

// runner says how one package runner's command line reads: its options
// that take a value, the options that name a package to install, and
// those that give a shell command instead of a program.
type runner struct {
	values   []string // options followed by a value
	packages []string // options whose value is a package spec
	shell    []string // options whose value is a command to run
}

// pkgFlag names a package to install, for every runner.
const pkgFlag = "--package"

var (
	npmRunner = runner{
		values:   []string{"-p", pkgFlag, "-c", "--call", "--registry", "--cache", "--userconfig", "-w", "--workspace", "--prefix", "-C", "--node-options", "--script-shell", "--loglevel"},
		packages: []string{"-p", pkgFlag},
		shell:    []string{"-c", "--call"},
	}
	uvRunner = runner{
		values: []string{"--from", "--with", "--with-editable", "--with-requirements", "--python", "-p",
			"--directory", "--project", "--index", "--index-url", "--extra-index-url", "--default-index", "--find-links", "-f",
			"--cache-dir", "--env-file", "--constraints", "--overrides", "--build-constraints", "-c", "--config-file", "--color"},
		packages: []string{"--from"},
	}
	pnpmRunner = runner{
		values:   []string{pkgFlag, "-C", "--dir", "--filter", "-F", "--reporter", "--loglevel", "--allow-build"},
		packages: []string{pkgFlag},
	}
	bunRunner = runner{
		values:   []string{"-p", pkgFlag, "--cwd", "--config"},
		packages: []string{"-p", pkgFlag},
	}
	yarnRunner = runner{
		values:   []string{"-p", pkgFlag, "--cwd"},
		packages: []string{"-p", pkgFlag},
	}
)

// Of reads command (the program and its arguments) as a package runner's
// command line; ok is false for a command that is no downloading runner,
// or one that names no package.
func Of(command []string) (l Launcher, ok bool) {
	if len(command) == 0 {
		return Launcher{}, false
	}
	name := strings.ToLower(filepath.Base(strings.ReplaceAll(command[0], `\`, "/")))
	for _, ext := range []string{".exe", ".cmd", ".bat", ".ps1"} {
		name = strings.TrimSuffix(name, ext)
	}
	args := command[1:]
	switch name {
	case "npx":
		return npm(command[0], "npx", nil, args)
	case "npm":
		if sub, rest, ok := subcommand(args, npmRunner, "exec", "x"); ok {
			return npm(command[0], "npm exec", []string{sub}, rest)
		}
	case "uvx":
		return uv(command[0], "uvx", nil, args)
	case "uv":
		if rest, ok := words(args, "tool", "run"); ok {
			return uv(command[0], "uv tool run", []string{"tool", "run"}, rest)
		}
	case "pnpx":
		return pnpm(command[0], "pnpx", nil, args, nil)
	case "pnpm":
		if sub, rest, ok := subcommand(args, pnpmRunner, "dlx"); ok {
			at := len(args) - len(rest) - 1 // the options before dlx
			return pnpm(command[0], "pnpm dlx", args[:at], rest, []string{sub})
		}
	case "bunx":
		return noPrefetch("bunx", args, bunRunner, "bunx has no way to install a package without running it (its flags: --bun, --package, --no-install, --verbose, --silent)")
	case "bun":
		if _, rest, ok := subcommand(args, bunRunner, "x"); ok {
			return noPrefetch("bun x", rest, bunRunner, "bun x has no way to install a package without running it (its flags: --bun, --package, --no-install, --verbose, --silent)")
		}
	case "yarn":
		if _, rest, ok := subcommand(args, yarnRunner, "dlx"); ok {
			return noPrefetch("yarn dlx", rest, yarnRunner, "yarn dlx installs into a new temporary project at every start: there is no install to keep")
		}
	}
	return Launcher{}, false
}

// subcommand finds the first non-option word of args; ok when it is one
// of subs. rest is what follows it.
func subcommand(args []string, r runner, subs ...string) (sub string, rest []string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return "", nil, false
		case slices.Contains(r.values, a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a, args[i+1:], slices.Contains(subs, a)
		}
	}
	return "", nil, false
}

// words reports whether args start with want (uv's "tool run"), after
// options; rest follows them.
func words(args []string, want ...string) (rest []string, ok bool) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		i++
	}
	if len(args)-i < len(want) || !slices.Equal(args[i:i+len(want)], want) {
		return nil, false
	}
	return args[i+len(want):], true
}

// parsed is a runner's arguments after its subcommand: its options
// (without a shell command's and without --), the packages they name,
// and the program it runs ("" when none).
type parsed struct {
	options  []string
	packages []string
	program  string
	shell    bool // a shell command (npx -c) instead of a program
}

func parse(args []string, r runner) parsed {
	var p parsed
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, inline := strings.Cut(a, "=")
		switch {
		case a == "--":
			if i+1 < len(args) {
				p.program = args[i+1]
			}
			return p
		case strings.HasPrefix(a, "-") && slices.Contains(r.shell, name):
			p.shell = true
			if !inline {
				i++
			}
			continue
		case strings.HasPrefix(a, "-") && slices.Contains(r.packages, name):
			if !inline {
				if i+1 >= len(args) {
					return p
				}
				i++
				value = args[i]
				p.options = append(p.options, a, value) // as written
			} else {
				p.options = append(p.options, a)
			}
			p.packages = append(p.packages, value)
			continue
		case strings.HasPrefix(a, "-") && !inline && slices.Contains(r.values, a):
			p.options = append(p.options, a)
			if i+1 < len(args) {
				i++
				p.options = append(p.options, args[i])
			}
			continue
		case strings.HasPrefix(a, "-"):
			p.options = append(p.options, a)
			continue
		}
		p.program = a
		return p
	}
	return p
}

// npm is npx or npm exec: without --package it installs the program, and
// npx keys its install folder (NpxDir) by the sorted package specs, so
// `npx --yes OPTIONS --package=PKG -- node -e 0` fills the folder that
// `npx -y PKG` runs from (libnpmexec, npm 11).
func npm(exe, tool string, sub, args []string) (Launcher, bool) {
	p := parse(args, npmRunner)
	pkgs := p.packages
	if len(pkgs) == 0 && p.program != "" && !p.shell {
		pkgs = []string{p.program}
	}
	if len(pkgs) == 0 {
		return Launcher{}, false
	}
	line := append(append([]string{exe}, sub...), withoutYes(p.options)...)
	line = append(line, "--yes")
	if len(p.packages) == 0 {
		line = append(line, pkgFlag+"="+pkgs[0])
	}
	line = append(line, "--", "node", "-e", "0")
	return Launcher{Tool: tool, Packages: pkgs, Prefetch: line}, true
}

// withoutYes drops npm's yes/no flags: the prefetch says --yes itself.
func withoutYes(opts []string) []string {
	return slices.DeleteFunc(slices.Clone(opts), func(o string) bool {
		return o == "-y" || o == "--yes" || o == "--no-yes" || o == "-n" || strings.HasPrefix(o, "--yes=")
	})
}

// uv is uvx or uv tool run: it installs --from's spec, or else the
// program's package. uv keeps a tool's environment in its cache, keyed by
// what it resolves to, and special-cases `python` as the program (an
// interpreter of that environment), so `uvx --with SPEC python -c pass`
// resolves and installs what `uvx SPEC` does and runs nothing of it.
func uv(exe, tool string, sub, args []string) (Launcher, bool) {
	p := parse(args, uvRunner)
	spec := ""
	switch {
	case len(p.packages) > 0:
		spec = p.packages[len(p.packages)-1]
	case p.program != "":
		spec = p.program
		// uvx ruff@0.6.0: a version for the tool; a requirement writes ==.
		if name, ver, ok := strings.Cut(spec, "@"); ok {
			spec = name
			if ver != "latest" {
				spec = name + "==" + ver
			}
		}
	default:
		return Launcher{}, false
	}
	opts := withoutFrom(p.options)
	line := append(append(append([]string{exe}, sub...), opts...), "--with", spec, "python", "-c", "pass")
	return Launcher{Tool: tool, Packages: []string{spec}, Prefetch: line}, true
}

// withoutFrom drops uv's --from and its value: the prefetch names the
// spec with --with.
func withoutFrom(opts []string) []string {
	var out []string
	for i := 0; i < len(opts); i++ {
		switch {
		case opts[i] == "--from":
			i++
		case strings.HasPrefix(opts[i], "--from="):
		default:
			out = append(out, opts[i])
		}
	}
	return out
}

// pnpm is pnpm dlx (pnpx): it installs the --package specs, or else the
// program, into a cache folder keyed by those specs; with --package its
// shell mode (-c) runs any command with the packages' programs on PATH,
// so `pnpm --package=PKG -c dlx "node -e 0"` fills what `pnpm dlx PKG`
// runs from (pnpm.io/cli/dlx).
func pnpm(exe, tool string, before, args, sub []string) (Launcher, bool) {
	pre := parse(before, pnpmRunner)
	p := parse(args, pnpmRunner)
	pkgs := append(slices.Clone(pre.packages), p.packages...)
	if len(pkgs) == 0 && p.program != "" {
		pkgs = []string{p.program}
	}
	if len(pkgs) == 0 {
		return Launcher{}, false
	}
	line := append([]string{exe}, pre.options...)
	if len(pre.packages)+len(p.packages) == 0 {
		line = append(line, pkgFlag+"="+pkgs[0])
	}
	line = append(append(append(line, "-c"), sub...), p.options...)
	line = append(line, "node -e 0")
	return Launcher{Tool: tool, Packages: pkgs, Prefetch: line}, true
}

func noPrefetch(tool string, args []string, r runner, why string) (Launcher, bool) {
	p := parse(args, r)
	pkgs := p.packages
	if len(pkgs) == 0 && p.program != "" {
		pkgs = []string{p.program}
	}
	if len(pkgs) == 0 {
		return Launcher{}, false
	}
	return Launcher{Tool: tool, Packages: pkgs, NoPrefetch: why}, true
}

// NpxDir is the folder, under npm's cache, that npx installs packages
// into: _npx/ and the first 16 hex digits of the SHA-512 of the specs,
// sorted and joined by newlines (libnpmexec; specs of a local folder,
// which it resolves first, are not handled here).
func NpxDir(cache string, packages []string) string {
	specs := slices.Clone(packages)
	slices.Sort(specs)
	sum := sha512.Sum512([]byte(strings.Join(specs, "\n")))
	return filepath.Join(cache, "_npx", hex.EncodeToString(sum[:])[:16])
}
