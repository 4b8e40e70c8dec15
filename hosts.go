package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/ui"
	"github.com/rootpick/rootpick/vcsdetect"
)

// hostsCmd is "rootpick hosts [list|wrap|unwrap]": the MCP servers agent
// hosts configure, and putting them behind rootpick proxy.
type hostsCmd struct {
	List   hostsListCmd   `cmd:"" default:"withargs" help:"List the MCP servers each host configures, marking those that run through rootpick proxy (the default)."`
	Wrap   hostsWrapCmd   `cmd:"" help:"Make a host's stdio servers run through rootpick proxy (shows the diff, asks, keeps a backup)."`
	Unwrap hostsUnwrapCmd `cmd:"" help:"Make servers that run through rootpick proxy run directly again."`
}

func (hostsCmd) Help() string {
	// The hosts are named from hostcfg's list, never typed here: a host
	// added there is in this help too (TestHostsHelpNamesEveryHost).
	return `Reads the MCP server entries of ` + hostList(hostcfg.Hosts, "and") + ` (docs/hosts.md says
which files each host reads). Project files (.mcp.json, .vscode/mcp.json,
.gemini/settings.json…) are those of the current folder, or of --project DIR.

Examples:
  rootpick hosts                                 list every host's servers
  rootpick hosts wrap claude --profile work      put Claude Code's stdio servers behind the proxy
  rootpick hosts wrap vscode filesystem --yes    one server, without asking
  rootpick hosts unwrap claude                   back as they were`
}

// hostList names hosts as a sentence does: "a, b and c" (last "or" for
// "a, b or c").
func hostList(hosts []string, last string) string {
	if len(hosts) < 2 {
		return strings.Join(hosts, "")
	}
	return strings.Join(hosts[:len(hosts)-1], ", ") + " " + last + " " + hosts[len(hosts)-1]
}

// hostsListCmd lists the servers.
type hostsListCmd struct {
	Host    string `arg:"" optional:"" help:"Only this host: ${hostsOr}."`
	Project string `placeholder:"DIR" type:"path" help:"Read the project files of DIR (default: the current folder)."`
}

// hostsWrapCmd puts servers behind the proxy.
type hostsWrapCmd struct {
	Targets  []string `arg:"" optional:"" name:"host-or-server" help:"A host (${hosts}), then servers by name; with none, every stdio server."`
	Profile  string   `placeholder:"NAME" help:"The proxy serves the consent of profile NAME (default: the proxy's own default, as 'rootpick proxy' without --profile)."`
	Except   []string `placeholder:"NAME" help:"Leave the server NAME alone (repeat for several); it wins over a NAME given as an argument."`
	KeepArgs bool     `name:"keep-args" help:"Keep the servers' folder arguments as they are, instead of replacing them with {roots}: the servers then get those folders whatever you consent."`
	// Network is passed to each wrapped server's proxy (--network).
	Network networkFlag `placeholder:"on|off" help:"Pass --network to each wrapped server's proxy: off refuses the server every TCP and UDP socket when it runs enforced. Without it, servers known to need none (server-filesystem, git, memory, sequential-thinking) get off, the others the proxy's default, on."`
	Yes     bool        `short:"y" help:"Write without asking (for scripts)."`
	All     bool        `help:"With no server named, take every stdio server without the checklist (for scripts; --yes implies it)."`
	Project string      `placeholder:"DIR" type:"path" help:"Read the project files of DIR (default: the current folder)."`
	// NoPrefetch skips fetching what a wrapped launcher (npx, uvx, pnpm
	// dlx) would download on the host's first start (hosts_prefetch.go).
	NoPrefetch bool `name:"no-prefetch" help:"Do not fetch what a wrapped npx, npm exec, uvx or pnpm dlx entry would download on the host's first start (by default it is fetched before the file is written, so that the first start fits the host's timeout)."`
	// Prefetch lets --yes fetch ahead for a project file's entries too,
	// whose packages the repository chose (hosts_prefetch.go).
	Prefetch bool `name:"prefetch" help:"With --yes, fetch ahead for a project file's entries too (.mcp.json and the like, which come with the repository and name its choice of package); without it, --yes fetches only for your own files' entries."`
}

// hostsUnwrapCmd restores servers that run through the proxy.
type hostsUnwrapCmd struct {
	Targets []string `arg:"" optional:"" name:"host-or-server" help:"A host, then servers by name; with none, every server that runs through rootpick proxy."`
	Yes     bool     `short:"y" help:"Write without asking (for scripts)."`
	Project string   `placeholder:"DIR" type:"path" help:"Read the project files of DIR (default: the current folder)."`
}

func (hostsWrapCmd) Help() string {
	return `Each chosen stdio server's command becomes this rootpick executable and
its arguments 'proxy [--profile NAME] --host=HOST --name=NAME -- COMMAND
ARGS...', so that the host starts the proxy and the proxy starts the server
(and logs to proxy-PROFILE-HOST-NAME.log). In a project's files (.mcp.json,
.vscode/mcp.json, .cursor/mcp.json…), which a team commits, the command is
'rootpick' by name, found on PATH, and no state folder is written: nothing
of yours. The diff of every file is shown first; the files are written only
after a y on the terminal (or with --yes), each backed up in rootpick's
state folder (backups/, one per file, the newest; never beside the file). A
server that already runs through rootpick proxy is left alone, so wrapping twice is
wrapping once; named with --profile NAME, it moves to that profile (only its
--profile changes). --except NAME leaves NAME alone. Remote servers (url, httpUrl, type http or sse) are refused:
the proxy speaks stdio only. A file that is a symbolic link stays one: the
file it leads to is written. Comments, order and layout are kept.

Arguments that name folders (~/src, ${workspaceFolder}, /srv/docs) become
{roots}, which the proxy expands to the folders you consent, so that a
server sees only those; the diff names each, and unwrap puts them back.
--keep-args keeps them: the server then gets them whatever you consent.

A server started by npx, npm exec, uvx or pnpm dlx downloads itself on its
first start, which can take longer than the host waits: after the y, and
before the file is written, wrap fetches what that start would download
(with the entry's env), saying how long it takes. --no-prefetch skips it.
It runs only a launcher installed on PATH, never a program of the
project, confined as the server will be (Linux with Landlock; elsewhere
nothing is fetched). With --yes, a project file's entries (they came
with the repository) are fetched only with --prefetch.

Examples:
  rootpick hosts wrap                            every host's stdio servers
  rootpick hosts wrap claude --profile work      Claude Code's
  rootpick hosts wrap codex context7 docs --yes  two of Codex's, without asking
  rootpick hosts wrap claude fs --keep-args      keep fs's folder arguments
  rootpick hosts wrap claude --except memory     all of Claude Code's but memory
  rootpick hosts wrap claude fs --profile home   move fs to profile home`
}

