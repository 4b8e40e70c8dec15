//go:build unix

package launch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPolicyShellCommand: a server started through a shell's -c string
// gets what the string's commands run: the program a command names and
// its package, npx's cache, a script it sources and that script's
// package, through exec, env, &&, pipes and quotes; a program named by a
// variable grants nothing.
func TestPolicyShellCommand(t *testing.T) {
	base := tempDir(t)
	home := filepath.Join(base, "home")
	bin := filepath.Join(base, "opt", "srv", "bin")
	pkg := filepath.Join(base, "opt", "srv")
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte("{}"), 0o644))
	must(t, os.WriteFile(filepath.Join(bin, "myserver"), []byte("#!/bin/sh\nexit 0\n"), 0o755))
	nvm := filepath.Join(home, ".nvm")
	must(t, os.MkdirAll(nvm, 0o755))
	must(t, os.WriteFile(filepath.Join(nvm, "nvm.sh"), []byte("# nvm\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(nvm, "package.json"), []byte("{}"), 0o644))
	// Wrapper scripts, run as the server's program: one with a shell's
	// #! line (read), one with env bash (read), one with node's (not a
	// shell: not read).
	wrappers := filepath.Join(base, "wrappers")
	must(t, os.MkdirAll(wrappers, 0o755))
	must(t, os.WriteFile(filepath.Join(wrappers, "fs.sh"), []byte("#!/bin/sh\nset -e\nexec npx -y @modelcontextprotocol/server-filesystem \"$@\"\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(wrappers, "srv.bash"), []byte("#!/usr/bin/env bash\nsource ~/.nvm/nvm.sh\nmyserver --stdio\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(wrappers, "srv.js"), []byte("#!/usr/bin/env node\n// exec myserver\n"), 0o755))
	env := []string{"HOME=" + home, "PATH=" + bin + ":/usr/bin:/bin"}
	withPasswdHome(t, home)
	for _, c := range []struct {
		name    string
		command []string
		want    []string // granted, with these reasons
		whys    []string
		not     []string
	}{
		{"sh -c exec", []string{"sh", "-c", "exec myserver --stdio"}, []string{filepath.Join(bin, "myserver"), pkg}, []string{WhyProgram, WhyPackage}, nil},
		{"bash -lc with env and &&", []string{"bash", "-lc", `cd /tmp && env FOO=1 myserver | cat`}, []string{filepath.Join(bin, "myserver")}, []string{WhyProgram}, nil},
		{"source nvm, then npx", []string{"/bin/bash", "-c", `source ~/.nvm/nvm.sh && npx -y "@modelcontextprotocol/server-filesystem"`},
			[]string{filepath.Join(nvm, "nvm.sh"), nvm, filepath.Join(home, ".npm")}, []string{WhyPackage, WhyPackage, "npm cache"}, nil},
		{"a program in a variable", []string{"sh", "-c", `exec "$SERVER"`}, nil, nil, []string{pkg}},
		{"no -c", []string{"sh", "myserver"}, nil, nil, []string{pkg}},
		{"a wrapper script with #!/bin/sh", []string{filepath.Join(wrappers, "fs.sh"), "/src"}, []string{filepath.Join(home, ".npm")}, []string{"npm cache"}, nil},
		{"a wrapper script with #!/usr/bin/env bash", []string{filepath.Join(wrappers, "srv.bash")},
			[]string{filepath.Join(nvm, "nvm.sh"), filepath.Join(bin, "myserver")}, []string{WhyPackage, WhyProgram}, nil},
		{"a node script is not read as a shell", []string{filepath.Join(wrappers, "srv.js")}, nil, nil, []string{pkg}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := BuildPolicy(PolicyInput{Command: c.command, Env: env})
			for i, w := range c.want {
				// Granted itself, or through a folder above it (a
				// program's file is pruned below its package).
				if !slices.ContainsFunc(p.Paths, func(pp PolicyPath) bool {
					return within(w, pp.Path) && pp.Access&AccessRead != 0 && (pp.Why == c.whys[i] || pp.Path != w) && pp.Why != WhySystem
				}) {
					t.Errorf("%s (%s) not granted: %+v", w, c.whys[i], p.Paths)
				}
			}
			for _, n := range c.not {
				if slices.ContainsFunc(p.Paths, func(pp PolicyPath) bool {
					return within(pp.Path, n) || within(n, pp.Path) && pp.Path != "/" && pp.Why != WhySystem
				}) {
					t.Errorf("%s granted: %+v", n, p.Paths)
				}
			}
		})
	}
	for _, c := range []struct {
		args []string
		want string
		ok   bool
	}{
		{[]string{"-c", "x"}, "x", true},
		{[]string{"-ec", "x"}, "x", true},
		{[]string{"-l", "-c", "x"}, "x", true},
		{[]string{"script.sh", "-c", "x"}, "", false},
		{[]string{"--norc", "-c", "x"}, "", false},
		{[]string{"-c"}, "", false},
	} {
		if got, ok := shellCommand(c.args); got != c.want || ok != c.ok {
			t.Errorf("shellCommand(%q) = %q, %v; want %q, %v", c.args, got, ok, c.want, c.ok)
		}
	}
}
