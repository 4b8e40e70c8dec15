package prefetch

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Programs are the package runners' programs, as a command names them
// (without .exe, .cmd…): the programs Of reads, and the only ones a
// prefetch starts (Installed).
var Programs = []string{"npx", "npm", "uvx", "uv", "pnpm", "pnpx", "bunx", "bun", "yarn"}

// programName is the runner's name in command: its base name, without
// a Windows extension, lower-cased (Of's reading).
func programName(command string) string {
	name := strings.ToLower(filepath.Base(strings.ReplaceAll(command, `\`, "/")))
	for _, ext := range []string{".exe", ".cmd", ".bat", ".ps1"} {
		name = strings.TrimSuffix(name, ext)
	}
	return name
}

// Place is a folder a prefetch's program must not be in, named for
// messages: "the project", "the folder ~/src it is given".
type Place struct {
	Path, Name string
}

// NotInstalledError says why Installed refused a command: its words
// follow the server's name ("fs: not fetched ahead: its command
// ./evilbin/npx is inside the project, not an installed launcher").
type NotInstalledError struct {
	Command string
	Why     string
}

func (e *NotInstalledError) Error() string {
	return "its command " + e.Command + " " + e.Why
}

// Installed returns the program a prefetch of a launcher whose command is
// command may start: a package runner installed on this process's PATH.
// That is what exec.LookPath finds for command when it is a bare name
// (npx), or command itself when it is an absolute path that is exactly
// what LookPath finds for its base name. Never a relative path (a
// project's ./evilbin/npx), nor a program whose file (symlinks resolved)
// is inside one of not: the project, the folders the server is given or
// consented, which a repository or a server can write. dir is the folder
// a relative command would be found from (the host's workspace), only to
// name where it is.
//
// Running the program runs the package's install scripts, at wrap time and
// on the person's behalf, so the program itself must be one the person
// installed, not one a project file names.
func Installed(command, dir string, not []Place) (string, error) {
	refuse := func(why string, args ...any) (string, error) {
		return "", &NotInstalledError{Command: command, Why: fmt.Sprintf(why, args...)}
	}
	name := programName(command)
	if !slices.Contains(Programs, name) {
		return refuse("is no package runner rootpick fetches with (%s)", strings.Join(Programs, ", "))
	}
	bare := !strings.ContainsAny(command, `/`) && (runtime.GOOS != "windows" || !strings.ContainsAny(command, `\:`))
	found, lookErr := exec.LookPath(filepath.Base(command))
	if !bare {
		p := command
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		if place, ok := inside(p, not); ok {
			return refuse("is inside %s, not an installed launcher", place.Name)
		}
		switch {
		case !filepath.IsAbs(command):
			return refuse("is a relative path, not an installed launcher found on PATH")
		case lookErr != nil:
			return refuse("is not the %s on PATH (there is none): not an installed launcher", name)
		case filepath.Clean(command) != found:
			return refuse("is not the %s on PATH (%s), not an installed launcher", name, found)
		}
	}
	switch {
	case errors.Is(lookErr, exec.ErrDot):
		return refuse("is found only through a relative folder of PATH, not an installed launcher")
	case lookErr != nil:
		return refuse("is not found on PATH")
	case !filepath.IsAbs(found):
		return refuse("is found at %s, a relative path, not an installed launcher", found)
	}
	if place, ok := inside(found, not); ok {
		return refuse("is %s, inside %s, not an installed launcher", found, place.Name)
	}
	return found, nil
}

// inside returns the place of not that p is in, its symlinks resolved
// (and the places'), or false.
func inside(p string, not []Place) (Place, bool) {
	p = filepath.Clean(p)
	resolved := p
	if r, err := filepath.EvalSymlinks(p); err == nil {
		resolved = r
	}
	for _, place := range not {
		if place.Path == "" {
			continue
		}
		dirs := []string{filepath.Clean(place.Path)}
		if r, err := filepath.EvalSymlinks(place.Path); err == nil && r != dirs[0] {
			dirs = append(dirs, r)
		}
		for _, d := range dirs {
			for _, q := range []string{p, resolved} {
				if within(q, d) {
					return place, true
				}
			}
		}
	}
	return Place{}, false
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && filepath.IsLocal(rel)
}