func (hostsUnwrapCmd) Help() string {
	return `The server command after the proxy's flags becomes the entry's command
and arguments again, with the folder arguments wrap replaced by {roots} put
back; after 'hosts wrap' and 'hosts unwrap' a file is as it was, byte for
byte (an entry that had no args keeps an empty one). The diff is shown and
the files are written as for wrap.

Examples:
  rootpick hosts unwrap claude
  rootpick hosts unwrap vscode filesystem --yes`
}

func (o *hostsListCmd) Run(e *env) error {
	if e.dashdash {
		return usageError("hosts takes no server command, got -- %q", e.command)
	}
	if o.Host != "" && !slices.Contains(hostcfg.Hosts, o.Host) {
		return usageError("hosts: %q is no host: %s", o.Host, strings.Join(hostcfg.Hosts, ", "))
	}
	places, err := hostPlaces(e.dirs, o.Project)
	if err != nil {
		return err
	}
	configs, failed := loadHostConfigs(e.stderr, places, o.Host)
	listHosts(e.stdout, configs, o.Host, newProfileGrants(e.dirs))
	if failed {
		return exitError{code: 1}
	}
	return nil
}

func (o *hostsWrapCmd) Run(e *env) error {
	if o.Profile != "" {
		if err := consent.ValidateProfile(o.Profile); err != nil {
			return usageError("hosts wrap: --profile: %v", err)
		}
	}
	if o.Prefetch && o.NoPrefetch {
		return usageError("hosts wrap: --prefetch and --no-prefetch contradict each other: give one")
	}
	ch := hostsChange{targets: o.Targets, except: o.Except, project: o.Project, yes: o.Yes, wrap: true,
		proxy: hostcfg.Proxy{Exe: proxyExecutable(), Profile: o.Profile, StateDir: e.dirs.NonDefaultState(), KeepArgs: o.KeepArgs, Network: string(o.Network), NetworkFor: offlineNetwork}}
	if !o.NoPrefetch {
		ch.prefetch, ch.confine, ch.prefetchProject = prefetchRun, prefetchConfine, o.Prefetch
	}
	if !o.All && !o.Yes && term.IsTerminal(os.Stdin.Fd()) {
		ch.choose = terminalChecklist
	}
	return ch.run(e, terminalAsk())
}

func (o *hostsUnwrapCmd) Run(e *env) error {
	ch := hostsChange{targets: o.Targets, project: o.Project, yes: o.Yes}
	return ch.run(e, terminalAsk())
}

// hostPlaces is where the host files are: the home folder of dirs (the
// user database's when $HOME is not absolute) and the project folder.
func hostPlaces(dirs paths.Dirs, project string) (hostcfg.Places, error) {
	home, err := dirs.Home()
	if err != nil {
		return hostcfg.Places{}, err
	}
	if project == "" {
		if project, err = os.Getwd(); err != nil {
			return hostcfg.Places{}, err
		}
	}
	project, err = filepath.Abs(project)
	if err != nil {
		return hostcfg.Places{}, err
	}
	self := []string{proxyExecutable()}
	if exe, err := os.Executable(); err == nil {
		self = append(self, exe)
	}
	return hostcfg.Places{Home: home, Project: project, Getenv: os.Getenv, Windows: runtime.GOOS == "windows", Darwin: runtime.GOOS == "darwin",
		Rootpick: self, Folders: folders}, nil
}

