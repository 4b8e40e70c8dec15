package hostcfg

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Kind is what an entry starts, as far as the proxy is concerned.
type Kind int

const (
	// Stdio is a command the host starts and talks to on stdio: it can be
	// put behind the proxy.
	Stdio Kind = iota
	// Proxied already runs `rootpick proxy`.
	Proxied
	// Remote is a server the host reaches by URL; the proxy speaks stdio
	// only, so it cannot stand in front of it.
	Remote
	// Other is anything else: a host's built-in extension, an entry with no
	// command, one whose fields are not what the host documents.
	Other
)

func (k Kind) String() string {
	switch k {
	case Stdio:
		return "stdio"
	case Proxied:
		return "proxied"
	case Remote:
		return "remote"
	case Other:
		return "other"
	}
	return "other"
}

// Server is one MCP server entry of a configuration file.
type Server struct {
	// Host and Path are the file's; Scope is the file's, or for Claude
	// Code's per-project entries in ~/.claude.json LocalScope(PATH).
	Host, Path string
	Scope      Scope
	// Name is the entry's key.
	Name string
	Kind Kind
	// Command and Args are the entry's, as the host reads them (Stdio and
	// Proxied).
	Command string
	Args    []string
	// URL is a Remote server's address (it may hold a secret: redact it
	// before showing it).
	URL string
	// Profile is the --profile a Proxied entry gives the proxy ("" for
	// none), and Behind the server command after the proxy's flags (nil
	// when it cannot be found).
	Profile string
	Behind  []string
	// Restored is the command line unwrap gives a Proxied entry: Behind
	// with the folder arguments wrap replaced by {roots} put back (see
	// OrigArgFlag); nil when Behind is.
	Restored []string
	// Orig are the folder arguments wrap replaced, one group for each
	// {roots} of Behind in order (an empty group for a {roots} that was
	// there before wrap): what unwrap puts back, and all it changes in
	// the server command. Nil when there are none.
	Orig [][]string
	// Disabled, when not "", says the entry is one its host does not start,
	// as the file says so: `"disabled": true` (Cline, Roo Code, Crush,
	// Windsurf, Kiro, Amazon Q and the others of Cline's notation) or
	// `"enabled": false` (OpenCode; Codex's and Goose's enabled = false
	// and enabled: false), in the file's own syntax. It is wrapped like
	// any entry; nothing is fetched ahead for it (internal/wrapplan): the
	// host will not start it.
	Disabled string
	// Note says why an entry is Remote or Other, in a few words.
	Note string
	// Problem, when not "", says why this Stdio or Proxied entry cannot be
	// rewritten (a field written in a way the rewrite does not handle).
	Problem string

	loc *entryLoc
}

// CanWrap reports whether Wrap would rewrite s, and if not, why.
func (s Server) CanWrap() (bool, string) {
	switch s.Kind {
	case Stdio:
		if s.Problem != "" {
			return false, s.Problem
		}
		return true, ""
	case Proxied:
		if s.Profile != "" {
			return false, "already runs through rootpick proxy (profile " + s.Profile + ")"
		}
		return false, "already runs through rootpick proxy"
	case Remote:
		return false, "remote server (" + s.Note + "): rootpick proxy speaks stdio only"
	case Other:
		return false, s.Note
	}
	return false, s.Note
}

// CanUnwrap reports whether Unwrap would rewrite s, and if not, why.
func (s Server) CanUnwrap() (bool, string) {
	switch {
	case s.Kind != Proxied:
		return false, "does not run through rootpick proxy"
	case s.Behind == nil:
		return false, "no server command after rootpick proxy's flags"
	case s.Problem != "":
		return false, s.Problem
	}
	return true, ""
}

// IsRootpick reports whether command runs this rootpick, whose paths are
// self: command is one of them as written, or names the same file as one
// of them (os.SameFile), found as a host finds it (on PATH for a bare
// name). Any other executable named rootpick (a project's
// ./node_modules/.bin/rootpick) is not this rootpick: taking a name for
// proof would let a repository's own server pass for one behind the proxy.
func IsRootpick(command string, self ...string) bool {
	return newSelfCheck(self, "").is(command)
}

// selfCheck tells this rootpick's command from others, once per command.
type selfCheck struct {
	paths []string
	files []os.FileInfo
	// dir is where a relative command is found from ("" when unknown).
	dir  string
	seen map[string]bool
}

// newSelfCheck checks against the paths of this rootpick; dir is the
// folder a relative command is run from, "" when unknown.
func newSelfCheck(paths []string, dir string) *selfCheck {
	c := &selfCheck{dir: dir, seen: map[string]bool{}}
	for _, p := range paths {
		if p == "" {
			continue
		}
		c.paths = append(c.paths, filepath.Clean(p))
		if fi, err := os.Stat(p); err == nil {
			c.files = append(c.files, fi)
		}
	}
	return c
}

