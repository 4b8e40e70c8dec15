package hostcfg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// stdioType is the value of the field that names an entry's transport.
const stdioType = "stdio"

// snippetFunc writes a host's entry for --print-config: a file (or the
// part of one) holding one server, name, that runs exe with args, and
// where, what the hint line says after "# for ".
type snippetFunc func(name, exe string, args []string) (where string, text []byte)

// Snippet is the configuration `rootpick proxy --print-config HOST` prints
// for host: a file (or the part of one) holding one server, name, that
// runs exe with args, written as the host's documentation writes it; and
// hint, a comment line that says where it goes. ok is false for a name
// that is not in HostTable. What it writes reads back through Parse as the
// same entry (TestHostsSnippets).
func Snippet(host, name, exe string, args []string) (hint string, text []byte, ok bool) {
	h, ok := hostNamed(host)
	if !ok {
		return "", nil, false
	}
	where, text := h.snippet(name, exe, args)
	return "# for " + where, text, true
}

// jsonSnippet writes a JSON object whose member key holds the server,
// entry(exe, args), by its name: {KEY: {NAME: ENTRY}}.
func jsonSnippet(where, key string, entry func(exe string, args []string) any) snippetFunc {
	return func(name, exe string, args []string) (string, []byte) {
		return where, jsonObject(key, name, entry(exe, args))
	}
}

// jsonObject is {key: {name: entry}}, indented, as --print-config prints
// it.
func jsonObject(key, name string, entry any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	// Strings, slices of strings and the entries below always encode.
	_ = enc.Encode(map[string]map[string]any{key: {name: entry}})
	return b.Bytes()
}

// The entries of jsonSnippet. The hosts of proxy.go's first switch were
// written from maps, whose keys encoding/json sorts: their structs keep
// their fields in that order, so that what --print-config prints did not
// change when they moved here.

// commandEntry is {"args": ARGS, "command": EXE, "type": TYPE}, without
// type when it is "".
type commandEntry struct {
	Args    []string `json:"args"`
	Command string   `json:"command"`
	Type    string   `json:"type,omitempty"`
}

// stdioEntry is a commandEntry without type.
func stdioEntry(exe string, args []string) any {
	return commandEntry{Args: args, Command: exe}
}

// typedEntry is a commandEntry of type typ.
func typedEntry(typ string) func(exe string, args []string) any {
	return func(exe string, args []string) any {
		return commandEntry{Args: args, Command: exe, Type: typ}
	}
}

// snippetEntry is one server as the hosts of issue 28's second round write
// it: the host's field for the transport, when its documentation writes
// one, then the command.
type snippetEntry struct {
	Type      string   `json:"type,omitempty"`
	Transport string   `json:"transport,omitempty"`
	Command   string   `json:"command"`
	Args      []string `json:"args"`
}

// orderedEntry is a snippetEntry with type typ and transport (either may
// be "").
func orderedEntry(typ, transport string) func(exe string, args []string) any {
	return func(exe string, args []string) any {
		return snippetEntry{Type: typ, Transport: transport, Command: exe, Args: args}
	}
}

// claudeSnippet is Claude Code's: .mcp.json, or `claude mcp add-json`,
// which takes the entry under the name.
func claudeSnippet(name, exe string, args []string) (string, []byte) {
	where := fmt.Sprintf(".mcp.json in your project (or: claude mcp add-json %s '<the object under %q>')", name, name)
	return where, jsonObject("mcpServers", name, stdioEntry(exe, args))
}

// copilotEntry is Copilot CLI's: type local, every tool.
func copilotEntry(exe string, args []string) any {
	return struct {
		Args    []string `json:"args"`
		Command string   `json:"command"`
		Tools   []string `json:"tools"`
		Type    string   `json:"type"`
	}{args, exe, []string{"*"}, "local"}
}

// openCodeEntry is OpenCode's: the command line is one array, the type is
// required.
func openCodeEntry(exe string, args []string) any {
	return struct {
		Command []string `json:"command"`
		Type    string   `json:"type"`
	}{append([]string{exe}, args...), "local"}
}

// quotedList is args, each quoted as Quote does, between commas: the
// inside of a TOML array or a YAML flow sequence.
func quotedList(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = Quote(a)
	}
	return strings.Join(quoted, ", ")
}

// codexSnippet is Codex's: a [mcp_servers.NAME] table, written as Codex's
// docs do (command, then args); Quote is valid TOML.
func codexSnippet(name, exe string, args []string) (string, []byte) {
	key := name
	if strings.Contains(key, ".") {
		key = Quote(key)
	}
	text := fmt.Sprintf("[mcp_servers.%s]\ncommand = %s\nargs = [%s]\n", key, Quote(exe), quotedList(args))
	return "~/.codex/config.toml (or .codex/config.toml in a trusted project)", []byte(text)
}

// vibeSnippet is Mistral Vibe's: one [[mcp_servers]] table, as Vibe's
// README writes them; Quote is valid TOML.
func vibeSnippet(name, exe string, args []string) (string, []byte) {
	text := fmt.Sprintf("[[mcp_servers]]\nname = %s\ntransport = %s\ncommand = %s\nargs = [%s]\n",
		Quote(name), Quote(stdioType), Quote(exe), quotedList(args))
	return "~/.vibe/config.toml (or .vibe/config.toml in the project)", []byte(text)
}

// continueSnippet is Continue's: a sequence of servers, each named by
// "name".
func continueSnippet(name, exe string, args []string) (string, []byte) {
	text := fmt.Sprintf("mcpServers:\n  - name: %s\n    type: stdio\n    command: %s\n    args: [%s]\n", Quote(name), Quote(exe), quotedList(args))
	return "~/.continue/config.yaml", []byte(text)
}

// gooseSnippet is Goose's: an extension of type stdio, enabled, with the
// timeout Goose writes; a JSON string is a YAML string.
func gooseSnippet(name, exe string, args []string) (string, []byte) {
	quoted := make([]string, len(args))
	for i, a := range args {
		b, _ := json.Marshal(a)
		quoted[i] = string(b)
	}
	exeQ, _ := json.Marshal(exe)
	nameQ, _ := json.Marshal(name)
	text := fmt.Sprintf("extensions:\n  %s:\n    name: %s\n    type: stdio\n    cmd: %s\n    args: [%s]\n    enabled: true\n    timeout: 300\n",
		nameQ, nameQ, exeQ, strings.Join(quoted, ", "))
	return "~/.config/goose/config.yaml", []byte(text)
}
