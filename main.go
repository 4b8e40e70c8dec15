// Command rootpick is a terminal workspace picker for the Model Context
// Protocol: it finds the repositories under a folder, lets a person choose
// which of them an MCP server may see, asks for consent, and serves exactly
// that choice to the servers as roots.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/ui"
	"github.com/rootpick/rootpick/vcsdetect"
)

const usage = `rootpick — choose the folders an MCP server may see, and serve them as roots.

Usage:
  rootpick [flags] [DIR] [-- SERVER_COMMAND [ARGS...]]
  rootpick list [--json] [DIR]     print the repositories found, no UI
  rootpick serve-demo              run the built-in roots-aware demo server on stdio
  rootpick forget [--profile NAME] clear the remembered consent of a profile
  rootpick proxy [--profile NAME] -- SERVER_COMMAND...
                                   an MCP server for an agent host, serving the
                                   profile's consent to SERVER_COMMAND

DIR defaults to the current folder. With no server command and no --url,
rootpick serves the built-in demo server in-process.

Flags:
`

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

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ", ") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

type options struct {
	print       bool
	version     bool
	debug       bool
	logFile     string
	urls        stringList
	servers     stringList
	maxDepth    int
	json        bool
	record      string
	protocol    string
	initTimeout time.Duration
	profile     string
	resume      bool
	// list
	all     bool
	skip    stringList
	follow  bool
	oneFS   bool
	details bool
	stream  bool
}

func newFlagSet(name string, o *options, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	switch name {
	case "list":
		fs.BoolVar(&o.json, "json", false, "print JSON Lines (path, name, kind, branch, depth, uri)")
		fs.IntVar(&o.maxDepth, "max-depth", 0, "do not look more than `N` levels below DIR (0: no limit)")
		fs.BoolVar(&o.all, "all", false, "also walk heavy folders (node_modules, .venv, vendor beside go.mod, …)")
		fs.Var(&o.skip, "skip", "do not walk folders named `NAME` (repeatable; adds to the default list)")
		fs.BoolVar(&o.follow, "follow", false, "follow symlinked folders (each folder is walked once)")
		fs.BoolVar(&o.oneFS, "one-file-system", false, "do not walk into other file systems")
		fs.BoolVar(&o.details, "details", false, "with --json: add head, upstream, ahead/behind, remote, last commit and dirty state")
		fs.BoolVar(&o.stream, "stream", false, "print each repository as soon as it is found, in no particular order")
	case "forget":
		fs.StringVar(&o.profile, "profile", consent.DefaultProfile, "forget the consent of profile `NAME`")
	case "serve-demo":
		fs.StringVar(&o.record, "record", "", "append every roots/list answer received to `FILE` as JSON Lines")
		fs.BoolVar(&o.debug, "debug", false, "log at debug level (the log goes to stderr)")
	default:
		fs.BoolVar(&o.print, "print", false, "on exit, print the consented roots as a JSON array on stdout")
		fs.Var(&o.urls, "url", "serve roots to the Streamable HTTP server at `URL` (repeatable)")
		fs.Var(&o.servers, "server", "serve roots to the stdio server started by `'CMD ARGS'` (repeatable)")
		fs.IntVar(&o.maxDepth, "max-depth", 0, "do not look more than `N` levels below DIR (0: no limit)")
		fs.BoolVar(&o.all, "all", false, "also walk heavy folders (node_modules, .venv, vendor beside go.mod, …)")
		fs.Var(&o.skip, "skip", "do not walk folders named `NAME` (repeatable; adds to the default list)")
		fs.BoolVar(&o.follow, "follow", false, "follow symlinked folders (each folder is walked once)")
		fs.BoolVar(&o.oneFS, "one-file-system", false, "do not walk into other file systems")
		fs.BoolVar(&o.version, "version", false, "print the version and exit")
		fs.BoolVar(&o.debug, "debug", false, "log at debug level")
		fs.StringVar(&o.logFile, "log", "", "write the log to `FILE` (default: $XDG_STATE_HOME/rootpick/rootpick.log)")
		fs.StringVar(&o.profile, "profile", consent.DefaultProfile, "remember consent under profile `NAME`")
		fs.BoolVar(&o.resume, "resume", false, "serve the remembered consent at start if every root still validates")
		fs.StringVar(&o.protocol, "protocol", mcpconn.DefaultProtocolVersion, "MCP protocol `VERSION` to ask servers for (from 2026-07-28 servers may no longer ask roots/list on their own)")
		fs.DurationVar(&o.initTimeout, "init-timeout", mcpconn.DefaultInitTimeout, "give each server `D` to start and answer initialize")
	}
	return fs
}

