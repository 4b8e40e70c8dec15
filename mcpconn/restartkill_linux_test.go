package mcpconn

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

func init() {
	// crashloop starts a sleeper (a grandchild in a session of its own,
	// deaf to SIGTERM, SIGHUP and SIGINT), then crashes: at once, or
	// after it has answered initialize and served for up to 200 ms. Its
	// supervisor restarts it, with a short backoff, over and over.
	faultModes["crashloop"] = func() {
		faultserver.SpawnSleeper()
		if rand.IntN(2) == 0 {
			os.Exit(1)
		}
		go func() {
			time.Sleep(time.Duration(rand.IntN(200)) * time.Millisecond)
			os.Exit(1)
		}()
		serveDemo()
	}
	// crashhost is the picker in miniature while a server crash-loops: a
	// subreaper with a Hub serving a crashloop server under a guard, as
	// rootpick does. It prints "up" once the server has started its first
	// sleeper, then runs until it is killed.
	faultModes["crashhost"] = func() {
		if err := launch.BecomeSubreaper(); err != nil {
			fmt.Println("subreaper:", err)
			os.Exit(1)
		}
		hub := NewHub(Options{Timing: Timing{BackoffMin: 30 * time.Millisecond, BackoffMax: 120 * time.Millisecond}})
		hub.Add(Spec{Command: []string{"env", "ROOTPICK_TEST_SERVE=crashloop", os.Args[0]}})
		go func() {
			for range hub.Events() {
			}
		}()
		pidfile := os.Getenv("ROOTPICK_TEST_PIDFILE")
		for deadline := time.Now().Add(20 * time.Second); len(faultserver.ReadPids(pidfile)) == 0; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				fmt.Println("no grandchild")
				os.Exit(1)
			}
		}
		fmt.Println("up")
		select {}
	}
}

// guardsWithEntry lists the guards (argv[0] faultserver.GuardArgv0, zombies left out)
// whose environment holds entry.
func guardsWithEntry(entry string) []int {
	var guards []int
	for _, pid := range faultserver.WithEnv(entry) {
		if faultserver.Argv0(pid) == faultserver.GuardArgv0 {
			guards = append(guards, pid)
		}
	}
	return guards
}

// TestNothingOutlivesAKilledPickerWhileAServerCrashLoops: the picker (a
// Hub in a subreaper, crashhost) is killed with SIGKILL at a random moment
// while its server crash-loops, each run leaving a grandchild that left
// the server's session and ignores SIGTERM: the server's guard is then
// ending a tree, or the supervisor is ending an old guard's tree, starting
// a new one or waiting out its backoff. Whatever the moment, the picker's
// guards end their trees and exit, and once no guard is left nothing of
// the picker's runs (each of its processes carries the trial's environment
// entry): not a moment later, at once, since a guard keeps its subreaper
// role, and so its tree, until the tree is gone, and nothing SIGKILLs a
// guard before that.
func TestNothingOutlivesAKilledPickerWhileAServerCrashLoops(t *testing.T) {
	const trials, atOnce = 20, 4
	// The bound is a catch-all for the guards: one ends its tree in about
	// termGrace (1 s) after its parent's death, and gives up on a process
	// that does not die of SIGKILL after its hold (launch's guardHold,
	// 30 s).
	const bound = 30*time.Second + 10*time.Second
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	survivors := testproc.Trials(trials, atOnce, func(i int) string {
		entry := fmt.Sprintf("ROOTPICK_TEST_TRIAL=%d-%d-%d", os.Getpid(), i, time.Now().UnixNano())
		pidfile := filepath.Join(t.TempDir(), "pids")
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=crashhost", "ROOTPICK_TEST_PIDFILE="+pidfile, entry)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Error(err)
			return ""
		}
		if err := cmd.Start(); err != nil {
			t.Error(err)
			return ""
		}
		up := make(chan string, 1)
		go func() {
			b := make([]byte, 64)
			n, _ := out.Read(b)
			up <- string(b[:n])
		}()
		select {
		case s := <-up:
			if s != "up\n" {
				t.Errorf("trial %d: the picker said %q", i, s)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("trial %d: the picker did not start its server in 30 s", i)
		}
		// A moment of the restart loop: each run lasts up to about
		// 0.2 s, then its tree takes about a second to end.
		time.Sleep(time.Duration(rand.IntN(2500)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		killed := time.Now()
		var guards []int
		for {
			guards = guardsWithEntry(entry)
			if len(guards) == 0 || time.Since(killed) > bound {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		took := time.Since(killed)
		left := faultserver.WithEnv(entry)
		if len(left) == 0 {
			t.Logf("trial %d: nothing left %v after the SIGKILL", i, took.Round(10*time.Millisecond))
			return ""
		}
		what := fmt.Sprintf("trial %d: %v running once no guard was left, %v after the SIGKILL", i, left, took.Round(10*time.Millisecond))
		if len(guards) > 0 {
			what = fmt.Sprintf("trial %d: guards %v still running %v after the SIGKILL, with %v", i, guards, bound, left)
		}
		survivor := what
		for _, p := range left {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		return survivor
	})
	if len(survivors) > 0 {
		t.Fatalf("%d of %d trials left processes running after the picker was killed: %v", len(survivors), trials, survivors)
	}
}