// folders lists the names of the folders in dir, sorted (os.ReadDir's
// order); a link is not followed, and a dir that cannot be read has none.
func folders(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// loadHostConfigs reads the files of host ("" for every host) that exist.
// A file that cannot be read is named on w; failed says there was one.
func loadHostConfigs(w io.Writer, places hostcfg.Places, host string) (configs []*hostcfg.Config, failed bool) {
	for _, f := range hostcfg.Files(places) {
		if host != "" && f.Host != host {
			continue
		}
		c, err := hostcfg.Load(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			fmt.Fprintln(w, fileError(f.Path, err))
			failed = true
			continue
		}
		configs = append(configs, c)
	}
	return configs, failed
}

// fileError is the line that says err happened to the file at path: the
// path first, unless the error names it already (a refusal, an error of
// the file system).
func fileError(path string, err error) string {
	msg := err.Error()
	if strings.Contains(msg, path) || strings.Contains(msg, strconv.Quote(path)) {
		return "rootpick: " + shown(msg)
	}
	return "rootpick: " + shown(path) + ": " + shown(msg)
}

// listHosts prints each file's servers, grouped by host and file, with
// what each proxied server's profile grants (read through grants).
func listHosts(w io.Writer, configs []*hostcfg.Config, host string, grants profileGrants) {
	if len(configs) == 0 {
		which := "any host"
		if host != "" {
			which = host
		}
		fmt.Fprintf(w, "No MCP server configuration of %s found.\n", which)
		return
	}
	var total, proxied, stdio int
	for _, c := range configs {
		fmt.Fprintf(w, "%s  %s (%s)\n", c.File.Host, shown(c.File.Path), c.File.Scope)
		if len(c.Servers) == 0 {
			fmt.Fprintln(w, "  (no servers)")
		}
		width := 0
		for _, s := range c.Servers {
			width = max(width, len([]rune(shown(s.Name))))
		}
		scope := c.File.Scope
		for _, s := range c.Servers {
			if s.Scope != scope {
				scope = s.Scope
				fmt.Fprintf(w, "  %s:\n", shown(string(scope)))
			}
			total++
			switch s.Kind {
			case hostcfg.Proxied:
				proxied++
			case hostcfg.Stdio:
				stdio++
			case hostcfg.Remote, hostcfg.Other:
			}
			what := serverWords(s)
			name := shown(s.Name)
			fmt.Fprintf(w, "  %s%s  %s\n", name, strings.Repeat(" ", width-len([]rune(name))), what)
			if s.Kind == hostcfg.Proxied {
				fmt.Fprintf(w, "  %s  %s\n", strings.Repeat(" ", width), serving(s, grants))
			}
		}
	}
	fmt.Fprintf(w, "\n%s: %d through rootpick proxy, %d direct stdio", servers(total), proxied, stdio)
	if stdio > 0 {
		fmt.Fprint(w, " ('rootpick hosts wrap' puts them behind the proxy)")
	}
	fmt.Fprintln(w)
	if proxied > 0 && runningAsRoot() {
		fmt.Fprintln(w, "warning: rootpick runs as root here: a proxied server, enforced, still reads all that root can in its runtime (/etc/shadow, other processes' /proc). Run the host and rootpick as yourself.")
	}
	for _, c := range configs {
		if c.File.Host == hostcfg.Gemini {
			if note := geminiTrustNote(c.File); note != "" {
				fmt.Fprintln(w, note)
			}
			break
		}
	}
}

// serverWords is how rootpick hosts lists server s after its name: how it
// runs, its command or address, and why it cannot be rewritten, if so.
func serverWords(s hostcfg.Server) string {
	var what string
	switch s.Kind {
	case hostcfg.Proxied:
		what = "proxied   " + commandLine(s.Command, s.Args)
	case hostcfg.Stdio:
		what = "direct    " + commandLine(s.Command, s.Args)
	case hostcfg.Remote:
		what = "remote    " + shown(redact.URL(s.URL)) + " (" + shown(s.Note) + "; the proxy speaks stdio only)"
	case hostcfg.Other:
		fallthrough
	default:
		what = "other     " + shown(s.Note)
	}
	if s.Problem != "" {
		what += "  [cannot be rewritten: " + shown(s.Problem) + "]"
	}
	return what
}

// geminiTrustNote says, for Gemini CLI's file f, when Gemini CLI's
// trusted folders mark f's project folder untrusted: run there, Gemini CLI
// reads none of the project's settings and starts no MCP server at all,
// the person's own included, wrapped or not, and nothing in the entries
// shows it. "" when the folder is not marked untrusted; a trust file that
// cannot be read is said too (Gemini CLI stops on it).
func geminiTrustNote(f hostcfg.File) string {
	tr, err := hostcfg.GeminiFolderTrust(f.Home, f.Workspace, f.Getenv)
	if err != nil {
		return "note: whether Gemini CLI trusts " + shownFolder(f.Workspace, f.Home) + " cannot be told: " + shown(err.Error())
	}
	if !tr.Untrusted {
		return ""
	}
	return fmt.Sprintf("note: Gemini CLI's trusted folders mark %s untrusted (%s: %s is DO_NOT_TRUST): run there, Gemini CLI reads no .gemini/settings.json of the folder and starts no MCP server at all, yours included, wrapped or not; /permissions in Gemini CLI changes it",
		shownFolder(f.Workspace, f.Home), shownFolder(tr.File, f.Home), shownFolder(filepath.Clean(tr.Rule), f.Home))
}

// runningAsRoot says whether this process runs as root (euid 0); tests
// stand in either answer.
var runningAsRoot = func() bool { return os.Geteuid() == 0 }

// serving says what a server behind the proxy is served: its profile,
// what that profile grants now (from the consent store the proxy reads:
// the entry's --state-dir, else this run's), and whether the kernel
// enforces it here (Landlock) or it is advisory.
func serving(s hostcfg.Server, grants profileGrants) string {
	profile := cmp.Or(s.Profile, consent.DefaultProfile)
	setting, err := mcpconn.ParseEnforce(s.ProxyFlag("--enforce"))
	if err != nil {
		setting = mcpconn.EnforceDefault
	}
	return fmt.Sprintf("profile %s: %s; %s", shown(profile), grants.in(s.ProxyFlag("--state-dir"), profile), mcpconn.WouldEnforce(setting))
}

// commandLine shows a command and its arguments, each quoted when it
// holds a space or a quote, with secrets hidden (each word by redact.Arg,
// a URL with spaces included; then the line by redact.Text, so that
// --api-key X loses X), escaped for the terminal.
func commandLine(command string, args []string) string {
	words := append([]string{command}, args...)
	for i, w := range words {
		w = redact.Arg(w)
		if w == "" || strings.ContainsAny(w, " \t'\"\\$`") {
			w = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'" // as a shell reads it
		}
		words[i] = w
	}
	return shown(strings.Join(words, " "))
}

// shown is text from a host's file (a name, a command line, an error that
// quotes the file, a diff) as the terminal shows it: its secrets hidden
// (redact.Text), then escaped.
func shown(s string) string {
	return safetext.Escape(redact.Text(s))
}

// hostsChange is one wrap or unwrap run.
type hostsChange struct {
	targets []string
	// except are servers named with --except: never rewritten.
	except  []string
	project string
	yes     bool
	// wrap says wrap (with proxy), not unwrap.
	wrap  bool
	proxy hostcfg.Proxy
	// choose, when set (a terminal, no server named, no --all or --yes),
	// lets the person pick the servers to wrap from a checklist.
	choose chooseFunc
	// prefetch, when set (wrap without --no-prefetch), fetches what each
	// wrapped launcher would download on the host's first start, after
	// the yes and before the files are written (hosts_prefetch.go),
	// each confined by confine. prefetchProject (--prefetch) lets --yes
	// fetch for a project file's entries too.
	prefetch        prefetchFunc
	confine         confineFunc
	prefetchProject bool
}

// chooseFunc shows the candidates as a checklist and returns those
// chosen; false when the person cancelled.
type chooseFunc func(title string, items []ui.ChecklistItem) ([]int, bool, error)

// terminalChecklist is the picker's list, on the terminal.
func terminalChecklist(title string, items []ui.ChecklistItem) ([]int, bool, error) {
	return ui.Checklist(title, items, os.Stdin, os.Stderr)
}

// chosenServers asks which of the configs' wrappable servers to wrap, those
// that take folder arguments checked to start with; it returns their
// names, or ok false when the person cancelled.
func (ch hostsChange) chosenServers(configs []*hostcfg.Config) (names []string, ok bool, err error) {
	var items []ui.ChecklistItem
	var itemNames []string
	for _, c := range configs {
		for i, s := range c.Servers {
			if can, _ := s.CanWrap(); !can || slices.Contains(ch.except, s.Name) {
				continue
			}
			item := ui.ChecklistItem{
				Name:   c.File.Host + " · " + string(s.Scope) + " · " + s.Name,
				Detail: redact.Text(strings.Join(append([]string{s.Command}, s.Args...), " ")),
			}
			if slices.ContainsFunc(c.FolderArgs(i), hostcfg.FolderRun.Replaced) {
				item.Note, item.Checked = "takes folders → {roots}", true
			}
			items = append(items, item)
			itemNames = append(itemNames, s.Name)
		}
	}
	if len(items) == 0 {
		return nil, true, nil
	}
	chosen, ok, err := ch.choose("Wrap which servers in rootpick proxy? (those that take folders are checked)", items)
	if err != nil || !ok {
		return nil, ok, err
	}
	for _, i := range chosen {
		if !slices.Contains(names, itemNames[i]) {
			names = append(names, itemNames[i])
		}
	}
	return names, true, nil
}

// askFunc asks the person a yes/no question; nil when there is no
// terminal to ask on.
type askFunc func(question string) (bool, error)

// terminalAsk asks on the terminal when stdin is one.
func terminalAsk() askFunc {
	if !term.IsTerminal(os.Stdin.Fd()) {
		return nil
	}
	return func(question string) (bool, error) {
		fmt.Fprint(os.Stderr, question)
		line, err := bufio.NewReader(os.Stdin).ReadString('\n')
		if err != nil && line == "" {
			return false, err
		}
		answer := strings.ToLower(strings.TrimSpace(line))
		return answer == "y" || answer == "yes", nil
	}
}

// planned is one file to rewrite, as read by one or more hosts.
type planned struct {
	// configs are the file as each host that reads it read it (several
	// when one file is reached two ways: .cursor/mcp.json a link to
	// ../.mcp.json); hosts names them.
	configs []*hostcfg.Config
	hosts   string
	// paths are the paths the hosts read the file by.
	paths []string
	// steps are the rewrites, one per host view that changed something,
	// each of the one before's result; out is the last one's.
	steps []*hostcfg.Rewrite
	out   []byte
	// servers are the names rewritten; notes say what became of their
	// folder arguments.
	servers []string
	notes   []string
	// limited are the folders the wrapped servers were started with and
	// now see only through the consent ({roots}): where to pick.
	limited []string
	// portable says the notes already say the file is a project's.
	portable bool
	// launches are the wrapped servers whose command is a downloading
	// launcher (hosts_prefetch.go).
	launches []launch
}

func (p *planned) data() []byte { return p.configs[0].Data }
func (p *planned) path() string { return p.configs[0].File.Path }

// sameFiles groups configs by the file they were read from (os.SameFile,
// links followed), in the order they come: one file that two hosts read
// (a project's .cursor/mcp.json a link to its .mcp.json) must be rewritten
// once, or the second write finds it changed since it was read.
func sameFiles(configs []*hostcfg.Config) [][]*hostcfg.Config {
	var groups [][]*hostcfg.Config
	var ids []os.FileInfo
	for _, c := range configs {
		id, err := os.Stat(c.File.Path)
		at := -1
		for i, g := range groups {
			if g[0].File.Path == c.File.Path || (err == nil && ids[i] != nil && os.SameFile(ids[i], id)) {
				at = i
				break
			}
		}
		if at >= 0 {
			groups[at] = append(groups[at], c)
			continue
		}
		groups = append(groups, []*hostcfg.Config{c})
		if err != nil {
			id = nil
		}
		ids = append(ids, id)
	}
	return groups
}

// sameServers reports whether two readings of one file found the same
// servers (two hosts that read it alike): the second adds nothing.
func sameServers(a, b *hostcfg.Config) bool {
	return slices.EqualFunc(a.Servers, b.Servers, func(x, y hostcfg.Server) bool {
		return x.Name == y.Name && x.Scope == y.Scope && x.Kind == y.Kind && x.Command == y.Command && slices.Equal(x.Args, y.Args) && x.URL == y.URL
	})
}

// run is one wrap or unwrap: plan the rewrites (plan), show them (show),
// ask (confirm), write them (write), then say what to do next.
func (ch hostsChange) run(e *env, ask askFunc) error {
	verb := ch.verb()
	if e.dashdash {
		return usageError("hosts %s takes no server command, got -- %q", verb, e.command)
	}
	host, names := "", ch.targets
	if len(names) > 0 && slices.Contains(hostcfg.Hosts, names[0]) {
		host, names = names[0], names[1:]
	}
	places, err := hostPlaces(e.dirs, ch.project)
	if err != nil {
		return err
	}
	configs, failed := loadHostConfigs(e.stderr, places, host)
	if failed {
		return exitError{code: 1, msg: "nothing written: a configuration file could not be read"}
	}
	if ch.wrap && ch.choose != nil && len(names) == 0 {
		chosen, ok, err := ch.chosenServers(configs)
		switch {
		case err != nil:
			return err
		case !ok:
			fmt.Fprintln(e.stderr, "Nothing wrapped: cancelled.")
			return nil
		case len(chosen) == 0:
			fmt.Fprintf(e.stderr, "Nothing to %s: no server chosen.\n", verb)
			return nil
		}
		names = chosen
	}
	pl := &planner{ch: ch, log: e.stderr, names: names, found: map[string]bool{}, grants: newProfileGrants(e.dirs)}
	plans, err := pl.plan(configs)
	if err != nil {
		return err
	}
	if missing := pl.missing(); len(missing) > 0 {
		where := cmp.Or(host, "any host")
		return usageError("hosts %s: no server %s in %s ('rootpick hosts' lists them)", verb, strings.Join(missing, ", "), where)
	}
	if len(plans) == 0 {
		fmt.Fprintf(e.stderr, "Nothing to %s.\n", verb)
		if pl.refused {
			return exitError{code: 1}
		}
		return nil
	}
	n, err := ch.show(e, plans)
	if err != nil {
		return err
	}
	if ok, err := ch.confirm(e, plans, ask); !ok {
		return err
	}
	if ch.wrap && ch.prefetch != nil {
		if sig := ch.prefetchAll(e, plans); sig != nil {
			fmt.Fprintln(e.stderr, "Nothing written: interrupted.")
			return signalExit(sig)
		}
	}
	writeFailed := ch.write(e, plans)
	if ch.wrap && !writeFailed {
		var limited []string
		for _, p := range plans {
			limited = append(limited, p.limited...)
		}
		ch.next(e, n, places, limited)
	}
	if writeFailed || pl.refused {
		return exitError{code: 1}
	}
	return nil
}

// verb and done name the change: "wrap" and "wrapped", or "unwrap" and
// "unwrapped".
func (ch hostsChange) verb() string {
	if ch.wrap {
		return "wrap"
	}
	return "unwrap"
}

func (ch hostsChange) done() string { return ch.verb() + "ped" }

// planner decides what one run rewrites, file by file; what it leaves
// alone, and why, it says on log as it goes.
type planner struct {
	ch  hostsChange
	log io.Writer
	// names are the servers asked for (none: every one); found are those
	// seen in some file.
	names []string
	found map[string]bool
	// refused says a server asked for by name could not be changed.
	refused bool
	grants  profileGrants
	// geminiSaid says the note on Gemini CLI's trusted folders was made
	// (geminiTrustNote): once a run, under the first Gemini file's diff.
	geminiSaid bool
}

// missing are the names asked for that no file has, as shown.
func (pl *planner) missing() []string {
	var missing []string
	for _, n := range pl.names {
		if !pl.found[n] {
			missing = append(missing, shown(n))
		}
	}
	return missing
}

// plan is the rewrite of each file that changes, one file read by
// several hosts rewritten once.
func (pl *planner) plan(configs []*hostcfg.Config) ([]*planned, error) {
	var plans []*planned
	for _, group := range sameFiles(configs) {
		p, err := pl.file(group)
		if err != nil {
			return nil, err
		}
		if len(p.steps) > 0 {
			plans = append(plans, p)
		}
	}
	return plans, nil
}

// file plans the rewrite of one file, as each host in group read it.
func (pl *planner) file(group []*hostcfg.Config) (*planned, error) {
	p := &planned{}
	var hosts []string
	for _, c := range group {
		if !slices.ContainsFunc(p.configs, func(d *hostcfg.Config) bool { return sameServers(c, d) }) {
			p.configs = append(p.configs, c)
		}
		if !slices.Contains(hosts, c.File.Host) {
			hosts = append(hosts, c.File.Host)
		}
		if !slices.Contains(p.paths, c.File.Path) {
			p.paths = append(p.paths, c.File.Path)
		}
		if !bytes.Equal(c.Data, group[0].Data) {
			return nil, exitError{code: 1, msg: fmt.Sprintf("nothing written: %s changed while it was read (by %s and %s); run the command again", shown(c.File.Path), group[0].File.Host, c.File.Host)}
		}
	}
	p.hosts = strings.Join(hosts, ", ")
	data := p.data()
	rewritten := map[string]bool{} // scope and name of the servers an earlier step rewrote
	for k, read := range p.configs {
		var err error
		if data, err = pl.view(p, k, read, data, rewritten); err != nil {
			return nil, err
		}
	}
	p.out = data
	return p, nil
}

// wrapped adds to p what wrapping server i of c brings: its notes, and
// the launch to fetch ahead (or why not, said below the diff).
func (pl *planner) wrapped(p *planned, c *hostcfg.Config, i int) {
	p.notes = append(p.notes, pl.ch.wrapNotes(c, i, pl.grants)...)
	if !pl.ch.proxy.KeepArgs {
		for _, r := range c.FolderArgs(i) {
			if r.Replaced() {
				p.limited = append(p.limited, r.Paths...)
			}
		}
	}
	if l, ok := pl.launchOf(c, i); ok {
		p.launches = append(p.launches, l)
		if l.skip != "" {
			p.notes = append(p.notes, l.skipNote())
		}
	}
}

// view adds to p the steps of one host's reading of the file (the k-th),
// given the file as the steps before left it (data), and returns the file
// as it leaves it.
func (pl *planner) view(p *planned, k int, read *hostcfg.Config, data []byte, rewritten map[string]bool) ([]byte, error) {
	c := read
	label := p.hosts
	if len(p.configs) > 1 {
		label = c.File.Host
	}
	var err error
	if k > 0 {
		// The file as the steps before left it, read as this host reads it.
		if c, err = hostcfg.Parse(read.File, data); err != nil {
			return nil, planError(read.File.Path, err)
		}
	}
	which, moves := pl.choose(c, label, rewritten)
	if len(moves) > 0 {
		rw, err := c.PlanProfile(moves, pl.ch.proxy.Profile)
		if err != nil {
			return nil, planError(c.File.Path, err)
		}
		for _, i := range moves {
			p.servers = append(p.servers, shown(c.Servers[i].Name))
			p.notes = append(p.notes, pl.moveNote(c.Servers[i]))
		}
		p.steps = append(p.steps, rw)
		data = rw.New
		if len(which) > 0 {
			// The servers to wrap, in the file as moved.
			if c, err = hostcfg.Parse(read.File, data); err != nil {
				return nil, planError(read.File.Path, err)
			}
		}
	}
	if len(which) == 0 {
		return data, nil
	}
	var rw *hostcfg.Rewrite
	if pl.ch.wrap {
		rw, err = c.PlanWrap(which, pl.ch.proxy)
	} else {
		rw, err = c.PlanUnwrap(which)
	}
	if err != nil {
		return nil, planError(c.File.Path, err)
	}
	for _, i := range which {
		s := c.Servers[i]
		rewritten[string(s.Scope)+"\x00"+s.Name] = true
		p.servers = append(p.servers, shown(s.Name))
		if pl.ch.wrap {
			pl.wrapped(p, c, i)
		} else {
			p.notes = append(p.notes, unwrapNotes(s)...)
		}
	}
	if pl.ch.wrap && c.File.Host == hostcfg.Gemini && !pl.geminiSaid {
		pl.geminiSaid = true
		if note := geminiTrustNote(c.File); note != "" {
			p.notes = append(p.notes, note)
		}
	}
	if pl.ch.wrap && c.File.Scope == hostcfg.ScopeProject && !p.portable {
		p.portable = true
		p.notes = append(p.notes, pl.ch.portableNotes()...)
	}
	p.steps = append(p.steps, rw)
	return rw.New, nil
}

// portableNotes say what a project-scope file (one a team commits) gets
// instead of this person's paths: rootpick by name, from PATH, and no
// state folder; and warn when that is not this rootpick, or when the
// state folder is not the default one.
func (ch hostsChange) portableNotes() []string {
	notes := []string{"a project file, for the team: its entries start 'rootpick' from PATH, with no path or state folder of yours"}
	if !onPath() {
		notes = append(notes, "warning: the rootpick on your PATH is not this one (or there is none): the host will start what PATH finds; install rootpick on PATH")
	}
	if ch.proxy.StateDir != "" {
		notes = append(notes, fmt.Sprintf("warning: your state folder %s is not written into a project file: start the host with the same XDG_STATE_HOME, or wrap a user-scope file, or the proxy reads the default one", shown(ch.proxy.StateDir)))
	}
	return notes
}

// onPath reports whether "rootpick" on PATH is this executable.
func onPath() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	return hostcfg.IsRootpick(hostcfg.PortableExe, exe)
}

