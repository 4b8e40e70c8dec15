package e2e

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestE2EProxyStatusTellsTheTruth: the mismatch case and the
// remembered-consent case of issue 26, in tmux. A proxy of profile t
// serves server-filesystem, started (as hosts' docs show) with a folder
// argument, beta, which it keeps while its roots are empty: before any
// consent the picker shows the proxy in mismatch, naming beta (it said
// "no consent … serves nothing"). The person consents to alpha and
// quits. Relaunched, the picker counts alpha exposed, since the proxy
// serves it: "1 root served by 1 proxy", not "nothing shared"; ctrl+d
// reviews stopping the proxy at once (it said "Nothing is shared"), and
// after y the proxy's server, restarted with none, holds its argument
// again: mismatch, said, not hidden.
func TestE2EProxyStatusTellsTheTruth(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	fs := npmPath(t, filepath.Join("@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	bin := rootpickBin(t)
	tree := makeRepos(t, t.TempDir(), "alpha", "beta")
	tt := newTUI(t)

	cmd := exec.Command(bin, "proxy", "--profile", "t", "--", "node", fs, filepath.Join(tree, "beta"))
	cmd.Env = tt.env
	client := mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "1"}, nil)
	session, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()

	tt.start(tuiOptions{width: 200, height: 24, args: []string{"--profile", "t", tree}})
	tt.waitRows(2)
	line := tt.waitStatus("nothing shared", "test-host → secure-filesystem-server (proxy) mismatch")
	if !strings.Contains(line, "beta") {
		t.Errorf("the mismatch does not name what the server holds beyond the consent: %q", line)
	}
	tt.send("Space", "Enter") // alpha
	tt.waitArmed(1, 0)
	tt.send("y")
	tt.waitStatus("1 root exposed")
	tt.quit()

	tt2 := newTUI(t)
	tt2.home, tt2.env = tt.home, tt.env // the same state folder
	tt2.start(tuiOptions{width: 200, height: 24, args: []string{"--profile", "t", tree}})
	tt2.waitRows(2)
	tt2.waitStatus("1 root served by 1 proxy", "test-host → secure-filesystem-server (proxy)")
	tt2.send("C-d")
	tt2.waitArmed(0, 1)
	tt2.send("y")
	tt2.waitStatus("nothing shared", "(proxy) mismatch")
	tt2.quit()
}
