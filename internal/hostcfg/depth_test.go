package hostcfg

import (
	"errors"
	"strings"
	"testing"
)

// nested is open n times, then middle, then close n times.
func nested(open, middle, close string, n int) string {
	return strings.Repeat(open, n) + middle + strings.Repeat(close, n)
}

// yamlIndented is a YAML mapping n levels deep, one key a line.
func yamlIndented(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "a:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "b: 1\n")
	return b.String()
}

// yamlAlternating nests a sequence in each key, each dash at its key's
// column, as people write YAML: every line adds two levels.
func yamlAlternating(lines int) string {
	var b strings.Builder
	b.WriteString("a:\n")
	for i := range lines {
		b.WriteString(strings.Repeat(" ", 2*i) + "- a:\n")
	}
	b.WriteString(strings.Repeat(" ", 2*lines) + "- x\n")
	return b.String()
}

// depthCases are files nested about 90 levels deep (read) and 110 (refused).
var depthCases = []struct {
	name, host, scope string
	deep              func(n int) string
}{
	{"JSON arrays", Claude, "project", func(n int) string { return `{"a": ` + nested("[", "", "]", n-1) + "}" }},
	{"JSON objects", Cursor, "user", func(n int) string { return nested(`{"a": `, "1", "}", n) }},
	{"JSONC, closing brackets in strings and comments at each level", VSCode, "project", func(n int) string {
		return `{"a": ` + nested(`["]\"]", /* ]] */ // ]`+"\n", "0", "]", n-1) + "}"
	}},
	{"TOML arrays", Codex, "user", func(n int) string { return "x = " + nested("[", "", "]", n-1) + "\n" }},
	{"TOML inline tables", Codex, "user", func(n int) string { return "x = " + nested("{a = ", "1", "}", n-1) + "\n" }},
	{"TOML dotted key", Codex, "user", func(n int) string { return "a" + strings.Repeat(".a", n-1) + " = 1\n" }},
	{"TOML table name", Codex, "user", func(n int) string { return "[a" + strings.Repeat(".a", n-2) + "]\nb = 1\n" }},
	{"TOML, closing brackets in strings and comments at each level", Codex, "project", func(n int) string {
		return `l = 'a\'` + "\nx = " + nested(`["]\"]", ''']]''', ']', # ]]`+"\n", "0", "]", n-1) + "\n"
	}},
	{"YAML flow sequences", Goose, "user", func(n int) string { return "a: " + nested("[", "", "]", n-1) + "\n" }},
	{"YAML flow mappings", Goose, "user", func(n int) string { return "a: " + nested("{a: ", "1", "}", n-1) + "\n" }},
	{"YAML compact sequences", Goose, "user", func(n int) string { return strings.Repeat("- ", n) + "x\n" }},
	{"YAML indented mappings", Goose, "user", func(n int) string { return yamlIndented(n - 1) }},
	{"YAML sequences in mappings", Goose, "user", func(n int) string { return yamlAlternating(n/2 - 1) }},
	{"YAML, closing brackets in scalars and comments at each level", Goose, "user", func(n int) string {
		return "p: it's\nq: |\n  ]]]]]]]]\nx: " + nested(`["]\"]", ']]', it's, # ]]`+"\n", "0", "]", n-1) + "\n"
	}},
}

// TestHostsDepthLimit: each format is read up to MaxDepth levels and
// refused past it, with a one-line reason, before its parser sees it;
// strings, comments and block scalars are not nesting, and cannot hide it.
func TestHostsDepthLimit(t *testing.T) {
	for _, tc := range depthCases {
		f, _ := FileFor(tc.host, tc.scope, "/p/config")
		if _, err := Parse(f, []byte(tc.deep(MaxDepth-10))); err != nil {
			t.Errorf("%s, %d levels: %v", tc.name, MaxDepth-10, err)
		}
		var r *RefusedError
		_, err := Parse(f, []byte(tc.deep(MaxDepth+10)))
		if !errors.As(err, &r) || !strings.Contains(err.Error(), "nested more than 100 levels deep (at line ") {
			t.Errorf("%s, %d levels: %v, want a refusal for depth", tc.name, MaxDepth+10, err)
		}
	}
}

// TestHostsDepthBombs: the files that crashed rootpick or took gigabytes
// are refused at once: a .mcp.json nested 10⁶ deep (stack overflow), a
// TOML dotted key of 10⁵ parts (out of memory), YAML 30,000 deep (1.4 GB).
func TestHostsDepthBombs(t *testing.T) {
	for _, tc := range []struct {
		name, host, scope, data string
	}{
		{".mcp.json 10⁶ deep", Claude, "project", `{"mcpServers": ` + nested("[", "", "]", 1_000_000) + "}"},
		{"TOML dotted key of 10⁵ parts", Codex, "project", "a" + strings.Repeat(".a", 100_000) + " = 1\n"},
		{"TOML inline tables 10⁵ deep", Codex, "project", "x = " + nested("{a=", "1", "}", 100_000) + "\n"},
		{"YAML 30,000 deep", Goose, "user", "extensions: " + nested("[", "", "]", 30_000) + "\n"},
	} {
		f, _ := FileFor(tc.host, tc.scope, "/p/config")
		var err error
		guarded(t, tc.name, func() { _, err = Parse(f, []byte(tc.data)) })
		var r *RefusedError
		if !errors.As(err, &r) {
			t.Errorf("%s: %v, want a refusal", tc.name, err)
		}
	}
}