// planError is the error that stops a run before anything is written.
func planError(path string, err error) error {
	return exitError{code: 1, msg: fmt.Sprintf("nothing written: %s: %v", shown(path), shown(err.Error()))}
}

// moveNote says what moving s to the asked profile changes.
func (pl *planner) moveNote(s hostcfg.Server) string {
	to := pl.ch.proxy.Profile
	return fmt.Sprintf("%s: profile %s → %s: it will see what you consent for %s (%s)",
		shown(s.Name), shown(cmp.Or(s.Profile, consent.DefaultProfile)), shown(to), shown(to), pl.grants.of(to))
}

// choose picks c's servers to rewrite (which) and to move to the asked
// profile (moves); the others it names on log with the reason.
func (pl *planner) choose(c *hostcfg.Config, label string, rewritten map[string]bool) (which, moves []int) {
	ch := pl.ch
	for i, s := range c.Servers {
		if len(pl.names) > 0 && !slices.Contains(pl.names, s.Name) {
			continue
		}
		pl.found[s.Name] = true
		if rewritten[string(s.Scope)+"\x00"+s.Name] {
			continue
		}
		if slices.Contains(ch.except, s.Name) {
			fmt.Fprintf(pl.log, "%s %s: left alone: --except\n", label, shown(s.Name))
			continue
		}
		// A server behind the proxy under another profile than the one
		// asked for moves to it when it is named: a wrap of every server
		// must not move those of other profiles.
		if ch.wrap && ch.proxy.Profile != "" && s.Kind == hostcfg.Proxied {
			if ok, _ := s.CanMove(ch.proxy.Profile); ok {
				if len(pl.names) > 0 {
					moves = append(moves, i)
				} else {
					fmt.Fprintf(pl.log, "%s %s: left alone: runs through rootpick proxy with profile %s; to move it to %s: rootpick hosts wrap %s %s --profile %s\n",
						label, shown(s.Name), shown(cmp.Or(s.Profile, consent.DefaultProfile)), shown(ch.proxy.Profile), c.File.Host, argWords([]string{s.Name}), argWords([]string{ch.proxy.Profile}))
				}
				continue
			}
		}
		ok, why := s.CanWrap()
		if !ch.wrap {
			ok, why = s.CanUnwrap()
		}
		if ok {
			which = append(which, i)
			continue
		}
		pl.leave(c, s, label, why)
	}
	return which, moves
}

