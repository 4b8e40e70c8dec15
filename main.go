// Command rootpick is a terminal workspace picker for the Model Context
// Protocol: it finds the repositories under a folder, lets a person choose
// which of them an MCP server may see, asks for consent, and serves exactly
// that choice to the servers as roots.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/internal/redact"
)

// cli is the whole command line: one field per command, each a struct with
// its flags and a Run method in its own file.
type cli struct {
	Version versionFlag `help:"Print the version, commit and commit date, and exit." short:"V"`
	Config  string      `placeholder:"FILE" type:"path" help:"Read the config file FILE (default: $$ROOTPICK_CONFIG, else $$XDG_CONFIG_HOME/rootpick/config.toml)."`

	Pick       pickCmd       `cmd:"" default:"withargs" help:"Pick repositories, ask for consent, serve them as roots (the default command)."`
	Demo       demoCmd       `cmd:"" help:"Try the picker on a sample workspace, made in a temporary folder and removed at exit."`
	List       listCmd       `cmd:"" help:"Print the repositories found under DIR, with no UI."`
	Proxy      proxyCmd      `cmd:"" help:"Be an MCP stdio server for an agent host, serving a profile's consent to SERVER_COMMAND."`
	Hosts      hostsCmd      `cmd:"" help:"List the MCP servers agent hosts configure; wrap or unwrap them in rootpick proxy."`
	ServeDemo  serveDemoCmd  `cmd:"" name:"serve-demo" help:"Run the built-in roots-aware demo MCP server on stdio."`
	Policy     policyCmd     `cmd:"" help:"Print what a stdio server would be allowed to open, enforced, without starting it."`
	Forget     forgetCmd     `cmd:"" help:"Clear the remembered consent of a profile."`
	VersionCmd versionCmd    `cmd:"" name:"version" help:"Print the version, commit and commit date."`
	Completion completionCmd `cmd:"" help:"Print the shell completion script for bash, zsh or fish."`
	Man        manCmd        `cmd:"" help:"Print the man page (roff) on stdout."`
	Help       helpCmd       `cmd:"" help:"Show the help of a command."`
	ConfigCmd  configCmd     `cmd:"" name:"config" help:"Show the config file's path or the settings it gives."`

	// config is the config file read by BeforeResolve (config.go), and
	// configPath the file in use.
	config     *configFile
	configPath string
	// dirs is where the default config file is (env.dirs).
	dirs paths.Dirs
}

const description = `Choose the folders an MCP server may see, and serve them as roots.

DIR defaults to the config file's dir, else the current folder. With no
server named on the command line, rootpick serves the config file's servers,
else the built-in demo server in-process (see 'rootpick config --help').

Examples:
  rootpick demo                                      try it on a sample workspace
  rootpick ~/src                                     pick under ~/src, demo server
  rootpick ~/src -- npx -y @modelcontextprotocol/server-filesystem
  rootpick --server 'uvx mcp-server-git' --url http://localhost:3000/mcp
  rootpick --print ~/src | jq -r '.[].path'          the chosen folders as JSON
  rootpick list --json ~/src                         no UI: JSON Lines
  rootpick proxy --print-config claude -- npx -y @modelcontextprotocol/server-filesystem
  rootpick hosts wrap claude --profile work          put Claude Code's servers behind the proxy`

// env is what every Run gets: where to write.
type env struct {
	stdout, stderr io.Writer
	// command is what followed the first "--" on the command line.
	command []string
	// dashdash says whether there was a "--".
	dashdash bool
	// config is the config file in effect (never nil), configPath its path.
	config     *configFile
	configPath string
	// dirs is where rootpick keeps its files in this run (the environment's
	// folders, and the state folder --state-dir names: useStateDir).
	dirs paths.Dirs
}

// exitError carries an exit code out of run; msg, if any, is printed first.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return "exit " + strconv.Itoa(e.code) }

// catchExit, deferred, turns a panic with an exitError (kong's exit, see
// newParser) into *err; any other panic goes on.
func catchExit(err *error) {
	if r := recover(); r != nil {
		ee, ok := r.(exitError)
		if !ok {
			panic(r)
		}
		*err = ee
	}
}

// usageError is a bad command line: exit 2 with a message.
func usageError(format string, args ...any) error {
	return exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

func main() {
	os.Exit(report(os.Stderr, run(os.Args[1:], os.Stdout, os.Stderr)))
}

// report prints err's message on w, if it has one, and returns the exit
// code for it. No secret is printed, whoever wrote the message: kong's
// errors and the commands' quote values as they were given.
func report(w io.Writer, err error) int {
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ee.msg != "" {
			fmt.Fprintln(w, "rootpick:", redact.Text(ee.msg))
		}
		return ee.code
	default:
		fmt.Fprintln(w, "rootpick:", redact.Text(err.Error()))
		return 1
	}
}

func run(args []string, stdout, stderr io.Writer) (err error) {
	e := &env{stdout: stdout, stderr: stderr, dirs: paths.FromEnv()}
	c, kctx, err := parse(args, e)
	if err != nil {
		return err
	}
	e.config, e.configPath = c.config, c.configPath
	defer catchExit(&err)
	return kctx.Run(e)
}
