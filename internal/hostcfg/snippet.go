package hostcfg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// stdioType is the value of the field that names an entry's transport.
const stdioType = "stdio"

// snippetEntry is one server as Snippet writes it: the host's field for
// the transport, when its documentation writes one, then the command.
type snippetEntry struct {
	Type      string   `json:"type,omitempty"`
	Transport string   `json:"transport,omitempty"`
	Command   string   `json:"command"`
	Args      []string `json:"args"`
}

// snippetHosts are the hosts Snippet writes for: where the snippet goes,
// the key of the servers object, and the entry's transport fields.
var snippetHosts = map[string]struct {
	where, key     string
	typ, transport string
}{
	VSCodeInsiders:    {where: "the user mcp.json of VS Code Insiders (MCP: Open User Configuration)", key: "servers", typ: stdioType},
	RooCode:           {where: "mcp_settings.json (Roo Code: MCP Servers, Edit Global MCP) or .roo/mcp.json in the project", key: "mcpServers"},
	Amp:               {where: "~/.config/amp/settings.json (or .amp/settings.json in the project, or the editor's settings.json); or: amp mcp add NAME -- COMMAND ARGS...", key: "amp.mcpServers"},
	Trae:              {where: "Trae's mcp.json (Settings, MCP, Add, Add Manually; Raw Config (JSON)) or .trae/mcp.json in the project", key: "mcpServers"},
	Antigravity:       {where: "~/.gemini/antigravity/mcp_config.json (Antigravity: MCP Servers, Manage MCP Servers, View raw config)", key: "mcpServers"},
	WindsurfJetBrains: {where: "~/.codeium/mcp_config.json (the Windsurf plugin for JetBrains IDEs)", key: "mcpServers"},
	Kimi:              {where: "~/.kimi/mcp.json (Kimi CLI; or: kimi mcp add --transport stdio NAME -- COMMAND ARGS...) or ~/.kimi-code/mcp.json (Kimi Code; .kimi-code/mcp.json in the project)", key: "mcpServers"},
	Factory:           {where: "~/.factory/mcp.json (or .factory/mcp.json in the project)", key: "mcpServers", typ: stdioType},
	Qoder:             {where: "Qoder's mcp.json (~/.qoder/mcp.json; Windows %APPDATA%\\Qoder\\SharedClientCache\\mcp.json)", key: "mcpServers"},
	Auggie:            {where: "~/.augment/settings.json (or .augment/settings.json in the project)", key: "mcpServers", typ: stdioType},
	Sema4:             {where: "~/.sema4ai/sema4ai-studio/mcp_servers.json (Windows %LOCALAPPDATA%\\sema4ai\\sema4ai-studio\\)", key: "mcpServers", transport: stdioType},
}

// Snippet is the configuration `rootpick proxy --print-config HOST` prints
// for host: a file (or the part of one) holding one server, name, that
// runs exe with args, written as the host's documentation writes it; and
// hint, a comment line that says where it goes. ok is false for a host
// Snippet does not write for (the hosts of proxy.go's own switch). What it
// writes reads back through Parse as the same entry (TestHostsSnippets).
func Snippet(host, name, exe string, args []string) (hint string, text []byte, ok bool) {
	if host == MistralVibe {
		// One [[mcp_servers]] table, as Vibe's README writes them;
		// Quote is valid TOML.
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = Quote(a)
		}
		text := fmt.Sprintf("[[mcp_servers]]\nname = %s\ntransport = %s\ncommand = %s\nargs = [%s]\n",
			Quote(name), Quote(stdioType), Quote(exe), strings.Join(quoted, ", "))
		return "# for ~/.vibe/config.toml (or .vibe/config.toml in the project)", []byte(text), true
	}
	h, ok := snippetHosts[host]
	if !ok {
		return "", nil, false
	}
	entry := snippetEntry{Type: h.typ, Transport: h.transport, Command: exe, Args: args}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	// Strings and a slice of strings always encode.
	_ = enc.Encode(map[string]map[string]snippetEntry{h.key: {name: entry}})
	return "# for " + h.where, b.Bytes(), true
}
