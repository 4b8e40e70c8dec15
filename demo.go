package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/internal/sampleworkspace"
	"github.com/rootpick/rootpick/mcpconn"
)

// demoCmd opens the picker on a sample workspace made for the occasion in
// a temporary folder, serving the built-in demo server, and removes the
// folder at exit.
type demoCmd struct {
	// Command only documents the server command, as pick's does.
	Command []string `arg:"" optional:"" name:"server-command" help:"After --: an MCP server to try the demo with, in place of the built-in demo server."`

	// A server named after -- runs as the default command's do: under the
	// kernel's ruleset, unless told otherwise.
	sandboxFlags

	Keep  bool   `help:"Keep the sample workspace at exit, and print where it is."`
	Debug bool   `help:"Log at debug level."`
	Log   string `placeholder:"FILE" type:"path" help:"Write the log to FILE (default: beside the sample workspace, removed with it)."`
}

func (d *demoCmd) Help() string {
	return `The workspace holds a few dozen repositories under services/, web/, infra/,
libs/, archive/ and more: branches, uncommitted changes, a linked worktree,
a submodule, a bare mirror, Mercurial, Subversion and Jujutsu working
copies, plain projects, a broken worktree and a service with a .env file.
It is written without the git program. The demo keeps its consent and its
log in the same temporary folder, apart from your own: what you confirm in
it never reaches a proxy of yours.

Examples:
  rootpick demo
  rootpick demo -- npx -y @modelcontextprotocol/server-filesystem
  rootpick demo --keep                then: rootpick PATH`
}

func (d *demoCmd) Run(e *env) (err error) {
	if len(d.Command) > 0 {
		return usageError("demo takes no folder, got %q (a server command goes after --)", d.Command[0])
	}
	// A signal while the workspace is written (before the picker handles
	// signals) must not leave it behind: it is noted, and the demo stops
	// once the workspace can be removed. The picker's own handling takes
	// over while it runs; this keeps catching signals until the removal
	// is done.
	sigs := onSignals(context.Background())
	defer sigs.stop()

	// Demos killed before their clean-up (SIGKILL, SIGQUIT, SIGABRT) left
	// their folders; those whose owner is gone go now.
	swept, _ := sampleworkspace.SweepTemp()
	tmp, err := sampleworkspace.MakeTemp(d.Keep)
	if err != nil {
		return fmt.Errorf("making the sample workspace: %w", err)
	}
	ws := filepath.Join(tmp, "src")
	var once sync.Once
	var rmErr error
	remove := func() {
		once.Do(func() {
			if !d.Keep {
				rmErr = os.RemoveAll(tmp)
			}
		})
	}
	defer func() {
		// Also on a panic in this goroutine (the UI's): deferred calls
		// run before the program dies.
		remove()
		shown := safetext.Escape(ws)
		switch {
		case d.Keep:
			fmt.Fprintf(e.stdout, "The sample workspace is kept at %s (rootpick %s opens it again).\n", shown, shown)
		case rmErr != nil:
			fmt.Fprintf(e.stderr, "rootpick: the sample workspace %s could not be removed: %v\n", shown, rmErr)
			if err == nil {
				err = exitError{code: 1}
			}
		default:
			fmt.Fprintf(e.stdout, "The sample workspace %s was removed.\n", shown)
		}
		if len(swept) > 0 {
			what := "1 sample workspace"
			if len(swept) > 1 {
				what = fmt.Sprintf("%d sample workspaces", len(swept))
			}
			fmt.Fprintf(e.stdout, "Also removed %s left behind by demos that were killed.\n", what)
		}
	}()

	if _, err := sampleworkspace.Create(ws); err != nil {
		return fmt.Errorf("making the sample workspace: %w", err)
	}
	if sig, ok := sigs.signal(); ok {
		return signalExit(sig)
	}
	dir, err := dirArg([]string{ws})
	if err != nil {
		return err
	}
	p := &pickCmd{
		Protocol:    mcpconn.DefaultProtocolVersion,
		InitTimeout: positiveDuration(mcpconn.DefaultInitTimeout),
		Profile:     consent.DefaultProfile,
		// The demo's consent stays with the demo: a proxy of the person's
		// own profile would otherwise serve the sample folders to their
		// agent.
		StateDir:     filepath.Join(tmp, "state"),
		sandboxFlags: d.sandboxFlags,
		Debug:        d.Debug,
		Log:          d.Log,
		// A panic on another goroutine ends the program without running
		// the deferred removal.
		onPanic: remove,
		intro:   true,
	}
	// No server named: the built-in demo server, whatever the config
	// file names (demo does not read it) — as a stdio server of its own
	// (this program's serve-demo), so that it runs under the guard like
	// any other, enforced where the kernel can: the first consent a
	// newcomer sees is the boundary, and the demo says after each change
	// what it could and could not list.
	command := e.command
	if len(command) == 0 {
		if exe, err := os.Executable(); err == nil {
			command = []string{exe, "serve-demo", "--try"}
		}
	}
	specs, err := p.serverSpecs(command, &configFile{})
	if err != nil {
		return err
	}
	if len(e.command) == 0 && len(specs) == 1 && len(specs[0].Command) > 0 {
		specs[0].Name = "rootpick-demo"
	}
	return p.pick(e, dir, specs)
}
