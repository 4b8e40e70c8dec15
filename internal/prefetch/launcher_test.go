package prefetch

import (
	"slices"
	"testing"
)

// TestOf: what each launcher's command line installs, and the command
// that fetches it without starting the server.
func TestOf(t *testing.T) {
	const fs = "@modelcontextprotocol/server-filesystem"
	tests := []struct {
		command  []string
		tool     string
		packages []string
		prefetch []string // nil: no prefetch command
	}{
		{[]string{"npx", "-y", fs, "/src"}, "npx", []string{fs},
			[]string{"npx", "--yes", "--package=" + fs, "--", "node", "-e", "0"}},
		{[]string{"/usr/bin/npx", "--registry", "https://r.example/", fs}, "npx", []string{fs},
			[]string{"/usr/bin/npx", "--registry", "https://r.example/", "--yes", "--package=" + fs, "--", "node", "-e", "0"}},
		{[]string{"npx", "-y", "-p", "a@1", "--package=b", "run-it", "x"}, "npx", []string{"a@1", "b"},
			[]string{"npx", "-p", "a@1", "--package=b", "--yes", "--", "node", "-e", "0"}},
		{[]string{"npx", "-p", "a", "-c", "a-bin --stdio"}, "npx", []string{"a"},
			[]string{"npx", "-p", "a", "--yes", "--", "node", "-e", "0"}},
		{[]string{"npx.cmd", "-y", "--", fs}, "npx", []string{fs},
			[]string{"npx.cmd", "--yes", "--package=" + fs, "--", "node", "-e", "0"}},
		{[]string{"npm", "exec", "--yes", "--", fs}, "npm exec", []string{fs},
			[]string{"npm", "exec", "--yes", "--package=" + fs, "--", "node", "-e", "0"}},
		{[]string{"npm", "--cache", "/c", "x", fs}, "npm exec", []string{fs},
			[]string{"npm", "x", "--yes", "--package=" + fs, "--", "node", "-e", "0"}},
		{[]string{"uvx", "mcp-server-git", "--repository", "/r"}, "uvx", []string{"mcp-server-git"},
			[]string{"uvx", "--with", "mcp-server-git", "python", "-c", "pass"}},
		{[]string{"uvx", "--python", "3.12", "--from", "git+https://g.example/x", "x-server"}, "uvx", []string{"git+https://g.example/x"},
			[]string{"uvx", "--python", "3.12", "--with", "git+https://g.example/x", "python", "-c", "pass"}},
		{[]string{"uvx", "ruff@0.6.0"}, "uvx", []string{"ruff==0.6.0"},
			[]string{"uvx", "--with", "ruff==0.6.0", "python", "-c", "pass"}},
		{[]string{"uv", "tool", "run", "mcp-server-time"}, "uv tool run", []string{"mcp-server-time"},
			[]string{"uv", "tool", "run", "--with", "mcp-server-time", "python", "-c", "pass"}},
		{[]string{"pnpm", "dlx", fs, "/src"}, "pnpm dlx", []string{fs},
			[]string{"pnpm", "--package=" + fs, "-c", "dlx", "node -e 0"}},
		{[]string{"pnpm", "--package=a", "--package", "b", "dlx", "a-bin"}, "pnpm dlx", []string{"a", "b"},
			[]string{"pnpm", "--package=a", "--package", "b", "-c", "dlx", "node -e 0"}},
		{[]string{"pnpx", fs}, "pnpx", []string{fs},
			[]string{"pnpx", "--package=" + fs, "-c", "node -e 0"}},
		{[]string{"bunx", "-p", "@angular/cli", "ng"}, "bunx", []string{"@angular/cli"}, nil},
		{[]string{"bun", "x", fs}, "bun x", []string{fs}, nil},
		{[]string{"yarn", "dlx", fs}, "yarn dlx", []string{fs}, nil},
	}
	for _, tt := range tests {
		l, ok := Of(tt.command)
		if !ok {
			t.Errorf("Of(%q): not a launcher", tt.command)
			continue
		}
		if l.Tool != tt.tool || !slices.Equal(l.Packages, tt.packages) || !slices.Equal(l.Prefetch, tt.prefetch) {
			t.Errorf("Of(%q) = %q %q %q;\n want %q %q %q", tt.command, l.Tool, l.Packages, l.Prefetch, tt.tool, tt.packages, tt.prefetch)
		}
		if (l.Prefetch == nil) != (l.NoPrefetch != "") {
			t.Errorf("Of(%q): Prefetch %q, NoPrefetch %q: exactly one must be set", tt.command, l.Prefetch, l.NoPrefetch)
		}
	}
	for _, command := range [][]string{
		nil, {"node", "server.js"}, {"npm", "run", "start"}, {"npx"}, {"npx", "-y"}, {"uv", "run", "server.py"},
		{"pnpm", "exec", "x"}, {"yarn", "run", "x"}, {"bun", "run", "x.ts"}, {"docker", "run", "img"},
	} {
		if l, ok := Of(command); ok {
			t.Errorf("Of(%q) = %+v; want no launcher", command, l)
		}
	}
}

// TestNpxDir: the install folder npm 11's libnpmexec chose for `npx -y
// @modelcontextprotocol/server-filesystem` (npm_config_cache=/c, measured:
// _npx/a3241bba59c344f5), and one for two specs in either order.
func TestNpxDir(t *testing.T) {
	if got, want := NpxDir("/c", []string{"@modelcontextprotocol/server-filesystem"}), "/c/_npx/a3241bba59c344f5"; got != want {
		t.Errorf("NpxDir = %s; want %s", got, want)
	}
	if NpxDir("/c", []string{"b", "a"}) != NpxDir("/c", []string{"a", "b"}) {
		t.Error("NpxDir depends on the order of the specs")
	}
}
