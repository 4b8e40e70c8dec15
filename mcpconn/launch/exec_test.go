package launch

import (
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

func execShell(t *testing.T, script string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = testproc.GroupAttr()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

func TestEndGroupKillsGrandchildren(t *testing.T) {
	// A shell that starts a sleeping grandchild ignoring SIGTERM: endTree
	// must leave no process of the tree. The grandchild's pid is waited
	// for, so the test cannot pass without one.
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := execShell(t, `trap "" TERM; sleep 30 & echo $! > `+pidfile+`; wait`)
	pgid := cmd.Process.Pid
	go func() { _ = cmd.Wait() }() // reap the shell, as the SDK does
	var grandchild int
	waitFor(t, "the grandchild's pid", func() bool {
		pids := faultserver.ReadPids(pidfile)
		if len(pids) == 1 && faultserver.Running(pids[0]) {
			grandchild = pids[0]
		}
		return grandchild != 0
	})
	// It must be one that SIGTERM does not end, or the test proves little.
	_ = testproc.Kill(-pgid, syscall.SIGTERM)
	time.Sleep(200 * time.Millisecond)
	if !faultserver.Running(grandchild) {
		t.Fatalf("grandchild %d did not survive SIGTERM: the test has nothing to end", grandchild)
	}
	start := time.Now()
	endTree(pgid, startStamp(pgid), "", time.Second, time.Second)
	if faultserver.Running(grandchild) {
		t.Fatalf("grandchild %d still running after endTree", grandchild)
	}
	if d := time.Since(start); d > hangBound {
		t.Fatalf("endTree took %v", d)
	}
}
