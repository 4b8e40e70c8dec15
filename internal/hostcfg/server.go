package hostcfg

import (
	"path/filepath"
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
	// Host and Path are the file's; Scope is "user", "project", or for
	// Claude Code's per-project entries in ~/.claude.json "local PATH".
	Host, Path, Scope string
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

// IsRootpick reports whether command names the rootpick executable: a
// file named rootpick (rootpick.exe) wherever it is installed, or one of
// the paths in also.
func IsRootpick(command string, also ...string) bool {
	base := filepath.Base(strings.ReplaceAll(command, `\`, "/"))
	if strings.TrimSuffix(strings.ToLower(base), ".exe") == "rootpick" {
		return true
	}
	for _, p := range also {
		if p != "" && filepath.Clean(p) == filepath.Clean(command) {
			return true
		}
	}
	return false
}

// proxyFlags are rootpick proxy's flags (and the global --config) that
// take a value; proxyBool those that take none.
var (
	proxyFlags = map[string]bool{"--profile": true, "--protocol": true, "--print-config": true, "--name": true, "--log": true, "--state-dir": true, "--config": true}
	proxyBool  = map[string]bool{"--debug": true}
)

// parseProxy reads `proxy [FLAGS] [--] SERVER...` (args after the
// executable): the profile, and the index of the server command in args,
// or -1 when the flags cannot be read or no command follows. Hosts may have
// dropped the "--" (Gemini CLI's `mcp add` does), so the command is also
// the first word that is not a flag.
func parseProxy(args []string) (profile string, at int) {
	if len(args) == 0 || args[0] != "proxy" {
		return "", -1
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return profile, i + 1
			}
			return profile, -1
		case proxyFlags[a]:
			if i+1 >= len(args) {
				return profile, -1
			}
			if a == "--profile" {
				profile = args[i+1]
			}
			i++
		case strings.HasPrefix(a, "--") && strings.Contains(a, "="):
			name, value, _ := strings.Cut(a, "=")
			if !proxyFlags[name] {
				return profile, -1
			}
			if name == "--profile" {
				profile = value
			}
		case proxyBool[a]:
		case strings.HasPrefix(a, "-"):
			return profile, -1 // a flag we do not know: do not guess
		default:
			return profile, i
		}
	}
	return profile, -1
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
}

// classify sets s's Kind, Command, Args, URL and Note from f, as host reads
// them; rootpick are other paths of the rootpick executable.
func classify(s *Server, f fields, rootpick []string) {
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
	case s.Host != Goose && (f.urlKey != "" || remoteTypes[f.typ]):
		s.Kind, s.URL = Remote, f.url
		s.Note = f.urlKey
		if f.hasType {
			s.Note = "type " + f.typ
		}
		return
	case s.Host != Goose && f.hasType && f.typ != "stdio":
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
	if IsRootpick(f.command, rootpick...) {
		if profile, at := parseProxy(f.args); at >= 0 || (len(f.args) > 0 && f.args[0] == "proxy") {
			s.Kind, s.Profile = Proxied, profile
			if at >= 0 {
				s.Behind = f.args[at:]
			}
		}
	}
}