// parse reads flags and positional arguments in any order; everything after
// the first "--" is the server command. -h and bad flags end the program
// (exit 0 and 2) through the exitError it returns.
func parse(name string, args []string, o *options, stderr io.Writer) (pos []string, command []string, err error) {
	if i := slices.Index(args, "--"); i >= 0 {
		args, command = args[:i], args[i+1:]
	}
	fs := newFlagSet(name, o, stderr)
	fs.Usage = func() {
		if name == "rootpick" {
			fmt.Fprint(stderr, usage)
		} else {
			fmt.Fprintf(stderr, "Usage of rootpick %s:\n", name)
		}
		fs.PrintDefaults()
	}
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			return nil, nil, exitError{code: 0} // the usage was printed
		} else if err != nil {
			return nil, nil, exitError{code: 2} // the flag package said what is wrong
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, command, nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "list":
			return runList(args[1:], stdout, stderr)
		case "serve-demo":
			return runServeDemo(args[1:], stderr)
		case "forget":
			return runForget(args[1:], stdout, stderr)
		case "proxy":
			return runProxy(args[1:], stdout, stderr)
		}
	}
	var o options
	pos, command, err := parse("rootpick", args, &o, stderr)
	if err != nil {
		return err
	}
	if o.version {
		fmt.Fprintln(stdout, "rootpick", version())
		return nil
	}
	dir, err := dirArg(pos)
	if err != nil {
		return err
	}
	specs, err := serverSpecs(o, command)
	if err != nil {
		return err
	}
	store, err := consent.OpenStore(o.profile)
	if err != nil {
		return usageError("--profile: %v", err)
	}
	logger, closeLog, err := openLog(o.logFile, o.debug)
	if err != nil {
		return err
	}
	defer closeLog()
	// Orphans of the servers' processes (a grandchild that called setsid()
	// and whose parent died) become ours, so they can be ended on quit.
	if err := mcpconn.BecomeSubreaper(); err != nil {
		logger.Info("orphans of servers cannot be adopted", "err", err)
	}

	if o.initTimeout <= 0 {
		return usageError("--init-timeout must be positive, got %s", o.initTimeout)
	}
	hub := mcpconn.NewHub(mcpconn.Options{Logger: logger, ProtocolVersion: o.protocol, InitTimeout: o.initTimeout})
	defer stopServers(hub, logger)
	defer endOnPanic(hub, logger)

	remembered := loadConsent(store, logger)
	proxyDir, err := mcpconn.ProxyDir()
	if err != nil {
		logger.Warn("no proxy registry: proxies will not be shown", "err", err)
	}
	model := ui.New(ui.Config{
		Dir:     dir,
		Hub:     hub,
		Servers: specs,
		ScanOptions: vcsdetect.Options{MaxDepth: o.maxDepth, Logger: logger,
			All: o.all, Skip: o.skip, Follow: o.follow, OneFileSystem: o.oneFS},
		Store:      store,
		Remembered: remembered,
		Resume:     o.resume,
		ProxyDir:   proxyDir,
		LogPath:    shownLogPath(o.logFile),
	})
	// Signals end the program like ctrl+c does: nothing is printed, the
	// servers are stopped, and the exit code says which signal it was.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got atomic.Value
	go func() {
		select {
		case sig := <-sigs:
			got.Store(sig)
			cancel()
		case <-ctx.Done():
		}
	}()
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler()}
	// The screen goes to the terminal even when stdout is a pipe, so that
	// stdout carries only --print's result (as fzf does).
	if o.print || !term.IsTerminal(os.Stdout.Fd()) {
		tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("no terminal to draw on: %w", err)
		}
		defer tty.Close()
		opts = append(opts, tea.WithInput(tty), tea.WithOutput(tty))
	}
	logger.Info("start", "dir", dir, "servers", len(specs), "version", version())
	_, err = tea.NewProgram(withTestPanic(model), opts...).Run()
	// What the person consented to, as of the last y, whether or not the
	// servers had been told when q came.
	roots := model.Consented()
	stopServers(hub, logger) // before printing or exiting
	logger.Info("exit", "err", err, "roots", len(roots))
	if errors.Is(err, tea.ErrProgramPanic) {
		// Bubble Tea caught a panic in the UI, restored the terminal and
		// printed the stack; the servers are stopped: crash as a panic does.
		panic(fmt.Errorf("the UI panicked (its stack is above); servers stopped: %w", err))
	}
	if errors.Is(err, tea.ErrInterrupted) {
		return exitError{code: 130}
	}
	if sig, ok := got.Load().(os.Signal); ok {
		return exitError{code: 128 + int(sig.(syscall.Signal))}
	}
	if err != nil {
		return err
	}
	if o.print {
		return printRoots(stdout, roots)
	}
	return nil
}

