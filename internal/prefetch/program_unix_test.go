//go:build unix

package prefetch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstalled: a prefetch starts a package runner found on PATH — the
// bare name's, or an absolute path that is exactly it — and never a
// relative path, a path PATH does not find, nor a program that is (or
// whose link leads) inside the project or a folder the server is given.
func TestInstalled(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bin, project, other := filepath.Join(dir, "bin"), filepath.Join(dir, "project"), filepath.Join(dir, "other")
	given := filepath.Join(dir, "given")
	script := func(path string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	npx := script(filepath.Join(bin, "npx"))
	evil := script(filepath.Join(project, "evilbin", "npx"))
	script(filepath.Join(project, "bin", "uvx"))
	script(filepath.Join(other, "npx"))
	script(filepath.Join(given, "pnpm"))
	if err := os.Symlink(filepath.Join(given, "pnpm"), filepath.Join(bin, "pnpm")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", strings.Join([]string{bin, filepath.Join(project, "bin")}, string(filepath.ListSeparator)))
	places := []Place{{Path: project, Name: "the project"}, {Path: given, Name: "the folder given"}}

	tests := []struct {
		command string
		want    string // the program, or "error: " and what the refusal says
	}{
		{"npx", npx},
		{npx, npx},
		{"./evilbin/npx", "error: its command ./evilbin/npx is inside the project, not an installed launcher"},
		{"evilbin/npx", "error: its command evilbin/npx is inside the project, not an installed launcher"},
		{evil, "error: its command " + evil + " is inside the project, not an installed launcher"},
		{"../other/npx", "error: its command ../other/npx is a relative path, not an installed launcher found on PATH"},
		{filepath.Join(other, "npx"), "error: its command " + filepath.Join(other, "npx") + " is not the npx on PATH (" + npx + "), not an installed launcher"},
		{"uvx", "error: its command uvx is " + filepath.Join(project, "bin", "uvx") + ", inside the project, not an installed launcher"},
		{"pnpm", "error: its command pnpm is " + filepath.Join(bin, "pnpm") + ", inside the folder given, not an installed launcher"},
		{"bunx", "error: its command bunx is not found on PATH"},
		{"node", "error: its command node is no package runner rootpick fetches with"},
	}
	for _, tt := range tests {
		got, err := Installed(tt.command, project, places)
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != tt.want && !(strings.HasPrefix(tt.want, "error: ") && strings.HasPrefix(got, tt.want)) {
			t.Errorf("Installed(%q) = %q; want %q", tt.command, got, tt.want)
		}
	}

	// A relative folder of PATH is the current folder's: refused.
	t.Chdir(project)
	t.Setenv("PATH", "evilbin")
	if _, err := Installed("npx", project, nil); err == nil || !strings.Contains(err.Error(), "relative folder of PATH") {
		t.Errorf("npx through a relative PATH folder: %v; want it refused", err)
	}
}

// TestProgramsAreRunners: Programs, the programs a prefetch may start,
// are those Of reads as package runners: each one's command line is read,
// and a program that is not one of them is not.
func TestProgramsAreRunners(t *testing.T) {
	lines := map[string][]string{
		"npx": {"-y", "p"}, "npm": {"exec", "p"}, "uvx": {"p"}, "uv": {"tool", "run", "p"}, "pnpm": {"dlx", "p"},
		"pnpx": {"p"}, "bunx": {"p"}, "bun": {"x", "p"}, "yarn": {"dlx", "p"},
	}
	if len(lines) != len(Programs) {
		t.Errorf("Programs %q; this test knows %d", Programs, len(lines))
	}
	for _, name := range Programs {
		if _, ok := Of(append([]string{name}, lines[name]...)); !ok {
			t.Errorf("%s is in Programs, but Of does not read %q", name, append([]string{name}, lines[name]...))
		}
	}
	for _, name := range []string{"node", "python3", "deno", "sh"} {
		if _, ok := Of([]string{name, "p"}); ok {
			t.Errorf("Of reads %s as a package runner, which Programs lacks", name)
		}
	}
}