// leave says why s is not rewritten: an error when it was asked for by
// name and is not already as asked, a note otherwise.
func (pl *planner) leave(c *hostcfg.Config, s hostcfg.Server, label, why string) {
	ch := pl.ch
	already := (ch.wrap && s.Kind == hostcfg.Proxied) || (!ch.wrap && s.Kind != hostcfg.Proxied && s.Kind != hostcfg.Other)
	switch {
	case len(pl.names) > 0 && !already:
		pl.refused = true
		fmt.Fprintf(pl.log, "rootpick: %s %s in %s: not %s: %s\n", label, shown(s.Name), shown(c.File.Path), ch.done(), shown(why))
	case ch.wrap || len(pl.names) > 0 || s.Kind == hostcfg.Proxied:
		fmt.Fprintf(pl.log, "%s %s: left alone: %s\n", label, shown(s.Name), shown(why))
	}
}

// show prints each file's diff and notes on stdout and what changes in it
// on stderr; n is the number of servers changed.
func (ch hostsChange) show(e *env, plans []*planned) (n int, err error) {
	how := "to run directly"
	if ch.wrap {
		how = "to run through rootpick proxy"
	}
	for _, p := range plans {
		// The diff goes out hunk by hunk, escaped line by line: it can be
		// tens of megabytes for a large ~/.claude.json.
		w := diffWriter{e.stdout}
		oldName, newName := p.path(), p.path()+" ("+ch.done()+")"
		if len(p.steps) == 1 {
			err = p.steps[0].WriteDiff(w, oldName, newName)
		} else {
			_, err = io.WriteString(w, hostcfg.Diff(oldName, newName, p.data(), p.out))
		}
		if err != nil {
			return n, err
		}
		for _, note := range p.notes {
			fmt.Fprintln(e.stdout, note)
		}
		fmt.Fprintf(e.stderr, "%s %s%s: %s %s\n", p.hosts, shown(p.path()), p.alsoAs(), strings.Join(p.servers, ", "), how)
		n += len(p.servers)
	}
	return n, nil
}

