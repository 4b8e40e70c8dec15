package hostcfg

// Folder arguments: the arguments of a stdio server that name folders
// (server-filesystem ~/src, mcp-server-git --repository ${workspaceFolder}).
// A server started with a folder gets it whatever rootpick's consent says,
// so wrap replaces each run of them with {roots}, which the proxy expands
// to the consented folders.

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// RootsArg is the argument the proxy expands to the consented folders, one
// argument each (mcpconn restarts a server that takes it on every change).
const RootsArg = "{roots}"

// FolderRun is a run of consecutive arguments of a server that name
// folders, or one argument that names a folder after a '=' (Inside).
type FolderRun struct {
	// Start and End are the run's indexes in Server.Args: [Start, End).
	Start, End int
	// Args are the arguments as the file has them; Paths the folders they
	// name, as the host and the server expand them.
	Args, Paths []string
	// Inside says the folder is the value of a --flag=FOLDER argument:
	// {roots} can only stand for whole arguments, so wrap leaves it.
	Inside bool
	// Flag, when not "", is the flag before the folder that takes exactly
	// one folder as its value (mcp-server-git --repository DIR; see
	// oneFolderFlags): {roots} stands for as many folders as are
	// consented, none before a consent, and the server would refuse
	// --repository with none or with several, so wrap leaves the folder
	// as it is, and says so. The run is that one argument.
	Flag string
}

// Replaced reports whether wrap replaces the run with {roots} (unless
// told to keep every folder argument): a folder inside --flag=FOLDER, or
// the one value of a flag that takes exactly one folder, is kept.
func (r FolderRun) Replaced() bool {
	return !r.Inside && r.Flag == ""
}

// oneFolderFlags are, by server program (as serverProgram names it), the
// flags known to take exactly one folder. A server's documentation is
// the only way to know: a flag may as well take several folders, or take
// none and be followed by positional ones.
var oneFolderFlags = map[string][]string{
	// modelcontextprotocol/servers src/git: click's --repository/-r is
	// one Path; the server also lists the repositories among its roots.
	"mcp-server-git": {"--repository", "-r"},
}

// serverProgram names the server a command line starts, for
// oneFolderFlags: the launcher's program (uvx mcp-server-git, python -m
// mcp_server_git, npx -y pkg@1.2) or the command itself, without its
// folder, extension or version, lower case, with '_' read as '-'; "" when
// a launcher starts no program.
func serverProgram(command string, args []string) string {
	name := command
	if _, ok := launcherOf(command); ok {
		at := dataStart(command, args)
		if at == 0 || at > len(args) {
			return ""
		}
		name = args[at-1]
	}
	name = strings.ToLower(name)
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.LastIndexByte(name, '@'); i > 0 {
		name = name[:i] // pkg@1.2.3, pkg@latest
	}
	name, _, _ = strings.Cut(name, "==") // pkg==1.2
	for _, ext := range []string{".exe", ".cmd", ".bat", ".py"} {
		name = strings.TrimSuffix(name, ext)
	}
	return strings.ReplaceAll(name, "_", "-")
}

// launcher is a program whose first argument that is not a flag, a flag's
// value or a subcommand is the server itself (a script, a package, a
// module, a folder of source: node ., go run ., uv --directory DIR run
// server.py). Its arguments up to that one are the server's program,
// never data: replacing them would break the server.
type launcher struct {
	// subcommands come before the program (uv run, go run, docker run).
	subcommands []string
	// values are the flags whose value is the next argument; a flag not
	// listed takes none (npx -y), and --flag=value holds its own.
	values []string
	// programs are the flags whose value is the program itself
	// (python -m MODULE, java -jar FILE, bash -c SCRIPT).
	programs []string
}

