package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/alecthomas/kong"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/logfile"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/mcpconn/proxy"
	"mvdan.cc/sh/v3/syntax"
)

// proxyCmd is an MCP stdio server for an agent host that relays to the
// server command and answers its roots/list from the profile's consent.
type proxyCmd struct {
	// Command is the server command when the host dropped the "--":
	// flags end at its first word, so the server's own flags pass
	// untouched.
	Command []string `arg:"" optional:"" passthrough:"partial" name:"server-command" help:"The MCP server to start (after --, or after the flags)."`

	Profile     string   `placeholder:"NAME" default:"${profile}" help:"Serve the consent of profile NAME (default: ${default})."`
	Protocol    string   `placeholder:"VERSION" default:"${protocol}" help:"MCP protocol VERSION to ask the server for (default: ${default})."`
	PrintConfig hostName `name:"print-config" placeholder:"HOST" help:"Print the configuration snippet for HOST (${hosts} or inspector) and exit."`
	Name        string   `placeholder:"NAME" help:"The server's NAME, as its host calls it: in a printed configuration and the log file's name (default: derived from the command)."`
	Host        string   `placeholder:"HOST" hidden:"" help:"The HOST (and scope) that starts this proxy, for the log file's name; hosts wrap writes it, with --name."`
	StateDir    string   `name:"state-dir" placeholder:"DIR" help:"Keep consent, the proxy registry and logs in DIR (default: $$XDG_STATE_HOME/rootpick, else ~/.local/state/rootpick)."`
	Log         string   `placeholder:"FILE" type:"path" group:"log" help:"Write the log to FILE (default: $XDG_STATE_HOME/rootpick/proxy-PROFILE-HOST-NAME.log, by --name, else proxy-PROFILE-SERVER.log)."`
	Debug       bool     `group:"log" help:"Log every relayed message's method."`
	ReadOnly    bool     `name:"read-only" help:"Cap the server to reading: every consented folder is read-only for it, whatever the consent says (enforced servers)."`
	sandboxFlags

	// OrigArg and OrigNext are the folder arguments `rootpick hosts wrap`
	// replaced by {roots}, kept in the host's entry for `hosts unwrap`
	// (hostcfg.OrigArgFlag). The proxy ignores them.
	OrigArg  []string `name:"orig-arg" sep:"none" hidden:"" help:"A folder argument hosts wrap replaced by {roots} (kept for hosts unwrap; ignored)."`
	OrigNext bool     `name:"orig-next" hidden:"" help:"The next --orig-arg stands for the next {roots} (kept for hosts unwrap; ignored)."`
}

// hostName is an agent host rootpick proxy can print a configuration for.
// serverCommand is the server command a command (proxy, policy) was
// given: after --, or after its flags (parsed), not both.
func serverCommand(e *env, name string, parsed []string) ([]string, error) {
	command := e.command
	if len(parsed) > 0 {
		if e.dashdash {
			return nil, usageError("%s: the server command goes after --, got %q before it", name, parsed)
		}
		command = parsed
	}
	if len(command) == 0 {
		return nil, usageError("%s: no server command (rootpick %s -- CMD ARGS...)", name, name)
	}
	return command, nil
}

type hostName string

// inspectorCommand is the command that lists, with the MCP Inspector's
// CLI, the tools of the server name of a config.json --print-config
// inspector wrote.
func inspectorCommand(name string) string {
	return "npx -y @modelcontextprotocol/inspector --cli --config config.json --server " + shellWord(name) + " --method tools/list"
}

// printConfigHosts are the hosts --print-config knows: hostcfg's, and
// the MCP Inspector, which reads a config file but is no host hostcfg
// rewrites.
func printConfigHosts() []string {
	return append(slices.Clone(hostcfg.Hosts), "inspector")
}

func (h *hostName) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("host", &s); err != nil {
		return err
	}
	if !slices.Contains(printConfigHosts(), s) {
		return fmt.Errorf("takes %s, not %q", strings.Join(printConfigHosts(), ", "), s)
	}
	*h = hostName(s)
	return nil
}

func (o *proxyCmd) Help() string {
	return `For agent hosts such as Claude Code, VS Code, Cursor, Goose and the MCP
Inspector. It starts SERVER_COMMAND and relays everything both ways,
except roots: the server gets exactly the folders consented in
'rootpick --profile NAME', and is told at once when they change.

A server started by npx, uvx or pnpm dlx that is still installing when
the host gives up is let finish (3 minutes at most; a second signal ends
it), so that the next start is fast; what it waits for is said on stderr.

Examples:
  rootpick proxy -- npx -y @modelcontextprotocol/server-filesystem
  rootpick proxy --profile work --print-config claude -- uvx mcp-server-git`
}

