package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/logfile"
	"github.com/rootpick/rootpick/internal/screen"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/mcpconn/proxy"

	tea "charm.land/bubbletea/v2"
	"github.com/alecthomas/kong"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/ui"
	"github.com/rootpick/rootpick/vcsdetect"
)

// pickCmd is rootpick's default command: scan, pick, consent, serve.
type pickCmd struct {
	Dir string `arg:"" optional:"" name:"dir" help:"Folder to scan (default: the config file's dir, else the current folder)."`
	// Command only documents the server command: what follows "--" is
	// taken before parsing (env.command), so a word here is a mistake.
	Command []string `arg:"" optional:"" name:"server-command" help:"After --: the MCP server to start on stdio; {roots} in its arguments expands to the consented folders."`

	Print       bool   `group:"output" help:"On exit, print the consented roots on stdout (as --print-format says)."`
	PrintFormat string `name:"print-format" enum:"json,lines,null" default:"json" placeholder:"FORMAT" group:"output" help:"With --print: json (an array of {path, uri, name}, and read_only: true for a folder shared read-only), lines (one path a line, escaped as list does) or null (raw paths, each ended by NUL, for xargs -0); default: ${default}."`

	URL         []httpURL        `name:"url" placeholder:"URL" sep:"none" group:"servers" help:"Serve roots to the Streamable HTTP server at URL (repeatable)."`
	Server      []shellCommand   `placeholder:"'CMD ARGS'" sep:"none" group:"servers" help:"Serve roots to the stdio server started by CMD ARGS, split with shell quoting (repeatable)."`
	Use         []string         `placeholder:"NAME" sep:"none" group:"servers" help:"Serve roots to the server NAME of the config file (repeatable)."`
	Protocol    string           `placeholder:"VERSION" default:"${protocol}" group:"servers" help:"MCP protocol VERSION to ask servers for (default: ${default}; from 2026-07-28 servers may no longer ask roots/list on their own)."`
	InitTimeout positiveDuration `name:"init-timeout" placeholder:"D" default:"${initTimeout}" group:"servers" help:"Give each server D to start and answer initialize (default: ${default}, and ${firstRunInit} for a first start through npx, uvx, bunx, pnpm dlx or npm exec)."`
	sandboxFlags

	scanFlags

	Profile  string `placeholder:"NAME" default:"${profile}" group:"consent" help:"Remember consent under profile NAME (default: ${default})."`
	StateDir string `name:"state-dir" placeholder:"DIR" group:"consent" help:"Keep consent, the proxy registry and logs in DIR (default: $$XDG_STATE_HOME/rootpick, else ~/.local/state/rootpick)."`
	Resume   bool   `group:"consent" help:"Serve the remembered consent at start if every root still validates."`
	ReadOnly bool   `name:"read-only" negatable:"" group:"consent" help:"Check folders read-only: an enforced server may read and list them, and change or run nothing in them (ctrl+l switches a checked row)."`

	NoMouse bool `name:"no-mouse" group:"screen" help:"Leave the mouse to the terminal (to select text): no wheel scrolling or clicking rows."`

	Debug bool   `group:"log" help:"Log at debug level."`
	Log   string `placeholder:"FILE" type:"path" group:"log" help:"Write the log to FILE (default: $XDG_STATE_HOME/rootpick/rootpick.log)."`

	// onPanic, if set, runs when a goroutine other than the UI's panics,
	// after the terminal is restored and the servers stopped: the process
	// then ends without running deferred calls (demo removes its
	// workspace here).
	onPanic func()
	// intro starts the screen with what rootpick is for (the demo).
	intro bool
	// initExplicit is --init-timeout when it was given, else 0: the hub
	// then gives a first npx/uvx start its longer budget.
	initExplicit time.Duration
}