// printRoots writes the roots as a JSON array of {uri, name, path}.
func printRoots(w io.Writer, roots []consent.Root) error {
	if roots == nil {
		roots = []consent.Root{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(roots)
}

func dirArg(pos []string) (string, error) {
	dir := "."
	switch len(pos) {
	case 0:
	case 1:
		dir = pos[0]
	default:
		return "", usageError("one folder at most, got %d (a server command goes after --)", len(pos))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	// Scan the real folder, so that the paths listed are the canonical
	// paths roots are made of.
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("cannot scan %q: %w", dir, errors.Unwrap(err))
	}
	if !st.IsDir() {
		return "", fmt.Errorf("cannot scan %q: not a folder", dir)
	}
	return abs, nil
}

func serverSpecs(o options, command []string) ([]mcpconn.Spec, error) {
	var specs []mcpconn.Spec
	if len(command) > 0 {
		specs = append(specs, mcpconn.Spec{Command: command})
	}
	for _, s := range o.servers {
		f := strings.Fields(s)
		if len(f) == 0 {
			return nil, usageError("--server needs a command")
		}
		specs = append(specs, mcpconn.Spec{Command: f})
	}
	for _, u := range o.urls {
		specs = append(specs, mcpconn.Spec{URL: u})
	}
	if len(specs) == 0 {
		specs = append(specs, mcpconn.Spec{Demo: mcpconn.NewDemo(nil, nil)})
	}
	// Labels tell servers apart in events and on screen: make them unique.
	seen := map[string]int{}
	for i := range specs {
		l := specs[i].Label()
		if seen[l]++; seen[l] > 1 {
			specs[i].Name = l + " #" + strconv.Itoa(seen[l])
		}
	}
	return specs, nil
}

func runList(args []string, stdout, stderr io.Writer) error {
	var o options
	pos, _, err := parse("list", args, &o, stderr)
	if err != nil {
		return err
	}
	if o.details && !o.json {
		return usageError("--details needs --json")
	}
	dir, err := dirArg(pos)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// One write per line cost about 20 µs a line on a tree of 50,000
	// repositories; buffer, and with --stream flush after the first result
	// and then at each progress tick, so results still show within 100 ms.
	out := bufio.NewWriterSize(stdout, 64<<10)
	stdout = out
	enc := json.NewEncoder(stdout)
	var desc *vcsdetect.Describer
	if o.details {
		desc = vcsdetect.NewDescriber(vcsdetect.DescribeOptions{})
	}
	var writeErr error
	print := func(r vcsdetect.Repo, det *vcsdetect.Details) {
		if writeErr != nil {
			return
		}
		if o.json {
			// DIR is canonical and the walk follows no symlink, so the
			// path is canonical already; only --follow needs resolving
			// (an EvalSymlinks, a stat and an open per repository, which
			// made list --json 3.5 times slower than list on 50,000).
			uri := consent.PathToURI(r.Path)
			if o.follow {
				if root, err := consent.NewRoot(r.Path); err == nil {
					uri = root.URI
				}
			}
			line := struct {
				vcsdetect.Repo
				URI string `json:"uri"`
				*vcsdetect.Details
			}{Repo: r, URI: uri, Details: det}
			writeErr = enc.Encode(line)
			return
		}
		p := r.Path
		if !utf8.ValidString(p) || strings.ContainsFunc(p, func(c rune) bool { return !unicode.IsPrint(c) }) {
			p = strconv.Quote(p) // control, format or invalid bytes never reach the terminal raw
		}
		_, writeErr = fmt.Fprintln(stdout, p)
	}
	opts := vcsdetect.Options{
		MaxDepth:      o.maxDepth,
		All:           o.all,
		Skip:          o.skip,
		Follow:        o.follow,
		OneFileSystem: o.oneFS,
		NoBranch:      !o.json, // the plain list prints paths only
	}
	if o.stream {
		opts.Progress = func(vcsdetect.Stats) {
			if writeErr == nil {
				writeErr = out.Flush()
			}
		}
	}
	printed := 0
	// The walk is parallel: results come in no fixed order, so they are
	// sorted by path unless --stream asks for them as they come.
	var found []vcsdetect.Repo
	st, err := vcsdetect.Scan(ctx, dir, opts, func(r vcsdetect.Repo) {
		if o.stream {
			var det *vcsdetect.Details
			if desc != nil {
				d := desc.Describe(ctx, r)
				det = &d
			}
			print(r, det)
			if printed++; printed == 1 && writeErr == nil {
				writeErr = out.Flush()
			}
		} else {
			found = append(found, r)
		}
	})
	if errors.Is(err, context.Canceled) {
		out.Flush()
		return exitError{code: 130}
	}
	if err != nil {
		return err
	}
	slices.SortFunc(found, func(a, b vcsdetect.Repo) int { return strings.Compare(a.Path, b.Path) })
	var dets []vcsdetect.Details
	if desc != nil {
		dets = desc.DescribeAll(ctx, found, 0)
	}
	for i, r := range found {
		var det *vcsdetect.Details
		if dets != nil {
			det = &dets[i]
		}
		print(r, det)
	}
	if err := out.Flush(); writeErr == nil {
		writeErr = err
	}
	if st.Skipped > 0 || st.Warnings > 0 {
		fmt.Fprintf(stderr, "rootpick: %d folders walked, %d skipped (heavy, other file system or seen before; --all walks heavy ones), %d unreadable\n", st.Dirs, st.Skipped, st.Warnings)
	}
	return writeErr
}

func runServeDemo(args []string, stderr io.Writer) error {
	var o options
	if pos, _, err := parse("serve-demo", args, &o, stderr); err != nil {
		return err
	} else if len(pos) > 0 {
		return usageError("serve-demo takes no arguments, got %q", pos)
	}
	var record io.Writer
	if o.record != "" {
		f, err := os.OpenFile(o.record, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		record = f
	}
	level := slog.LevelInfo
	if o.debug {
		level = slog.LevelDebug
	}
	// On stdio, stdout is the protocol; the log goes to stderr, which the
	// client (rootpick) sends to its own log.
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := mcpconn.NewDemo(logger, record).ServeStdio(ctx)
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return mcpconn.Version
}