func (o *proxyCmd) Run(e *env) error {
	stdout, stderr := e.stdout, e.stderr
	command, err := serverCommand(e, "proxy", o.Command)
	if err != nil {
		return err
	}
	if err := consent.ValidateProfile(o.Profile); err != nil {
		return usageError("proxy: %v", err)
	}
	if err := useStateDir(e, o.StateDir); err != nil {
		return err
	}
	if o.PrintConfig != "" {
		return printHostConfig(stdout, stderr, e.dirs, *o, command)
	}
	state, err := e.dirs.State()
	if err != nil {
		return err
	}
	store, err := consent.OpenStoreAt(state, o.Profile)
	if err != nil {
		return err
	}
	label := mcpconn.Spec{Command: command}.Label()
	if o.Log == "" {
		o.Log = filepath.Join(state.Dir, proxyLogName(o.Profile, o.Host, o.Name, label))
	}
	logger, closeLog, err := logfile.Open(o.Log, state, o.Debug)
	if err != nil {
		// The proxy's stderr is the host's log of this server: better
		// there than nowhere when the state folder is not believed.
		var u *consent.UntrustedError
		if !errors.As(err, &u) {
			return err
		}
		logger = slog.New(logfile.Redacting(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
		logger.Warn("log file not written; logging to stderr", "err", err)
		closeLog = func() {}
	}
	defer closeLog()

	ctx := onSignals(context.Background())
	defer ctx.stop()
	hurry, stopHurry := secondSignal()
	defer stopHurry()
	source := proxy.NewStoreSource(ctx, store)
	reg := newProxyRegistrar(state, o.Profile, logger.Warn)
	defer reg.close()
	logger.Info("proxy start", "profile", o.Profile, "server", label, "store", store.Path())
	err = proxy.Run(ctx, &proxy.HostTransport{Logger: logger}, proxy.Options{
		Name:            o.Name,
		Command:         command,
		ProtocolVersion: o.Protocol,
		Source:          source,
		Logger:          logger,
		Status:          reg.update,
		NoConsent:       noConsentNote(o.Profile, o.StateDir),
		Enforce:         launch.Enforce(o.Enforce),
		AllowRead:       o.AllowRead,
		AllowWrite:      o.AllowWrite,
		AllowSocket:     o.AllowSocket,
		Network:         launch.Network(o.Network),
		ReadOnly:        o.ReadOnly,
		Hurry:           hurry,
		Notice:          stderr,
	})
	logger.Info("proxy exit", "err", err)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// noConsentNote is what the proxy tells its host when no consent of
// profile can be read: why, and the picker command that gives consent,
// with the same profile and state folder, ready to paste into a shell.
// secondSignal is closed by the second of endSignals: the first ends the
// proxy (onSignals), which lets a launcher that is still installing
// finish (mcpconn's InstallGrace); a second one ends it at once. It also
// makes a write to a closed stderr (a host gone, with its end of our
// stderr) an error instead of a SIGPIPE that would end the proxy, and with
// it the install it waits for. stop undoes both.
func secondSignal() (hurry <-chan struct{}, stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, endSignals...)
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	h := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer panics.Guard()
		for n := 0; ; {
			select {
			case <-sigs:
				if n++; n == 2 {
					close(h)
					return
				}
			case <-done:
				return
			}
		}
	}()
	return h, func() {
		signal.Stop(sigs)
		signal.Stop(pipe)
		close(done)
	}
}

func noConsentNote(profile, stateDir string) func(problem string) string {
	pick := "rootpick"
	if profile != consent.DefaultProfile {
		pick += " --profile " + shellWord(profile)
	}
	if stateDir != "" {
		pick += " --state-dir " + shellWord(stateDir)
	}
	return func(problem string) string {
		return fmt.Sprintf("rootpick proxy: no folders are shared with this server: no consent of profile %q could be read (%s). "+
			"Choose the folders with: %s DIR", profile, redact.Text(strings.TrimPrefix(problem, "consent: ")), pick)
	}
}

// shellWord is s quoted for a POSIX shell where it needs quoting.
func shellWord(s string) string {
	q, err := syntax.Quote(s, syntax.LangPOSIX)
	if err != nil { // a NUL byte or invalid UTF-8: no shell word holds it
		return strconv.Quote(s)
	}
	return q
}

// proxyLogName is the name of a proxy's log file in the state folder:
// proxy-PROFILE-HOST-NAME.log, by the host (and scope) and the name the
// host gives the server (hosts wrap writes them as --host and --name), so
// that two servers of one command, or a user-scope and a project-scope
// server of one name, log apart; without them, proxy-PROFILE-LABEL.log,
// by what the command is (mcpconn.Spec.Label: the package, not index.js).
func proxyLogName(profile, host, name, label string) string {
	parts := []string{"proxy", profile}
	switch {
	case name != "" && host != "":
		parts = append(parts, safeFileName(host), safeFileName(name))
	case name != "":
		parts = append(parts, safeFileName(name))
	default:
		parts = append(parts, safeFileName(label))
	}
	return strings.Join(parts, "-") + ".log"
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
	state   paths.State
	profile string
	warn    func(string, ...any)
	mu      sync.Mutex
	closed  bool
}

func newProxyRegistrar(state paths.State, profile string, warn func(string, ...any)) *proxyRegistrar {
	return &proxyRegistrar{state: state, profile: profile, warn: warn}
}

func (r *proxyRegistrar) update(st proxy.Status) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	e := proxy.Entry{PID: os.Getpid(), Profile: r.profile, Updated: time.Now(), Status: st}
	if err := proxy.Register(r.state, e); err != nil {
		r.warn("registering the proxy", "err", err)
	}
}

