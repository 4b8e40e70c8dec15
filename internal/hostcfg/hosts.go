package hostcfg

import (
	"path/filepath"
)

// Host is one agent host, all that rootpick knows of it in one entry of
// HostTable: its names, where its files are and how each is written, and
// the entry `rootpick proxy --print-config` prints for it.
type Host struct {
	// Name is the host's name on the command line (`rootpick hosts wrap
	// NAME`, `--print-config NAME`): one of the constants above.
	Name string
	// Title is the host's name for people, as the README and
	// docs/hosts.md write it.
	Title string
	// Notes are what a reader of the table should know of the host that
	// its files do not say; docs/hosts.md has its section, with where
	// each format was confirmed.
	Notes string

	// files are the host's configuration files under p, existing or
	// not, its project files first, each with its scope and notation;
	// Files fills in the rest (the host, the places, the folder a
	// project's servers run in).
	files func(p Places) []File
	// snippet writes the entry --print-config prints (see Snippet).
	snippet snippetFunc
}

// The hosts' names, as the command line writes them (Host.Name).
const (
	Claude            = "claude"
	VSCode            = "vscode"
	Cursor            = "cursor"
	Gemini            = "gemini"
	Codex             = "codex"
	Goose             = "goose"
	Copilot           = "copilot"
	Qwen              = "qwen"
	Crush             = "crush"
	ClaudeDesktop     = "claude-desktop"
	Windsurf          = "windsurf"
	Kiro              = "kiro"
	OpenCode          = "opencode"
	Zed               = "zed"
	Cline             = "cline"
	Continue          = "continue"
	LMStudio          = "lmstudio"
	AmazonQ           = "amazonq"
	KiloCode          = "kilocode"
	Junie             = "junie"
	VSCodeInsiders    = "vscode-insiders"
	RooCode           = "roo-code"
	Amp               = "amp"
	Trae              = "trae"
	Antigravity       = "antigravity"
	WindsurfJetBrains = "windsurf-jetbrains"
	Kimi              = "kimi"
	Factory           = "factory"
	Qoder             = "qoder"
	Sema4             = "sema4"
	Auggie            = "auggie"
	MistralVibe       = "mistral-vibe"
)

