package main

import (
	"bufio"
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
	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/internal/wrapplan"
	"github.com/rootpick/rootpick/mcpconn/launch"
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
	listHosts(e.stdout, configs, o.Host, wrapplan.NewGrants(e.dirs))
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
		proxy: hostcfg.Proxy{Exe: proxyExecutable(), Profile: o.Profile, StateDir: e.dirs.NonDefaultState(), KeepArgs: o.KeepArgs, Network: string(o.Network), NetworkFor: wrapplan.OfflineNetwork}}
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
func listHosts(w io.Writer, configs []*hostcfg.Config, host string, grants wrapplan.Grants) {
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
			if note := wrapplan.GeminiTrustNote(c.File); note != "" {
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
		what = "proxied   " + wrapplan.CommandLine(s.Command, s.Args)
	case hostcfg.Stdio:
		what = "direct    " + wrapplan.CommandLine(s.Command, s.Args)
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

// runningAsRoot says whether this process runs as root (euid 0); tests
// stand in either answer.
var runningAsRoot = func() bool { return os.Geteuid() == 0 }

// serving says what a server behind the proxy is served: its profile,
// what that profile grants now (from the consent store the proxy reads:
// the entry's --state-dir, else this run's), and whether the kernel
// enforces it here (Landlock) or it is advisory.
func serving(s hostcfg.Server, grants wrapplan.Grants) string {
	profile := cmp.Or(s.Profile, consent.DefaultProfile)
	setting, err := launch.ParseEnforce(s.ProxyFlag("--enforce"))
	if err != nil {
		setting = launch.EnforceDefault
	}
	return fmt.Sprintf("profile %s: %s; %s", shown(profile), grants.In(s.ProxyFlag("--state-dir"), profile), launch.WouldEnforce(setting))
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

// run is one wrap or unwrap: plan the rewrites (wrapplan.Plan), show them (show),
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
	plan, err := wrapplan.Plan(configs, wrapplan.Request{Wrap: ch.wrap, Proxy: ch.proxy, Names: names, Except: ch.except,
		Prefetch: ch.prefetch != nil, Yes: ch.yes, PrefetchProject: ch.prefetchProject, Grants: wrapplan.NewGrants(e.dirs), Log: e.stderr})
	if err != nil {
		return exitError{code: 1, msg: err.Error()}
	}
	if len(plan.Missing) > 0 {
		where := cmp.Or(host, "any host")
		return usageError("hosts %s: no server %s in %s ('rootpick hosts' lists them)", verb, strings.Join(plan.Missing, ", "), where)
	}
	plans := plan.Files
	if len(plans) == 0 {
		fmt.Fprintf(e.stderr, "Nothing to %s.\n", verb)
		if plan.Refused {
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
			limited = append(limited, p.Limited...)
		}
		ch.next(e, n, places, limited)
	}
	if writeFailed || plan.Refused {
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

// show prints each file's diff and notes on stdout and what changes in it
// on stderr; n is the number of servers changed.
func (ch hostsChange) show(e *env, plans []*wrapplan.File) (n int, err error) {
	how := "to run directly"
	if ch.wrap {
		how = "to run through rootpick proxy"
	}
	for _, p := range plans {
		// The diff goes out hunk by hunk, escaped line by line: it can be
		// tens of megabytes for a large ~/.claude.json.
		w := diffWriter{e.stdout}
		oldName, newName := p.Path(), p.Path()+" ("+ch.done()+")"
		if len(p.Steps) == 1 {
			err = p.Steps[0].WriteDiff(w, oldName, newName)
		} else {
			_, err = io.WriteString(w, hostcfg.Diff(oldName, newName, p.Data(), p.Out))
		}
		if err != nil {
			return n, err
		}
		for _, note := range p.Notes {
			fmt.Fprintln(e.stdout, note)
		}
		fmt.Fprintf(e.stderr, "%s %s%s: %s %s\n", p.Hosts, shown(p.Path()), p.AlsoAs(), strings.Join(p.Servers, ", "), how)
		n += len(p.Servers)
	}
	return n, nil
}

// confirm asks whether to write, unless --yes said so: ok is false when
// nothing is to be written, with the error to end on.
func (ch hostsChange) confirm(e *env, plans []*wrapplan.File, ask askFunc) (ok bool, err error) {
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
		all = append(all, p.Servers...)
	}
	what := files
	if len(all) > 1 {
		// Several candidates: the question names them all.
		what = fmt.Sprintf("%s (%s: %s)", files, servers(len(all)), strings.Join(all, ", "))
	}
	if ch.wrap && ch.prefetch != nil {
		if fetch := wrapplan.FetchPlan(plans); fetch != "" {
			fmt.Fprintln(e.stderr, fetch)
		}
	}
	yes, err := ask(fmt.Sprintf("Write %s, each backed up in %s? [y/N] ", what, backupsShown(e.dirs)))
	if err != nil || !yes {
		fmt.Fprintln(e.stderr, "Nothing written.")
		return false, nil
	}
	return true, nil
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
	return wrapplan.ShownFolder(dir, home)
}

// write writes each planned file, saying where and where its backup is
// (one per file, the newest, in rootpick's state folder: never beside a
// file a team commits); failed says one could not be written.
func (ch hostsChange) write(e *env, plans []*wrapplan.File) (failed bool) {
	backups, err := backupsDir(e.dirs)
	if err != nil {
		fmt.Fprintln(e.stderr, "rootpick: nothing written: no folder for the backups: "+shown(err.Error()))
		return true
	}
	for _, p := range plans {
		w, err := hostcfg.Write(p.Path(), p.Data(), p.Out, backups)
		if err != nil {
			failed = true
			fmt.Fprintln(e.stderr, fileError(p.Path(), err))
			continue
		}
		if w.Link {
			fmt.Fprintf(e.stderr, "%s is a symbolic link: wrote the file it leads to, %s", shown(p.Path()), shown(w.Target))
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
	fmt.Fprintf(e.stderr, "%s now %s through rootpick proxy: restart the host, then choose %s folders with '%s %s'%s.\n", servers(n), verb, their, pick, wrapplan.ShownFolder(dir, places.Home), why)
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

// diffWriter shows a diff on w: each Write holds whole lines (a hunk, as
// hostcfg.Rewrite.WriteDiff writes them), escaped by shownDiff.
type diffWriter struct{ w io.Writer }

func (d diffWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(d.w, shownDiff(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
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
