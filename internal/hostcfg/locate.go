package hostcfg

import (
	"os"
	"path/filepath"
)

// The hosts whose configuration files hostcfg reads, by the name the
// command line uses.
const (
	Claude = "claude"
	VSCode = "vscode"
	Cursor = "cursor"
	Gemini = "gemini"
	Codex  = "codex"
	Goose  = "goose"
	// Issue 28's hosts: each reads JSON with command and args (see
	// docs/hosts.md for where each format was confirmed).
	Copilot       = "copilot"        // GitHub Copilot CLI
	Qwen          = "qwen"           // Qwen Code, Gemini CLI's fork
	Crush         = "crush"          // Charm's Crush: an "mcp" object
	ClaudeDesktop = "claude-desktop" // the Claude desktop app
	Windsurf      = "windsurf"
	Kiro          = "kiro"
	// OpenCode's "mcp" entries give the whole command line as one array.
	OpenCode = "opencode"
	Zed      = "zed" // "context_servers" in its settings.json
	// Cline, the VS Code extension: its file is in VS Code's storage.
	Cline = "cline"
	// Continue: a YAML sequence of servers in ~/.continue/config.yaml.
	Continue = "continue"
	LMStudio = "lmstudio" // Cursor's notation, in ~/.lmstudio/mcp.json
	AmazonQ  = "amazonq"  // the legacy mcp.json files Amazon Q Developer reads
	KiloCode = "kilocode" // Cline's notation, in .kilocode/mcp.json and the CLI's settings
	// JetBrains Junie: mcpServers in .junie/mcp/mcp.json, project and
	// user. JetBrains AI Assistant keeps its servers in the IDE's settings
	// XML, not a file a person edits, and is not read (docs/hosts.md).
	Junie = "junie"
	// Issue 28's second round: the file-based hosts of ToolHive's and
	// docker mcp's client lists (docs/hosts.md cites each one's page).
	VSCodeInsiders    = "vscode-insiders"    // Code - Insiders' user mcp.json
	RooCode           = "roo-code"           // Cline's notation, in .roo/mcp.json and VS Code's storage
	Amp               = "amp"                // "amp.mcpServers" in Amp's and the editors' settings.json
	Trae              = "trae"               // mcpServers in .trae/mcp.json and Trae's user folder
	Antigravity       = "antigravity"        // ~/.gemini/antigravity/mcp_config.json
	WindsurfJetBrains = "windsurf-jetbrains" // Windsurf's JetBrains plugin: ~/.codeium/mcp_config.json
	Kimi              = "kimi"               // Kimi Code CLI: ~/.kimi/mcp.json
	Factory           = "factory"            // Factory's Droid: .factory/mcp.json, ~/.factory/mcp.json
	Qoder             = "qoder"              // ~/.qoder/mcp.json
	Sema4             = "sema4"              // Sema4.ai Studio: mcp_servers.json
	Auggie            = "auggie"             // Augment's CLI: .augment/settings.json, project and user
	MistralVibe       = "mistral-vibe"       // [[mcp_servers]] tables in .vibe/config.toml
)

// Hosts lists the host names in the order they are shown.
var Hosts = []string{Claude, VSCode, Cursor, Gemini, Codex, Goose, Copilot, Qwen, Crush, ClaudeDesktop, Windsurf, Kiro, OpenCode, Zed, Cline, Continue, LMStudio, AmazonQ, KiloCode, Junie,
	VSCodeInsiders, RooCode, Amp, Trae, Antigravity, WindsurfJetBrains, Kimi, Factory, Qoder, Sema4, Auggie, MistralVibe}

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

// extensionEditors are the editors built on VS Code whose extensions (Cline,
// Roo Code) keep their settings in the editor's own user folder, as VS Code
// gives each extension: APPDATA/NAME/User/globalStorage/EXTENSION.
var extensionEditors = []string{"Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"}

