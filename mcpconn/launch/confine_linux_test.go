package launch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/prefetch"
)

// confineHome is a person's home with a key in .ssh, and a fake npx
// first on PATH whose body is body (a shell script).
func confineHome(t *testing.T, body string) (home, project string) {
	t.Helper()
	dir := tempDir(t)
	home, project = filepath.Join(dir, "home"), filepath.Join(dir, "home", "src", "project")
	bin := filepath.Join(dir, "bin")
	for _, d := range []string{filepath.Join(home, ".ssh"), project, bin} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("private"), 0o600))
	must(t, os.WriteFile(filepath.Join(bin, "npx"), []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	t.Setenv("HOME", home)
	t.Setenv("npm_config_cache", "")
	t.Setenv("NPM_CONFIG_CACHE", "")
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	return home, project
}

// TestConfinePrefetch: a prefetch run through Confine (as hosts wrap runs
// it) runs under the ruleset its server would get: a launcher that tries
// to read the person's key is refused (EACCES), and so is a write in the
// home folder or the project, while its npm cache (~/.npm, made for it)
// and its private TMPDIR are writable; the TMPDIR is gone afterwards.
func TestConfinePrefetch(t *testing.T) {
	needLandlock(t)
	home, project := confineHome(t, `cache="$HOME/.npm"
mkdir -p "$cache"
if cat "$HOME/.ssh/id_ed25519" > "$cache/stolen" 2> "$cache/read-error"; then echo read > "$cache/result"; else echo refused > "$cache/result"; fi
echo planted > "$HOME/planted" 2>/dev/null
echo planted > "$PWD/planted" 2>/dev/null
echo "$TMPDIR" > "$cache/tmpdir"
echo tmp > "$TMPDIR/t" && echo fetched > "$cache/marker"`)
	program, err := prefetch.Installed("npx", project, []prefetch.Place{{Path: project, Name: "the project"}})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := prefetch.Of([]string{"npx", "-y", "@scope/server-x"})
	if _, err := prefetch.Run(context.Background(), l, prefetch.Options{Env: os.Environ(), Dir: project, Program: program, Confine: Confine, Name: "fs"}); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(home, ".npm")
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(cache, name))
		return strings.TrimSpace(string(b))
	}
	if got := read("result"); got != "refused" {
		t.Errorf("the launcher's read of ~/.ssh/id_ed25519: %q (it stole %q); want refused", got, read("stolen"))
	}
	if got := read("read-error"); !strings.Contains(got, "Permission denied") {
		t.Errorf("the refused read said %q; want Permission denied (EACCES)", got)
	}
	if got := read("marker"); got != "fetched" {
		t.Errorf("the launcher could not write its npm cache and its TMPDIR (marker %q)", got)
	}
	for _, p := range []string{filepath.Join(home, "planted"), filepath.Join(project, "planted")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the launcher wrote %s", p)
		}
	}
	tmp := read("tmpdir")
	if !strings.HasPrefix(filepath.Base(tmp), tmpPrefix) {
		t.Errorf("the launcher's TMPDIR is %q; want a private one (%s…)", tmp, tmpPrefix)
	} else if _, err := os.Stat(tmp); err == nil {
		t.Errorf("the private TMPDIR %s is left behind", tmp)
	}
}

// TestConfineFailsClosed: where this program cannot act as a guard,
// Confine says why and leaves the command as it was, which its caller
// does not start; a program the guard cannot start is said in the
// guard's words, not as exit status 127.
func TestConfineFailsClosed(t *testing.T) {
	needLandlock(t)
	cmd := exec.Command("/bin/true")
	guardEnabled.Store(false)
	_, err := Confine(cmd)
	guardEnabled.Store(true)
	if err == nil || !strings.Contains(err.Error(), "no guard process") {
		t.Errorf("Confine without a guard: %v; want an error naming the missing guard", err)
	}
	if cmd.Path != "/bin/true" || !slices.Equal(cmd.Args, []string{"/bin/true"}) || cmd.Env != nil || len(cmd.ExtraFiles) > 0 {
		t.Errorf("a refused Confine changed the command: %q %q", cmd.Path, cmd.Args)
	}

	script := filepath.Join(tempDir(t), "server")
	must(t, os.WriteFile(script, []byte("#!/nonexistent/interpreter\n"), 0o755))
	cmd = exec.Command(script)
	finish, err := Confine(cmd)
	if err != nil {
		t.Fatal(err)
	}
	err = cmd.Start()
	if err == nil {
		err = cmd.Wait()
	}
	if err = finish(err); err == nil || !strings.Contains(err.Error(), "its interpreter (the #! line) was not found") {
		t.Errorf("a program the guard could not start: %v; want the guard's reason", err)
	}
}
