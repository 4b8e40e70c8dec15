package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// The config file gives defaults to the flags of the same meaning, so that
// the precedence is: a flag on the command line, then the file, then the
// built-in default. The flag-shaped keys (profile, skip, max_depth) reach
// the commands through a kong resolver, which kong consults only for flags
// the command line did not set; dir, servers and theme are not flags and are
// applied by the commands themselves (configDir, pickCmd.serverSpecs).

// configEnv names another config file, as --config does.
const configEnv = "ROOTPICK_CONFIG"

// configCommands are the commands that read the config file. The others
// (version, completion, help, serve-demo, demo, config path) work whatever
// the file holds, so that a broken file can still be found and fixed (and
// the demo shows rootpick as it comes).
var configCommands = []string{"pick", "list", "proxy", "forget", "config show"}

// themes are the values theme takes; "" is auto.
var themes = []string{"auto", "dark", "light"}

// configCmd is "rootpick config path|show".
type configCmd struct {
	Path configPathCmd `cmd:"" help:"Print the path of the config file in use."`
	Show configShowCmd `cmd:"" help:"Print the settings the config file gives, and the built-in defaults of the others."`
}

func (c *configCmd) Help() string {
	return `The file is $XDG_CONFIG_HOME/rootpick/config.toml (or the file named by
--config or $ROOTPICK_CONFIG). A flag on the command line overrides it.

Examples:
  $EDITOR "$(rootpick config path)"
  rootpick config show
  rootpick --config ~/work.toml config show`
}

type configPathCmd struct{}

func (c *configPathCmd) Run(e *env) error {
	fmt.Fprintln(e.stdout, e.configPath)
	if _, err := os.Stat(e.configPath); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintln(e.stderr, "rootpick: the file does not exist: built-in defaults are in use")
	}
	return nil
}

type configShowCmd struct{}

func (c *configShowCmd) Run(e *env) error {
	return e.config.show(e.stdout)
}

// configFile is what a config file holds, checked as the flags of the same
// meaning are.
type configFile struct {
	// path is the file read; exists says whether there was one.
	path   string
	exists bool

	// Dir is the folder to scan when none is given, absolute; dirAt is
	// where its value is, to name it when the folder is gone.
	Dir   string
	dirAt configError
	// Profile, Skip and MaxDepth are the defaults of --profile, --skip
	// and --max-depth; the has* fields say whether the file gave them.
	Profile     string
	Skip        []string
	MaxDepth    depth
	hasProfile  bool
	hasSkip     bool
	hasMaxDepth bool
	// ReadOnly is the default of --read-only: folders checked read-only.
	ReadOnly bool
	// Theme is auto, dark or light ("" if not given: auto).
	Theme string
	// Servers are the [servers.NAME] tables, in the file's order.
	Servers []configServer
}

// configServer is one [servers.NAME] table: a command or a URL, and for
// a command what the kernel lets it open (enforce, allow-read,
// allow-write, allow-socket, network).
type configServer struct {
	Name                  string
	Command               shellCommand
	URL                   httpURL
	Enforce               enforceFlag
	AllowRead, AllowWrite allowPaths
	AllowSocket           allowPaths
	Network               networkFlag
	// ReadOnly caps the server to reading every consented folder
	// (mcpconn.Spec.ReadOnly), whatever the consent says.
	ReadOnly tomlBool
}

// spec is the server as the hub takes it, labelled with its name.
func (s configServer) spec() mcpconn.Spec {
	return mcpconn.Spec{Name: s.Name, Command: s.Command, URL: string(s.URL),
		Enforce: launch.Enforce(s.Enforce), AllowRead: s.AllowRead, AllowWrite: s.AllowWrite, AllowSocket: s.AllowSocket, Network: launch.Network(s.Network), ReadOnly: bool(s.ReadOnly)}
}