// HostTable is every host rootpick reads, one entry each, in the order
// they are shown. Hosts, Files, FileFor and Snippet are derived from it,
// and so are the root package's help texts, completion and
// --print-config; the README's and docs/hosts.md's lists of hosts are
// checked against it (go test -run HostList .). A new host is a constant
// above and an entry here, with its fixtures (testdata, hostcfg_test.go's
// fixtures) and its section in docs/hosts.md.
var HostTable = []Host{
	{
		Name: Claude, Title: "Claude Code",
		Notes: "~/.claude.json holds the person's servers and each project's local ones (projects.PATH.mcpServers); CLAUDE_CONFIG_DIR moves it.",
		files: func(p Places) []File {
			claudeDir := p.envDirOr("CLAUDE_CONFIG_DIR", p.Home)
			return []File{
				jsonMCPServers.project(p, ".mcp.json"),
				jsonClaudeUser.user(filepath.Join(claudeDir, ".claude.json")),
			}
		},
		snippet: claudeSnippet,
	},
	{
		Name: VSCode, Title: "VS Code",
		Notes: "The user folder's mcp.json and each profile's, and the remote user configuration on a machine VS Code connects to over SSH, in a container or WSL.",
		files: func(p Places) []File {
			files := []File{jsonVSCode.project(p, ".vscode", "mcp.json")}
			if d := p.appDataDir("Code"); d != "" {
				files = append(files, p.vscodeUser(filepath.Join(d, "User"))...)
			}
			return append(files, p.vscodeUser(filepath.Join(p.Home, ".vscode-server", "data", "User"))...)
		},
		snippet: jsonSnippet(".vscode/mcp.json", "servers", typedEntry(stdioType)),
	},
	{
		Name: Cursor, Title: "Cursor",
		files: func(p Places) []File {
			return []File{
				jsonMCPServers.project(p, ".cursor", "mcp.json"),
				jsonMCPServers.user(filepath.Join(p.Home, ".cursor", "mcp.json")),
			}
		},
		snippet: jsonSnippet("~/.cursor/mcp.json (or .cursor/mcp.json in the project)", "mcpServers", stdioEntry),
	},
	{
		Name: Gemini, Title: "Gemini CLI",
		Notes: "In a folder its trusted folders mark untrusted it starts no MCP server at all (GeminiFolderTrust; rootpick hosts says so).",
		files: func(p Places) []File {
			return []File{
				jsonMCPServers.project(p, ".gemini", "settings.json"),
				jsonMCPServers.user(filepath.Join(p.Home, ".gemini", "settings.json")),
			}
		},
		snippet: jsonSnippet("~/.gemini/settings.json (or .gemini/settings.json in the project)", "mcpServers", stdioEntry),
	},
	{
		Name: Codex, Title: "Codex",
		Notes: "A project's .codex/config.toml is read once the project is trusted; CODEX_HOME moves the person's.",
		files: func(p Places) []File {
			codexDir := p.envDirOr("CODEX_HOME", filepath.Join(p.Home, ".codex"))
			return []File{
				tomlCodex.project(p, ".codex", "config.toml"),
				tomlCodex.user(filepath.Join(codexDir, "config.toml")),
			}
		},
		snippet: codexSnippet,
	},
	{
		Name: Goose, Title: "Goose",
		Notes: "Extensions of type builtin or platform are not commands: listed, left alone.",
		files: func(p Places) []File {
			gooseDir := filepath.Join(p.xdgConfig(), "goose")
			if p.Windows {
				gooseDir = ""
				if d := p.envDir("APPDATA"); d != "" {
					gooseDir = filepath.Join(d, "Block", "goose", "config")
				}
			}
			if gooseDir == "" {
				return nil
			}
			return []File{yamlGoose.user(filepath.Join(gooseDir, "config.yaml"))}
		},
		snippet: gooseSnippet,
	},
	{
		// Issue 28's hosts from here to Junie: each reads JSON with
		// command and args.
		Name: Copilot, Title: "GitHub Copilot CLI",
		// Copilot CLI reads .mcp.json (Claude Code's, listed as claude's)
		// or else .github/mcp.json in a folder the person trusts.
		Notes: "Also reads the project's .mcp.json, which is listed (and wrapped) as claude's.",
		files: func(p Places) []File {
			copilotDir := p.envDirOr("COPILOT_HOME", filepath.Join(p.Home, ".copilot"))
			return []File{
				jsonMCPServers.project(p, ".github", "mcp.json"),
				jsonMCPServers.user(filepath.Join(copilotDir, "mcp-config.json")),
			}
		},
		snippet: jsonSnippet("~/.copilot/mcp-config.json (or $COPILOT_HOME/mcp-config.json)", "mcpServers", copilotEntry),
	},
	{
		Name: Qwen, Title: "Qwen Code",
		Notes: "Gemini CLI's fork: the same files in .qwen.",
		files: func(p Places) []File {
			return []File{
				jsonMCPServers.project(p, ".qwen", "settings.json"),
				jsonMCPServers.user(filepath.Join(p.Home, ".qwen", "settings.json")),
			}
		},
		snippet: jsonSnippet("~/.qwen/settings.json (or .qwen/settings.json in the project)", "mcpServers", stdioEntry),
	},
	{
		Name: Crush, Title: "Crush",
		Notes: "Charm's Crush: an \"mcp\" object; the project's .crush.json is read before its crush.json.",
		files: func(p Places) []File {
			return []File{
				jsonCrush.project(p, ".crush.json"),
				jsonCrush.project(p, "crush.json"),
				jsonCrush.user(filepath.Join(p.xdgConfig(), "crush", "crush.json")),
			}
		},
		snippet: jsonSnippet("~/.config/crush/crush.json (or .crush.json / crush.json in the project)", "mcp", typedEntry(stdioType)),
	},
	{
		Name: ClaudeDesktop, Title: "Claude Desktop",
		Notes: "The desktop app: its file is in the OS's application-data folder.",
		files: func(p Places) []File {
			if d := p.appDataDir("Claude"); d != "" {
				return []File{jsonMCPServers.user(filepath.Join(d, "claude_desktop_config.json"))}
			}
			return nil
		},
		snippet: jsonSnippet("claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\)", "mcpServers", stdioEntry),
	},
	{
		Name: Windsurf, Title: "Windsurf",
		files: func(p Places) []File {
			return []File{jsonMCPServers.user(filepath.Join(p.Home, ".codeium", "windsurf", "mcp_config.json"))}
		},
		snippet: jsonSnippet("~/.codeium/windsurf/mcp_config.json", "mcpServers", stdioEntry),
	},
	{
		Name: Kiro, Title: "Kiro",
		files: func(p Places) []File {
			return []File{
				jsonMCPServers.project(p, ".kiro", "settings", "mcp.json"),
				jsonMCPServers.user(filepath.Join(p.Home, ".kiro", "settings", "mcp.json")),
			}
		},
		snippet: jsonSnippet("~/.kiro/settings/mcp.json (or .kiro/settings/mcp.json in the project)", "mcpServers", stdioEntry),
	},
	{
		Name: OpenCode, Title: "OpenCode",
		Notes: "Its \"mcp\" entries give the whole command line as one array; opencode.json and opencode.jsonc are both read.",
		files: func(p Places) []File {
			dir := filepath.Join(p.xdgConfig(), "opencode")
			return []File{
				jsonOpenCode.project(p, "opencode.json"),
				jsonOpenCode.project(p, "opencode.jsonc"),
				jsonOpenCode.user(filepath.Join(dir, "opencode.json")),
				jsonOpenCode.user(filepath.Join(dir, "opencode.jsonc")),
			}
		},
		snippet: jsonSnippet("opencode.json in the project (or ~/.config/opencode/opencode.json)", "mcp", openCodeEntry),
	},
	{
		Name: Zed, Title: "Zed",
		Notes: "\"context_servers\" in its settings.json.",
		files: func(p Places) []File {
			return []File{
				jsonZed.project(p, ".zed", "settings.json"),
				jsonZed.user(filepath.Join(p.xdgConfig(), "zed", "settings.json")),
			}
		},
		snippet: jsonSnippet("~/.config/zed/settings.json (or .zed/settings.json in the project)", "context_servers", stdioEntry),
	},
	{
		Name: Cline, Title: "Cline",
		Notes: "The VS Code extension: its file is in the storage each VS Code-based editor gives it.",
		files: func(p Places) []File {
			return p.extensionFiles("saoudrizwan.claude-dev", "cline_mcp_settings.json")
		},
		snippet: jsonSnippet("cline_mcp_settings.json (Cline: MCP Servers, Configure, Configure MCP Servers)", "mcpServers", stdioEntry),
	},
	{
		Name: Continue, Title: "Continue",
		Notes: "A YAML sequence of servers, each named by its name field.",
		files: func(p Places) []File {
			return []File{yamlContinue.user(filepath.Join(p.Home, ".continue", "config.yaml"))}
		},
		snippet: continueSnippet,
	},
	{
		Name: LMStudio, Title: "LM Studio",
		Notes: "Cursor's notation.",
		files: func(p Places) []File {
			return []File{jsonMCPServers.user(filepath.Join(p.Home, ".lmstudio", "mcp.json"))}
		},
		snippet: jsonSnippet("~/.lmstudio/mcp.json (LM Studio: Program, Install, Edit mcp.json)", "mcpServers", stdioEntry),
	},
	{
		Name: AmazonQ, Title: "Amazon Q Developer",
		Notes: "The legacy mcp.json files Amazon Q Developer reads.",
		files: func(p Places) []File {
			return []File{
				jsonMCPServers.project(p, ".amazonq", "mcp.json"),
				jsonMCPServers.user(filepath.Join(p.Home, ".aws", "amazonq", "mcp.json")),
			}
		},
		snippet: jsonSnippet("~/.aws/amazonq/mcp.json (or .amazonq/mcp.json in the project)", "mcpServers", stdioEntry),
	},
	{
		Name: KiloCode, Title: "Kilo Code",
		Notes: "Cline's notation, in the project's .kilocode/mcp.json and its CLI's settings.",
		files: func(p Places) []File {
			return []File{
				jsonMCPServers.project(p, ".kilocode", "mcp.json"),
				jsonMCPServers.user(filepath.Join(p.Home, ".kilocode", "cli", "global", "settings", "mcp_settings.json")),
			}
		},
		snippet: jsonSnippet(".kilocode/mcp.json in the project (or ~/.kilocode/cli/global/settings/mcp_settings.json for its CLI)", "mcpServers", stdioEntry),
	},
	{
		Name: Junie, Title: "JetBrains Junie",
		Notes: "JetBrains AI Assistant keeps its servers in the IDE's settings XML, not a file a person edits, and is not read (docs/hosts.md).",
		files: func(p Places) []File {
			return []File{
				jsonMCPServers.project(p, ".junie", "mcp", "mcp.json"),
				jsonMCPServers.user(filepath.Join(p.Home, ".junie", "mcp", "mcp.json")),
			}
		},
		snippet: jsonSnippet("~/.junie/mcp/mcp.json (or .junie/mcp/mcp.json in the project; Junie's MCP Settings page writes the first)", "mcpServers", stdioEntry),
	},
	{
		// Issue 28's second round from here: the file-based hosts of
		// ToolHive's and docker mcp's client lists (docs/hosts.md cites
		// each one's page).
		Name: VSCodeInsiders, Title: "VS Code Insiders",
		Notes: "Code - Insiders' user mcp.json and its profiles'.",
		files: func(p Places) []File {
			if d := p.appDataDir("Code - Insiders"); d != "" {
				return p.vscodeUser(filepath.Join(d, "User"))
			}
			return nil
		},
		snippet: jsonSnippet("the user mcp.json of VS Code Insiders (MCP: Open User Configuration)", "servers", orderedEntry(stdioType, "")),
	},
	{
		Name: RooCode, Title: "Roo Code",
		Notes: "Cline's notation, in the project's .roo/mcp.json and VS Code's storage.",
		files: func(p Places) []File {
			files := []File{jsonMCPServers.project(p, ".roo", "mcp.json")}
			return append(files, p.extensionFiles("rooveterinaryinc.roo-cline", "mcp_settings.json")...)
		},
		snippet: jsonSnippet("mcp_settings.json (Roo Code: MCP Servers, Edit Global MCP) or .roo/mcp.json in the project", "mcpServers", orderedEntry("", "")),
	},
	{
		Name: Amp, Title: "Amp",
		Notes: "\"amp.mcpServers\", one key with a dot in it, in Amp's settings.json and the editors'.",
		files: func(p Places) []File {
			// Amp's CLI keeps its settings in ~/.config/amp (also on
			// Windows, in the person's profile folder), moved by
			// XDG_CONFIG_HOME elsewhere.
			ampDir := filepath.Join(p.xdgConfig(), "amp")
			if p.Windows {
				ampDir = filepath.Join(p.Home, ".config", "amp")
			}
			files := []File{
				jsonAmp.project(p, ".amp", "settings.json"),
				jsonAmp.user(filepath.Join(ampDir, "settings.json")),
			}
			// Amp's editor extension reads the same key from the editor's
			// user settings.json: VS Code's, Cursor's and Windsurf's.
			for _, editor := range []string{"Code", "Cursor", "Windsurf"} {
				if d := p.appDataDir(editor); d != "" {
					files = append(files, jsonAmp.user(filepath.Join(d, "User", "settings.json")))
				}
			}
			return files
		},
		snippet: jsonSnippet("~/.config/amp/settings.json (or .amp/settings.json in the project, or the editor's settings.json); or: amp mcp add NAME -- COMMAND ARGS...", "amp.mcpServers", orderedEntry("", "")),
	},
	{
		Name: Trae, Title: "Trae",
		files: func(p Places) []File {
			files := []File{jsonMCPServers.project(p, ".trae", "mcp.json")}
			if d := p.appDataDir("Trae"); d != "" {
				files = append(files, jsonMCPServers.user(filepath.Join(d, "User", "mcp.json")))
			}
			return files
		},
		snippet: jsonSnippet("Trae's mcp.json (Settings, MCP, Add, Add Manually; Raw Config (JSON)) or .trae/mcp.json in the project", "mcpServers", orderedEntry("", "")),
	},
	{
		Name: Antigravity, Title: "Antigravity",
		files: func(p Places) []File {
			return []File{jsonMCPServers.user(filepath.Join(p.Home, ".gemini", "antigravity", "mcp_config.json"))}
		},
		snippet: jsonSnippet("~/.gemini/antigravity/mcp_config.json (Antigravity: MCP Servers, Manage MCP Servers, View raw config)", "mcpServers", orderedEntry("", "")),
	},
	{
		Name: WindsurfJetBrains, Title: "Windsurf for JetBrains",
		Notes: "Windsurf's plugin for JetBrains IDEs; the Windsurf editor's file is windsurf's.",
		files: func(p Places) []File {
			return []File{jsonMCPServers.user(filepath.Join(p.Home, ".codeium", "mcp_config.json"))}
		},
		snippet: jsonSnippet("~/.codeium/mcp_config.json (the Windsurf plugin for JetBrains IDEs)", "mcpServers", orderedEntry("", "")),
	},
	{
		Name: Kimi, Title: "Kimi CLI and Kimi Code",
		Notes: "Kimi CLI's ~/.kimi/mcp.json, then Kimi Code's (its successor) project and user files; KIMI_CODE_HOME moves the latter.",
		files: func(p Places) []File {
			kimiCodeDir := p.envDirOr("KIMI_CODE_HOME", filepath.Join(p.Home, ".kimi-code"))
			return []File{
				jsonMCPServers.project(p, ".kimi-code", "mcp.json"),
				jsonMCPServers.user(filepath.Join(p.Home, ".kimi", "mcp.json")),
				jsonMCPServers.user(filepath.Join(kimiCodeDir, "mcp.json")),
			}
		},
		snippet: jsonSnippet("~/.kimi/mcp.json (Kimi CLI; or: kimi mcp add --transport stdio NAME -- COMMAND ARGS...) or ~/.kimi-code/mcp.json (Kimi Code; .kimi-code/mcp.json in the project)", "mcpServers", orderedEntry("", "")),
	},
	{
		Name: Factory, Title: "Factory Droid",
		files: func(p Places) []File {
			return []File{
				jsonMCPServers.project(p, ".factory", "mcp.json"),
				jsonMCPServers.user(filepath.Join(p.Home, ".factory", "mcp.json")),
			}
		},
		snippet: jsonSnippet("~/.factory/mcp.json (or .factory/mcp.json in the project)", "mcpServers", orderedEntry(stdioType, "")),
	},
	{
		Name: Qoder, Title: "Qoder",
		Notes: "Its folder is where ToolHive and docker mcp find it: in the home folder but on Windows.",
		files: func(p Places) []File {
			qoderDir := filepath.Join(p.Home, ".qoder")
			if p.Windows {
				qoderDir = p.appDataDir(filepath.Join("Qoder", "SharedClientCache"))
			}
			if qoderDir == "" {
				return nil
			}
			return []File{jsonMCPServers.user(filepath.Join(qoderDir, "mcp.json"))}
		},
		snippet: jsonSnippet("Qoder's mcp.json (~/.qoder/mcp.json; Windows %APPDATA%\\Qoder\\SharedClientCache\\mcp.json)", "mcpServers", orderedEntry("", "")),
	},
	{
		Name: Sema4, Title: "Sema4.ai Studio",
		Notes: "Its folder is where ToolHive and docker mcp find it: in the home folder, and on Windows in AppData\\Local.",
		files: func(p Places) []File {
			sema4Dir := filepath.Join(p.Home, ".sema4ai", "sema4ai-studio")
			if p.Windows {
				sema4Dir = filepath.Join(p.Home, "AppData", "Local", "sema4ai", "sema4ai-studio")
			}
			return []File{jsonMCPServers.user(filepath.Join(sema4Dir, "mcp_servers.json"))}
		},
		snippet: jsonSnippet("~/.sema4ai/sema4ai-studio/mcp_servers.json (Windows %LOCALAPPDATA%\\sema4ai\\sema4ai-studio\\)", "mcpServers", orderedEntry("", stdioType)),
	},
	{
		Name: Auggie, Title: "Auggie",
		Notes: "Augment's CLI. The project's settings.local.json is not committed but is read as the project's: written portably.",
		files: func(p Places) []File {
			return []File{
				jsonMCPServers.project(p, ".augment", "settings.json"),
				jsonMCPServers.project(p, ".augment", "settings.local.json"),
				jsonMCPServers.user(filepath.Join(p.Home, ".augment", "settings.json")),
			}
		},
		snippet: jsonSnippet("~/.augment/settings.json (or .augment/settings.json in the project)", "mcpServers", orderedEntry(stdioType, "")),
	},
	{
		Name: MistralVibe, Title: "Mistral Vibe",
		Notes: "[[mcp_servers]] tables, each named by its name; the project's config.toml is read instead of the person's when it is there. VIBE_HOME moves the person's.",
		files: func(p Places) []File {
			vibeDir := p.envDirOr("VIBE_HOME", filepath.Join(p.Home, ".vibe"))
			return []File{
				tomlVibe.project(p, ".vibe", "config.toml"),
				tomlVibe.user(filepath.Join(vibeDir, "config.toml")),
			}
		},
		snippet: vibeSnippet,
	},
}

// Hosts lists the host names in the order they are shown: HostTable's.
var Hosts = hostNames()

// hostNames are HostTable's names, in its order.
func hostNames() []string {
	names := make([]string, len(HostTable))
	for i, h := range HostTable {
		names[i] = h.Name
	}
	return names
}

// hostNamed is the entry of HostTable named name.
func hostNamed(name string) (Host, bool) {
	for _, h := range HostTable {
		if h.Name == name {
			return h, true
		}
	}
	return Host{}, false
}
