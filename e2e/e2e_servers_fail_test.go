package e2e

// End-to-end tests of servers that fail, as a person runs them: the built
// binary in tmux, the status line read off the screen.

import (
	"strings"
	"testing"
	"time"
)

// TestE2EServerFailureReasons: `rootpick DIR -- false` says the server
// exited with status 1 (not the handshake's EOF), and a command that is
// not on PATH says so and is not started again by itself.
func TestE2EServerFailureReasons(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	t.Run("false", func(t *testing.T) {
		t.Parallel()
		tree := makeRepos(t, t.TempDir(), "alpha")
		tt := startTUI(t, tuiOptions{width: 120, height: 24, args: []string{tree, "--", "false"}})
		tt.waitRows(1)
		line := tt.waitStatus("● false", "exited with status 1")
		if strings.Contains(line, "EOF") || strings.Contains(line, "initialize\"") {
			t.Errorf("the status line speaks of the transport, not the exit: %q", line)
		}
		tt.quit()
	})
	t.Run("not on PATH", func(t *testing.T) {
		t.Parallel()
		tree := makeRepos(t, t.TempDir(), "alpha")
		tt := startTUI(t, tuiOptions{width: 120, height: 24, args: []string{tree, "--", "nosuch-cmd-xyz"}})
		tt.waitRows(1)
		tt.waitStatus("● nosuch-cmd-xyz failed", "not found on PATH", "not restarted until you press")
		// Were it retried, the first restart would come after 0.5 s and
		// the next 1 s later.
		time.Sleep(2500 * time.Millisecond)
		line := statusWithNote(tt.capture())
		if !strings.Contains(line, "not found on PATH") || strings.Contains(line, "restarting") {
			t.Errorf("after 2.5 s the status line says %q", line)
		}
		if n := strings.Count(tt.log(), `msg="server failed"`); n != 1 {
			t.Errorf("the server failed %d times in 2.5 s; want once (no restart without a retry)", n)
		}
		tt.quit()
	})
}