// launchers by name, compared without .exe, .cmd or .bat (python3.12 is
// python).
var launchers = map[string]launcher{
	"node":    {values: []string{"-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file", "-C", "--conditions", "--title"}, programs: []string{"-e", "--eval", "-p", "--print"}},
	"tsx":     {values: []string{"-r", "--require", "--import", "--tsconfig", "--env-file"}, programs: []string{"-e", "--eval"}},
	"ts-node": {values: []string{"-r", "--require", "--project", "-P", "--compiler", "-C"}, programs: []string{"-e", "--eval"}},
	"npx":     {values: []string{"-p", "--package", "--cache", "--registry", "--prefix", "--userconfig", "-w", "--workspace"}, programs: []string{"-c", "--call"}},
	"pnpx":    {values: []string{"-p", "--package"}},
	"bunx":    {values: []string{"-p", "--package"}},
	"uvx":     {values: uvValues},
	"uv":      {subcommands: []string{"run", "tool"}, values: uvValues},
	"npm":     {subcommands: []string{"exec", "x", "run", "run-script", "start"}, values: []string{"--prefix", "-C", "-w", "--workspace", "--cache", "--userconfig", "--registry", "-p", "--package"}, programs: []string{"-c", "--call"}},
	"pnpm":    {subcommands: []string{"dlx", "exec", "run"}, values: []string{"-C", "--dir", "--filter", "-F", "--package"}},
	"yarn":    {subcommands: []string{"dlx", "exec", "run"}, values: []string{"--cwd", "-p", "--package"}},
	"bun":     {subcommands: []string{"run", "x"}, values: []string{"--cwd", "--config", "-c", "--env-file", "--preload", "-r"}, programs: []string{"-e", "--eval"}},
	"deno":    {subcommands: []string{"run"}, values: []string{"--config", "-c", "--import-map", "--lock", "--env-file", "--location", "--cert"}},
	"python":  {values: []string{"-W", "-X", "--check-hash-based-pycs"}, programs: []string{"-m", "-c"}},
	"py":      {values: []string{"-W", "-X"}, programs: []string{"-m", "-c"}},
	"pypy":    {values: []string{"-W", "-X"}, programs: []string{"-m", "-c"}},
	"pipx":    {subcommands: []string{"run"}, values: []string{"--spec", "--python", "--pip-args", "--index-url"}},
	"go":      {subcommands: []string{"run"}, values: []string{"-C", "-tags", "-mod", "-modfile", "-ldflags", "-gcflags", "-o", "-exec", "-p", "-pkgdir", "-overlay"}},
	"cargo":   {subcommands: []string{"run"}, values: []string{"--manifest-path", "-p", "--package", "--bin", "--features", "-F", "--target", "--target-dir", "--config", "--example", "-j", "--jobs", "--profile"}},
	"dotnet":  {subcommands: []string{"run"}, values: []string{"--project", "-p", "-c", "--configuration", "-f", "--framework", "-r", "--runtime", "--launch-profile"}},
	"java":    {values: []string{"-cp", "-classpath", "--class-path", "-p", "--module-path"}, programs: []string{"-jar", "-m", "--module"}},
	"docker":  {subcommands: []string{"run"}, values: dockerValues},
	"podman":  {subcommands: []string{"run"}, values: dockerValues},
	"sh":      {values: []string{"-o"}, programs: []string{"-c"}},
	"bash":    {values: []string{"-o", "--rcfile", "--init-file"}, programs: []string{"-c"}},
	"zsh":     {values: []string{"-o"}, programs: []string{"-c"}},
	"ruby":    {values: []string{"-r", "-I", "-C"}, programs: []string{"-e"}},
	"perl":    {values: []string{"-I", "-M", "-m"}, programs: []string{"-e", "-E"}},
	"php":     {values: []string{"-c", "-d", "-z"}, programs: []string{"-f", "-r"}},
}

var (
	uvValues = []string{"--from", "--with", "--with-editable", "--with-requirements", "--python", "-p",
		"--directory", "--project", "--index", "--index-url", "--extra-index-url", "--cache-dir",
		"--env-file", "--package", "--group", "--extra", "--script"}
	dockerValues = []string{"-v", "--volume", "-e", "--env", "--env-file", "--name", "--mount", "-w", "--workdir",
		"--network", "--net", "-u", "--user", "--entrypoint", "-p", "--publish", "--platform", "-l", "--label",
		"--add-host", "--cap-add", "--cap-drop", "--device", "-h", "--hostname", "-m", "--memory", "--cpus",
		"--pull", "--runtime", "--security-opt", "--tmpfs", "--ulimit", "--log-driver", "--log-opt", "--pid",
		"--ipc", "--restart", "--shm-size", "--stop-signal", "--gpus", "--cidfile", "--dns", "--expose"}
)

// launcherOf is command's launcher, ok false for a command that is the
// server itself.
func launcherOf(command string) (launcher, bool) {
	name := strings.ToLower(command)
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		name = strings.TrimSuffix(name, ext)
	}
	if strings.HasPrefix(name, "python") && strings.Trim(name[len("python"):], "0123456789.") == "" {
		name = "python"
	}
	l, ok := launchers[name]
	return l, ok
}

// dataStart is the index of the first of args that is the server's data:
// 0 for a server started directly, and for a launcher the one after its
// program (len(args) when there is none).
func dataStart(command string, args []string) int {
	l, ok := launcherOf(command)
	if !ok {
		return 0
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case slices.Contains(l.programs, a):
			return min(i+2, len(args))
		case slices.Contains(l.values, a):
			i++ // its value
		case strings.HasPrefix(a, "-"), slices.Contains(l.subcommands, a):
		default:
			return i + 1
		}
	}
	return len(args)
}

// FolderArgs are the runs of server i's arguments that name folders that
// exist, as its host and the server read them: `~` and `~/…` are the home
// folder (servers such as server-filesystem expand it themselves), the
// host's variables are expanded as the host does (Claude Code ${VAR} and
// ${VAR:-default}, ${CLAUDE_PROJECT_DIR} and ${PWD} being the project
// folder; VS Code and Cursor ${workspaceFolder}, ${userHome}, ${env:VAR};
// Gemini CLI $VAR and ${VAR}; Codex and Goose none), and a relative path is
// taken from the project folder, where hosts start servers. The arguments
// of a launcher up to its program (npx -y PKG, uv --directory DIR run
// server.py, go run .) are never counted. Nil for a server that is not
// Stdio, or when the file's Home and Workspace are unknown.
func (c *Config) FolderArgs(i int) []FolderRun {
	s := c.Servers[i]
	if s.Kind != Stdio {
		return nil
	}
	return c.File.folderRuns(s.Command, s.Args)
}