// confirm asks whether to write, unless --yes said so: ok is false when
// nothing is to be written, with the error to end on.
func (ch hostsChange) confirm(e *env, plans []*planned, ask askFunc) (ok bool, err error) {
	if ch.yes {
		return true, nil
	}
	files := fmt.Sprintf("%d file", len(plans))
	if len(plans) > 1 {
		files += "s"
	}
	if ask == nil {
		return false, exitError{code: 1, msg: fmt.Sprintf("nothing written: there is no terminal to ask on; run again with --yes to write %s", files)}
	}
	var all []string
	for _, p := range plans {
		all = append(all, p.servers...)
	}
	what := files
	if len(all) > 1 {
		// Several candidates: the question names them all.
		what = fmt.Sprintf("%s (%s: %s)", files, servers(len(all)), strings.Join(all, ", "))
	}
	if fetch := ch.fetchPlan(plans); fetch != "" {
		fmt.Fprintln(e.stderr, fetch)
	}
	yes, err := ask(fmt.Sprintf("Write %s, each backed up in %s? [y/N] ", what, backupsShown(e.dirs)))
	if err != nil || !yes {
		fmt.Fprintln(e.stderr, "Nothing written.")
		return false, nil
	}
	return true, nil
}

// fetchPlan says, before the question, what a yes also fetches, and that
// fetching runs the packages' install scripts: a project's file may name
// a package the person has not vetted, which the host would only start
// after asking; those of a project file's entries are named apart, as
// the repository's choice. "" when nothing is to be fetched.
func (ch hostsChange) fetchPlan(plans []*planned) string {
	if !ch.wrap || ch.prefetch == nil {
		return ""
	}
	var what, project []string
	for _, p := range plans {
		for _, l := range p.launches {
			w := l.what() + " (" + l.launcher.Tool + ")"
			if len(l.launcher.Prefetch) == 0 || l.skip != "" || slices.Contains(what, w) {
				continue
			}
			what = append(what, w)
			if l.project {
				project = append(project, w)
			}
		}
	}
	if len(what) == 0 {
		return ""
	}
	plan := "Before writing, wrap fetches " + strings.Join(what, ", ") + " as the host's first start would: the install scripts run now (--no-prefetch skips this)."
	if len(project) > 0 {
		plan += " A project file, which came with the repository, names " + strings.Join(project, ", ") + ": those install scripts are the repository's choice of package, not yours."
	}
	return plan
}

// backupsDir is the folder the backups go to: backups in rootpick's
// state folder, made 0700 and checked to be the person's own.
func backupsDir(dirs paths.Dirs) (string, error) {
	state, err := dirs.State()
	if err != nil {
		return "", err
	}
	d, err := consent.OpenStateDir(state, true, "backups")
	if err != nil {
		return "", err
	}
	defer d.Close()
	return d.Path(), nil
}

// backupsShown names the backups folder in the question; "rootpick's
// state folder" when it cannot be found (write says why).
func backupsShown(dirs paths.Dirs) string {
	dir, err := backupsDir(dirs)
	if err != nil {
		return "rootpick's state folder"
	}
	home, _ := dirs.Home()
	return shownFolder(dir, home)
}

// write writes each planned file, saying where and where its backup is
// (one per file, the newest, in rootpick's state folder: never beside a
// file a team commits); failed says one could not be written.
func (ch hostsChange) write(e *env, plans []*planned) (failed bool) {
	backups, err := backupsDir(e.dirs)
	if err != nil {
		fmt.Fprintln(e.stderr, "rootpick: nothing written: no folder for the backups: "+shown(err.Error()))
		return true
	}
	for _, p := range plans {
		w, err := hostcfg.Write(p.path(), p.data(), p.out, backups)
		if err != nil {
			failed = true
			fmt.Fprintln(e.stderr, fileError(p.path(), err))
			continue
		}
		if w.Link {
			fmt.Fprintf(e.stderr, "%s is a symbolic link: wrote the file it leads to, %s", shown(p.path()), shown(w.Target))
		} else {
			fmt.Fprintf(e.stderr, "Wrote %s", shown(w.Target))
		}
		fmt.Fprintf(e.stderr, " (backup: %s", shown(w.Backup))
		if w.BackupExisted {
			fmt.Fprint(e.stderr, ", already there")
		}
		if w.OlderBackup != "" {
			fmt.Fprintf(e.stderr, "; the older backup %s is kept", shown(w.OlderBackup))
		}
		fmt.Fprintln(e.stderr, ")")
	}
	return failed
}

