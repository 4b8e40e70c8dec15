//go:build linux

package launch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestGuardFailsClosed: a guard that cannot apply its server's ruleset
// never starts the server: it exits 126, says why on its report (which
// ends rootpick's wait for the start), and the server's program never
// ran. Each way a ruleset fails: a policy it cannot read, a rule the
// kernel refuses (a path on the kernel's internal name-space file system,
// which Landlock does not take rules on).
func TestGuardFailsClosed(t *testing.T) {
	needLandlock(t)
	if !guardEnabled.Load() {
		t.Fatal("guards are not enabled (GuardMain in TestMain)")
	}
	for _, tc := range []struct {
		name   string
		policy Policy
		spoil  func(t *testing.T, cmd *exec.Cmd) // after guard(): make the policy unreadable
		why    string
	}{
		{name: "unreadable policy", spoil: func(t *testing.T, cmd *exec.Cmd) {
			fd, err := unix.MemfdCreate("spoilt-policy", unix.MFD_CLOEXEC)
			must(t, err)
			f := os.NewFile(uintptr(fd), "spoilt policy")
			_, err = f.WriteString("{not json")
			must(t, err)
			_, err = f.Seek(0, 0)
			must(t, err)
			t.Cleanup(func() { f.Close() })
			cmd.ExtraFiles[1] = f
		}, why: "reading the policy"},
		{name: "a rule the kernel refuses", policy: Policy{Paths: []PolicyPath{{Path: "/proc/self/ns/net", Access: AccessRead, Why: WhySystem}}},
			why: "landlock_add_rule /proc/self/ns/net"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			marker := filepath.Join(tempDir(t), "ran")
			cmd := exec.Command("sh", "-c", "touch "+marker)
			setProcAttr(cmd)
			report, err := guard(cmd, &tc.policy)
			must(t, err)
			if tc.spoil != nil {
				tc.spoil(t, cmd)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err = cmd.Start()
			report.afterStart(err == nil)
			must(t, err)
			began := time.Now()
			serr := report.startError(30 * time.Second)
			if took := time.Since(began); took > 10*time.Second {
				t.Errorf("the start wait ended after %v: the guard's refusal must end it", took.Round(time.Millisecond))
			}
			_ = cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 126 {
				t.Errorf("the guard exited %d; want 126", code)
			}
			if serr == nil || !strings.Contains(serr.Error(), tc.why) {
				t.Errorf("the report's start error: %v; want one naming %q", serr, tc.why)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("the server ran although its ruleset could not be applied (stderr %q)", stderr.String())
			}
			if !strings.Contains(stderr.String(), "not starting the server") {
				t.Errorf("the guard's stderr says %q; want why it did not start the server", stderr.String())
			}
		})
	}
}

// guardedServer starts script under a guard (with policy, if not nil) and
// returns the command, and the server's pid once the guard has started it.
func guardedServer(t *testing.T, script string, policy *Policy) (*exec.Cmd, *guardReport, int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	setProcAttr(cmd)
	report, err := guard(cmd, policy)
	must(t, err)
	err = cmd.Start()
	report.afterStart(err == nil)
	must(t, err)
	t.Cleanup(func() {
		endTree(cmd.Process.Pid, startStamp(cmd.Process.Pid), "", time.Second, time.Second)
		_ = cmd.Wait()
	})
	var server int
	// The guard forks from the thread it locked, which need not be its
	// main one: its children are listed under that thread.
	waitFor(t, "the guard to start its server", func() bool {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", cmd.Process.Pid))
		for _, f := range tasks {
			b, _ := os.ReadFile(f)
			if _, err := fmt.Sscan(string(b), &server); err == nil {
				return true
			}
		}
		return false
	})
	return cmd, report, server
}

// TestGuardedServerDiesWithItsGuard: a guard killed with SIGKILL (it can
// do nothing then) takes its server with it: the server has the guard's
// death as its own SIGKILL (PR_SET_PDEATHSIG).
func TestGuardedServerDiesWithItsGuard(t *testing.T) {
	cmd, _, server := guardedServer(t, "exec sleep 60", nil)
	must(t, syscall.Kill(cmd.Process.Pid, syscall.SIGKILL))
	_ = cmd.Wait()
	waitFor(t, "the server to die with its guard", func() bool {
		p, ok := readProc(server)
		return !ok || p.dead()
	})
}

