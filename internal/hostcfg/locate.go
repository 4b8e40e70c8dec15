package hostcfg

import (
	"os"
	"path/filepath"
)

// format is the syntax of a configuration file.
type format int

const (
	formatJSON format = iota // JSON; comments are kept if a host tolerates them
	formatTOML
	formatYAML
)

// layout says where the servers are in a file.
type layout int

const (
	layoutMCPServers layout = iota // {"mcpServers": {NAME: {...}}}
	layoutClaudeUser               // mcpServers, and projects.PATH.mcpServers
	layoutVSCode                   // {"servers": {NAME: {...}}}
	layoutCodex                    // [mcp_servers.NAME]
	layoutGoose                    // extensions: NAME: {...}
	layoutCrush                    // {"mcp": {NAME: {...}}}
	layoutOpenCode                 // {"mcp": {NAME: {"command": [CMD, ARGS...]}}}
	layoutZed                      // {"context_servers": {NAME: {...}}}
	layoutContinue                 // mcpServers: [{name: NAME, command: ...}]
	layoutAmp                      // {"amp.mcpServers": {NAME: {...}}}: one key with a dot in it
	layoutVibe                     // [[mcp_servers]] name = NAME ...: an array of tables
)

// Scope says whom a configuration file, or a server entry in one, serves.
type Scope string

// The scopes of configuration files. A server entry's Scope is its file's,
// or for Claude Code's per-project entries in ~/.claude.json "local PATH"
// (see LocalScope), which no switch names.
const (
	// ScopeUser is the person's own file, in the home or config folder.
	ScopeUser Scope = "user"
	// ScopeProject is a file in the project folder, one a team commits.
	ScopeProject Scope = "project"
)

// LocalScope is the Scope of Claude Code's "local" servers of the project
// at path: kept in the person's ~/.claude.json, for that project only.
func LocalScope(path string) Scope { return Scope("local " + path) }

// File is one configuration file a host may read.
type File struct {
	// Host is one of Hosts.
	Host string
	// Path is the file's absolute path.
	Path string
	// Scope says whom the file serves: ScopeUser or ScopeProject.
	Scope Scope
	// Rootpick are the paths of this rootpick executable: an entry runs
	// through the proxy when its command is one of them, or the same file
	// as one of them (see IsRootpick). Any other file named rootpick is a
	// server like any other.
	Rootpick []string
	// Home and Workspace are the home folder and the folder the host runs
	// its servers in (the project folder), and Getenv the environment:
	// what `~`, ${userHome}, ${workspaceFolder}, ${VAR} and relative
	// paths in a server's arguments stand for (see Config.FolderArgs).
	// Empty, such arguments are not known to name folders.
	Home, Workspace string
	Getenv          func(string) string

	format format
	layout layout
	// dir is the folder the host runs a project's servers in, from which
	// a relative command is found ("" for the person's own files, whose
	// servers run wherever the host was started).
	dir string
}

// Places says where to look: the home folder and the project folder whose
// project files (.mcp.json, .vscode/mcp.json, …) are read.
type Places struct {
	// Home and Project are absolute paths.
	Home, Project string
	// Getenv reads the environment (CLAUDE_CONFIG_DIR, CODEX_HOME,
	// XDG_CONFIG_HOME, APPDATA); nil reads nothing.
	Getenv func(string) string
	// Windows selects Goose's and Claude Desktop's Windows locations,
	// Darwin Claude Desktop's macOS one.
	Windows, Darwin bool
	// Rootpick is given to each File (see File.Rootpick).
	Rootpick []string
	// Folders lists the names of the folders in a folder, sorted: VS
	// Code's profiles (User/profiles/ID, each with its own mcp.json). nil
	// lists none.
	Folders func(dir string) []string
}

// notation is how a host writes a file: its syntax and where the servers
// are in it. A host's files in HostTable each name theirs.
type notation struct {
	format format
	layout layout
}

// The notations of the hosts' files.
var (
	jsonMCPServers = notation{formatJSON, layoutMCPServers}
	jsonClaudeUser = notation{formatJSON, layoutClaudeUser}
	jsonVSCode     = notation{formatJSON, layoutVSCode}
	jsonCrush      = notation{formatJSON, layoutCrush}
	jsonOpenCode   = notation{formatJSON, layoutOpenCode}
	jsonZed        = notation{formatJSON, layoutZed}
	jsonAmp        = notation{formatJSON, layoutAmp}
	tomlCodex      = notation{formatTOML, layoutCodex}
	tomlVibe       = notation{formatTOML, layoutVibe}
	yamlGoose      = notation{formatYAML, layoutGoose}
	yamlContinue   = notation{formatYAML, layoutContinue}
)

// project is the project's file at the path elem names in the project
// folder, written in n.
func (n notation) project(p Places, elem ...string) File {
	return File{Path: filepath.Join(append([]string{p.Project}, elem...)...), Scope: ScopeProject, format: n.format, layout: n.layout}
}