// is reports whether command runs this rootpick.
func (c *selfCheck) is(command string) bool {
	if command == "" {
		return false
	}
	if v, ok := c.seen[command]; ok {
		return v
	}
	v := c.lookup(command)
	c.seen[command] = v
	return v
}

func (c *selfCheck) lookup(command string) bool {
	if slices.Contains(c.paths, filepath.Clean(command)) {
		return true
	}
	if len(c.files) == 0 {
		return false
	}
	path := command
	switch {
	case !strings.ContainsAny(command, `/\`):
		p, err := exec.LookPath(command)
		if err != nil {
			return false
		}
		path = p
	case !filepath.IsAbs(command):
		if c.dir == "" {
			return false
		}
		path = filepath.Join(c.dir, command)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	for _, self := range c.files {
		if os.SameFile(fi, self) {
			return true
		}
	}
	return false
}

// proxyFlags are rootpick proxy's flags (and the global --config) that
// take a value; proxyBool those that take none.
var (
	proxyFlags = map[string]bool{"--profile": true, "--protocol": true, "--print-config": true, "--name": true, "--host": true, "--log": true, "--state-dir": true, "--config": true,
		"--enforce": true, "--allow-read": true, "--allow-write": true, "--allow-socket": true, "--network": true, OrigArgFlag: true}
	proxyBool = map[string]bool{"--debug": true, "--read-only": true, OrigNextFlag: true}
)

// OrigArgFlag and OrigNextFlag keep, in a wrapped entry's proxy
// arguments, the folder arguments wrap replaced by {roots}, so that unwrap
// can put them back: `--orig-arg A --orig-arg B` are the arguments the
// first {roots} of the server command stands for, and each --orig-next
// moves on to the next {roots}. The proxy ignores both. They are kept in
// the entry itself, not only in the backup, because the entry is what
// unwrap reads: a backup may be older than later edits, be replaced by the
// next wrap's, or be gone, and the entry travels with the file. Wrap moves
// each argument's own text there (quotes, escapes, a TOML literal string,
// a YAML plain scalar), as it moves the command's, so that unwrap gives the
// original bytes back.
const (
	OrigArgFlag  = "--orig-arg"
	OrigNextFlag = "--orig-next"
)

// origArg is one --orig-arg value: the argument, and the index in the
// entry's args of the element that holds it (-1 for --orig-arg=VALUE).
type origArg struct {
	value string
	at    int
}

// proxyLine is `proxy [FLAGS] [--] SERVER...` as parseProxy reads it.
type proxyLine struct {
	profile string
	// profileAt is the index in the args of the last --profile's value
	// (of the --profile=VALUE word when profileEq), -1 when none.
	profileAt int
	profileEq bool
	// at is the index of the server command in the args, -1 when the
	// flags cannot be read or no command follows.
	at int
	// orig are the --orig-arg values, a group for each {roots} they stand
	// for; nil when there are none.
	orig [][]origArg
}

// parseProxy reads `proxy [FLAGS] [--] SERVER...` (args after the
// executable). Hosts may have dropped the "--" (Gemini CLI's `mcp add`
// does), so the command is also the first word that is not a flag.
func parseProxy(args []string) proxyLine {
	l := proxyLine{at: -1, profileAt: -1}
	if len(args) == 0 || args[0] != "proxy" {
		return l
	}
	group := func() *[]origArg {
		if l.orig == nil {
			l.orig = [][]origArg{{}}
		}
		return &l.orig[len(l.orig)-1]
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				l.at = i + 1
			}
			return l
		case proxyFlags[a]:
			if i+1 >= len(args) {
				return l
			}
			switch a {
			case "--profile":
				l.profile, l.profileAt, l.profileEq = args[i+1], i+1, false
			case OrigArgFlag:
				g := group()
				*g = append(*g, origArg{args[i+1], i + 1})
			}
			i++
		case strings.HasPrefix(a, "--") && strings.Contains(a, "="):
			name, value, _ := strings.Cut(a, "=")
			if !proxyFlags[name] {
				return l
			}
			switch name {
			case "--profile":
				l.profile, l.profileAt, l.profileEq = value, i, true
			case OrigArgFlag:
				g := group()
				*g = append(*g, origArg{value, -1})
			}
		case a == OrigNextFlag:
			group()
			l.orig = append(l.orig, nil)
		case proxyBool[a]:
		case strings.HasPrefix(a, "-"):
			return l // a flag we do not know: do not guess
		default:
			l.at = i
			return l
		}
	}
	return l
}

// restore is the server command unwrap gives for behind (the command after
// the proxy's flags): each {roots} its arguments hold replaced by the
// arguments of its --orig-arg group, in order (an empty group leaves that
// {roots}, which was there before wrap). ok is false when the groups and
// the {roots} do not match one for one.
func (l proxyLine) restore(behind []string) (out []string, ok bool) {
	if l.orig == nil {
		return slices.Clone(behind), true
	}
	out = []string{behind[0]}
	g := 0
	for _, a := range behind[1:] {
		if a != RootsArg {
			out = append(out, a)
			continue
		}
		if g >= len(l.orig) {
			return nil, false
		}
		if len(l.orig[g]) == 0 {
			out = append(out, a)
		}
		for _, o := range l.orig[g] {
			out = append(out, o.value)
		}
		g++
	}
	return out, g == len(l.orig)
}

// fields are the parts of an entry that decide its Kind, as decoded by the
// format's parser.
type fields struct {
	typ                      string
	hasType                  bool
	command                  string
	hasCommand, commandIsStr bool
	args                     []string
	hasArgs, argsAreStrs     bool
	url                      string // url, httpUrl, uri: whichever is set
	urlKey                   string
	// disabled is Server.Disabled: the field that turns the entry off, as
	// written ("" when none does).
	disabled string
}

// offField is the text that turns an entry off, in a format whose
// key = value is written as sep ("": ", " = ", ": "), for the key
// "disabled" holding on or "enabled" holding !on; "" for any other key
// or value.
func offField(key string, on bool, sep string) string {
	switch {
	case key == keyDisabled && on:
		return key + sep + "true"
	case key == keyEnabled && !on:
		return key + sep + "false"
	}
	return ""
}

// keyDisabled and keyEnabled are the entry keys that turn a server off
// (offField), in every format.
const (
	keyDisabled = "disabled"
	keyEnabled  = "enabled"
)

// classify sets s's Kind, Command, Args, URL and Note from f, as host reads
// them; self tells this rootpick's command.
func classify(s *Server, f fields, self *selfCheck) {
	s.Disabled = f.disabled
	remoteTypes := map[string]bool{"http": true, "sse": true, "streamable-http": true, "streamableHttp": true, "streamable_http": true, "ws": true}
	switch {
	case s.Host == Goose && f.hasType && f.typ != "stdio":
		if remoteTypes[f.typ] {
			s.Kind, s.URL, s.Note = Remote, f.url, "type "+f.typ
			return
		}
		s.Kind, s.Note = Other, "goose extension of type "+f.typ+", not a command"
		return
	case s.Host == Goose && !f.hasType:
		s.Kind, s.Note = Other, "no type"
		return
	case s.Host == OpenCode && f.typ == "remote":
		s.Kind, s.URL, s.Note = Remote, f.url, "type remote"
		return
	case s.Host == OpenCode && f.typ != "local":
		// OpenCode requires the type: "local" for a command.
		s.Kind, s.Note = Other, "type "+strconv.Quote(f.typ)+", not local"
		return
	case s.Host != Goose && (f.urlKey != "" || remoteTypes[f.typ]):
		s.Kind, s.URL = Remote, f.url
		s.Note = f.urlKey
		if f.hasType {
			s.Note = "type " + f.typ
		}
		return
	case s.Host != Goose && f.hasType && f.typ != "stdio" && !((s.Host == Copilot || s.Host == OpenCode) && f.typ == "local"):
		// Copilot CLI's and OpenCode's "local" is their name for stdio.
		s.Kind, s.Note = Other, "type "+f.typ
		return
	case !f.hasCommand:
		s.Kind, s.Note = Other, "no command"
		return
	case !f.commandIsStr:
		s.Kind, s.Note = Other, "command is not a string"
		return
	case f.hasArgs && !f.argsAreStrs:
		s.Kind, s.Note = Other, "args are not all strings"
		return
	}
	s.Kind, s.Command, s.Args = Stdio, f.command, f.args
	if !self.is(f.command) {
		return
	}
	l := parseProxy(f.args)
	if l.at < 0 && (len(f.args) == 0 || f.args[0] != "proxy") {
		return // rootpick, but not its proxy
	}
	s.Kind, s.Profile = Proxied, l.profile
	if l.at < 0 {
		return // no server command after the proxy's flags
	}
	s.Behind = f.args[l.at:]
	restored, ok := l.restore(s.Behind)
	s.Restored = restored
	for _, group := range l.orig {
		values := []string{}
		for _, o := range group {
			values = append(values, o.value)
		}
		s.Orig = append(s.Orig, values)
	}
	if !ok {
		s.Problem = fmt.Sprintf("its %d %s groups do not match the %s in its server command", len(l.orig), OrigArgFlag, RootsArg)
	}
}

// ProxyFlag is the value a Proxied entry gives the proxy's flag name
// ("--state-dir", "--enforce"; the last one when given twice), written
// "--name VALUE" or "--name=VALUE" before the server command; "" when the
// entry does not give it.
func (s Server) ProxyFlag(name string) string {
	if s.Kind != Proxied || len(s.Args) == 0 {
		return ""
	}
	end := len(s.Args)
	if s.Behind != nil {
		end = len(s.Args) - len(s.Behind)
	}
	value := ""
	for i := 1; i < end; i++ {
		a := s.Args[i]
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			value = v
			continue
		}
		if proxyFlags[a] && i+1 < end {
			if a == name {
				value = s.Args[i+1]
			}
			i++
		}
	}
	return value
}
