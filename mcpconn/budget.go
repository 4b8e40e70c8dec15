package mcpconn

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/rootpick/rootpick/mcpconn/launch"
)

// How long a server gets to answer initialize. Most servers start in well
// under a second; one run through a package runner may first download
// itself, which takes longer than DefaultInitTimeout on a cold cache.

// initBudget is how long a start of spec may take to answer initialize.
// An explicit budget (Options.InitTimeout) is always used. Otherwise a
// server run through a package runner (npx, uvx, …) gets the longer
// FirstRunInit until it has connected once, since its first start may
// download the package (a cold npx -y @modelcontextprotocol/server-
// filesystem takes longer than 15 s); every other start gets DefaultInit.
func initBudget(spec Spec, explicit time.Duration, t Timing, connectedBefore bool) time.Duration {
	if explicit > 0 {
		return explicit
	}
	if !connectedBefore && len(spec.Command) > 0 && packageRunner(spec.Command) {
		return t.FirstRunInit
	}
	return t.DefaultInit
}

// packageRunner reports whether command runs a program through a runner
// that fetches it on first use: npx, pnpx, bunx, uvx, pnpm dlx, npm exec
// (or npm x), yarn dlx, bun x, uv tool run; also behind env(1).
func packageRunner(command []string) bool {
	if len(command) == 0 {
		return false
	}
	name := strings.ToLower(filepath.Base(command[0]))
	for _, ext := range []string{".cmd", ".exe", ".ps1"} { // npx.cmd on Windows
		name = strings.TrimSuffix(name, ext)
	}
	var words []string // the first words of the command that are no options
	for _, a := range command[1:] {
		if !strings.HasPrefix(a, "-") {
			words = append(words, a)
			if len(words) == 2 {
				break
			}
		}
	}
	word := func(i int) string {
		if i < len(words) {
			return words[i]
		}
		return ""
	}
	switch name {
	case launch.EnvProgram:
		return packageRunner(launch.EnvCommand(command[1:]))
	case "npx", "pnpx", "bunx", "uvx":
		return true
	case "pnpm", "yarn":
		return word(0) == "dlx"
	case "npm":
		return word(0) == "exec" || word(0) == "x"
	case "bun":
		return word(0) == "x"
	case "uv":
		return word(0) == "tool" && word(1) == "run"
	}
	return false
}
