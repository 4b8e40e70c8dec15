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
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
)

// cli is the whole command line: one field per command, each a struct with
// its flags and a Run method in its own file.
type cli struct {
	Version versionFlag `help:"Print the version, commit and commit date, and exit." short:"V"`
	Config  string      `placeholder:"FILE" type:"path" help:"Read the config file FILE (default: $$ROOTPICK_CONFIG, else $$XDG_CONFIG_HOME/rootpick/config.toml)."`

	Pick       pickCmd       `cmd:"" default:"withargs" help:"Pick repositories, ask for consent, serve them as roots (the default command)."`
	List       listCmd       `cmd:"" help:"Print the repositories found under DIR, with no UI."`
	Proxy      proxyCmd      `cmd:"" help:"Be an MCP stdio server for an agent host, serving a profile's consent to SERVER_COMMAND."`
	ServeDemo  serveDemoCmd  `cmd:"" name:"serve-demo" help:"Run the built-in roots-aware demo MCP server on stdio."`
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
}

const description = `Choose the folders an MCP server may see, and serve them as roots.

DIR defaults to the config file's dir, else the current folder. With no
server named on the command line, rootpick serves the config file's servers,
else the built-in demo server in-process (see 'rootpick config --help').

Examples:
  rootpick ~/src                                     pick under ~/src, demo server
  rootpick ~/src -- npx -y @modelcontextprotocol/server-filesystem
  rootpick --server 'uvx mcp-server-git' --url http://localhost:3000/mcp
  rootpick --print ~/src | jq -r '.[].path'          the chosen folders as JSON
  rootpick list --json ~/src                         no UI: JSON Lines
  rootpick proxy --print-config claude -- npx -y @modelcontextprotocol/server-filesystem`

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
}

// exitError carries an exit code out of run; msg, if any, is printed first.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return "exit " + strconv.Itoa(e.code) }

// usageError is a bad command line: exit 2 with a message.
func usageError(format string, args ...any) error {
	return exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	var ee exitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		if ee.msg != "" {
			fmt.Fprintln(os.Stderr, "rootpick:", ee.msg)
		}
		os.Exit(ee.code)
	default:
		fmt.Fprintln(os.Stderr, "rootpick:", err)
		os.Exit(1)
	}
}

// newParser builds the kong parser for c, writing help to stdout. Where
// kong would exit (--help, --version) it panics with exitError, which run
// recovers.
func newParser(c *cli, stdout, stderr io.Writer) (*kong.Kong, error) {
	return kong.New(c,
		kong.Name("rootpick"),
		kong.Description(description),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(exitError{code: code}) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, NoExpandSubcommands: true}),
		kong.ExplicitGroups(flagGroups),
		kong.Help(printHelp),
		kong.Vars{
			"protocol":    mcpconn.DefaultProtocolVersion,
			"initTimeout": mcpconn.DefaultInitTimeout.String(),
			"profile":     consent.DefaultProfile,
		},
	)
}

// printHelp is kong's help, except that the top level also shows the
// default command's usage and flags, since "rootpick [flags] DIR" is how
// rootpick is mostly run.
func printHelp(options kong.HelpOptions, ctx *kong.Context) error {
	if ctx.Selected() != nil {
		return kong.DefaultHelpPrinter(options, ctx)
	}
	fmt.Fprint(ctx.Stdout, "Usage:\n  rootpick [flags] [DIR] [-- SERVER_COMMAND [ARGS...]]\n  rootpick <command> [flags]\n")
	options.NoAppSummary = true
	if err := kong.DefaultHelpPrinter(options, ctx); err != nil {
		return err
	}
	pick, err := kong.Trace(ctx.Kong, []string{"pick"})
	if err != nil {
		return err
	}
	fmt.Fprint(ctx.Stdout, "\nThe default command, pick (rootpick [pick] [flags] [DIR] [-- SERVER_COMMAND [ARGS...]]):\n")
	return kong.DefaultHelpPrinter(options, pick)
}

// parse parses args into a cli. Everything after the first "--" is a server
// command, given to the command in env, never parsed as flags.
func parse(args []string, e *env) (c *cli, kctx *kong.Context, err error) {
	if i := slices.Index(args, "--"); i >= 0 {
		args, e.command, e.dashdash = args[:i], args[i+1:], true
	}
	c = &cli{}
	defer func() {
		if r := recover(); r != nil {
			ee, ok := r.(exitError)
			if !ok {
				panic(r)
			}
			err = ee
		}
	}()
	k, err := newParser(c, e.stdout, e.stderr)
	if err != nil {
		return nil, nil, err
	}
	kctx, err = k.Parse(args)
	if err != nil {
		if ce := (*configError)(nil); errors.As(err, &ce) {
			return nil, nil, usageError("%v", ce)
		}
		var pe *kong.ParseError
		if errors.As(err, &pe) {
			return nil, nil, usageError("%v (see '%s')", err, helpHint(pe.Context))
		}
		return nil, nil, err
	}
	return c, kctx, nil
}

// helpHint names the --help of the command being parsed.
func helpHint(ctx *kong.Context) string {
	if ctx != nil {
		if cmd := ctx.Command(); cmd != "" && !strings.HasPrefix(cmd, "pick") {
			name := strings.Fields(cmd)[0]
			return "rootpick " + name + " --help"
		}
	}
	return "rootpick --help"
}

func run(args []string, stdout, stderr io.Writer) (err error) {
	e := &env{stdout: stdout, stderr: stderr}
	c, kctx, err := parse(args, e)
	if err != nil {
		return err
	}
	e.config, e.configPath = c.config, c.configPath
	defer func() {
		if r := recover(); r != nil {
			ee, ok := r.(exitError)
			if !ok {
				panic(r)
			}
			err = ee
		}
	}()
	return kctx.Run(e)
}
