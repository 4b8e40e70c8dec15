//go:build linux

package launch

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func init() {
	// outlive starts a guarded server that ignores SIGTERM and the end of
	// its input, allowed to outlive this process for ROOTPICK_TEST_BOUND
	// (outliveParent), prints "started" and exits at once: the guard is
	// orphaned, and no signal tells it.
	faultModes["outlive"] = func() {
		bound, _ := time.ParseDuration(os.Getenv("ROOTPICK_TEST_BOUND"))
		cmd := exec.Command("sh", "-c", `trap "" TERM HUP INT; while :; do sleep 0.1; done`)
		cmd.Env = append(os.Environ(), os.Getenv("ROOTPICK_TEST_TAG"))
		setProcAttr(cmd)
		if _, err := guard(cmd, nil); err != nil {
			fmt.Println("guard:", err)
			os.Exit(1)
		}
		outliveParent(cmd, bound)
		if err := cmd.Start(); err != nil {
			fmt.Println("start:", err)
			os.Exit(1)
		}
		fmt.Println("started")
	}
}

// TestOutlivingServerIsEndedAfterItsBound: a server started to outlive
// rootpick (an npx first start, whose install must not be cut short) does
// outlive it, but not for good: its guard ends the tree once rootpick has
// been gone for the bound, even a server that ignores SIGTERM and the end
// of its input — and not much later: a bound of 3 s ends by 5.5 s (its
// guard looks every 0.5 s, then gives SIGTERM 1 s), and a bound under a
// second is watched too.
func TestOutlivingServerIsEndedAfterItsBound(t *testing.T) {
	for _, bound := range []time.Duration{3 * time.Second, 600 * time.Millisecond} {
		t.Run(bound.String(), func(t *testing.T) {
			t.Parallel()
			tag := mustTag(t)
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=outlive", "ROOTPICK_TEST_BOUND="+bound.String(), "ROOTPICK_TEST_TAG="+tag)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "started") {
				t.Fatalf("outlive: %v\n%s", err, out)
			}
			gone := time.Now()
			t.Cleanup(func() {
				for _, p := range taggedRunning(tag) {
					_ = syscall.Kill(p, syscall.SIGKILL)
				}
			})
			waitFor(t, "the server to run", func() bool { return len(taggedRunning(tag)) > 0 })
			time.Sleep(bound / 3)
			if len(taggedRunning(tag)) == 0 {
				t.Fatalf("the server did not outlive its parent for %v", time.Since(gone).Round(time.Millisecond))
			}
			deadline := gone.Add(bound + 2500*time.Millisecond)
			for len(taggedRunning(tag)) > 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if left := taggedRunning(tag); len(left) > 0 {
				t.Fatalf("%v after its parent died, past the bound of %v and 2.5 s more, the server still runs: %v", time.Since(gone).Round(time.Millisecond), bound, left)
			}
			t.Logf("ended %v after its parent died (bound %v)", time.Since(gone).Round(time.Millisecond), bound)
		})
	}
}

// TestGuardOrphanBoundFlag: the guard reads its orphan flag (the bound
// and rootpick's pid); one it cannot read is a bound of no time at all,
// never a long one, and the arguments after it are left as they are.
func TestGuardOrphanBoundFlag(t *testing.T) {
	for _, c := range []struct {
		arg       string
		bound     time.Duration
		ppid      int
		remaining int
	}{
		{guardOrphanFlag + "1.5s,42", 1500 * time.Millisecond, 42, 2},
		{guardOrphanFlag + "soon,42", time.Nanosecond, 42, 2},
		{guardOrphanFlag + "-3s,42", time.Nanosecond, 42, 2},
		{guardOrphanFlag + "2s,x", 2 * time.Second, os.Getppid(), 2},
		{"--landlock", 0, 0, 3},
	} {
		d, ppid, rest := guardOrphanBound([]string{c.arg, "--landlock", "/bin/sh"})
		if d != c.bound || ppid != c.ppid || len(rest) != c.remaining {
			t.Errorf("%s: %v, %d, %q; want %v, %d and %d arguments left", c.arg, d, ppid, rest, c.bound, c.ppid, c.remaining)
		}
	}
}
