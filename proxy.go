package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
)

const proxyUsage = `Usage: rootpick proxy [--profile NAME] [--protocol V] [--print-config HOST] [--] SERVER_COMMAND [ARGS...]

An MCP stdio server for an agent host (Claude Code, VS Code, Cursor, Goose,
the MCP Inspector). It starts SERVER_COMMAND and relays everything both ways,
except roots: the server gets exactly the folders consented in
'rootpick --profile NAME', and is told at once when they change.

--print-config HOST prints the snippet for HOST's MCP configuration
(claude, vscode, cursor, goose, inspector) instead of running.

Flags:
`

// proxyOptions are the flags of rootpick proxy.
type proxyOptions struct {
	profile, protocol, printConfig, name, logFile string
	debug                                         bool
}

func runProxy(args []string, stdout, stderr io.Writer) error {
	var command []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, command = args[:i], args[i+1:]
	}
	var o proxyOptions
	fs := flag.NewFlagSet("proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.profile, "profile", consent.DefaultProfile, "serve the consent of profile `NAME`")
	fs.StringVar(&o.protocol, "protocol", mcpconn.DefaultProtocolVersion, "MCP protocol `VERSION` to ask the server for")
	fs.StringVar(&o.printConfig, "print-config", "", "print the configuration snippet for `HOST` (claude, vscode, cursor, goose, inspector) and exit")
	fs.StringVar(&o.name, "name", "", "the server's `NAME` in a printed configuration (default: derived from the command)")
	fs.StringVar(&o.logFile, "log", "", "write the log to `FILE` (default: $XDG_STATE_HOME/rootpick/proxy-PROFILE-SERVER.log)")
	fs.BoolVar(&o.debug, "debug", false, "log every relayed message's method")
	fs.Usage = func() {
		fmt.Fprint(stderr, proxyUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return exitError{code: 0}
	} else if err != nil {
		return exitError{code: 2}
	}
	if fs.NArg() > 0 {
		if command != nil {
			return usageError("proxy: the server command goes after --, got %q before it", fs.Args())
		}
		// Flags end at the first word that is not one, so the server's
		// own flags pass untouched; some hosts drop a "--".
		command = fs.Args()
	}
	if len(command) == 0 {
		return usageError("proxy: no server command (rootpick proxy -- CMD ARGS...)")
	}
	if err := consent.ValidateProfile(o.profile); err != nil {
		return usageError("proxy: %v", err)
	}
	if o.printConfig != "" {
		return printHostConfig(stdout, stderr, o, command)
	}
	store, err := consent.OpenStore(o.profile)
	if err != nil {
		return err
	}
	label := mcpconn.Spec{Command: command}.Label()
	if o.logFile == "" {
		state, err := consent.StateDir()
		if err != nil {
			return err
		}
		o.logFile = filepath.Join(state, "proxy-"+o.profile+"-"+safeFileName(label)+".log")
	}
	logger, closeLog, err := openLog(o.logFile, o.debug)
	if err != nil {
		return err
	}
	defer closeLog()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	source := mcpconn.NewFileSource(ctx, store.Path(), func() ([]consent.Root, error) {
		rec, err := store.Load()
		if err != nil {
			return nil, err
		}
		return rec.Roots, nil
	})
	reg := newProxyRegistrar(o.profile, logger.Warn)
	defer reg.close()
	logger.Info("proxy start", "profile", o.profile, "server", label, "store", store.Path())
	err = mcpconn.RunProxy(ctx, &mcp.StdioTransport{}, mcpconn.ProxyOptions{
		Command:         command,
		ProtocolVersion: o.protocol,
		Source:          source,
		Logger:          logger,
		Status:          reg.update,
	})
	logger.Info("proxy exit", "err", err)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// safeFileName keeps letters, digits, '-', '_' and '.' of s.
func safeFileName(s string) string {
	out := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
	if out == "" || strings.Trim(out, ".") == "" {
		return "server"
	}
	return out
}

// proxyRegistrar publishes the proxy's status for pickers of its profile.
type proxyRegistrar struct {
	dir     string
	profile string
	warn    func(string, ...any)
	mu      sync.Mutex
	closed  bool
}

func newProxyRegistrar(profile string, warn func(string, ...any)) *proxyRegistrar {
	dir, err := mcpconn.ProxyDir()
	if err != nil {
		warn("no folder to register the proxy in; the picker will not show it", "err", err)
	}
	return &proxyRegistrar{dir: dir, profile: profile, warn: warn}
}

func (r *proxyRegistrar) update(st mcpconn.ProxyStatus) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dir == "" || r.closed {
		return
	}
	e := mcpconn.ProxyEntry{PID: os.Getpid(), Profile: r.profile, Updated: time.Now(), ProxyStatus: st}
	if err := mcpconn.RegisterProxy(r.dir, e); err != nil {
		r.warn("registering the proxy", "err", err)
	}
}

func (r *proxyRegistrar) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if r.dir != "" {
		mcpconn.UnregisterProxy(r.dir, os.Getpid())
	}
}