func (c *pickCmd) Help() string {
	return `Examples:
  rootpick ~/src -- npx -y @modelcontextprotocol/server-filesystem
  rootpick --server 'uvx mcp-server-git' --server 'node srv.js --root "my dir"'
  rootpick --url https://example.com/mcp --resume --profile work
  rootpick --print ~/src | jq -r '.[].path'
  rootpick --print --print-format null ~/src | xargs -0 du -sh`
}

// initTimeout is --init-timeout when it was given, else 0: the hub then
// chooses, and gives a first start through npx and the like (which may
// download the server) longer than the others.
func (c *pickCmd) initTimeout(kctx *kong.Context) time.Duration {
	if !flagSet(kctx, "init-timeout") {
		return 0
	}
	return time.Duration(c.InitTimeout)
}

func (c *pickCmd) Run(e *env, k *kong.Kong, kctx *kong.Context) error {
	// A mistyped command comes first, with words after it or not
	// ("rootpick lsit ~/src" is no pair of folders).
	if err := unknownCommand(k, c.Dir); err != nil {
		return err
	}
	if len(c.Command) > 0 {
		return usageError("one folder at most, got %d (a server command goes after --)", len(c.Command)+1)
	}
	var pos []string
	if c.Dir != "" {
		pos = []string{c.Dir}
	}
	if !c.Print && flagSet(kctx, "print-format") {
		return usageError("--print-format %s needs --print", c.PrintFormat)
	}
	dir, err := dirArg(pos)
	if err != nil {
		return err
	}
	specs, err := c.serverSpecs(e.command, e.config)
	if err != nil {
		return err
	}
	c.initExplicit = c.initTimeout(kctx)
	return c.pick(e, dir, specs)
}