// server is the server of that name, or false.
func (c *configFile) server(name string) (configServer, bool) {
	i := slices.IndexFunc(c.Servers, func(s configServer) bool { return s.Name == name })
	if i < 0 {
		return configServer{}, false
	}
	return c.Servers[i], true
}

// serverNames lists the servers' names, for messages.
func (c *configFile) serverNames() string {
	if len(c.Servers) == 0 {
		return "none"
	}
	var names []string
	for _, s := range c.Servers {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

// configError is a config file that cannot be used: it exits 2 before
// anything starts, with one line naming the file and, when known, the line
// and column.
type configError struct {
	path      string
	line, col int
	msg       string
}

func (e *configError) Error() string {
	switch {
	case e.line > 0 && e.col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.path, e.line, e.col, e.msg)
	case e.line > 0:
		return fmt.Sprintf("%s:%d: %s", e.path, e.line, e.msg)
	}
	return fmt.Sprintf("%s: %s", e.path, e.msg)
}

// configPath is the config file in use: --config's (flag), else
// $ROOTPICK_CONFIG's, else the default of dirs
// ($XDG_CONFIG_HOME/rootpick/config.toml on Linux, the native folder
// adrg/xdg knows on macOS and Windows; see paths.Dirs.ConfigFile). named
// says it was named, so that its absence is an error.
//
// A relative $HOME or $XDG_CONFIG_HOME is never resolved against the
// current folder (a cloned repository could then hand rootpick a config
// that starts servers): internal/paths takes the home folder from the user
// database instead. With no home folder at all, path is "": nothing is
// read.
func configPath(flag string, dirs paths.Dirs) (path string, named bool) {
	if flag != "" {
		return flag, true
	}
	if p := os.Getenv(configEnv); p != "" {
		if !strings.HasPrefix(p, "~") {
			return p, true // not made absolute: a relative one is refused
		}
		return kong.ExpandPath(p), true
	}
	def, _ := dirs.ConfigFile()
	return def, false
}

// BeforeResolve reads the config file, for the commands that use it, and
// makes its flag-shaped keys the defaults of their flags. kong calls it
// after parsing the command line and before filling unset flags.
func (c *cli) BeforeResolve(ctx *kong.Context) error {
	var flag string
	for _, f := range ctx.Model.Flags {
		if f.Name == "config" {
			flag, _ = ctx.FlagValue(f).(string)
		}
	}
	path, named := configPath(flag, c.dirs)
	if path != "" && !filepath.IsAbs(path) {
		// Like a relative HOME or XDG_CONFIG_HOME: the file it names
		// would depend on the folder rootpick was started in.
		return &configError{path: path, msg: "a relative path in $" + configEnv + ": name the config file by its absolute path"}
	}
	c.configPath = path
	c.config = &configFile{path: path}
	if sel := ctx.Selected(); sel == nil || !slices.Contains(configCommands, sel.Path()) {
		return nil
	}
	cfg, err := loadConfig(path, named)
	if err != nil {
		return err
	}
	c.config = cfg
	ctx.AddResolver(kong.ResolverFunc(cfg.resolve))
	return nil
}

// resolve gives the file's value of a flag the command line did not set.
func (c *configFile) resolve(_ *kong.Context, _ *kong.Path, flag *kong.Flag) (any, error) {
	switch {
	case flag.Name == "profile" && c.hasProfile:
		return c.Profile, nil
	case flag.Name == "max-depth" && c.hasMaxDepth:
		return strconv.Itoa(int(c.MaxDepth)), nil
	case flag.Name == "read-only" && c.ReadOnly:
		return true, nil
	case flag.Name == "skip" && c.hasSkip:
		// kong decodes a list as JSON values.
		v := make([]any, len(c.Skip))
		for i, s := range c.Skip {
			v[i] = s
		}
		return v, nil
	}
	return nil, nil
}

// AfterApply gives pick and list the config file's dir when the command
// line names no folder. A dir that cannot be scanned is named with its place
// in the file, before anything starts.
func (c *cli) AfterApply(ctx *kong.Context) error {
	var dir *string
	if sel := ctx.Selected(); sel != nil {
		switch sel.Path() {
		case "pick":
			dir = &c.Pick.Dir
		case "list":
			dir = &c.List.Dir
		}
	}
	if dir == nil || *dir != "" || c.config.Dir == "" {
		return nil
	}
	if _, err := dirArg([]string{c.config.Dir}); err != nil {
		ce := c.config.dirAt
		ce.msg = printable("dir: " + err.Error())
		return &ce
	}
	*dir = c.config.Dir
	return nil
}

// tomlText is v (a string, an int or a []string) as a TOML value: strings
// as basic strings ("..."), escaped as TOML 1.0 allows.
func tomlText(v any) string {
	switch v := v.(type) {
	case string:
		var b strings.Builder
		b.WriteByte('"')
		for _, r := range v {
			switch {
			case r == '"' || r == '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			case r == '\t':
				b.WriteString(`\t`)
			case r == '\n':
				b.WriteString(`\n`)
			case r < ' ' || r == 0x7f:
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte('"')
		return b.String()
	case int:
		return strconv.Itoa(v)
	case bool:
		return strconv.FormatBool(v)
	case []string:
		words := make([]string, len(v))
		for i, s := range v {
			words[i] = tomlText(s)
		}
		return "[" + strings.Join(words, ", ") + "]"
	}
	return tomlText(fmt.Sprint(v))
}

// show prints the settings in effect with no flags, as a config file: the
// file's values, and the built-in defaults commented as such.
func (c *configFile) show(w io.Writer) error {
	if c.exists {
		fmt.Fprintf(w, "# %s\n", c.path)
	} else {
		fmt.Fprintf(w, "# %s (does not exist: built-in defaults)\n", c.path)
	}
	line := func(key string, v any, given bool) {
		s := key + " = " + tomlText(v)
		if !given {
			s += "  # built-in default"
		}
		fmt.Fprintln(w, s)
	}
	dir := c.Dir
	if dir == "" {
		fmt.Fprintln(w, "# dir: the current folder (built-in default)")
	} else {
		line("dir", dir, true)
	}
	profile := consent.DefaultProfile
	if c.hasProfile {
		profile = c.Profile
	}
	line("profile", profile, c.hasProfile)
	line("max_depth", int(c.MaxDepth), c.hasMaxDepth)
	skip := c.Skip
	if skip == nil {
		skip = []string{}
	}
	line("skip", skip, c.hasSkip)
	line("read_only", c.ReadOnly, c.ReadOnly)
	theme := c.Theme
	if theme == "" {
		theme = "auto"
	}
	line("theme", theme, c.Theme != "")
	if len(c.Servers) == 0 {
		_, err := fmt.Fprintln(w, "# servers: none, so the built-in demo server runs")
		return err
	}
	// Shown, not copied: a secret in a URL or an argument (a token, an
	// --api-key) is printed as REDACTED, as everywhere else.
	for _, s := range c.Servers {
		fmt.Fprintf(w, "\n[servers.%s]\n", s.Name)
		if s.URL != "" {
			line("url", redact.URL(string(s.URL)), true)
			continue
		}
		words := make([]string, len(s.Command))
		for i, a := range s.Command {
			words[i] = redact.Arg(a)
		}
		line("command", words, true)
		if s.Enforce != "" {
			line("enforce", string(s.Enforce), true)
		}
		if len(s.AllowRead) > 0 {
			line("allow-read", []string(s.AllowRead), true)
		}
		if len(s.AllowWrite) > 0 {
			line("allow-write", []string(s.AllowWrite), true)
		}
		if len(s.AllowSocket) > 0 {
			line("allow-socket", []string(s.AllowSocket), true)
		}
		if s.Network != "" {
			line("network", string(s.Network), true)
		}
		if s.ReadOnly {
			line("read_only", true, true)
		}
	}
	return nil
}
