package mcpconn

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// waitSleepers waits until want sleepers have written their pid to pidfile
// and are running, and returns their pids.
func waitSleepers(t *testing.T, pidfile string, want int) []int {
	t.Helper()
	var pids []int
	waitFor(t, "the grandchildren's pids", func() bool {
		pids = faultserver.ReadPids(pidfile)
		if len(pids) != want {
			return false
		}
		for _, p := range pids {
			if !faultserver.Running(p) {
				return false
			}
		}
		return true
	})
	return pids
}

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
	pids := waitSleepers(t, pidfile, 1)
	start := time.Now()
	hub.Close()
	if faultserver.Running(pids[0]) {
		t.Fatalf("setsid grandchild %d still running after Close", pids[0])
	}
	if d := time.Since(start); d > 3*time.Second {
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
		cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=sweep", "ROOTPICK_TEST_PIDFILE="+pidfile)
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
	cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=reap", "ROOTPICK_TEST_PIDFILE="+pidfile)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("reap: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "reaped" {
		t.Fatalf("the subreaper reported %q, want reaped", got)
	}
}

// taggedRunning lists the running processes whose environment holds tag.
func taggedRunning(tag string) []int {
	var pids []int
	for _, p := range readProcs() {
		if !p.dead() && hasTag(p.pid, tag) {
			pids = append(pids, p.pid)
		}
	}
	return pids
}

// TestEndTreeCatchesLateForks: a server that keeps starting processes
// which leave its group (setsid) and ignore SIGTERM, even while it is being
// ended, leaves none of them running.
func TestEndTreeCatchesLateForks(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		testskip.Skip(t, "setsid", "setsid not installed: apt-get install util-linux")
	}
	for range 5 {
		tag := serverTag()
		cmd := exec.Command("sh", "-c", `trap "" TERM; while :; do setsid sh -c 'trap "" TERM; sleep 30' & sleep 0.002; done`)
		cmd.Env = append(os.Environ(), tag)
		setProcAttr(cmd)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { _ = cmd.Wait() }()
		waitFor(t, "a few forks", func() bool { return len(taggedRunning(tag)) > 10 })
		endTree(cmd.Process.Pid, startStamp(cmd.Process.Pid), tag, 200*time.Millisecond, time.Second)
		if left := taggedRunning(tag); len(left) > 0 {
			for _, p := range left {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("%d processes started while the server was ended are still running: %v", len(left), left)
		}
	}
}

// TestReapingPassesAreSpaced: children that os/exec waits for (the
// picker's git status runs, many a second while a key is held) each send
// SIGCHLD; a pass over the process table that finds no orphan is followed
// by a pause, so 30 such children in quick succession cost a handful of
// passes, not 30.
func TestReapingPassesAreSpaced(t *testing.T) {
	if err := BecomeSubreaper(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * reapEvery) // passes left over from earlier tests
	before := reapPasses.Load()
	start := time.Now()
	for range 30 {
		if err := exec.Command("true").Run(); err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(start)
	time.Sleep(reapEvery / 2)
	passes := reapPasses.Load() - before
	if max := int64(took/reapEvery) + 3; passes > max {
		t.Fatalf("30 children in %v made %d reaping passes, want at most %d", took.Round(time.Millisecond), passes, max)
	}
	t.Logf("30 children in %v: %d reaping passes", took.Round(time.Millisecond), passes)
}
