package hostcfg

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// TestEnv: an entry's environment in JSON (Claude Code, its ${VAR}
// expanded), TOML (Codex) and YAML (Goose's envs); none for an entry
// without one.
func TestEnv(t *testing.T) {
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(project, ".mcp.json"), `{"mcpServers": {
  "fs": {"command": "npx", "args": ["-y", "x"], "env": {"npm_config_cache": "${HOME}/alt", "N": 3}},
  "bare": {"command": "npx", "args": ["-y", "y"]}
}}`)
	write(filepath.Join(home, ".codex", "config.toml"), "[mcp_servers.fs]\ncommand = \"npx\"\nargs = [\"-y\", \"x\"]\nenv = { npm_config_registry = \"http://r.example/\" }\n")
	write(filepath.Join(home, ".config", "goose", "config.yaml"), "extensions:\n  fs:\n    type: stdio\n    cmd: npx\n    args: [-y, x]\n    envs:\n      UV_CACHE_DIR: /c\n")
	places := Places{Home: home, Project: project}
	want := map[string]map[string]string{
		"claude fs":   {"npm_config_cache": filepath.Join(home, "alt"), "N": "3"},
		"claude bare": nil,
		"codex fs":    {"npm_config_registry": "http://r.example/"},
		"goose fs":    {"UV_CACHE_DIR": "/c"},
	}
	seen := 0
	for _, f := range Files(places) {
		c, err := Load(f)
		if err != nil {
			continue
		}
		for i, s := range c.Servers {
			w, ok := want[f.Host+" "+s.Name]
			if !ok {
				continue
			}
			seen++
			if got := c.Env(i); !maps.Equal(got, w) {
				t.Errorf("%s %s: Env = %v; want %v", f.Host, s.Name, got, w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d entries", seen, len(want))
	}
}
