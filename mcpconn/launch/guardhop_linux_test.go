package launch

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

func init() {
	// hopper starts its successor (itself again, in a session of its own,
	// deaf to SIGTERM, SIGHUP and SIGINT) and exits at once: the chain
	// always has one process running, a new one every few milliseconds,
	// each forked by one that is gone a moment later. That is the worst
	// case for a look at /proc (a process seen alive by the listing forks
	// and dies before its own line is read, and its successor was not
	// listed), and what a crash-looping server does at a slower pace. The
	// chain ends by itself at $ROOTPICK_TEST_HOP_UNTIL (Unix ns), so that a
	// test that lost it leaves nothing for long.
	faultModes["hopper"] = func() {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		until, _ := strconv.ParseInt(os.Getenv("ROOTPICK_TEST_HOP_UNTIL"), 10, 64)
		if time.Now().UnixNano() > until {
			return
		}
		cmd := exec.Command(os.Args[0])
		cmd.SysProcAttr = testproc.SessionAttr(true)
		_ = cmd.Start()
	}
	// hopparent starts a hopper and stays until it is killed (SIGTERM
	// kills it): a server that is alive when its guard is told to end it.
	faultModes["hopparent"] = func() {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=hopper")
		cmd.SysProcAttr = testproc.SessionAttr(true)
		if err := cmd.Start(); err != nil {
			os.Exit(1)
		}
		select {}
	}
}

// TestGuardExitsOnlyOnceItsTreeIsGone runs a guard, as rootpick starts
// one, over a server whose descendants hop (see hopper): the server itself
// hops (the guard ends the tree because its server ended), or it starts a
// hopper and stays until the guard is sent SIGTERM (as on rootpick's
// death, PR_SET_PDEATHSIG). When the guard has exited, nothing of its tree
// may run: not a moment later, at once. A guard that stopped at a look at
// /proc that found nothing running (the hopper forked after the listing
// and died before its line was read) left the chain to init; the guard now
// stays, and so stays the subreaper every orphan of the tree goes to,
// until the kernel says it has no child left.
func TestGuardExitsOnlyOnceItsTreeIsGone(t *testing.T) {
	const trials, atOnce = 12, 3
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	padProcessTable(t, 150)
	survivors := testproc.Trials(trials, atOnce, func(i int) string {
		mode := []string{"hopper", "hopparent"}[i%2]
		entry := fmt.Sprintf("ROOTPICK_TEST_TRIAL=hop-%d-%d-%d", os.Getpid(), i, time.Now().UnixNano())
		until := time.Now().Add(30 * time.Second)
		cmd := exec.Command(exe)
		cmd.Args = []string{guardName, exe, exe}
		cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE="+mode,
			"ROOTPICK_TEST_HOP_UNTIL="+strconv.FormatInt(until.UnixNano(), 10), entry)
		if err := cmd.Start(); err != nil {
			t.Error(err)
			return ""
		}
		// Let the chain hop a while; then tell the guard to end the
		// tree (the hopper's guard is at it already: its server
		// ended).
		time.Sleep(time.Duration(100+rand.IntN(400)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGTERM)
		termed := time.Now()
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		select {
		case err := <-waited:
			t.Logf("trial %d (%s): the guard exited: %v", i, mode, err)
		case <-time.After(guardHold + 15*time.Second):
			t.Errorf("trial %d (%s): the guard did not exit in %v", i, mode, guardHold+15*time.Second)
			_ = cmd.Process.Kill()
			t.Logf("trial %d (%s): the guard, killed: %v", i, mode, <-waited)
		}
		// Nothing of the tree may run now. One look at /proc can miss
		// a chain as a guard's look did, so the test looks 20 times:
		// what it finds in any of them is a survivor (nothing of the
		// tree can start after the guard is gone but from a survivor).
		var left []int
		for range 20 {
			if left = faultserver.WithEnv(entry); len(left) > 0 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		if len(left) == 0 {
			t.Logf("trial %d (%s): the guard exited %v after SIGTERM, nothing left", i, mode, time.Since(termed).Round(10*time.Millisecond))
			return ""
		}
		// Still there a moment later? (It says whether the guard left
		// the tree behind or merely exited a moment early.)
		time.Sleep(300 * time.Millisecond)
		later := false
		for range 20 {
			if len(faultserver.WithEnv(entry)) > 0 {
				later = true
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		survivor := fmt.Sprintf("trial %d (%s): %v (running 0.3 s later: %v)", i, mode, left, later)
		// Catch the chain (it ends by itself at until anyway): a look
		// can miss it as the guard's did, so only half a second of
		// looks that all find nothing ends the hunt.
		for quiet := 0; quiet < 100 && time.Now().Before(until); time.Sleep(5 * time.Millisecond) {
			left := faultserver.WithEnv(entry)
			if len(left) == 0 {
				quiet++
			} else {
				quiet = 0
			}
			for _, p := range left {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
		}
		return survivor
	})
	if len(survivors) > 0 {
		t.Fatalf("%d of %d guards exited while their tree still ran: %v", len(survivors), trials, survivors)
	}
}

// padProcessTable starts n idle processes that end with the test (or with
// the test binary: PR_SET_PDEATHSIG), so that a look at /proc reads as
// many lines as on a busy desktop, not the few of a PID namespace made
// for the test: the longer a look takes, the wider the moment in which
// it can miss a process.
func padProcessTable(t *testing.T, n int) {
	t.Helper()
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Logf("no sleep program: the process table is not padded: %v", err)
		return
	}
	var cmds []*exec.Cmd
	t.Cleanup(func() {
		for _, c := range cmds {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	})
	for range n {
		c := exec.Command(sleep, "600")
		c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
}
