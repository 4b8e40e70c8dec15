package main

import (
	"fmt"
	"runtime/debug"

	"github.com/alecthomas/kong"
	"github.com/rootpick/rootpick/mcpconn"
)

// versionCmd prints the version, the commit and its date (the build's VCS
// stamp: reproducible, unlike the time of the build).
type versionCmd struct{}

func (versionCmd) Run(e *env) error {
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintln(e.stdout, versionLine(bi))
	return nil
}

// versionFlag is --version: like the version command, then exit.
type versionFlag bool

func (versionFlag) BeforeReset(app *kong.Kong) error {
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintln(app.Stdout, versionLine(bi))
	app.Exit(0)
	return nil
}

// versionLine says which rootpick this is: the module version (or the
// source's when built from a checkout), and the commit and its time from
// the build's VCS stamp (go build -buildvcs, the default in a checkout),
// marked when the tree had changes.
func versionLine(bi *debug.BuildInfo) string {
	v, commit, date, dirty := version(), "unknown", "unknown", false
	if bi != nil {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
				if len(commit) > 12 {
					commit = commit[:12]
				}
			case "vcs.time":
				date = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if dirty {
		commit += " (modified)"
	}
	return fmt.Sprintf("rootpick %s, commit %s, date %s", v, commit, date)
}

// version is the module version when installed with go install, else the
// version the source declares.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return mcpconn.Version
}
