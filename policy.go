package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/internal/wrapplan"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// policyCmd prints what a stdio server would be allowed to open, started
// now by rootpick (the picker, or the proxy of a profile): a dry run that
// starts nothing, for a person to read or paste into an issue.
type policyCmd struct {
	Command  []string `arg:"" optional:"" passthrough:"partial" name:"server-command" help:"The MCP server command (after --, or after the flags)."`
	Profile  string   `placeholder:"NAME" default:"${profile}" help:"Include the folders profile NAME has consented (default: ${default})."`
	StateDir string   `name:"state-dir" placeholder:"DIR" help:"Read consent from DIR (default: $$XDG_STATE_HOME/rootpick, else ~/.local/state/rootpick)."`
	ReadOnly bool     `name:"read-only" help:"Cap the server to reading: every consented folder is read-only for it, whatever the consent says."`
	sandboxFlags
}

func (o *policyCmd) Help() string {
	return `It reads what the kernel would let the server open: each path with its
access and the reason it is there (the profile's consented folders, the
server's runtime, its launcher's cache, what --allow-read, --allow-write
and --allow-socket add), its network, its unix sockets, and what its
environment asked for and would not get. Nothing is started, nothing is
written. Where the kernel cannot enforce it, it says so.

Examples:
  rootpick policy -- npx -y @modelcontextprotocol/server-filesystem
  rootpick policy --profile work --network off -- uvx mcp-server-git`
}

func (o *policyCmd) Run(e *env) error {
	command, err := serverCommand(e, "policy", o.Command)
	if err != nil {
		return err
	}
	if err := consent.ValidateProfile(o.Profile); err != nil {
		return usageError("policy: %v", err)
	}
	if err := useStateDir(e, o.StateDir); err != nil {
		return err
	}
	spec := mcpconn.Spec{Command: command, ReadOnly: o.ReadOnly}
	o.apply(&spec)
	var roots []consent.Root
	note := "profile " + o.Profile + ": nothing consented yet"
	if state, err := e.dirs.State(); err == nil {
		if store, err := consent.OpenStoreAt(state, o.Profile); err == nil {
			rec, err := store.Load()
			switch {
			case err == nil:
				roots = rec.Roots
				note = fmt.Sprintf("profile %s: %d consented folders", o.Profile, len(roots))
			case !errors.Is(err, fs.ErrNotExist):
				note = "profile " + o.Profile + ": its consent is not read (" + shown(err.Error()) + ")"
			}
		}
	}
	// Each folder with the access the record gives it (read-only, or read
	// and write), as the picker and the proxy would start the server.
	readWrite, readOnly := spec.ConsentedPaths(roots)
	if len(readOnly) > 0 {
		note += fmt.Sprintf(", %d of them read-only", len(readOnly))
	}
	p := launch.BuildPolicy(launch.PolicyInput{Command: command, Env: os.Environ(), Consented: readWrite, ReadOnly: readOnly,
		AllowRead: spec.AllowRead, AllowWrite: spec.AllowWrite, AllowSocket: spec.AllowSocket, NoNetwork: spec.Network.Off()})
	printPolicy(e.stdout, command, p, launch.WouldEnforce(spec.Enforce), note)
	return nil
}

// printPolicy writes what policy grants the server command, enforced or
// not as enf says, one path a line.
func printPolicy(w io.Writer, command []string, p launch.Policy, enf launch.Enforcement, note string) {
	home, _ := os.UserHomeDir()
	fmt.Fprintf(w, "%s: %s; %s\n", wrapplan.CommandLine(command[0], command[1:]), enf.String(), note)
	if !enf.Enforced {
		fmt.Fprintln(w, "Not enforced here: the server may open anything you can. Where enforced, it could open only:")
	}
	width := 0
	for _, pp := range p.Paths {
		width = max(width, len(pp.Access.String()))
	}
	for _, pp := range p.Paths {
		why := safetext.Escape(pp.Why)
		// A folder shared read-only says so, and where a wider grant
		// reaches it (nested in a folder shared read and write), what it
		// is in fact.
		if n := pp.Note(func(p string) string { return wrapplan.ShownFolder(p, home) }, shown); n != "" {
			why += "; " + n
		}
		fmt.Fprintf(w, "  %-*s  %s  (%s)\n", width, pp.Access, wrapplan.ShownFolder(pp.Path, home), why)
	}
	fmt.Fprintf(w, "  %-*s  %s  (%s)\n", width, "read+write+exec", "its own TMPDIR, made at each start, removed after", launch.WhyTmp)
	fmt.Fprintf(w, "network   %s\n", p.NetworkWords())
	fmt.Fprintf(w, "sockets   %s\n", safetext.Escape(p.UnixSockets(enf.ABI)))
	fmt.Fprintln(w, "metadata  mode and times only where it may write; owner and extended attributes nowhere")
	for _, r := range p.Refused {
		fmt.Fprintf(w, "not granted: %s: %s\n", r.Subject(wrapplan.ShownPath(home), shown), shown(r.Why))
	}
	if runningAsRoot() {
		fmt.Fprintln(w, "warning: run as root, a server reads all that root can in its runtime (/etc/shadow, other processes' /proc)")
	}
}