// user is the person's own file at path, written in n.
func (n notation) user(path string) File {
	return File{Path: path, Scope: ScopeUser, format: n.format, layout: n.layout}
}

// extensionEditors are the editors built on VS Code whose extensions (Cline,
// Roo Code) keep their settings in the editor's own user folder, as VS Code
// gives each extension: APPDATA/NAME/User/globalStorage/EXTENSION.
var extensionEditors = []string{"Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"}

// extensionFiles is the settings file name of the VS Code extension ext
// (publisher.name) in each of extensionEditors.
func (p Places) extensionFiles(ext, name string) []File {
	var files []File
	for _, editor := range extensionEditors {
		if d := p.appDataDir(editor); d != "" {
			files = append(files, jsonMCPServers.user(filepath.Join(d, "User", "globalStorage", ext, "settings", name)))
		}
	}
	return files
}

// vscodeUser is the user configuration of VS Code (or a fork) whose user
// folder is userDir: its mcp.json, then each profile's.
func (p Places) vscodeUser(userDir string) []File {
	files := []File{jsonVSCode.user(filepath.Join(userDir, "mcp.json"))}
	if p.Folders == nil {
		return files
	}
	profiles := filepath.Join(userDir, "profiles")
	for _, id := range p.Folders(profiles) {
		files = append(files, jsonVSCode.user(filepath.Join(profiles, id, "mcp.json")))
	}
	return files
}

// xdgConfig is the XDG configuration folder: $XDG_CONFIG_HOME, else
// ~/.config.
func (p Places) xdgConfig() string {
	return p.envDirOr("XDG_CONFIG_HOME", filepath.Join(p.Home, ".config"))
}

// appDataDir is an application's folder in the OS's application-data
// folder: %APPDATA%\NAME on Windows ("" without APPDATA), ~/Library/
// Application Support/NAME on macOS, the XDG configuration folder's NAME
// elsewhere.
func (p Places) appDataDir(name string) string {
	switch {
	case p.Windows:
		if d := p.envDir("APPDATA"); d != "" {
			return filepath.Join(d, name)
		}
		return ""
	case p.Darwin:
		return filepath.Join(p.Home, "Library", "Application Support", name)
	}
	return filepath.Join(p.xdgConfig(), name)
}

// envDirOr is envDir(name), or fallback where that is "".
func (p Places) envDirOr(name, fallback string) string {
	if d := p.envDir(name); d != "" {
		return d
	}
	return fallback
}

// envDir is the folder the variable name holds when it is absolute, else
// "": a relative value would be resolved against whatever folder rootpick
// runs in, which a cloned repository could choose.
func (p Places) envDir(name string) string {
	if p.Getenv == nil {
		return ""
	}
	if v := p.Getenv(name); filepath.IsAbs(v) {
		return filepath.Clean(v)
	}
	return ""
}

// Files lists the configuration files of every host, existing or not, in
// the order they are shown: HostTable's, and for each host its project
// files, then its user files. A file a host reaches twice, as its
// project's and as the person's own (the project folder is the home
// folder, by the same path or through a link; the project's .cursor is a
// link to ~/.cursor), is listed once, as the person's: the host reads it
// as theirs, and one file must be rewritten once.
func Files(p Places) []File {
	var out []File
	var ids []os.FileInfo // out's files that exist, by identity; nil for the others
	for _, h := range HostTable {
		for _, f := range h.files(p) {
			f.Host = h.Name
			id, _ := os.Stat(f.Path)
			i := -1
			for j, g := range out {
				if g.Path == f.Path || (g.Host == f.Host && id != nil && ids[j] != nil && os.SameFile(ids[j], id)) {
					i = j
					break
				}
			}
			f.Rootpick = p.Rootpick
			f.Home, f.Workspace, f.Getenv = p.Home, p.Project, p.Getenv
			if f.Scope == ScopeProject {
				f.dir = p.Project
			}
			if i >= 0 {
				// Listed already as the project's: it is the person's (the
				// later of a host's files), read with the user file's layout
				// (~/.claude.json's holds more than .mcp.json's).
				if f.Scope == ScopeUser {
					out[i], ids[i] = f, id
				}
				continue
			}
			out = append(out, f)
			ids = append(ids, id)
		}
	}
	return out
}

// FileFor is the File for a configuration file at path, read as host reads
// its files of scope (ScopeUser or ScopeProject, as text): in the notation
// of the host's first such file in HostTable. ok is false for a host or
// scope that has no such file. It lets tests and scripts read a file that
// is not where Files looks.
//
// scope is a string, not a Scope, so that a test's table of plain strings
// passes its field as it is.
func FileFor(host, scope, path string) (File, bool) {
	h, ok := hostNamed(host)
	if !ok {
		return File{}, false
	}
	// Every file of every host, on Linux with nothing in the environment:
	// no host's notation depends on where its file is.
	for _, f := range h.files(Places{}) {
		if f.Scope == Scope(scope) {
			return File{Host: host, Path: path, Scope: f.Scope, format: f.format, layout: f.layout}, true
		}
	}
	return File{}, false
}
