package main

import (
	"log/slog"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/mcpconn/proxy"
)

// TestProfileConsumers: the servers an agent host runs through rootpick
// proxy for a profile are that profile's consumers (a host's file read as
// `rootpick hosts` reads it); another profile's, and a server run
// directly, are not.
func TestProfileConsumers(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".state"))
	t.Chdir(t.TempDir())
	writeHostFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers": {
  "fs": {"command": "rootpick", "args": ["proxy", "--profile", "work", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem"]},
  "notes": {"command": "rootpick", "args": ["proxy", "--", "notes-server"]},
  "git": {"command": "uvx", "args": ["mcp-server-git"]}
}}`+"\n")
	e := &env{dirs: paths.FromEnv()}
	dir := proxy.Dir(paths.State{Dir: filepath.Join(home, ".state", "rootpick")})
	log := slog.New(slog.DiscardHandler)
	if got := profileConsumers(e, dir, "work", log); !slices.Equal(got, []string{"claude → fs"}) {
		t.Errorf("work's consumers: %q", got)
	}
	if got := profileConsumers(e, dir, "default", log); !slices.Equal(got, []string{"claude → notes"}) {
		t.Errorf("default's consumers: %q", got)
	}
	if got := profileConsumers(e, dir, "other", log); len(got) != 0 {
		t.Errorf("a profile nothing is wrapped for has consumers: %q", got)
	}
}