// TestGuardReapsItsOrphans: a server that leaves a child behind when it
// exits: the guard (a subreaper) adopts it, ends it and collects it, and
// exits at once, not after guardHold. (Waiting for the server alone, not
// for every child, is caught only by TestGuardExitsOnlyOnceItsTreeIsGone,
// and only when a process escapes the guard's look at /proc.)
func TestGuardReapsItsOrphans(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 60 & exit 0")
	setProcAttr(cmd)
	report, err := guard(cmd, nil)
	must(t, err)
	start := time.Now()
	err = cmd.Start()
	report.afterStart(err == nil)
	must(t, err)
	_ = cmd.Wait()
	if took := time.Since(start); took > guardHold/3 {
		t.Errorf("the guard exited %v after its server, whose orphan it adopted; want well within %v", took.Round(time.Millisecond), guardHold)
	}
}

// TestGuardNamesAVanishedPath: a path of the policy that is gone when the
// guard applies it is left out and named on its stderr (the log); the
// server starts under the rest.
func TestGuardNamesAVanishedPath(t *testing.T) {
	needLandlock(t)
	gone := filepath.Join(tempDir(t), "gone")
	p := BuildPolicy(PolicyInput{Command: []string{"/bin/sh"}, Env: os.Environ()})
	p.Paths = append(p.Paths, PolicyPath{Path: gone, Access: AccessRead, Why: WhyAllowRead})
	stdout, stderr, _ := runGuarded(t, "echo started", &p, nil)
	if stdout != "started\n" {
		t.Errorf("the server said %q (stderr %q); want it started", stdout, stderr)
	}
	if want := fmt.Sprintf("%q is gone: left out of the ruleset", gone); !strings.Contains(stderr, want) {
		t.Errorf("the guard's stderr %q does not say %s", stderr, want)
	}
}

// TestEnforcedGuardMayOutlive: a guard told both its orphan bound and a
// policy (a launcher's first start, enforced) starts the server under the
// ruleset: the flags are read in that order.
func TestEnforcedGuardMayOutlive(t *testing.T) {
	needLandlock(t)
	p := BuildPolicy(PolicyInput{Command: []string{"/bin/sh"}, Env: os.Environ()})
	stdout, stderr, serr := runGuarded(t, "cat /etc/hostname >/dev/null && echo started; cat "+os.Args[0]+" >/dev/null 2>&1 || echo refused", &p,
		func(cmd *exec.Cmd) { outliveParent(cmd, time.Minute) })
	if serr != nil || stdout != "started\nrefused\n" {
		t.Errorf("stdout %q, stderr %q, start error %v; want it started, enforced (the test binary refused)", stdout, stderr, serr)
	}
}

// runGuarded runs /bin/sh -c script under a guard with policy (then
// before, if not nil, on the command), and returns what it wrote and the
// guard's start error.
func runGuarded(t *testing.T, script string, policy *Policy, before func(*exec.Cmd)) (stdout, stderr string, startErr error) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	setProcAttr(cmd)
	report, err := guard(cmd, policy)
	must(t, err)
	if before != nil {
		before(cmd)
	}
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Start()
	report.afterStart(err == nil)
	must(t, err)
	_ = cmd.Wait()
	return out.String(), errb.String(), report.startError(5 * time.Second)
}

// TestGuardEndsWhatItsOrphansStartWhileEnding: an orphan that, told to
// end, starts another process and exits has that process ended too,
// before the guard exits. (endDescendants looks again until none is left,
// so this holds even for a guard that waited for the server alone; what
// only the wait for every child catches is a process its look at /proc
// misses, which TestGuardExitsOnlyOnceItsTreeIsGone's hoppers provoke.)
func TestGuardEndsWhatItsOrphansStartWhileEnding(t *testing.T) {
	mark := fmt.Sprintf("31.%d", os.Getpid()) // sleep's argument, to find it
	orphan := `trap 'sleep ` + mark + ` & exit 0' TERM; while :; do sleep 0.05; done`
	cmd := exec.Command("sh", "-c", "sh -c \""+orphan+"\" & sleep 0.2; exit 0")
	setProcAttr(cmd)
	report, err := guard(cmd, nil)
	must(t, err)
	err = cmd.Start()
	report.afterStart(err == nil)
	must(t, err)
	_ = cmd.Wait()
	left := func() []int {
		var pids []int
		dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, f := range dirs {
			if b, _ := os.ReadFile(f); string(b) == "sleep\x00"+mark+"\x00" {
				var pid int
				if _, err := fmt.Sscanf(filepath.Base(filepath.Dir(f)), "%d", &pid); err != nil {
					continue
				}
				if p, ok := readProc(pid); ok && !p.dead() {
					pids = append(pids, pid)
				}
			}
		}
		return pids
	}
	t.Cleanup(func() {
		for _, p := range left() {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	})
	if pids := left(); len(pids) > 0 {
		t.Errorf("the guard exited with what its orphan started while ending still running: %v", pids)
	}
}