// printHostConfig prints the snippet that makes host launch the server
// through rootpick proxy.
// The snippet alone goes to w, so that it can be redirected into a file;
// where it goes is said on hint.
func printHostConfig(w, hint io.Writer, o proxyOptions, command []string) error {
	exe, err := os.Executable()
	if err != nil || strings.Contains(exe, string(filepath.Separator)+"go-build") {
		exe = "rootpick" // go run builds in a temporary folder
	}
	args := []string{"proxy"}
	if o.profile != consent.DefaultProfile {
		args = append(args, "--profile", o.profile)
	}
	if o.protocol != mcpconn.DefaultProtocolVersion {
		args = append(args, "--protocol", o.protocol)
	}
	args = append(append(args, "--"), command...)
	name := o.name
	if name == "" {
		name = safeFileName(mcpconn.Spec{Command: command}.Label())
	}
	writeJSON := func(v any) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	}
	stdio := map[string]any{"command": exe, "args": args}
	// Hosts start servers with a minimal environment (HOME, PATH…): a
	// state folder moved by XDG_STATE_HOME must be passed on, or the proxy
	// would read another consent store than the picker writes.
	env := map[string]string{}
	if v := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(v) {
		env["XDG_STATE_HOME"] = v
		stdio["env"] = env
	}
	switch o.printConfig {
	case "claude":
		// Claude Code: .mcp.json in the project, or `claude mcp add-json`.
		fmt.Fprintf(hint, "# for .mcp.json in your project (or: claude mcp add-json %s '<the object under %q>')\n", name, name)
		return writeJSON(map[string]any{"mcpServers": map[string]any{name: stdio}})
	case "cursor":
		fmt.Fprintln(hint, "# for ~/.cursor/mcp.json (or .cursor/mcp.json in the project)")
		return writeJSON(map[string]any{"mcpServers": map[string]any{name: stdio}})
	case "inspector":
		fmt.Fprintln(hint, "# for config.json, then: npx @modelcontextprotocol/inspector --config config.json --server "+name)
		return writeJSON(map[string]any{"mcpServers": map[string]any{name: stdio}})
	case "vscode":
		fmt.Fprintln(hint, "# for .vscode/mcp.json")
		vs := map[string]any{"type": "stdio", "command": exe, "args": args}
		if len(env) > 0 {
			vs["env"] = env
		}
		return writeJSON(map[string]any{"servers": map[string]any{name: vs}})
	case "goose":
		fmt.Fprintln(hint, "# for ~/.config/goose/config.yaml")
		quoted := make([]string, len(args))
		for i, a := range args {
			b, _ := json.Marshal(a) // a JSON string is a YAML string
			quoted[i] = string(b)
		}
		exeQ, _ := json.Marshal(exe)
		nameQ, _ := json.Marshal(name)
		fmt.Fprintf(w, "extensions:\n  %s:\n    name: %s\n    type: stdio\n    cmd: %s\n    args: [%s]\n    enabled: true\n    timeout: 300\n",
			nameQ, nameQ, exeQ, strings.Join(quoted, ", "))
		if v, ok := env["XDG_STATE_HOME"]; ok {
			vq, _ := json.Marshal(v)
			fmt.Fprintf(w, "    envs:\n      XDG_STATE_HOME: %s\n", vq)
		}
		return nil
	}
	return usageError("proxy: --print-config takes claude, vscode, cursor, goose or inspector, not %q", o.printConfig)
}
