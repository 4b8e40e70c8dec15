//go:build unix

package launch

import (
	"github.com/rootpick/rootpick/consent"

	"encoding/json"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The environment and a project file cannot widen the runtime set (issue
// 37, item 3): a launcher's cache is a cache folder or nothing, HOME set
// elsewhere does not make the real home a package, and what was refused
// is named.

// withPasswdHome makes home the password database's home folder for the
// rest of the test.
func withPasswdHome(t *testing.T, home string) {
	t.Helper()
	saved := passwdHome
	passwdHome = func() string { return home }
	t.Cleanup(func() { passwdHome = saved })
}

// envCase is one server, its environment and what it may and may not be
// granted.
type envCase struct {
	name    string
	command []string
	env     []string // after the tree's HOME and PATH: a later HOME wins
	setup   func(t *testing.T)
	want    []PolicyPath // each present, with this access and why (Create as given)
	absent  []string     // nothing granted is, or is below, one of these
	notHeld []string     // nothing granted is, or holds, one of these
	noWhy   []string     // no path granted for one of these reasons
	refused []string     // the variables Refused names, in order
}

func runEnvCase(t *testing.T, p policyTree, c envCase) {
	t.Helper()
	got := BuildPolicy(PolicyInput{Command: c.command, Env: p.env(c.env...)})
	for _, w := range c.want {
		i := slices.IndexFunc(got.Paths, func(pp PolicyPath) bool { return pp.Path == w.Path })
		if i < 0 {
			t.Errorf("%s is missing", w.Path)
			continue
		}
		if pp := got.Paths[i]; pp.Access != w.Access || pp.Why != w.Why || pp.Create != w.Create {
			t.Errorf("%s: %s (%s, create %v), want %s (%s, create %v)", w.Path, pp.Access, pp.Why, pp.Create, w.Access, w.Why, w.Create)
		}
	}
	homes := []string{p.home, envMap(p.env(c.env...))["HOME"]}
	for _, pp := range got.Paths {
		for _, a := range c.absent {
			if within(pp.Path, a) {
				t.Errorf("%s (%s, %s) is granted; nothing of %s may be", pp.Path, pp.Access, pp.Why, a)
			}
		}
		for _, n := range append(slices.Clone(c.notHeld), homes...) {
			if within(n, pp.Path) {
				t.Errorf("%s (%s, %s) is granted, and holds %s", pp.Path, pp.Access, pp.Why, n)
			}
		}
		if slices.Contains(c.noWhy, pp.Why) {
			t.Errorf("%s is granted as %s", pp.Path, pp.Why)
		}
	}
	var vars []string
	env := envMap(p.env(c.env...))
	for _, r := range got.Refused {
		vars = append(vars, r.Var)
		if r.Var == "command" { // a file the command names: Value is the secret it is under
			if !consent.IsSecretName(filepath.Base(r.Value)) || r.Why == "" {
				t.Errorf("refusal %+v: want the secret's path and a reason", r)
			}
			continue
		}
		if r.Value != env[r.Var] || r.Why == "" {
			t.Errorf("refusal %+v: want the value %q and a reason", r, env[r.Var])
		}
	}
	if !slices.Equal(vars, c.refused) {
		t.Errorf("refused %q, want %q", vars, c.refused)
	}
	if t.Failed() {
		for _, pp := range got.Paths {
			t.Logf("  %s %s %s", pp.Path, pp.Access, pp.Why)
		}
		for _, r := range got.Refused {
			t.Logf("  refused %s=%s: %s", r.Var, r.Value, r.Why)
		}
	}
}

// TestPolicyEnvCaches: a launcher's cache that a variable (or a default
// derived from one) names is granted only when it is a cache folder: not
// /, a home or a folder holding one, a system folder, a folder inside a
// read-only system folder, nor a folder of the home outside its cache
// areas, links and .. resolved. A refusal names the variable.
func TestPolicyEnvCaches(t *testing.T) {
	j := filepath.Join
	// Each case gets its own tree; tree(p) builds the case from it.
	cases := []func(p policyTree) envCase{
		// Refused.
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=~/.ssh", command: []string{"npx", "-y", "x"},
				env:    []string{"npm_config_cache=" + j(p.home, ".ssh")},
				absent: []string{j(p.home, ".ssh")}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "NPM_CONFIG_CACHE=~/.aws, upper case", command: []string{"npm", "exec", "x"},
				env:    []string{"NPM_CONFIG_CACHE=" + j(p.home, ".aws")},
				absent: []string{j(p.home, ".aws")}, noWhy: []string{"npm cache"}, refused: []string{"NPM_CONFIG_CACHE"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "UV_CACHE_DIR=~/.gnupg", command: []string{"uvx", "x"},
				env:    []string{"UV_CACHE_DIR=" + j(p.home, ".gnupg")},
				setup:  func(t *testing.T) { must(t, os.Mkdir(j(p.home, ".gnupg"), 0o700)) },
				absent: []string{j(p.home, ".gnupg")}, noWhy: []string{"uv cache"}, refused: []string{"UV_CACHE_DIR"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "XDG_CACHE_HOME=~/.ssh with uvx: neither ~/.ssh/uv nor ~/.cache/uv", command: []string{"uvx", "x"},
				env:    []string{"XDG_CACHE_HOME=" + j(p.home, ".ssh")},
				absent: []string{j(p.home, ".ssh"), j(p.home, ".cache")}, noWhy: []string{"uv cache"}, refused: []string{"XDG_CACHE_HOME"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "XDG_CACHE_HOME=/ with pnpm dlx", command: []string{"pnpm", "dlx", "x"},
				env:    []string{"XDG_CACHE_HOME=/"},
				absent: []string{"/pnpm"}, noWhy: []string{"pnpm cache"}, refused: []string{"XDG_CACHE_HOME"},
				want: []PolicyPath{{Path: j(p.home, ".local", "share", "pnpm"), Access: accessRWX, Why: "pnpm store", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "XDG_CACHE_HOME=~/.ssh is not named when GOCACHE is what counts", command: []string{"go", "run", "x"},
				env:    []string{"XDG_CACHE_HOME=" + j(p.home, ".ssh"), "GOCACHE=" + j(p.base, "gc")},
				absent: []string{j(p.home, ".ssh")},
				want:   []PolicyPath{{Path: j(p.base, "gc"), Access: accessRWX, Why: "go build cache", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=~/.cache/../.ssh", command: []string{"npx", "x"},
				env:    []string{"npm_config_cache=" + p.home + "/.cache/../.ssh"},
				absent: []string{j(p.home, ".ssh")}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=~/.cache/evil, a link to ~/.ssh", command: []string{"npx", "x"},
				env:    []string{"npm_config_cache=" + j(p.home, ".cache", "evil")},
				setup:  func(t *testing.T) { symlink(t, j(p.home, ".ssh"), j(p.home, ".cache", "evil")) },
				absent: []string{j(p.home, ".ssh")}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=~/.cache/evil/x, missing below a link to ~/.ssh", command: []string{"npx", "x"},
				env:    []string{"npm_config_cache=" + j(p.home, ".cache", "evil", "x")},
				setup:  func(t *testing.T) { symlink(t, j(p.home, ".ssh"), j(p.home, ".cache", "evil")) },
				absent: []string{j(p.home, ".ssh")}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=~/.cache/dangle, a dangling link into ~/.ssh", command: []string{"npx", "x"},
				env:    []string{"npm_config_cache=" + j(p.home, ".cache", "dangle", "x")},
				setup:  func(t *testing.T) { symlink(t, "../.ssh/new", j(p.home, ".cache", "dangle")) },
				absent: []string{j(p.home, ".ssh"), j(p.home, ".cache", "dangle")}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=/etc", command: []string{"npx", "x"},
				env: []string{"npm_config_cache=/etc"}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=/", command: []string{"npx", "x"},
				env: []string{"npm_config_cache=/"}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=/tmp itself", command: []string{"npx", "x"},
				env: []string{"npm_config_cache=/tmp"}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=/var, through npm x", command: []string{"npm", "x", "y"},
				env: []string{"npm_config_cache=/var"}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=/srv", command: []string{"npx", "x"},
				env: []string{"npm_config_cache=/srv"}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=/home", command: []string{"npx", "x"},
				env: []string{"npm_config_cache=/home"}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache inside a read-only system folder", command: []string{"npx", "x"},
				env: []string{"npm_config_cache=/usr/lib/rootpick-test-cache"}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache in /run (the session's sockets)", command: []string{"npx", "x"},
				env: []string{"npm_config_cache=/run/user/0/rootpick-test"}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=~", command: []string{"npx", "x"},
				env: []string{"npm_config_cache=" + p.home}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache above home", command: []string{"npx", "x"},
				env: []string{"npm_config_cache=" + p.base}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=~/.config/npm, missing", command: []string{"npx", "x"},
				env:    []string{"npm_config_cache=" + j(p.home, ".config", "npm")},
				absent: []string{j(p.home, ".config")}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "GOCACHE=~/.aws, GOMODCACHE=~/.kube", command: []string{"go", "run", "example.com/x@latest"},
				env:    []string{"GOCACHE=" + j(p.home, ".aws"), "GOMODCACHE=" + j(p.home, ".kube")},
				absent: []string{j(p.home, ".aws"), j(p.home, ".kube")}, noWhy: []string{"go build cache", "go module cache"},
				refused: []string{"GOCACHE", "GOMODCACHE"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "GOPATH=~: ~/pkg/mod", command: []string{"go", "run", "example.com/x@latest"},
				env:    []string{"GOPATH=" + p.home},
				absent: []string{j(p.home, "pkg")}, noWhy: []string{"go module cache"}, refused: []string{"GOPATH"},
				want: []PolicyPath{{Path: j(p.home, ".cache", "go-build"), Access: accessRWX, Why: "go build cache", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "GOMODCACHE=~/go: ~/go/bin holds programs", command: []string{"go", "run", "example.com/x@latest"},
				env:    []string{"GOMODCACHE=" + j(p.home, "go")},
				absent: []string{j(p.home, "go")}, noWhy: []string{"go module cache"}, refused: []string{"GOMODCACHE"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "GOROOT=~/.ssh and GOENV=~/.ssh/id_test", command: []string{"go", "run", "example.com/x@latest"},
				env:    []string{"GOROOT=" + j(p.home, ".ssh"), "GOENV=" + j(p.home, ".ssh", "id_test")},
				absent: []string{j(p.home, ".ssh")}, refused: []string{"GOROOT", "GOENV"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "BUN_INSTALL=~/.docker", command: []string{"bunx", "x"},
				env:    []string{"BUN_INSTALL=" + j(p.home, ".docker")},
				absent: []string{j(p.home, ".docker")}, noWhy: []string{"bun cache"}, refused: []string{"BUN_INSTALL"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "PNPM_HOME=~/.config; the pnpm cache still granted", command: []string{"pnpm", "dlx", "x"},
				env:    []string{"PNPM_HOME=" + j(p.home, ".config")},
				absent: []string{j(p.home, ".config")}, noWhy: []string{"pnpm store"}, refused: []string{"PNPM_HOME"},
				want: []PolicyPath{{Path: j(p.home, ".cache", "pnpm"), Access: accessRWX, Why: "pnpm cache", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "XDG_DATA_HOME=~ with pnpm dlx: ~/pnpm", command: []string{"pnpm", "dlx", "x"},
				env:    []string{"XDG_DATA_HOME=" + p.home},
				absent: []string{j(p.home, "pnpm")}, noWhy: []string{"pnpm store"}, refused: []string{"XDG_DATA_HOME"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "UV_PYTHON_INSTALL_DIR=~/.ssh", command: []string{"uvx", "x"},
				env:    []string{"UV_PYTHON_INSTALL_DIR=" + j(p.home, ".ssh")},
				absent: []string{j(p.home, ".ssh")}, refused: []string{"UV_PYTHON_INSTALL_DIR"},
				want: []PolicyPath{{Path: j(p.home, ".cache", "uv"), Access: accessRWX, Why: "uv cache", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "HOME=/: ~/.npm would be /.npm", command: []string{"npx", "x"},
				env: []string{"HOME=/"}, absent: []string{"/.npm"}, noWhy: []string{"npm cache"}, refused: []string{"HOME"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "HOME=~/.ssh: ~/.npm would be in the real home's .ssh", command: []string{"npx", "x"},
				env: []string{"HOME=" + j(p.home, ".ssh")}, absent: []string{j(p.home, ".ssh")}, noWhy: []string{"npm cache"}, refused: []string{"HOME"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "HOME elsewhere, npm_config_cache=the real home's .ssh", command: []string{"npx", "x"},
				env:    []string{"HOME=" + j(p.base, "elsewhere"), "npm_config_cache=" + j(p.home, ".ssh")},
				absent: []string{j(p.home, ".ssh")}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		func(p policyTree) envCase {
			return envCase{name: "HOME elsewhere, npm_config_cache=the real home", command: []string{"npx", "x"},
				env: []string{"HOME=" + j(p.base, "elsewhere"), "npm_config_cache=" + p.home}, noWhy: []string{"npm cache"}, refused: []string{"npm_config_cache"}}
		},
		// Granted.
		func(p policyTree) envCase {
			return envCase{name: "npx: ~/.npm by default", command: []string{"npx", "x"},
				want: []PolicyPath{{Path: j(p.home, ".npm"), Access: accessRWX, Why: "npm cache", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache below the temporary folder", command: []string{"npx", "x"},
				env:  []string{"npm_config_cache=" + j(p.base, "npm-cache")},
				want: []PolicyPath{{Path: j(p.base, "npm-cache"), Access: accessRWX, Why: "npm cache", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache below /var/cache", command: []string{"npx", "x"},
				env:  []string{"npm_config_cache=/var/cache/rootpick-test-npm"},
				want: []PolicyPath{{Path: "/var/cache/rootpick-test-npm", Access: accessRWX, Why: "npm cache", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "npm_config_cache=~/.cache/npm", command: []string{"npx", "x"},
				env:  []string{"npm_config_cache=" + j(p.home, ".cache", "npm")},
				want: []PolicyPath{{Path: j(p.home, ".cache", "npm"), Access: accessRWX, Why: "npm cache", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "HOME elsewhere: its ~/.npm", command: []string{"npx", "x"},
				env:  []string{"HOME=" + j(p.base, "elsewhere")},
				want: []PolicyPath{{Path: j(p.base, "elsewhere", ".npm"), Access: accessRWX, Why: "npm cache", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "uvx: ~/.cache/uv and uv's Pythons", command: []string{"uvx", "x"},
				want: []PolicyPath{
					{Path: j(p.home, ".cache", "uv"), Access: accessRWX, Why: "uv cache", Create: true},
					{Path: j(p.home, ".local", "share", "uv", "python"), Access: accessRX, Why: "uv python"},
				}}
		},
		func(p policyTree) envCase {
			return envCase{name: "XDG_CACHE_HOME=~/.cache, said out loud", command: []string{"uvx", "x"},
				env:  []string{"XDG_CACHE_HOME=" + j(p.home, ".cache")},
				want: []PolicyPath{{Path: j(p.home, ".cache", "uv"), Access: accessRWX, Why: "uv cache", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "~/.cache a link to another disk", command: []string{"uvx", "x"},
				setup: func(t *testing.T) {
					must(t, os.MkdirAll(j(p.base, "disk", "cache"), 0o700))
					symlink(t, j(p.base, "disk", "cache"), j(p.home, ".cache"))
				},
				want: []PolicyPath{{Path: j(p.base, "disk", "cache", "uv"), Access: accessRWX, Why: "uv cache", Create: true}}}
		},
		func(p policyTree) envCase {
			return envCase{name: "go run: its caches by default and with GOPATH=~/go", command: []string{"go", "run", "example.com/x@latest"},
				env: []string{"GOPATH=" + j(p.home, "go")},
				want: []PolicyPath{
					{Path: j(p.home, ".cache", "go-build"), Access: accessRWX, Why: "go build cache", Create: true},
					{Path: j(p.home, "go", "pkg", "mod"), Access: accessRWX, Why: "go module cache", Create: true},
					{Path: j(p.base, "goroot"), Access: accessRX, Why: "go root"},
				}}
		},
		func(p policyTree) envCase {
			return envCase{name: "go run with XDG_CACHE_HOME outside home, and go's settings file", command: []string{"go", "run", "example.com/x@latest"},
				env:   []string{"XDG_CACHE_HOME=" + j(p.base, "xc")},
				setup: func(t *testing.T) { writeFile(t, j(p.home, ".config", "go", "env"), "GOFLAGS=-mod=mod\n", 0o644) },
				want: []PolicyPath{
					{Path: j(p.base, "xc", "go-build"), Access: accessRWX, Why: "go build cache", Create: true},
					{Path: j(p.home, ".config", "go", "env"), Access: AccessRead, Why: "go env"},
				}}
		},
		func(p policyTree) envCase {
			return envCase{name: "bunx: ~/.bun/install/cache", command: []string{"bunx", "x"},
				want: []PolicyPath{{Path: j(p.home, ".bun", "install", "cache"), Access: accessRWX, Why: "bun cache", Create: true}}}
		},
	}
	for _, mk := range cases {
		p := newPolicyTree(t)
		c := mk(p)
		t.Run(c.name, func(t *testing.T) {
			withPasswdHome(t, p.home)
			if c.setup != nil {
				c.setup(t)
			}
			runEnvCase(t, p, c)
		})
	}
}

// TestPolicyRealHome: with HOME set elsewhere, the password database's
// home stays a home: a script in its ~/tools with a ~/package.json does
// not make it the script's package, an interpreter in its ~/.local/bin
// does not make ~/.local its install prefix, and nothing holding it is
// granted.
func TestPolicyRealHome(t *testing.T) {
	j := filepath.Join
	p := newPolicyTree(t)
	withPasswdHome(t, p.home)
	writeFile(t, j(p.home, "package.json"), "{}", 0o644)
	writeFile(t, j(p.home, "tools", "server.js"), "", 0o644)
	writeFile(t, j(p.home, ".local", "bin", "node"), "\x7fELF", 0o755)
	elsewhere := j(p.base, "elsewhere")
	must(t, os.Mkdir(elsewhere, 0o700))
	writeFile(t, j(p.home, ".ssh", "id_ed25519"), "KEY", 0o600)
	writeFile(t, j(p.home, ".ssh", "package.json"), "{}", 0o600)
	writeFile(t, j(p.home, ".aws", "credentials"), "KEY", 0o600)
	for _, c := range []envCase{{
		name:    "node ~/tools/server.js: the script, not the home",
		command: []string{"node", j(p.home, "tools", "server.js")},
		env:     []string{"HOME=" + elsewhere},
		want:    []PolicyPath{{Path: j(p.home, "tools", "server.js"), Access: AccessRead, Why: WhyPackage}},
		notHeld: []string{j(p.home, "package.json"), j(p.home, ".ssh")},
	}, {
		name:    "~/.local/bin/node: not ~/.local",
		command: []string{j(p.home, ".local", "bin", "node"), "x.js"},
		env:     []string{"HOME=" + elsewhere},
		notHeld: []string{j(p.home, ".local", "share")},
	}, {
		name:    "node --import=./x.mjs ~/.ssh/id_ed25519: the key is no script",
		command: []string{"node", "--import=./x.mjs", j(p.home, ".ssh", "id_ed25519")},
		absent:  []string{j(p.home, ".ssh")},
		refused: []string{"command"},
	}, {
		name:    "python3 ~/.aws/credentials: no",
		command: []string{"python3", j(p.home, ".aws", "credentials")},
		absent:  []string{j(p.home, ".aws")},
		refused: []string{"command"},
	}, {
		name:    "HOME unset: the password database's home gives the defaults",
		command: []string{"npx", "x"},
		env:     []string{"HOME="},
		want:    []PolicyPath{{Path: j(p.home, ".npm"), Access: accessRWX, Why: "npm cache", Create: true}},
	}} {
		t.Run(c.name, func(t *testing.T) { runEnvCase(t, p, c) })
	}
}

// TestPolicyPackageStops: a script's package is never a system folder:
// the search for a marker stops there.
func TestPolicyPackageStops(t *testing.T) {
	j := filepath.Join
	p := newPolicyTree(t)
	withPasswdHome(t, p.home)
	sys := j(p.base, "sys")
	saved := machineDirs
	machineDirs = func() []string { return append(saved(), sys) }
	t.Cleanup(func() { machineDirs = saved })
	writeFile(t, j(sys, "package.json"), "{}", 0o644)
	writeFile(t, j(sys, "app", "server.js"), "", 0o644)
	writeFile(t, j(sys, "pkg", "package.json"), "{}", 0o644)
	writeFile(t, j(sys, "pkg", "dist", "server.js"), "", 0o644)
	runEnvCase(t, p, envCase{
		command: []string{"node", j(sys, "app", "server.js")},
		want:    []PolicyPath{{Path: j(sys, "app", "server.js"), Access: AccessRead, Why: WhyPackage}},
		notHeld: []string{j(sys, "package.json")},
	})
	runEnvCase(t, p, envCase{
		command: []string{"node", j(sys, "pkg", "dist", "server.js")},
		want:    []PolicyPath{{Path: j(sys, "pkg"), Access: accessRX, Why: WhyPackage}},
		notHeld: []string{j(sys, "package.json")},
	})
}

// TestPolicyRefusalWords: a refusal says why in words, and where a link
// led.
func TestPolicyRefusalWords(t *testing.T) {
	j := filepath.Join
	p := newPolicyTree(t)
	withPasswdHome(t, p.home)
	symlink(t, j(p.home, ".ssh"), j(p.home, ".cache", "evil"))
	for _, c := range []struct {
		env  string
		want []string
	}{
		{"npm_config_cache=" + j(p.home, ".ssh"), []string{"not a cache folder", "~/.npm", "~/.cache"}},
		{"npm_config_cache=" + j(p.home, ".cache", "evil"), []string{"not a cache folder", j(p.home, ".ssh")}},
		{"npm_config_cache=/", []string{"root folder"}},
		{"npm_config_cache=" + p.home, []string{"home folder itself"}},
		{"npm_config_cache=/etc", []string{"system folder"}},
	} {
		r := EnvRefusals([]string{"npx", "-y", "x"}, p.env(c.env))
		if len(r) != 1 || r[0].Var != "npm_config_cache" {
			t.Errorf("%s: refused %+v", c.env, r)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(r[0].Why, w) {
				t.Errorf("%s: %q does not say %q", c.env, r[0].Why, w)
			}
		}
	}
	if r := EnvRefusals([]string{"npx", "-y", "x"}, p.env()); r != nil {
		t.Errorf("the defaults: refused %+v", r)
	}
	if r := EnvRefusals([]string{"node", "x.js"}, p.env("npm_config_cache=/")); r != nil {
		t.Errorf("no launcher, no cache: refused %+v", r)
	}
}

// TestPolicyRefusedJSON: the guard gets Refused along with the paths and
// ignores it; a policy with none writes no field.
func TestPolicyRefusedJSON(t *testing.T) {
	in := Policy{Paths: []PolicyPath{{Path: "/usr", Access: accessRX, Why: WhySystem}},
		Refused: []PolicyRefusal{{Var: "npm_config_cache", Value: "/root/.ssh", Why: "not a cache folder"}}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Policy
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out.Refused, in.Refused) || !slices.Equal(out.Paths, in.Paths) {
		t.Errorf("round trip: %+v", out)
	}
	if b, _ := json.Marshal(Policy{Paths: in.Paths}); strings.Contains(string(b), "refused") {
		t.Errorf("no refusal written as %s", b)
	}
}

// TestPasswdHome: the real passwdHome is os/user's home folder, resolved.
func TestPasswdHome(t *testing.T) {
	u, err := user.Current()
	if err != nil || !filepath.IsAbs(u.HomeDir) {
		t.Skipf("no home folder in the password database: %v", err)
	}
	want, err := filepath.EvalSymlinks(u.HomeDir)
	if err != nil {
		t.Skipf("the home folder %s: %v", u.HomeDir, err)
	}
	if got := passwdHome(); got != want {
		t.Errorf("passwdHome() = %q, want %q", got, want)
	}
	if got := lookupPasswdHome(); got != want {
		t.Errorf("lookupPasswdHome() = %q, want %q", got, want)
	}
}