// extensionFiles is the settings file name of the VS Code extension ext
// (publisher.name) in each of extensionEditors, for host.
func (p Places) extensionFiles(xdgConfig, host, ext, name string) []File {
	var files []File
	for _, editor := range extensionEditors {
		if d := p.appDataDir(xdgConfig, editor); d != "" {
			files = append(files, File{Host: host, Path: filepath.Join(d, "User", "globalStorage", ext, "settings", name), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers})
		}
	}
	return files
}

// vscodeUser is the user configuration of VS Code (or a fork) whose user
// folder is userDir: its mcp.json, then each profile's.
func (p Places) vscodeUser(host, userDir string) []File {
	files := []File{{Host: host, Path: filepath.Join(userDir, "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutVSCode}}
	if p.Folders == nil {
		return files
	}
	profiles := filepath.Join(userDir, "profiles")
	for _, id := range p.Folders(profiles) {
		files = append(files, File{Host: host, Path: filepath.Join(profiles, id, "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutVSCode})
	}
	return files
}

// appDataDir is an application's folder in the OS's application-data
// folder: %APPDATA%\NAME on Windows ("" without APPDATA), ~/Library/
// Application Support/NAME on macOS, xdgConfig/NAME elsewhere.
func (p Places) appDataDir(xdgConfig, name string) string {
	switch {
	case p.Windows:
		if d := p.envDir("APPDATA"); d != "" {
			return filepath.Join(d, name)
		}
		return ""
	case p.Darwin:
		return filepath.Join(p.Home, "Library", "Application Support", name)
	}
	return filepath.Join(xdgConfig, name)
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
// the order they are shown: for each host its project files, then its user
// files. A file a host reaches twice, as its project's and as the person's
// own (the project folder is the home folder, by the same path or through
// a link; the project's .cursor is a link to ~/.cursor), is listed once,
// as the person's: the host reads it as theirs, and one file must be
// rewritten once.
func Files(p Places) []File {
	claudeDir := p.envDirOr("CLAUDE_CONFIG_DIR", p.Home) // Claude Code keeps .claude.json there instead
	codexDir := p.envDirOr("CODEX_HOME", filepath.Join(p.Home, ".codex"))
	xdgConfig := p.envDirOr("XDG_CONFIG_HOME", filepath.Join(p.Home, ".config"))
	gooseDir := filepath.Join(xdgConfig, "goose")
	if p.Windows {
		gooseDir = ""
		if d := p.envDir("APPDATA"); d != "" {
			gooseDir = filepath.Join(d, "Block", "goose", "config")
		}
	}
	copilotDir := p.envDirOr("COPILOT_HOME", filepath.Join(p.Home, ".copilot"))
	// Claude Desktop keeps its file in the OS's application-data folder,
	// and Cline its settings in VS Code's user folder there.
	desktopDir := p.appDataDir(xdgConfig, "Claude")
	codeDir := p.appDataDir(xdgConfig, "Code")
	all := []File{
		{Host: Claude, Path: filepath.Join(p.Project, ".mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		{Host: Claude, Path: filepath.Join(claudeDir, ".claude.json"), Scope: ScopeUser, format: formatJSON, layout: layoutClaudeUser},
		{Host: VSCode, Path: filepath.Join(p.Project, ".vscode", "mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutVSCode},
	}
	if codeDir != "" {
		all = append(all, p.vscodeUser(VSCode, filepath.Join(codeDir, "User"))...)
	}
	// VS Code's remote user configuration, on a machine VS Code connects
	// to over SSH, in a container or WSL.
	all = append(all, p.vscodeUser(VSCode, filepath.Join(p.Home, ".vscode-server", "data", "User"))...)
	all = append(all, []File{
		{Host: Cursor, Path: filepath.Join(p.Project, ".cursor", "mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		{Host: Cursor, Path: filepath.Join(p.Home, ".cursor", "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		{Host: Gemini, Path: filepath.Join(p.Project, ".gemini", "settings.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		{Host: Gemini, Path: filepath.Join(p.Home, ".gemini", "settings.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		{Host: Codex, Path: filepath.Join(p.Project, ".codex", "config.toml"), Scope: ScopeProject, format: formatTOML, layout: layoutCodex},
		{Host: Codex, Path: filepath.Join(codexDir, "config.toml"), Scope: ScopeUser, format: formatTOML, layout: layoutCodex},
	}...)
	if gooseDir != "" {
		all = append(all, File{Host: Goose, Path: filepath.Join(gooseDir, "config.yaml"), Scope: ScopeUser, format: formatYAML, layout: layoutGoose})
	}
	all = append(all,
		// Copilot CLI reads .mcp.json (Claude Code's, listed as claude's)
		// or else .github/mcp.json in a folder the person trusts.
		File{Host: Copilot, Path: filepath.Join(p.Project, ".github", "mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		File{Host: Copilot, Path: filepath.Join(copilotDir, "mcp-config.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		File{Host: Qwen, Path: filepath.Join(p.Project, ".qwen", "settings.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		File{Host: Qwen, Path: filepath.Join(p.Home, ".qwen", "settings.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		// Crush reads .crush.json before crush.json in the project.
		File{Host: Crush, Path: filepath.Join(p.Project, ".crush.json"), Scope: ScopeProject, format: formatJSON, layout: layoutCrush},
		File{Host: Crush, Path: filepath.Join(p.Project, "crush.json"), Scope: ScopeProject, format: formatJSON, layout: layoutCrush},
		File{Host: Crush, Path: filepath.Join(xdgConfig, "crush", "crush.json"), Scope: ScopeUser, format: formatJSON, layout: layoutCrush},
	)
	if desktopDir != "" {
		all = append(all, File{Host: ClaudeDesktop, Path: filepath.Join(desktopDir, "claude_desktop_config.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers})
	}
	all = append(all,
		File{Host: Windsurf, Path: filepath.Join(p.Home, ".codeium", "windsurf", "mcp_config.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		File{Host: Kiro, Path: filepath.Join(p.Project, ".kiro", "settings", "mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		File{Host: Kiro, Path: filepath.Join(p.Home, ".kiro", "settings", "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		// OpenCode reads opencode.json and opencode.jsonc, both.
		File{Host: OpenCode, Path: filepath.Join(p.Project, "opencode.json"), Scope: ScopeProject, format: formatJSON, layout: layoutOpenCode},
		File{Host: OpenCode, Path: filepath.Join(p.Project, "opencode.jsonc"), Scope: ScopeProject, format: formatJSON, layout: layoutOpenCode},
		File{Host: OpenCode, Path: filepath.Join(xdgConfig, "opencode", "opencode.json"), Scope: ScopeUser, format: formatJSON, layout: layoutOpenCode},
		File{Host: OpenCode, Path: filepath.Join(xdgConfig, "opencode", "opencode.jsonc"), Scope: ScopeUser, format: formatJSON, layout: layoutOpenCode},
		File{Host: Zed, Path: filepath.Join(p.Project, ".zed", "settings.json"), Scope: ScopeProject, format: formatJSON, layout: layoutZed},
		File{Host: Zed, Path: filepath.Join(xdgConfig, "zed", "settings.json"), Scope: ScopeUser, format: formatJSON, layout: layoutZed},
	)
	all = append(all,
		File{Host: LMStudio, Path: filepath.Join(p.Home, ".lmstudio", "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		File{Host: AmazonQ, Path: filepath.Join(p.Project, ".amazonq", "mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		File{Host: AmazonQ, Path: filepath.Join(p.Home, ".aws", "amazonq", "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		File{Host: KiloCode, Path: filepath.Join(p.Project, ".kilocode", "mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		File{Host: KiloCode, Path: filepath.Join(p.Home, ".kilocode", "cli", "global", "settings", "mcp_settings.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		File{Host: Junie, Path: filepath.Join(p.Project, ".junie", "mcp", "mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		File{Host: Junie, Path: filepath.Join(p.Home, ".junie", "mcp", "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
	)
	all = append(all, File{Host: Continue, Path: filepath.Join(p.Home, ".continue", "config.yaml"), Scope: ScopeUser, format: formatYAML, layout: layoutContinue})
	all = append(all, p.extensionFiles(xdgConfig, Cline, "saoudrizwan.claude-dev", "cline_mcp_settings.json")...)
	all = append(all, p.secondRound(xdgConfig)...)
	var out []File
	var ids []os.FileInfo // out's files that exist, by identity; nil for the others
	for _, f := range all {
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
	return out
}

// secondRound are the files of the hosts issue 28's second round added
// (ToolHive's and docker mcp's lists), in Files' order: xdgConfig is the
// XDG configuration folder (as Files finds it).
func (p Places) secondRound(xdgConfig string) []File {
	var all []File
	// Amp's CLI keeps its settings in ~/.config/amp (also on Windows, in
	// the person's profile folder), moved by XDG_CONFIG_HOME elsewhere.
	ampDir := filepath.Join(xdgConfig, "amp")
	if p.Windows {
		ampDir = filepath.Join(p.Home, ".config", "amp")
	}
	// Kimi Code keeps its files in ~/.kimi-code, or $KIMI_CODE_HOME.
	kimiCodeDir := p.envDirOr("KIMI_CODE_HOME", filepath.Join(p.Home, ".kimi-code"))
	// Mistral Vibe's home folder: ~/.vibe, or $VIBE_HOME.
	vibeDir := p.envDirOr("VIBE_HOME", filepath.Join(p.Home, ".vibe"))
	// Qoder's and Sema4.ai Studio's folders, as ToolHive and docker mcp
	// find them: in the home folder but on Windows.
	qoderDir := filepath.Join(p.Home, ".qoder")
	sema4Dir := filepath.Join(p.Home, ".sema4ai", "sema4ai-studio")
	if p.Windows {
		qoderDir = p.appDataDir(xdgConfig, filepath.Join("Qoder", "SharedClientCache"))
		sema4Dir = filepath.Join(p.Home, "AppData", "Local", "sema4ai", "sema4ai-studio")
	}
	if d := p.appDataDir(xdgConfig, "Code - Insiders"); d != "" {
		all = append(all, p.vscodeUser(VSCodeInsiders, filepath.Join(d, "User"))...)
	}
	all = append(all, File{Host: RooCode, Path: filepath.Join(p.Project, ".roo", "mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers})
	all = append(all, p.extensionFiles(xdgConfig, RooCode, "rooveterinaryinc.roo-cline", "mcp_settings.json")...)
	all = append(all,
		File{Host: Amp, Path: filepath.Join(p.Project, ".amp", "settings.json"), Scope: ScopeProject, format: formatJSON, layout: layoutAmp},
		File{Host: Amp, Path: filepath.Join(ampDir, "settings.json"), Scope: ScopeUser, format: formatJSON, layout: layoutAmp},
	)
	// Amp's editor extension reads the same key from the editor's user
	// settings.json: VS Code's, Cursor's and Windsurf's.
	for _, editor := range []string{"Code", "Cursor", "Windsurf"} {
		if d := p.appDataDir(xdgConfig, editor); d != "" {
			all = append(all, File{Host: Amp, Path: filepath.Join(d, "User", "settings.json"), Scope: ScopeUser, format: formatJSON, layout: layoutAmp})
		}
	}
	all = append(all, File{Host: Trae, Path: filepath.Join(p.Project, ".trae", "mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers})
	if d := p.appDataDir(xdgConfig, "Trae"); d != "" {
		all = append(all, File{Host: Trae, Path: filepath.Join(d, "User", "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers})
	}
	all = append(all,
		File{Host: Antigravity, Path: filepath.Join(p.Home, ".gemini", "antigravity", "mcp_config.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		File{Host: WindsurfJetBrains, Path: filepath.Join(p.Home, ".codeium", "mcp_config.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		// Kimi CLI's file, then Kimi Code's (its successor) project and
		// user files.
		File{Host: Kimi, Path: filepath.Join(p.Project, ".kimi-code", "mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		File{Host: Kimi, Path: filepath.Join(p.Home, ".kimi", "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		File{Host: Kimi, Path: filepath.Join(kimiCodeDir, "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		File{Host: Factory, Path: filepath.Join(p.Project, ".factory", "mcp.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		File{Host: Factory, Path: filepath.Join(p.Home, ".factory", "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
	)
	if qoderDir != "" {
		all = append(all, File{Host: Qoder, Path: filepath.Join(qoderDir, "mcp.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers})
	}
	all = append(all,
		File{Host: Sema4, Path: filepath.Join(sema4Dir, "mcp_servers.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		// Auggie's project settings, its local ones (in the project, not
		// committed, but read as the project's: written portably), the user's.
		File{Host: Auggie, Path: filepath.Join(p.Project, ".augment", "settings.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		File{Host: Auggie, Path: filepath.Join(p.Project, ".augment", "settings.local.json"), Scope: ScopeProject, format: formatJSON, layout: layoutMCPServers},
		File{Host: Auggie, Path: filepath.Join(p.Home, ".augment", "settings.json"), Scope: ScopeUser, format: formatJSON, layout: layoutMCPServers},
		// Vibe reads the project's config.toml when there is one, else
		// the person's.
		File{Host: MistralVibe, Path: filepath.Join(p.Project, ".vibe", "config.toml"), Scope: ScopeProject, format: formatTOML, layout: layoutVibe},
		File{Host: MistralVibe, Path: filepath.Join(vibeDir, "config.toml"), Scope: ScopeUser, format: formatTOML, layout: layoutVibe},
	)
	return all
}

// FileFor is the File for a configuration file at path, read as host reads
// it at scope (ScopeUser or ScopeProject, as text); ok is false for a host or scope that
// has no such file. It lets tests and scripts read a file that is not where
// Files looks.
//
// scope is a string, not a Scope, so that a test's table of plain strings
// passes its field as it is.
func FileFor(host, scope, path string) (File, bool) {
	f := File{Host: host, Path: path, Scope: Scope(scope)}
	switch {
	case host == Claude && f.Scope == ScopeProject:
		f.format, f.layout = formatJSON, layoutMCPServers
	case host == Claude && f.Scope == ScopeUser:
		f.format, f.layout = formatJSON, layoutClaudeUser
	case host == VSCode:
		f.format, f.layout = formatJSON, layoutVSCode
	case host == Cursor, host == Gemini, host == Qwen, host == Kiro,
		host == Copilot, host == ClaudeDesktop && f.Scope == ScopeUser, host == Windsurf && f.Scope == ScopeUser,
		host == Cline && f.Scope == ScopeUser, host == LMStudio && f.Scope == ScopeUser, host == AmazonQ, host == KiloCode, host == Junie,
		host == RooCode, host == Trae, host == Factory, host == Antigravity && f.Scope == ScopeUser, host == WindsurfJetBrains && f.Scope == ScopeUser,
		host == Kimi, host == Qoder && f.Scope == ScopeUser, host == Sema4 && f.Scope == ScopeUser, host == Auggie:
		f.format, f.layout = formatJSON, layoutMCPServers
	case host == VSCodeInsiders && f.Scope == ScopeUser:
		f.format, f.layout = formatJSON, layoutVSCode
	case host == Amp:
		f.format, f.layout = formatJSON, layoutAmp
	case host == Crush:
		f.format, f.layout = formatJSON, layoutCrush
	case host == OpenCode:
		f.format, f.layout = formatJSON, layoutOpenCode
	case host == Zed:
		f.format, f.layout = formatJSON, layoutZed
	case host == Continue && f.Scope == ScopeUser:
		f.format, f.layout = formatYAML, layoutContinue
	case host == Codex:
		f.format, f.layout = formatTOML, layoutCodex
	case host == MistralVibe:
		f.format, f.layout = formatTOML, layoutVibe
	case host == Goose:
		f.format, f.layout = formatYAML, layoutGoose
	default:
		return File{}, false
	}
	return f, true
}