// pick runs the picker on the folder dir (canonical) and serves specs: all
// of pick but reading the command line. demo runs it on its sample
// workspace.
func (c *pickCmd) pick(e *env, dir string, specs []mcpconn.Spec) error {
	if err := useStateDir(e, c.StateDir); err != nil {
		return err
	}
	state, err := e.dirs.State()
	if err != nil {
		return err
	}
	store, err := consent.OpenStoreAt(state, c.Profile)
	if err != nil {
		return usageError("--profile: %v", err)
	}
	logger, closeLog, err := logfile.Open(c.Log, state, c.Debug)
	var logProblem string
	if err != nil {
		// A state folder that is not the person's own (made by another
		// user, a link) is said on the status line; nothing is written
		// there, and the terminal gets no log either.
		var u *consent.UntrustedError
		if !errors.As(err, &u) {
			return err
		}
		logProblem = "Log not written: " + u.Error()
		logger, closeLog = slog.New(slog.DiscardHandler), func() {}
	}
	defer closeLog()
	// Orphans of the servers' processes (a grandchild that called setsid()
	// and whose parent died) become ours, so they can be ended on quit.
	if err := launch.BecomeSubreaper(); err != nil {
		logger.Info("orphans of servers cannot be adopted", "err", err)
	}

	hub := mcpconn.NewHub(mcpconn.Options{Logger: logger, ProtocolVersion: c.Protocol, InitTimeout: c.initExplicit})
	defer stopServers(hub, logger)
	defer endOnPanic(hub, logger)

	remembered, storeProblem := loadConsent(store, logger)
	if logProblem != "" && storeProblem == "" {
		storeProblem = logProblem
	}
	proxyDir := proxy.Dir(state)
	// No server named: the built-in demo, unless the profile has its own
	// consumers (the hosts' servers wrapped for it, its running proxies):
	// the picker of a profile serves those, and a demo server beside them
	// would be asked the consent meant for them.
	var consumers []string
	if len(specs) == 1 && specs[0].Demo != nil {
		if consumers = profileConsumers(e, proxyDir, c.Profile, logger); len(consumers) > 0 {
			specs = nil
			logger.Info("no demo server: the profile has its consumers", "consumers", strings.Join(consumers, ", "))
		}
	}
	model := ui.New(ui.Config{
		Dir:     dir,
		Hub:     hub,
		Servers: specs,
		ScanOptions: vcsdetect.Options{MaxDepth: int(c.MaxDepth), Logger: logger,
			All: c.All, Skip: c.Skip, Follow: c.Follow, OneFileSystem: c.OneFileSystem},
		Store:         store,
		Remembered:    remembered,
		Resume:        c.Resume,
		ReadOnly:      c.ReadOnly,
		StoreProblem:  storeProblem,
		ProxyDir:      proxyDir,
		LogPath:       logfile.ShownPath(c.Log, state),
		Theme:         e.config.Theme,
		Intro:         c.intro,
		NoMouse:       c.NoMouse,
		AsRoot:        runningAsRoot(),
		RememberAllow: rememberAllow(e.config, specs),
		Consumers:     consumers,
	})
	// Signals end the program like ctrl+c does: nothing is printed, the
	// servers are stopped, and the exit code says which signal it was.
	ctx := onSignals(context.Background())
	defer ctx.stop()
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler()}
	// The screen goes to the terminal even when stdout is a pipe, so that
	// stdout carries only --print's result (as fzf does).
	in, out, closeTTY, err := screen.Terminal(c.Print)
	if err != nil {
		return fmt.Errorf("no terminal to draw on: %w", err)
	}
	defer closeTTY()
	// internal/screen draws each frame as soon as it is ready; Bubble
	// Tea's renderer, where it cannot (off Unix), waits for its ticker.
	tm := withTestPanic(model)
	scr, err := screen.Open(in, out, os.Environ())
	if err == nil {
		defer scr.Close()
		opts = append(opts, scr.Options()...)
		tm = scr.Model(tm)
	} else {
		logger.Info("drawing with Bubble Tea's renderer", "why", err)
		opts = append(opts, tea.WithInput(in), tea.WithOutput(out), tea.WithFPS(ui.FrameRate))
	}
	logger.Info("start", "dir", dir, "servers", len(specs), "version", version())
	prog := tea.NewProgram(tm, opts...)
	// A panic on a goroutine Bubble Tea did not start (a walker, a
	// server's reader) would end the process with the terminal still in
	// raw mode on the alternate screen: put it back and stop the servers
	// first (internal/panics).
	panics.SetHook(func() {
		prog.Kill()
		if scr != nil {
			_ = scr.Close()
		}
		logger.Error("panic on a goroutine: terminal restored, servers stopped")
		stopServers(hub, logger)
		if c.onPanic != nil {
			c.onPanic()
		}
	})
	defer panics.SetHook(nil)
	if scr != nil {
		_, err = scr.Run(prog)
	} else {
		_, err = prog.Run()
	}
	panics.Hold() // the hook ended Run: let the panic end the program
	if scr != nil {
		_ = scr.Close() // the terminal back before anything is printed
	}
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
	if sig, ok := ctx.signal(); ok {
		return signalExit(sig)
	}
	if err != nil {
		return err
	}
	if c.Print {
		return printRoots(e.stdout, existingRoots(e.stderr, roots), c.PrintFormat)
	}
	return nil
}

// existingRoots are the roots still folders at quit, for --print: a
// script piping them on must not get a folder that is gone (deleted or
// renamed while the picker ran). Each one left out is said on w, with why.
func existingRoots(w io.Writer, roots []consent.Root) []consent.Root {
	var out []consent.Root
	for _, r := range roots {
		fi, err := os.Stat(r.Path)
		switch {
		case err != nil:
			why := "it is gone"
			if !errors.Is(err, fs.ErrNotExist) {
				why = "it cannot be read: " + redact.Text(err.Error())
			}
			fmt.Fprintf(w, "rootpick: --print leaves out %s: %s\n", safetext.Escape(r.Path), why)
		case !fi.IsDir():
			fmt.Fprintf(w, "rootpick: --print leaves out %s: it is no folder any more\n", safetext.Escape(r.Path))
		default:
			out = append(out, r)
		}
	}
	return out
}

