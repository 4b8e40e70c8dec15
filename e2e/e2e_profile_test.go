package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EProfilePickerServesItsConsumers: after a host's server was
// wrapped for profile work, `rootpick --profile work DIR` starts no demo
// server: the status line says, before any consent, who gets the folders
// and when, the dialog names them, and y writes the profile's consent.
func TestE2EProfilePickerServesItsConsumers(t *testing.T) {
	t.Parallel()
	tree := makeRepos(t, t.TempDir(), "api", "web")
	tt := newTUI(t)
	// As hosts wrap writes a user-scope entry: this rootpick by its path.
	writeFile(t, filepath.Join(tt.home, ".claude.json"), `{"mcpServers": {"fs": {"command": `+jsonQuote(rootpickBin(t))+`, "args": ["proxy", "--profile", "work", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem"]}}}`+"\n")
	tt.start(tuiOptions{width: 140, height: 24, args: []string{"--profile", "work", tree}})
	tt.waitRows(2)
	tt.waitStatus("nothing shared", "for claude → fs (not running now: each gets the folders when its host starts it)")
	tt.send("Space", "Enter")
	tt.waitArmed(1, 0)
	tt.waitText("Share 1 root with claude → fs")
	tt.send("y")
	tt.waitStatus("1 root")
	tt.quit()
	if log := tt.log(); strings.Contains(log, "rootpick-demo") || !strings.Contains(log, "no demo server: the profile has its consumers") {
		t.Errorf("the log says a demo server ran, or not why none did")
	}
	b, err := os.ReadFile(filepath.Join(tt.dir, "state", "rootpick", "consent", "work.json"))
	if err != nil || !strings.Contains(string(b), filepath.Join(tree, "api")) {
		t.Errorf("the profile's consent: %v\n%s", err, b)
	}
}
