//go:build unix

package launch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// policyTree is a made-up machine under a temporary folder: a home with
// repositories and a key, runtimes installed outside it and inside it,
// launchers and packages.
type policyTree struct {
	base, home, a, b, bin string
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(content), mode))
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(link), 0o755))
	must(t, os.Symlink(target, link))
}

func newPolicyTree(t *testing.T) policyTree {
	base := tempDir(t)
	p := policyTree{base: base, home: filepath.Join(base, "home"), bin: filepath.Join(base, "bin")}
	p.a = filepath.Join(p.home, "src", "a")
	p.b = filepath.Join(p.home, "src", "b")
	for _, d := range []string{p.a, p.b, filepath.Join(p.home, ".ssh")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	writeFile(t, filepath.Join(p.home, ".ssh", "id_test"), "key", 0o600)
	const elf = "\x7fELF"
	// node installed in a folder of its own, outside home, on PATH
	// through a link.
	writeFile(t, filepath.Join(base, "opt", "node-v22", "bin", "node"), elf, 0o755)
	symlink(t, filepath.Join(base, "opt", "node-v22", "bin", "node"), filepath.Join(p.bin, "node"))
	// npx: a link to a script of npm's, run by node through env.
	writeFile(t, filepath.Join(base, "opt", "node-v22", "lib", "node_modules", "npm", "bin", "npx-cli.js"), "#!/usr/bin/env node\n", 0o755)
	writeFile(t, filepath.Join(base, "opt", "node-v22", "lib", "node_modules", "npm", "package.json"), "{}", 0o644)
	symlink(t, filepath.Join(base, "opt", "node-v22", "lib", "node_modules", "npm", "bin", "npx-cli.js"), filepath.Join(p.bin, "npx"))
	// A server installed in a project's node_modules, with a dependency
	// hoisted beside it, on PATH through node_modules/.bin.
	proj := filepath.Join(base, "proj")
	writeFile(t, filepath.Join(proj, "node_modules", "srvpkg", "package.json"), "{}", 0o644)
	writeFile(t, filepath.Join(proj, "node_modules", "srvpkg", "dist", "index.js"), "#!/usr/bin/env node\n", 0o755)
	writeFile(t, filepath.Join(proj, "node_modules", "dep", "index.js"), "", 0o644)
	symlink(t, "../srvpkg/dist/index.js", filepath.Join(proj, "node_modules", ".bin", "srv"))
	symlink(t, filepath.Join(proj, "node_modules", ".bin", "srv"), filepath.Join(p.bin, "srv"))
	// A package outside node_modules (node /x/y/dist/index.js).
	writeFile(t, filepath.Join(base, "tool", "package.json"), "{}", 0o644)
	writeFile(t, filepath.Join(base, "tool", "dist", "index.js"), "", 0o644)
	// A script straight in home, and node installed by nvm in home.
	writeFile(t, filepath.Join(p.home, "server.js"), "", 0o644)
	writeFile(t, filepath.Join(p.home, ".nvm", "versions", "node", "v22", "bin", "node"), elf, 0o755)
	// A Python virtual environment whose python links to a Python that uv
	// installed in home.
	py := filepath.Join(p.home, ".local", "share", "uv", "python", "cpython-3.12", "bin", "python3.12")
	writeFile(t, py, elf, 0o755)
	venv := filepath.Join(base, "venv")
	writeFile(t, filepath.Join(venv, "pyvenv.cfg"), "home = "+filepath.Dir(py)+"\n", 0o644)
	symlink(t, py, filepath.Join(venv, "bin", "python"))
	// go, and a module to go run.
	writeFile(t, filepath.Join(base, "goroot", "bin", "go"), elf, 0o755)
	symlink(t, filepath.Join(base, "goroot", "bin", "go"), filepath.Join(p.bin, "go"))
	writeFile(t, filepath.Join(base, "mod", "go.mod"), "module m\n", 0o644)
	must(t, os.MkdirAll(filepath.Join(base, "mod", "cmd", "srv"), 0o755))
	// A program in the current folder, reachable only through a relative
	// PATH entry, which exec does not use.
	writeFile(t, filepath.Join(base, "cwd", "sneaky"), elf, 0o755)
	return p
}

func (p policyTree) env(extra ...string) []string {
	return append([]string{"HOME=" + p.home, "PATH=" + p.bin + ":/usr/bin:/bin"}, extra...)
}

// TestBuildPolicy: what each kind of server may open, and why; nothing of
// home but what is consented, allowed or its launcher's own cache.
func TestBuildPolicy(t *testing.T) {
	p := newPolicyTree(t)
	tmp := filepath.Join(p.base, "tmp")
	must(t, os.MkdirAll(tmp, 0o700))
	j := filepath.Join
	type want struct {
		path   string
		access Access
		why    string
	}
	cases := []struct {
		name    string
		in      PolicyInput
		want    []want   // each present, with exactly this access and why
		absent  []string // none of these, nor anything below them, present
		notHeld []string // no folder holding one of these present
		creates []string // to be made by the starter
	}{{
		name: "a server on PATH through node_modules/.bin, run by node through env",
		in:   PolicyInput{Command: []string{"srv", p.b}, Env: p.env(), Consented: []string{p.a}, TmpDir: tmp},
		want: []want{
			{p.a, accessRWX, WhyConsented},
			{tmp, accessRWX, WhyTmp},
			{j(p.base, "proj", "node_modules"), accessRX, WhyPackage},
			{j(p.base, "opt", "node-v22"), accessRX, WhyInterpreter},
			{"/usr", accessRX, WhySystem},
			{"/proc", AccessRead, WhySystem},
			{"/dev/null", accessRW, WhyDevice},
		},
		absent:  []string{p.b, j(p.home, ".ssh"), j(p.base, "proj", "package.json"), "/run", "/var", "/dev/tty", "/dev/pts", "/dev/shm"},
		notHeld: []string{j(p.base, "proj", "package.json"), "/tmp/rootpick-probe", "/dev/tty"},
	}, {
		name: "env before the command: the command env runs counts",
		in:   PolicyInput{Command: []string{"/usr/bin/env", "FOO=1", "srv"}, Env: p.env()},
		want: []want{
			{j(p.base, "proj", "node_modules"), accessRX, WhyPackage},
			{j(p.base, "opt", "node-v22"), accessRX, WhyInterpreter},
		},
		absent: []string{p.a, p.b},
	}, {
		name: "npx: its npm package, node, and the npm cache (made if missing)",
		in:   PolicyInput{Command: []string{"npx", "-y", "@scope/server-x", p.b}, Env: p.env()},
		want: []want{
			{j(p.base, "opt", "node-v22"), accessRX, WhyInterpreter},
			{j(p.home, ".npm"), accessRWX, "npm cache"},
		},
		absent:  []string{p.b, j(p.home, "src")},
		creates: []string{j(p.home, ".npm")},
	}, {
		name:    "npx with npm_config_cache",
		in:      PolicyInput{Command: []string{"npx", "-y", "x"}, Env: p.env("npm_config_cache=" + j(p.base, "npmcache"))},
		want:    []want{{j(p.base, "npmcache"), accessRWX, "npm cache"}},
		creates: []string{j(p.base, "npmcache")},
		absent:  []string{j(p.home, ".npm")},
	}, {
		name:   "node /tool/dist/index.js: the package root with package.json",
		in:     PolicyInput{Command: []string{"node", j(p.base, "tool", "dist", "index.js"), p.a}, Env: p.env()},
		want:   []want{{j(p.base, "tool"), accessRX, WhyPackage}},
		absent: []string{p.a},
	}, {
		name: "a script straight in home: the file, not home",
		in:   PolicyInput{Command: []string{j(p.home, ".nvm", "versions", "node", "v22", "bin", "node"), j(p.home, "server.js")}, Env: p.env()},
		want: []want{
			{j(p.home, "server.js"), AccessRead, WhyPackage},
			{j(p.home, ".nvm", "versions", "node", "v22"), accessRX, WhyInterpreter},
		},
		absent: []string{j(p.home, "src"), j(p.home, ".ssh")},
	}, {
		name: "a Python virtual environment: the environment and the Python it links to",
		in:   PolicyInput{Command: []string{j(p.base, "venv", "bin", "python"), "-m", "srv"}, Env: p.env()},
		want: []want{
			{j(p.base, "venv"), accessRX, WhyPackage},
			{j(p.home, ".local", "share", "uv", "python", "cpython-3.12"), accessRX, WhyInterpreter},
		},
		absent: []string{j(p.home, ".local", "share", "uv", "python", "other")},
	}, {
		name: "uvx: uv's cache and the Pythons uv installed",
		in:   PolicyInput{Command: []string{"uvx", "mcp-server-git"}, Env: p.env()},
		want: []want{
			{j(p.home, ".cache", "uv"), accessRWX, "uv cache"},
			{j(p.home, ".local", "share", "uv", "python"), accessRX, "uv python"},
		},
		creates: []string{j(p.home, ".cache", "uv")},
	}, {
		name: "uv tool run with UV_CACHE_DIR",
		in:   PolicyInput{Command: []string{"uv", "tool", "run", "x"}, Env: p.env("UV_CACHE_DIR=" + j(p.base, "uvc"))},
		want: []want{
			{j(p.base, "uvc"), accessRWX, "uv cache"},
			{j(p.home, ".local", "share", "uv", "python"), accessRX, "uv python"},
		},
		creates: []string{j(p.base, "uvc")},
	}, {
		name:    "bunx",
		in:      PolicyInput{Command: []string{"bunx", "x"}, Env: p.env()},
		want:    []want{{j(p.home, ".bun", "install", "cache"), accessRWX, "bun cache"}},
		creates: []string{j(p.home, ".bun", "install", "cache")},
	}, {
		name: "pnpm dlx, with XDG folders moved",
		in:   PolicyInput{Command: []string{"pnpm", "dlx", "x"}, Env: p.env("XDG_DATA_HOME="+j(p.base, "data"), "XDG_CACHE_HOME="+j(p.base, "cache"))},
		want: []want{
			{j(p.base, "data", "pnpm"), accessRWX, "pnpm store"},
			{j(p.base, "cache", "pnpm"), accessRWX, "pnpm cache"},
		},
		creates: []string{j(p.base, "data", "pnpm"), j(p.base, "cache", "pnpm")},
	}, {
		name:   "pnpm without dlx is no launcher",
		in:     PolicyInput{Command: []string{"pnpm", "start"}, Env: p.env()},
		absent: []string{j(p.home, ".local"), j(p.home, ".cache")},
	}, {
		name: "go run ./cmd/srv: Go, its caches, the module",
		in:   PolicyInput{Command: []string{"go", "run", "-race", "./cmd/srv", p.a}, Env: p.env(), Dir: j(p.base, "mod")},
		want: []want{
			{j(p.base, "goroot"), accessRX, "go root"},
			{j(p.home, ".cache", "go-build"), accessRWX, "go build cache"},
			{j(p.home, "go", "pkg", "mod"), accessRWX, "go module cache"},
			{j(p.base, "mod"), accessRX, WhyPackage},
		},
		absent:  []string{p.a},
		creates: []string{j(p.home, ".cache", "go-build"), j(p.home, "go", "pkg", "mod")},
	}, {
		name: "go run with GOCACHE, GOMODCACHE and GOROOT set",
		in:   PolicyInput{Command: []string{"go", "run", "example.com/srv@latest"}, Env: p.env("GOCACHE="+j(p.base, "gc"), "GOMODCACHE="+j(p.base, "gm"), "GOROOT="+j(p.base, "goroot"))},
		want: []want{
			{j(p.base, "gc"), accessRWX, "go build cache"},
			{j(p.base, "gm"), accessRWX, "go module cache"},
		},
		absent:  []string{j(p.home, "go"), j(p.home, ".cache")},
		creates: []string{j(p.base, "gc"), j(p.base, "gm")},
	}, {
		name: "allow-read and allow-write; one that does not exist is left out",
		in:   PolicyInput{Command: []string{"srv"}, Env: p.env(), AllowRead: []string{p.b, j(p.base, "nope")}, AllowWrite: []string{j(p.home, ".ssh")}},
		want: []want{
			{p.b, accessRX, WhyAllowRead},
			{j(p.home, ".ssh"), accessRWX, WhyAllowWrite},
		},
		absent: []string{p.a, j(p.base, "nope")},
	}, {
		name:   "a relative PATH entry is not searched",
		in:     PolicyInput{Command: []string{"sneaky"}, Env: []string{"HOME=" + p.home, "PATH=.:" + p.bin}, Dir: j(p.base, "cwd")},
		absent: []string{j(p.base, "cwd")},
	}, {
		name:    "a system folder that holds home is left out",
		in:      PolicyInput{Command: []string{"srv"}, Env: []string{"HOME=/etc/rootpick-test-home", "PATH=" + p.bin}},
		notHeld: []string{"/etc/rootpick-test-home"},
		want:    []want{{"/usr", accessRX, WhySystem}, {"/etc/hosts", AccessRead, WhySystem}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := BuildPolicy(c.in)
			find := func(path string) (PolicyPath, bool) {
				i := slices.IndexFunc(got.Paths, func(pp PolicyPath) bool { return pp.Path == path })
				if i < 0 {
					return PolicyPath{}, false
				}
				return got.Paths[i], true
			}
			for _, w := range c.want {
				pp, ok := find(w.path)
				if !ok {
					t.Errorf("%s is missing", w.path)
					continue
				}
				if pp.Access != w.access || pp.Why != w.why {
					t.Errorf("%s: %s (%s), want %s (%s)", w.path, pp.Access, pp.Why, w.access, w.why)
				}
			}
			for _, pp := range got.Paths {
				for _, a := range c.absent {
					if within(pp.Path, a) {
						t.Errorf("%s (%s, %s) is granted; nothing of %s may be", pp.Path, pp.Access, pp.Why, a)
					}
				}
				for _, n := range append(c.notHeld, envMap(c.in.Env)["HOME"]) {
					if within(n, pp.Path) {
						t.Errorf("%s (%s, %s) is granted, and holds %s", pp.Path, pp.Access, pp.Why, n)
					}
				}
				// Nothing of home, but what the case grants by name.
				if within(pp.Path, p.home) || within(p.home, pp.Path) {
					named := slices.ContainsFunc(c.want, func(w want) bool { return w.path == pp.Path })
					if !named && !slices.Contains(c.creates, pp.Path) {
						t.Errorf("%s (%s, %s) opens home beyond the case", pp.Path, pp.Access, pp.Why)
					}
				}
				if pp.Create != slices.Contains(c.creates, pp.Path) {
					t.Errorf("%s: Create %v", pp.Path, pp.Create)
				}
				if _, err := os.Stat(pp.Path); err != nil && !pp.Create {
					t.Errorf("%s is granted but does not exist", pp.Path)
				}
			}
			if t.Failed() {
				for _, pp := range got.Paths {
					t.Logf("  %s %s %s", pp.Path, pp.Access, pp.Why)
				}
			}
		})
	}
}

// TestPolicyJSON: a policy goes to the guard as JSON and comes back whole;
// access reads as words.
func TestPolicyJSON(t *testing.T) {
	in := Policy{Paths: []PolicyPath{{Path: "/a", Access: accessRWX, Why: WhyConsented}, {Path: "/usr", Access: accessRX, Why: WhySystem}, {Path: "/dev/random", Access: AccessRead, Why: WhyDevice}}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"access":"read+write+exec"`) || !strings.Contains(string(b), `"access":"read+exec"`) {
		t.Errorf("JSON %s", b)
	}
	var out Policy
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(in.Paths, out.Paths) {
		t.Errorf("round trip: %+v, want %+v", out.Paths, in.Paths)
	}
	if got := in.Beyond(); len(got) != 2 || got[0].Path != "/usr" {
		t.Errorf("Beyond: %+v", got)
	}
	var a Access
	if err := a.UnmarshalText([]byte("read+bogus")); err == nil {
		t.Error("an unknown access word was read")
	}
}

// TestPolicyEdges: a folder granted twice keeps both accesses (consented
// and allow-read: still writable); a folder below another with only part
// of its access stays when it adds some; the random devices are read
// only; every Access round-trips through the guard's JSON.
func TestPolicyEdges(t *testing.T) {
	base := tempDir(t)
	a, sub := filepath.Join(base, "a"), filepath.Join(base, "ro", "w")
	must(t, os.MkdirAll(a, 0o755))
	must(t, os.MkdirAll(sub, 0o755))
	p := BuildPolicy(PolicyInput{Command: []string{"/bin/sh"}, Env: []string{"PATH=/usr/bin:/bin"},
		Consented: []string{a}, AllowRead: []string{a, filepath.Join(base, "ro")}, AllowWrite: []string{sub}})
	access := map[string]Access{}
	for _, pp := range p.Paths {
		access[pp.Path] = pp.Access
	}
	for path, want := range map[string]Access{
		a:                         accessRWX,
		filepath.Join(base, "ro"): accessRX,
		sub:                       accessRWX,
		"/dev/random":             AccessRead,
		"/dev/urandom":            AccessRead,
		"/dev/null":               accessRW,
	} {
		if _, err := os.Stat(path); err != nil {
			continue // a device this machine lacks
		}
		if got, ok := access[path]; !ok || got != want {
			t.Errorf("%s: %v (granted %v); want %v", path, got, ok, want)
		}
	}
	// prune on its own: a folder below one with less access stays; one
	// below with no more access goes.
	got := prune([]PolicyPath{
		{Path: "/x", Access: accessRX, Why: WhySystem},
		{Path: "/x/w", Access: accessRWX, Why: WhyAllowWrite},
		{Path: "/x/r", Access: AccessRead, Why: WhyPackage},
	})
	if len(got) != 2 || got[1].Path != "/x/w" {
		t.Errorf("prune kept %+v; want /x and /x/w", got)
	}
	for _, a := range []Access{AccessRead, accessRX, accessRWX, AccessConnect, AccessRead | AccessConnect} {
		b, err := a.MarshalText()
		must(t, err)
		var back Access
		if err := back.UnmarshalText(b); err != nil || back != a {
			t.Errorf("%v → %q → %v, %v", a, b, back, err)
		}
	}
}

// TestReadOnlyConsentPolicy: a folder shared read-only is granted reading
// and listing only, marked ReadOnly and said "read-only"; the server cap
// makes every consented folder so; and where Landlock's grants along the
// tree reach it anyway (inside a folder shared read and write, inside
// allow-write, allow-write on itself, inside an executable system
// folder), its Access is what the kernel allows in fact and Widened and
// Note name the grant that widens it. The folder shared read and write
// around it is unchanged.
func TestReadOnlyConsentPolicy(t *testing.T) {
	base := tempDir(t)
	j := filepath.Join
	rw, ro, nested, both, aw := j(base, "rw"), j(base, "ro"), j(base, "rw", "docs"), j(base, "both"), j(base, "aw")
	inAW := j(aw, "sub")
	for _, d := range []string{rw, ro, nested, both, inAW} {
		must(t, os.MkdirAll(d, 0o755))
	}
	in := PolicyInput{Command: []string{"/bin/sh"}, Env: []string{"PATH=/usr/bin:/bin"},
		Consented: []string{rw}, ReadOnly: []string{ro, nested, both, inAW, "/usr/share"}, AllowWrite: []string{both, aw}}
	p := BuildPolicy(in)
	got := map[string]PolicyPath{}
	for _, pp := range p.Paths {
		got[pp.Path] = pp
	}
	show := func(s string) string { return s }
	for _, c := range []struct {
		path     string
		access   Access
		readOnly bool
		widened  string // the Widened path, "" for none
		note     string
	}{
		{rw, accessRWX, false, "", ""},
		{ro, AccessRead, true, "", "read-only"},
		{nested, accessRWX, true, rw, "read-only consent; read+write+exec in fact, inside " + rw + " (read+write+exec, consented)"},
		{both, accessRWX, true, both, "read-only consent; read+write+exec in fact, also allow-write"},
		{inAW, accessRWX, true, aw, "read-only consent; read+write+exec in fact, inside " + aw + " (read+write+exec, allow-write)"},
		{"/usr/share", accessRX, true, "/usr", "read-only consent; read+exec in fact, inside /usr (read+exec, system)"},
	} {
		pp, ok := got[c.path]
		if !ok {
			if _, err := os.Stat(c.path); err != nil {
				continue // a system folder this machine lacks
			}
			t.Errorf("%s is not in the policy", c.path)
			continue
		}
		widened := ""
		if pp.Widened != nil {
			widened = pp.Widened.Path
		}
		if pp.Why != WhyConsented || pp.Access != c.access || pp.ReadOnly != c.readOnly || widened != c.widened {
			t.Errorf("%s: %s (%s), read-only %v, widened by %q; want %s (consented), read-only %v, widened by %q",
				c.path, pp.Access, pp.Why, pp.ReadOnly, widened, c.access, c.readOnly, c.widened)
		}
		if n := pp.Note(show, show); n != c.note {
			t.Errorf("%s: note %q, want %q", c.path, n, c.note)
		}
	}
	// The note and the flag reach the guard and the picker (JSON).
	b, err := json.Marshal(p)
	must(t, err)
	var back Policy
	must(t, json.Unmarshal(b, &back))
	for _, pp := range back.Paths {
		if pp.Path == nested && (!pp.ReadOnly || pp.Widened == nil || pp.Widened.Path != rw || pp.Access != accessRWX) {
			t.Errorf("after JSON: %+v", pp)
		}
	}

}