// printRoots writes the roots in format: "json", an indented JSON array
// of {uri, name, path} with control and format characters written as
// \uXXXX; "lines", one path a line escaped as list prints it; "null", the
// exact paths, each ended by NUL.
func printRoots(w io.Writer, roots []consent.Root, format string) error {
	var b bytes.Buffer
	switch format {
	case "lines", "null":
		for _, r := range roots {
			if format == "null" {
				b.WriteString(r.Path + "\x00")
			} else {
				b.WriteString(safetext.Escape(r.Path) + "\n")
			}
		}
	default:
		if roots == nil {
			roots = []consent.Root{}
		}
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		if err := enc.Encode(roots); err != nil {
			return err
		}
		_, err := w.Write(safetext.JSON(b.Bytes()))
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// serverSpecs are the servers to serve: the command after "--", each
// --server, --use and --url; else the config file's servers; else the
// built-in demo. Servers named on the command line replace the file's.
func (c *pickCmd) serverSpecs(command []string, cfg *configFile) ([]mcpconn.Spec, error) {
	var specs []mcpconn.Spec
	if len(command) > 0 {
		specs = append(specs, mcpconn.Spec{Command: command})
	}
	for _, s := range c.Server {
		specs = append(specs, mcpconn.Spec{Command: s})
	}
	for _, name := range c.Use {
		s, ok := cfg.server(name)
		if !ok {
			return nil, usageError("--use: no server %q in %s (it has: %s)", name, cfg.path, cfg.serverNames())
		}
		specs = append(specs, s.spec())
	}
	for _, u := range c.URL {
		specs = append(specs, mcpconn.Spec{URL: string(u)})
	}
	if len(specs) == 0 {
		for _, s := range cfg.Servers {
			specs = append(specs, s.spec())
		}
	}
	if len(specs) == 0 {
		specs = append(specs, mcpconn.Spec{Demo: mcpconn.NewDemo(nil, nil)})
	}
	for i := range specs {
		c.apply(&specs[i])
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

// profileConsumers names who consumes profile's consent besides the
// picker's own servers: each MCP server an agent host runs through
// rootpick proxy for it ("claude → fs", from the hosts' files, for the
// current folder's project files too) and each proxy of it running now
// ("Claude Code → fs"). It reads the hosts' files; a file that cannot be
// read is logged and skipped.
func profileConsumers(e *env, proxyDir, profile string, logger *slog.Logger) []string {
	var out []string
	if entries, err := proxy.List(proxyDir, profile); err == nil {
		for _, p := range entries {
			out = append(out, cmp.Or(p.Host, "a host")+" → "+cmp.Or(p.Name, p.Server, p.Command))
		}
	}
	places, err := hostPlaces(e.dirs, "")
	if err != nil {
		return out
	}
	for _, f := range hostcfg.Files(places) {
		// Parsed only when rootpick stands in it: a file with no wrapped
		// entry (a 23 MB ~/.claude.json took 0.5 s to parse) costs the
		// picker's start a read, not a parse.
		data, err := f.Read()
		if err != nil || !namesRootpick(data, places.Rootpick) {
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				logger.Info("host configuration not read", "file", f.Path, "err", err)
			}
			continue
		}
		c, err := hostcfg.Parse(f, data)
		if err != nil {
			logger.Info("host configuration not read", "file", f.Path, "err", err)
			continue
		}
		for _, s := range c.Servers {
			if s.Kind == hostcfg.Proxied && cmp.Or(s.Profile, consent.DefaultProfile) == profile {
				if name := c.File.Host + " → " + s.Name; !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// namesRootpick reports whether data names rootpick, by that name or by
// one of self's paths (the executable a user-scope entry names): a file
// that does not holds no entry wrapped by it.
func namesRootpick(data []byte, self []string) bool {
	if bytes.Contains(data, []byte("rootpick")) {
		return true
	}
	return slices.ContainsFunc(self, func(p string) bool { return p != "" && bytes.Contains(data, []byte(p)) })
}

// rememberAllow is ui.Config.RememberAllow: a path allowed to a server of
// the config file (as it is in specs: its name and its command) goes into
// that server's allow-read; any other server has no place to keep it.
func rememberAllow(cfg *configFile, specs []mcpconn.Spec) func(server, path string) (string, error) {
	return func(server, path string) (string, error) {
		s, ok := cfg.server(server)
		fromFile := ok && cfg.exists && slices.ContainsFunc(specs, func(sp mcpconn.Spec) bool {
			return sp.Name == server && slices.Equal(sp.Command, s.Command)
		})
		if !fromFile {
			return "", fmt.Errorf("%s is not a server of the config file: start it with --allow-read %s to allow it again", server, shQuote(path))
		}
		if err := addAllowRead(cfg.path, server, path); err != nil {
			return "", err
		}
		return "kept in " + cfg.path + " (its allow-read)", nil
	}
}

// loadConsent reads the remembered consent; an unreadable or untrusted
// record is logged and treated as none (nothing is served from it), and
// problem says why for the status line.
func loadConsent(store *consent.Store, logger *slog.Logger) (rec *consent.Record, problem string) {
	r, err := store.Load()
	switch {
	case err == nil:
		logger.Info("remembered consent", "profile", store.Profile(), "roots", len(r.Roots), "time", r.Time)
		return &r, ""
	case !errors.Is(err, fs.ErrNotExist):
		logger.Warn("remembered consent unreadable", "profile", store.Profile(), "err", err)
		var u *consent.UntrustedError
		if errors.As(err, &u) {
			return nil, "Remembered consent not believed: " + u.Error()
		}
		return nil, "Remembered consent unreadable: " + strings.TrimPrefix(err.Error(), "consent: ")
	}
	return nil, ""
}

// sandboxFlags say what the kernel lets each stdio server open: taken by
// the default command and by proxy.
type sandboxFlags struct {
	Enforce    enforceFlag `placeholder:"on|off|require" group:"servers" help:"Whether the kernel enforces what each stdio server may open (Linux, Landlock): on (the default: where the kernel can), off, or require (not started without it)."`
	AllowRead  []string    `name:"allow-read" type:"path" placeholder:"DIR" sep:"none" group:"servers" help:"Let each stdio server also read DIR, beyond the consented folders and its runtime (repeatable)."`
	AllowWrite []string    `name:"allow-write" type:"path" placeholder:"DIR" sep:"none" group:"servers" help:"Let each stdio server also read and write DIR (repeatable)."`
	// AllowSocket is held to the socket by Landlock from ABI 9 only:
	// below it the server may then make unix sockets at all, which the
	// dialog and the pane say (launch.Policy.UnixSockets).
	Network     networkFlag `placeholder:"on|off" group:"servers" help:"Whether each stdio server may use the network when enforced: on (the default) or off (every TCP and UDP socket refused, loopback included)."`
	AllowSocket []string    `name:"allow-socket" type:"path" placeholder:"SOCKET" sep:"none" group:"servers" help:"Let each stdio server connect to the unix socket SOCKET (an agent's, a database's; repeatable). Unix sockets are refused otherwise; below Landlock ABI 9 this lets the server reach any unix socket, and rootpick says so."`
}

// apply sets the flags given on a stdio server's spec. As every flag, one
// given replaces the config file's value of the same setting, lists
// included.
func (f sandboxFlags) apply(s *mcpconn.Spec) {
	if len(s.Command) == 0 {
		return
	}
	if f.Enforce != "" {
		s.Enforce = launch.Enforce(f.Enforce)
	}
	if len(f.AllowRead) > 0 {
		s.AllowRead = slices.Clone(f.AllowRead)
	}
	if len(f.AllowWrite) > 0 {
		s.AllowWrite = slices.Clone(f.AllowWrite)
	}
	if len(f.AllowSocket) > 0 {
		s.AllowSocket = slices.Clone(f.AllowSocket)
	}
	if f.Network != "" {
		s.Network = launch.Network(f.Network)
	}
}
