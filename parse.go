package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/mcpconn"
)

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
			"protocol":     mcpconn.DefaultProtocolVersion,
			"initTimeout":  mcpconn.DefaultInitTimeout.String(),
			"firstRunInit": strings.Replace(mcpconn.FirstRunInitTimeout.String(), "m0s", "m", 1), // "2m", not "2m0s"
			"profile":      consent.DefaultProfile,
			// The hosts, from hostcfg's one list, for the help texts
			// that name them (hosts list, hosts wrap, proxy --print-config).
			"hosts":   strings.Join(hostcfg.Hosts, ", "),
			"hostsOr": hostList(hostcfg.Hosts, "or"),
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
	// Its own help, less what the top already said: its summary (the
	// Commands list has it), its examples (the top's cover them) and the
	// global flags.
	var buf bytes.Buffer
	out := ctx.Stdout // (pick shares ctx's Kong, and so its writer)
	pick.Stdout = &buf
	err = kong.DefaultHelpPrinter(options, pick)
	pick.Stdout = out
	if err != nil {
		return err
	}
	var keep []string
	paras := strings.Split(buf.String(), "\n\n")
	for i := 0; i < len(paras); i++ {
		p := paras[i]
		switch {
		case strings.TrimSpace(p) == pick.Selected().Help:
		case strings.HasPrefix(p, "Examples:"):
			i++ // and the indented examples after it
		case strings.HasPrefix(p, "Flags:\n") && strings.Contains(p, "--help"):
		default:
			keep = append(keep, p)
		}
	}
	_, err = fmt.Fprint(out, "\n"+strings.Join(keep, "\n\n"))
	return err
}

// parse parses args into a cli. Everything after the first "--" is a server
// command, given to the command in env, never parsed as flags.
func parse(args []string, e *env) (c *cli, kctx *kong.Context, err error) {
	if i := slices.Index(args, "--"); i >= 0 {
		args, e.command, e.dashdash = args[:i], args[i+1:], true
	}
	if e.dirs.IsZero() {
		e.dirs = paths.FromEnv() // an env made without run's, by a test
	}
	c = &cli{dirs: e.dirs}
	defer catchExit(&err)
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

// flagSet reports whether the flag called name was given on the command
// line, not only left at its default. (kong's Value.Set is not that: a
// second ApplyDefaults marks a default as set.)
func flagSet(kctx *kong.Context, name string) bool {
	for _, p := range kctx.Path {
		if p.Flag != nil && p.Flag.Name == name {
			return true
		}
	}
	return false
}