// next says, after a wrap, what to do next: restart the host and choose
// the folders, with the exact command, run on the folder pickFolder
// chooses.
func (ch hostsChange) next(e *env, n int, places hostcfg.Places, limited []string) {
	profile := cmp.Or(ch.proxy.Profile, consent.DefaultProfile)
	pick := "rootpick"
	if ch.proxy.Profile != "" {
		pick += " --profile " + shellWord(ch.proxy.Profile)
	}
	verb, their := "run", "their"
	if n == 1 {
		verb, their = "runs", "its"
	}
	dir, why := pickFolder(e.dirs, profile, places.Project, limited)
	if why != "" {
		why = " (" + why + ")"
	}
	fmt.Fprintf(e.stderr, "%s now %s through rootpick proxy: restart the host, then choose %s folders with '%s %s'%s.\n", servers(n), verb, their, pick, shownFolder(dir, places.Home), why)
}

// pickFolder is the folder to run the picker of profile on after a wrap
// for project, and why it is that one ("" when it is project itself):
//   - the folder profile's consent was given for (its record's Dir), when
//     there is one: the picker applies a remembered consent only there
//     ("The remembered consent is for ~/src: not applied here");
//   - else the folder the wrapped servers were started with (limited,
//     replaced by {roots}), or the folder that holds them all: what the
//     person had given the servers is where the folders to choose are;
//   - else, when project is itself a repository (or a project), the folder
//     that holds it: the picker run on a repository shows it as one
//     "whole folder" row, while its parent is where the person's
//     repositories are, to choose among;
//   - else project.
func pickFolder(dirs paths.Dirs, profile, project string, limited []string) (dir, why string) {
	if d := consentedDir(dirs, profile); d != "" {
		return d, "where " + shown(profile) + "'s consent was given"
	}
	if d := commonFolder(limited); d != "" {
		return d, "the folder the servers were given"
	}
	if parent := filepath.Dir(project); parent != project && parent != string(filepath.Separator) && isRepository(project) {
		return parent, "the folder that holds this repository"
	}
	return project, ""
}

// commonFolder is the deepest existing folder that holds every absolute
// path of paths (a path itself when it is the only one), or "" when
// there is none but / .
func commonFolder(paths []string) string {
	common := ""
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			continue
		}
		p = filepath.Clean(p)
		if common == "" {
			common = p
			continue
		}
		for !consent.Within(p, common) {
			common = filepath.Dir(common)
		}
	}
	if common == "" || common == string(filepath.Separator) {
		return ""
	}
	if fi, err := os.Stat(common); err != nil || !fi.IsDir() {
		return ""
	}
	return common
}

// consentedDir is the folder profile's consent record says it was given
// for, when the record can be read and that folder still exists; "".
// The record is a claim, but the folder is only named in a hint: the
// picker run on it validates everything again.
func consentedDir(dirs paths.Dirs, profile string) string {
	st, err := dirs.State()
	if err != nil {
		return ""
	}
	store, err := consent.OpenStoreAt(st, profile)
	if err != nil {
		return ""
	}
	rec, err := store.Load()
	if err != nil || !filepath.IsAbs(rec.Dir) {
		return ""
	}
	if fi, err := os.Stat(rec.Dir); err != nil || !fi.IsDir() {
		return ""
	}
	return filepath.Clean(rec.Dir)
}

// isRepository reports whether dir is itself a repository or a project,
// as the picker's scan finds it (a row at depth 0). The scan stops at
// dir's subfolders' listings and ends once dir is reported.
func isRepository(dir string) bool {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	found := false
	_, _ = vcsdetect.Scan(ctx, dir, vcsdetect.Options{MaxDepth: 1, NoBranch: true, Workers: 1}, func(r vcsdetect.Repo) {
		if r.Depth == 0 {
			found = true
			cancel()
		}
	})
	return found
}

// servers is "1 server" or "N servers".
func servers(n int) string {
	if n == 1 {
		return "1 server"
	}
	return fmt.Sprintf("%d servers", n)
}

// shownFolder is dir as a person types it in a shell: ~ for the home
// folder and ~/… under it, quoted where the shell needs it, escaped.
func shownFolder(dir, home string) string {
	if home != "" && dir == home {
		return "~"
	}
	if rel, err := filepath.Rel(home, dir); home != "" && err == nil && filepath.IsLocal(rel) {
		if q := argWords([]string{rel}); q == shown(rel) {
			return "~/" + q
		}
	}
	return argWords([]string{dir})
}

// alsoAs names the file's other paths, when hosts reach it by several.
func (p *planned) alsoAs() string {
	if len(p.paths) < 2 {
		return ""
	}
	var other []string
	for _, path := range p.paths[1:] {
		other = append(other, shown(path))
	}
	return " (also read as " + strings.Join(other, ", ") + ")"
}

// diffWriter shows a diff on w: each Write holds whole lines (a hunk, as
// hostcfg.Rewrite.WriteDiff writes them), escaped by shownDiff.
type diffWriter struct{ w io.Writer }

