package mcpconn

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// TestCloseEndsSetsidGrandchild: a server whose grandchild left its process
// group with setsid() and ignores SIGTERM and end of input is ended, tree
// and all, by Close.
func TestCloseEndsSetsidGrandchild(t *testing.T) {
	for _, mode := range []string{"setsid", "orphan"} {
		t.Run(mode, func(t *testing.T) { testCloseEndsSleeper(t, mode) })
	}
}

// testCloseEndsSleeper: with mode "orphan" the grandchild is orphaned (and
// re-parented to init, the test process is no subreaper) before Close:
// only its environment tag ties it to the server.
func testCloseEndsSleeper(t *testing.T, mode string) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(t.TempDir(), "pids")
	t.Setenv("ROOTPICK_TEST_SERVE", mode)
	t.Setenv("ROOTPICK_TEST_PIDFILE", pidfile)
	hub := NewHub(Options{})
	if err := hub.Connect(context.Background(), Spec{Command: []string{exe}}); err != nil {
		t.Fatal(err)
	}
	pids := faultserver.WaitPids(t, pidfile, 1)
	start := time.Now()
	hub.Close()
	if faultserver.Running(pids[0]) {
		t.Fatalf("setsid grandchild %d still running after Close", pids[0])
	}
	if d := time.Since(start); d > hangBound {
		t.Fatalf("Close took %v", d)
	}
}

// TestSubreaperEndsOrphans runs rootpick's quit path in a child process (a
// subreaper is a property of the whole process): a server's grandchild that
// was orphaned at once (double fork + setsid, deaf to SIGTERM, environment
// cleared so no tag finds it) is
// re-parented to the subreaper and ended by EndDescendants. Without the
// subreaper it escapes to init, which the second run shows.
func TestSubreaperEndsOrphans(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, subreaper := range []bool{true, false} {
		pidfile := filepath.Join(t.TempDir(), "pids")
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=sweep", "ROOTPICK_TEST_NO_GUARD=1", "ROOTPICK_TEST_PIDFILE="+pidfile)
		if !subreaper {
			cmd.Env = append(cmd.Env, "ROOTPICK_TEST_NO_SUBREAPER=1")
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("sweep: %v\n%s", err, out)
		}
		pids := faultserver.ReadPids(pidfile)
		if len(pids) != 1 {
			t.Fatalf("want one orphan's pid, got %v (%s)", pids, out)
		}
		if subreaper {
			if faultserver.Running(pids[0]) {
				t.Fatalf("orphan %d still running after the sweep (%s)", pids[0], strings.TrimSpace(string(out)))
			}
			if strings.TrimSpace(string(out)) != "ended 1" {
				t.Errorf("EndDescendants reported %q, want ended 1", out)
			}
		} else {
			// Not a subreaper: the orphan went to init, out of reach. This
			// is the escape the subreaper closes; clean up after it.
			if !faultserver.Running(pids[0]) {
				t.Fatalf("without a subreaper the orphan %d was expected to escape", pids[0])
			}
			p, _ := os.FindProcess(pids[0])
			_ = p.Kill()
		}
	}
}

// TestSubreaperReapsAdoptedOrphans: in a subreaper (a child process, as the
// property is process-wide), an adopted orphan that exits is reaped at
// once rather than left a zombie for the whole session, while the exit
// status of children started by os/exec is left to os/exec.
func TestSubreaperReapsAdoptedOrphans(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=reap", "ROOTPICK_TEST_NO_GUARD=1", "ROOTPICK_TEST_PIDFILE="+pidfile)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("reap: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "reaped" {
		t.Fatalf("the subreaper reported %q, want reaped", got)
	}
}
