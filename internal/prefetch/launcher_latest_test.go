package prefetch

import (
	"slices"
	"testing"
)

// TestOfUvxLatest: `uvx TOOL@latest` asks for the newest TOOL, which the
// requirement TOOL alone asks for too; the prefetch names it so
// (--with TOOL). TOOL==latest is no requirement uv reads: the prefetch
// would fail on every such entry.
func TestOfUvxLatest(t *testing.T) {
	for _, tc := range []struct {
		command, prefetch []string
		pkg               string
	}{
		{[]string{"uvx", "mcp-server-time@latest"},
			[]string{"uvx", "--with", "mcp-server-time", "python", "-c", "pass"}, "mcp-server-time"},
		{[]string{"uvx", "--python", "3.12", "mcp-server-git@latest", "--repository", "/r"},
			[]string{"uvx", "--python", "3.12", "--with", "mcp-server-git", "python", "-c", "pass"}, "mcp-server-git"},
		{[]string{"uv", "tool", "run", "mcp-server-fetch@latest"},
			[]string{"uv", "tool", "run", "--with", "mcp-server-fetch", "python", "-c", "pass"}, "mcp-server-fetch"},
	} {
		l, ok := Of(tc.command)
		if !ok {
			t.Errorf("Of(%q): not a launcher", tc.command)
			continue
		}
		if !slices.Equal(l.Prefetch, tc.prefetch) || !slices.Equal(l.Packages, []string{tc.pkg}) {
			t.Errorf("Of(%q): prefetch %q, packages %q;\n want %q, [%q]", tc.command, l.Prefetch, l.Packages, tc.prefetch, tc.pkg)
		}
	}
}