func (d diffWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(d.w, shownDiff(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// wrapNotes say, below the diff, what becomes of server i's folder
// arguments: each run replaced by {roots} (and what the server was
// limited to, against what its profile grants now), or kept, with what
// keeping them means.
func (ch hostsChange) wrapNotes(c *hostcfg.Config, i int, grants profileGrants) []string {
	s := c.Servers[i]
	profile := cmp.Or(ch.proxy.Profile, consent.DefaultProfile)
	var notes, replaced, kept []string
	for _, r := range c.FolderArgs(i) {
		words := argWords(r.Args)
		switch {
		case r.Inside:
			notes = append(notes, fmt.Sprintf("warning: %s keeps %s: {roots} cannot stand inside an argument, so the server gets that folder whatever you consent (enforced, it cannot open it unless consented)", shown(s.Name), words))
		case r.Flag != "":
			notes = append(notes, fmt.Sprintf("warning: %s keeps %s %s: %s takes exactly one folder, and {roots} stands for as many as you consent (none before a consent), which the server would refuse; so it gets that folder whatever you consent (enforced, it cannot open it unless consented)",
				shown(s.Name), shown(r.Flag), words, shown(r.Flag)))
		case ch.proxy.KeepArgs:
			kept = append(kept, words)
		default:
			replaced = append(replaced, words)
			notes = append(notes, fmt.Sprintf("%s: %s → %s: it will see only what you consent", shown(s.Name), words, hostcfg.RootsArg))
		}
	}
	if len(replaced) > 0 {
		notes = append(notes, fmt.Sprintf("%s was limited to %s; behind profile %s it sees what you consent for %s (%s)",
			shown(s.Name), strings.Join(replaced, " and "), shown(profile), shown(profile), grants.of(profile)))
	}
	if len(kept) > 0 {
		notes = append(notes, fmt.Sprintf("warning: --keep-args: %s keeps %s: the server gets those folders whatever you consent for %s (enforced, it cannot open them unless consented)",
			shown(s.Name), strings.Join(kept, " and "), shown(profile)))
	}
	if ch.proxy.Network == "" {
		if what, ok := offlineServer(append([]string{s.Command}, s.Args...)); ok {
			notes = append(notes, fmt.Sprintf("%s: network off: %s needs none (hosts wrap --network on keeps it on)", shown(s.Name), shown(what)))
		}
	}
	return append(notes, refusedNotes(c, i)...)
}

// offlineServers are servers known to need no network: they work on the
// consented folders alone (files, a git repository, a local store). hosts
// wrap turns their network off unless told otherwise (--network): a
// consented folder cannot leave the machine through them. A server not
// listed keeps the network (the proxy's default): one that calls an API
// would break, and a boundary that breaks servers gets turned off.
var offlineServers = []string{
	"@modelcontextprotocol/server-filesystem", "mcp-server-filesystem",
	"mcp-server-git",
	"@modelcontextprotocol/server-memory", "mcp-server-memory",
	"@modelcontextprotocol/server-sequential-thinking", "mcp-server-sequential-thinking",
}

// offlineServer reports whether command starts one of offlineServers,
// through a launcher (npx, uvx…) or as the program itself, and which.
func offlineServer(command []string) (string, bool) {
	names := []string{filepath.Base(command[0])}
	if l, ok := prefetch.Of(command); ok {
		names = l.Packages
	}
	for _, n := range names {
		// A version (pkg@1.2.3, @scope/pkg@latest, pkg==1.2) names the
		// same server.
		if i := strings.LastIndexByte(n, '@'); i > 0 {
			n = n[:i]
		}
		n, _, _ = strings.Cut(n, "==")
		if slices.Contains(offlineServers, n) {
			return n, true
		}
	}
	return "", false
}

// offlineNetwork is hostcfg.Proxy.NetworkFor for hosts wrap without
// --network: off for offlineServers, the proxy's default otherwise.
func offlineNetwork(command []string) string {
	if _, ok := offlineServer(command); ok {
		return string(mcpconn.NetworkOff)
	}
	return ""
}

// refusedNotes say what the entry's own env, or the files its command
// names, asked of the boundary and will not get when the proxy runs it
// enforced (mcpconn.EnvRefusals: a cache variable pointing at ~/.ssh, a
// script under ~/.aws): a project file's word widens nothing, and the
// person reads here why the server may then fail.
func refusedNotes(c *hostcfg.Config, i int) []string {
	s := c.Servers[i]
	env := c.Env(i)
	var notes []string
	for _, r := range mcpconn.EnvRefusals(append([]string{s.Command}, s.Args...), envList(os.Environ(), env)) {
		if _, own := env[r.Var]; own || r.Var == mcpconn.RefusedCommand {
			notes = append(notes, fmt.Sprintf("warning: %s: %s is not granted when it runs enforced: %s", shown(s.Name), r.Subject(shownPath(c.File.Home), shown), shown(r.Why)))
		}
	}
	return notes
}

// unwrapNotes say which folder arguments unwrap puts back: each {roots}
// and the arguments it becomes again, and nothing else of the command
// (the program and its other arguments stay as they are).
func unwrapNotes(s hostcfg.Server) []string {
	var back []string
	for _, group := range s.Orig {
		if len(group) > 0 {
			back = append(back, hostcfg.RootsArg+" → "+argWords(group))
		}
	}
	if len(back) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s: %s: it sees those folders again whatever you consent", shown(s.Name), strings.Join(back, ", "))}
}

// argWords shows arguments as a shell reads them, quoted where needed,
// secrets hidden, escaped.
func argWords(args []string) string {
	return strings.TrimPrefix(commandLine("", args), "'' ")
}

// profileGrants reads once per profile what its consent grants now, from
// the consent stores in this run's state folder (dirs) or another one.
type profileGrants struct {
	dirs paths.Dirs
	read map[string]string
}

func newProfileGrants(dirs paths.Dirs) profileGrants {
	return profileGrants{dirs: dirs, read: map[string]string{}}
}

// of says what profile's proxies serve now: the consented folders, or
// that there are none and why.
func (g profileGrants) of(profile string) string {
	return g.in("", profile)
}

// in is of for the consent store in the state folder state ("" for this
// run's): what a proxy given --state-dir state serves.
func (g profileGrants) in(state, profile string) string {
	key := state + "\x00" + profile
	if v, ok := g.read[key]; ok {
		return v
	}
	v := readGrant(g.dirs, state, profile)
	g.read[key] = v
	return v
}

// readGrant says what profile's consent grants, read from the state folder
// state, or from dirs' when state is "".
func readGrant(dirs paths.Dirs, state, profile string) string {
	var store *consent.Store
	var err error
	if state != "" {
		store, err = consent.OpenStoreIn(state, profile)
	} else {
		var st paths.State
		if st, err = dirs.State(); err == nil {
			store, err = consent.OpenStoreAt(st, profile)
		}
	}
	if err != nil {
		return "what it grants cannot be read: " + shown(err.Error())
	}
	rec, err := store.Load()
	if errors.Is(err, fs.ErrNotExist) {
		return "nothing yet: choose with 'rootpick --profile " + shellWord(profile) + " DIR'"
	}
	if err != nil {
		return "nothing: its consent cannot be read: " + shown(err.Error())
	}
	roots, _ := consent.Admit(rec, consent.DefaultEnv(rec.Dir))
	if len(roots) == 0 {
		return "nothing now"
	}
	first := make([]string, 0, 3)
	for _, r := range roots[:min(3, len(roots))] {
		first = append(first, shown(r.Path))
	}
	more := ""
	if len(roots) > 3 {
		more = fmt.Sprintf(" and %d more", len(roots)-3)
	}
	folders := "folders"
	if len(roots) == 1 {
		folders = "folder"
	}
	return fmt.Sprintf("now %d %s: %s%s", len(roots), folders, strings.Join(first, ", "), more)
}

// shownDiff escapes each line of a diff for the terminal, tabs kept.
func shownDiff(d string) string {
	lines := strings.SplitAfter(d, "\n")
	for i, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		parts := strings.Split(body, "\t")
		for j, p := range parts {
			parts[j] = shown(p)
		}
		lines[i] = strings.Join(parts, "\t")
		if nl {
			lines[i] += "\n"
		}
	}
	return strings.Join(lines, "")
}

// proxyExecutable is the command a host is to start for rootpick proxy:
// this executable, by the name it has on $PATH when that is the same file
// (so that a package manager's versioned folder behind the link is not
// written into the host's configuration), or "rootpick" under go run,
// whose executable is temporary.
func proxyExecutable() string {
	exe, err := os.Executable()
	if err != nil || strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "rootpick"
	}
	if p, err := exec.LookPath("rootpick"); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			a, errA := os.Stat(abs)
			b, errB := os.Stat(exe)
			if errA == nil && errB == nil && os.SameFile(a, b) {
				return abs
			}
		}
	}
	return exe
}