func (r *proxyRegistrar) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	proxy.Unregister(r.state, os.Getpid())
}

// printHostConfig prints the snippet that makes host launch the server
// through rootpick proxy.
// The snippet alone goes to w, so that it can be redirected into a file;
// where it goes is said on hint.
func printHostConfig(w, hint io.Writer, dirs paths.Dirs, o proxyCmd, command []string) error {
	exe, err := os.Executable()
	if err != nil || strings.Contains(exe, string(filepath.Separator)+"go-build") {
		exe = "rootpick" // go run builds in a temporary folder
	}
	args := []string{"proxy"}
	if o.Profile != consent.DefaultProfile {
		args = append(args, "--profile", o.Profile)
	}
	if o.Protocol != mcpconn.DefaultProtocolVersion {
		args = append(args, "--protocol", o.Protocol)
	}
	// Hosts start servers with a minimal environment (HOME, PATH…): a
	// state folder moved by XDG_STATE_HOME or --state-dir is passed as an
	// argument, or the proxy would read another consent store than the
	// picker writes.
	if state := dirs.NonDefaultState(); state != "" {
		args = append(args, "--state-dir", state)
	}
	// What the server may open goes with it, written --flag=value, which
	// hosts wrap and unwrap read as one word whatever the flag.
	if o.Enforce != "" {
		args = append(args, "--enforce="+string(o.Enforce))
	}
	for _, d := range o.AllowRead {
		args = append(args, "--allow-read="+d)
	}
	for _, d := range o.AllowWrite {
		args = append(args, "--allow-write="+d)
	}
	for _, d := range o.AllowSocket {
		args = append(args, "--allow-socket="+d)
	}
	if o.Network != "" {
		args = append(args, "--network="+string(o.Network))
	}
	if o.ReadOnly {
		args = append(args, "--read-only")
	}
	args = append(append(args, "--"), command...)
	name := o.Name
	if name == "" {
		name = safeFileName(mcpconn.Spec{Command: command}.Label())
	}
	if o.PrintConfig == "inspector" {
		// The Inspector's CLI (--cli) is what runs a server from a config
		// file and prints its answer; without --cli the same command
		// opens its interactive UI instead. The command after "then:" is
		// pasted as it is: the name is quoted for the shell.
		fmt.Fprintln(hint, "# save this as config.json, then: "+inspectorCommand(name))
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(map[string]any{"mcpServers": map[string]any{name: map[string]any{"command": exe, "args": args}}})
	}
	// Every host's entry is written as its entry in hostcfg.HostTable says.
	if hint2, text, ok := hostcfg.Snippet(string(o.PrintConfig), name, exe, args); ok {
		fmt.Fprintln(hint, hint2)
		_, err := w.Write(text)
		return err
	}
	return usageError("proxy: --print-config takes %s, not %q", strings.Join(printConfigHosts(), ", "), o.PrintConfig)
}