// folderRuns finds the folder runs of a command line.
func (f File) folderRuns(command string, args []string) []FolderRun {
	var runs []FolderRun
	start := dataStart(command, args)
	oneFolder := oneFolderFlags[serverProgram(command, args)]
	for i := start; i < len(args); i++ {
		a := args[i]
		if path, ok := f.folder(a); ok {
			if i > start && slices.Contains(oneFolder, args[i-1]) {
				runs = append(runs, FolderRun{Start: i, End: i + 1, Args: []string{a}, Paths: []string{path}, Flag: args[i-1]})
				continue
			}
			if n := len(runs); n > 0 && runs[n-1].Replaced() && runs[n-1].End == i {
				r := &runs[n-1]
				r.End++
				r.Args, r.Paths = append(r.Args, a), append(r.Paths, path)
				continue
			}
			runs = append(runs, FolderRun{Start: i, End: i + 1, Args: []string{a}, Paths: []string{path}})
			continue
		}
		if name, value, ok := strings.Cut(a, "="); ok && strings.HasPrefix(name, "-") && value != "" {
			if path, ok := f.folder(value); ok {
				runs = append(runs, FolderRun{Start: i, End: i + 1, Args: []string{a}, Paths: []string{path}, Inside: true})
			}
		}
	}
	return runs
}

// folder reports whether the argument a names a folder that exists, and
// which.
func (f File) folder(a string) (string, bool) {
	if a == "" || a == RootsArg || strings.HasPrefix(a, "-") || strings.ContainsRune(a, 0) {
		return "", false
	}
	p, ok := f.expand(a)
	if !ok || p == "" {
		return "", false
	}
	switch {
	case p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`):
		if f.Home == "" {
			return "", false
		}
		p = filepath.Join(f.Home, p[1:])
	case !filepath.IsAbs(p):
		if f.Workspace == "" {
			return "", false
		}
		p = filepath.Join(f.Workspace, p)
	}
	p = filepath.Clean(p)
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		return "", false
	}
	return p, true
}

var (
	// braced is ${NAME}, ${NAME:-default} and ${prefix:NAME}.
	braced = regexp.MustCompile(`\$\{([^{}]*)\}`)
	// bare is Gemini CLI's $NAME.
	bare = regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`)
	// envName is a variable name as Claude Code expands it.
	envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// expand is a as f's host passes it to the server, ok false when it holds
// a variable whose value rootpick cannot know (VS Code's ${input:…}, an
// unset variable).
func (f File) expand(a string) (string, bool) {
	if !strings.Contains(a, "$") {
		return a, true
	}
	ok := true
	var out string
	switch f.Host {
	case Claude:
		out = braced.ReplaceAllStringFunc(a, func(m string) string {
			inner := m[2 : len(m)-1]
			name, def, hasDef := strings.Cut(inner, ":-")
			if !envName.MatchString(name) {
				ok = false
				return m
			}
			if v, set := f.env(name); set {
				return v
			}
			if hasDef {
				return def
			}
			ok = false // Claude Code passes it as written
			return m
		})
	case VSCode, VSCodeInsiders, Cursor:
		out = braced.ReplaceAllStringFunc(a, func(m string) string {
			inner := m[2 : len(m)-1]
			switch {
			case inner == "workspaceFolder" && f.Workspace != "":
				return f.Workspace
			case inner == "workspaceFolderBasename" && f.Workspace != "":
				return filepath.Base(f.Workspace)
			case inner == "userHome" && f.Home != "":
				return f.Home
			case inner == "pathSeparator" || inner == "/":
				return string(filepath.Separator)
			case strings.HasPrefix(inner, "env:"):
				if v, set := f.env(inner[len("env:"):]); set {
					return v
				}
			}
			ok = false
			return m
		})
	case Gemini, Qwen: // Qwen Code keeps Gemini CLI's settings loader
		out = braced.ReplaceAllStringFunc(a, func(m string) string {
			if v, set := f.env(m[2 : len(m)-1]); set {
				return v
			}
			ok = false
			return m
		})
		out = bare.ReplaceAllStringFunc(out, func(m string) string {
			if v, set := f.env(m[1:]); set {
				return v
			}
			ok = false
			return m
		})
	default:
		return a, true // Codex and Goose pass arguments as written
	}
	return out, ok
}

// env is the variable name as the host's servers see it: HOME is the home
// folder, PWD and CLAUDE_PROJECT_DIR the project folder (where the host
// runs), the rest rootpick's own environment, which is the host's when both
// are started from the same shell.
func (f File) env(name string) (string, bool) {
	switch name {
	case "HOME", "USERPROFILE":
		return f.Home, f.Home != ""
	case "PWD", "CLAUDE_PROJECT_DIR":
		return f.Workspace, f.Workspace != ""
	}
	if f.Getenv == nil || !envName.MatchString(name) {
		return "", false
	}
	v := f.Getenv(name)
	return v, v != ""
}
