//go:build unix

package prefetch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary is also the fake launcher of the tests below: with
// fakeRole set it does what that role says and exits, never running a
// test. A launcher ("launcher-default", "launcher-ignore") starts a
// grandchild that inherits its stdout — the pipe Run reads — writes the
// grandchild's pid to fakeDir/pid and waits to be stopped; the grandchild
// ("grandchild-default", or "grandchild-ignore", which ignores SIGINT as
// a shell's `cmd &` does) writes a line and sleeps until fakeDir/stop
// appears (or a minute has passed). Neither ever signals anything.
const (
	fakeRole = "ROOTPICK_PREFETCH_FAKE"
	fakeDir  = "ROOTPICK_PREFETCH_FAKE_DIR"
)

func TestMain(m *testing.M) {
	if role := os.Getenv(fakeRole); role != "" {
		os.Exit(fake(role, os.Getenv(fakeDir)))
	}
	os.Exit(m.Run())
}

func fake(role, dir string) int {
	kind, _ := strings.CutPrefix(role, "launcher-")
	if kind != role { // a launcher
		self, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		gc := exec.Command(self)
		gc.Env = append(os.Environ(), fakeRole+"=grandchild-"+kind)
		gc.Stdout, gc.Stderr = os.Stdout, os.Stderr
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := os.WriteFile(filepath.Join(dir, "pid"), []byte(strconv.Itoa(gc.Process.Pid)), 0o600); err != nil {
			return 1
		}
		fmt.Println("launcher: fetching")
		// SIGINT, by default, ends a Go program.
		waitForStop(dir)
		return 0
	}
	if role == "grandchild-ignore" {
		signal.Ignore(os.Interrupt)
	}
	fmt.Println("grandchild: holding stdout")
	waitForStop(dir)
	return 0
}

func waitForStop(dir string) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "stop")); err == nil {
			return
		}
	}
}

// startFake runs Run on the fake launcher of kind in the background and
// returns the folder it works in and Run's result, to come. The
// grandchild is told to stop when the test ends, and waited for.
func startFake(t *testing.T, kind string, timeout time.Duration) (dir string, done <-chan error) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	l, _ := Of([]string{"npx", "-y", "@scope/server-x"})
	ch := make(chan error, 1)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		_, err := Run(context.Background(), l, Options{
			Env:     append(os.Environ(), fakeRole+"=launcher-"+kind, fakeDir+"="+dir),
			Dir:     dir,
			Timeout: timeout,
			Program: self,
			Confine: unconfined,
		})
		ch <- err
	}()
	t.Cleanup(func() {
		_ = os.WriteFile(filepath.Join(dir, "stop"), nil, 0o600)
		<-ended
		if pid := fakePid(dir); pid > 0 {
			waitGone(pid, 5*time.Second)
		}
	})
	return dir, ch
}

// fakePid is the grandchild's pid, as its launcher wrote it, or 0.
func fakePid(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(string(b))
	return pid
}

// alive reports whether the process pid is running: it exists (signal 0
// sends nothing) and is no zombie.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'Z' {
			return false
		}
	}
	return true
}

// waitGone waits up to d for pid to be gone, and reports whether it is.
func waitGone(pid int, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return true
		}
	}
	return !alive(pid)
}

// TestRunTimeoutEndsTheGroup: at the timeout the launcher's whole process
// group is interrupted, not the launcher alone: a grandchild it started
// in the background, holding the output pipe, ends too, and Run returns
// at once, not after WaitDelay.
func TestRunTimeoutEndsTheGroup(t *testing.T) {
	t.Parallel()
	const timeout = 2 * time.Second
	start := time.Now()
	dir, done := startFake(t, "default", timeout)
	var err error
	select {
	case err = <-done:
	case <-time.After(timeout + 6*time.Second): // WaitDelay is 10 s
		t.Fatalf("Run has not returned %v after a timeout of %v: the grandchild holding its output was not ended", time.Since(start), timeout)
	}
	var pe *Error
	if !errors.As(err, &pe) || !strings.Contains(pe.Reason, "stopped after 2s") {
		t.Errorf("err = %v; want stopped after 2s", err)
	}
	pid := fakePid(dir)
	if pid <= 0 {
		t.Fatalf("the launcher started no grandchild within %v", timeout)
	}
	if !waitGone(pid, 2*time.Second) {
		t.Errorf("the grandchild (pid %d) is still running after the timeout: only the launcher was interrupted, not its group", pid)
	}
}

// TestRunWaitDelayBoundsAHeldPipe: a grandchild that ignores the
// interrupt (as `cmd &` in an install script does) and keeps the output
// pipe open does not hold Run past WaitDelay after the timeout.
func TestRunWaitDelayBoundsAHeldPipe(t *testing.T) {
	t.Parallel()
	const timeout = 2 * time.Second
	start := time.Now()
	dir, done := startFake(t, "ignore", timeout)
	select {
	case err := <-done:
		var pe *Error
		if !errors.As(err, &pe) || !strings.Contains(pe.Reason, "stopped after 2s") {
			t.Errorf("err = %v; want stopped after 2s", err)
		}
	case <-time.After(timeout + 10*time.Second + 8*time.Second):
		t.Errorf("Run has not returned %v after a timeout of %v: a grandchild holding its output pipe holds it (no WaitDelay)", time.Since(start), timeout)
	}
	if fakePid(dir) <= 0 {
		t.Errorf("the launcher started no grandchild within %v", timeout)
	}
}
