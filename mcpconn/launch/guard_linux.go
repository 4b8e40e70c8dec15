//go:build linux

package launch

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// A server's guard makes the server's whole tree die with rootpick, even
// when rootpick is killed with SIGKILL and cannot end anything itself.
// PR_SET_PDEATHSIG reaches only the direct child, and a grandchild that
// ignores the end of its input (npx's node, a helper that called setsid())
// would outlive it. So each stdio server is started by a guard: this same
// program, re-executed through /proc/self/exe with argv[0] guardName. The
// guard
//   - is a child subreaper, so every process of the server's tree stays
//     below it, even one orphaned after setsid();
//   - gets SIGTERM (a signal it can catch) when rootpick dies
//     (PR_SET_PDEATHSIG, set by rootpick), and SIGKILLs its server should
//     it die itself;
//   - starts the server with its own stdin, stdout and stderr (the pipes
//     rootpick made: nothing is relayed), then lets go of them, so that
//     rootpick sees the server's output end when the server's does;
//   - when the server exits, or on SIGTERM, SIGINT or SIGHUP, ends every
//     process below it (SIGTERM, then SIGKILL) and exits with the
//     server's status only once none is left — once it has no child at
//     all, which the kernel says (wait4: ECHILD), not a look at /proc
//     (holdTree): while one runs, the guard stays, and with it the
//     subreaper that holds the tree together.
// rootpick ends a guarded server by sending its guard SIGTERM and waiting
// for the guard to be done (endGuard), and only past guardGrace by
// killing the tree itself (endTree: the group, the descendants, the tag);
// endTree also sweeps what carries the tag outside the guard's tree.
// Nothing SIGKILLs a guard that is still ending its tree, and the
// connection's close does not signal it either (processTransport, where
// the SDK's CommandTransport sent the guard SIGKILL 2 s after closing its
// input): killed in that moment, the guard's orphans would go to rootpick
// and, were rootpick killed before it had ended them (a server that
// crash-loops is always in that moment), to init; one that ignores
// SIGTERM then outlived rootpick.
// TestNothingOutlivesAKilledPickerWhileAServerCrashLoops kills the picker
// at random moments of a crash loop: with rootpick killing the guard at
// once, 17 of 20 runs left a grandchild running; now none does.
// TestGuardExitsOnlyOnceItsTreeIsGone runs guards over descendants that
// fork and die every few milliseconds: a guard that stopped at the first
// look at /proc finding nothing running left the chain behind in about
// one trial in ten; one that waits for ECHILD leaves nothing.
//
// What is not covered: the guard itself killed with SIGKILL by someone
// else (its server dies by PR_SET_PDEATHSIG; the server's descendants are
// left to rootpick, or to init if rootpick is gone too); rootpick killed
// in the instant between the guard's start and its handler for SIGTERM
// (the guard then dies before it has started the server, so nothing is
// left); a descendant that does not die of SIGKILL within guardHold
// (stuck in the kernel: it dies when it wakes, SIGKILL pending).

// GuardMain must be called first in main, before the command line is
// parsed, by a program that launches stdio servers (and by the TestMain of
// tests that launch them). When the program was started as a server's
// guard, GuardMain acts as one and exits with the server's status.
// Otherwise it returns, and from then on this process starts each stdio
// server under a guard, so that the server's whole tree ends when this
// process does, even by SIGKILL. Elsewhere than on Linux it only returns.
func GuardMain() {
	if len(os.Args) < 1 || os.Args[0] != guardName {
		guardEnabled.Store(true)
		return
	}
	orphan, ppid, args := guardOrphanBound(os.Args[1:])
	if orphan > 0 {
		// Started to outlive rootpick (outliveParent): no SIGTERM comes
		// when it dies, so the guard bounds the tree's life after it.
		go watchParent(ppid, orphan, guardStop)
	}
	if len(args) >= 3 && args[0] == guardPolicyFlag {
		os.Exit(runGuard(args[1], args[2:], true))
	}
	if len(args) >= 2 {
		os.Exit(runGuard(args[0], args[1:], false))
	}
	guardEnabled.Store(true)
}

// guard makes cmd, a server command made by exec.Command and set up by
// setProcAttr, start the server under a guard, if guards are enabled and
// the program was found (else cmd fails to start as it would have). With
// a policy, the guard restricts the server to it (Landlock) or does not
// start it. It returns the guard's report (nil without a guard): whether
// the program started, and how it ended (see guardReport).
func guard(cmd *exec.Cmd, policy *Policy) (*guardReport, error) {
	if !guardEnabled.Load() || cmd.Err != nil {
		return nil, nil
	}
	report, err := newGuardReport()
	if err != nil {
		return nil, err
	}
	path := cmd.Path
	if strings.HasPrefix(path, "-") {
		path = "./" + path // never taken for the guard's flag
	}
	cmd.Args = append([]string{guardName, path}, cmd.Args...)
	cmd.Path = "/proc/self/exe"           // this program, even if its file was replaced
	cmd.ExtraFiles = []*os.File{report.w} // the guard's fd 3 (guardReportFD)
	if policy != nil {
		f, err := policyFile(*policy)
		if err != nil {
			report.afterStart(false)
			return nil, err
		}
		report.policy = f
		cmd.Args = slices.Insert(cmd.Args, 1, guardPolicyFlag)
		cmd.ExtraFiles = append(cmd.ExtraFiles, f) // fd 4 (guardPolicyFD)
	}
	// Catchable, so that the guard can end the tree before it exits.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
	return report, nil
}

// guardStop tells a guard to end its server's tree: a signal, or its
// parent gone for its orphan bound (watchParent).
var guardStop = make(chan os.Signal, 1)

// runGuard is the guard: it runs the program path with arguments argv
// (argv[0] included) and returns the exit code to exit with. With enforce,
// it first restricts itself to the policy on fd guardPolicyFD (see
// restrictThread), or does not start the program.
func runGuard(path string, argv []string, enforce bool) int {
	stop := guardStop
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	report := openGuardReporter()
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		fmt.Fprintln(os.Stderr, "rootpick guard:", os.NewSyscallError("prctl(PR_SET_CHILD_SUBREAPER)", errno))
		return 126
	}
	if enforce {
		// Landlock restricts the calling thread, and the server inherits
		// the domain of the thread that forks it: this goroutine keeps
		// its thread from here on, restricts it and forks from it. The
		// guard's own work after that (ending the server's tree: /proc
		// reads and signals to its own domain, /dev/null) is within the
		// ruleset too.
		runtime.LockOSThread()
		if !enforceOnThisThread(report) {
			return 126
		}
	}
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
		// The server stays in the guard's process group (rootpick made
		// it), which rootpick signals when it ends the server.
		Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		// rootpick reads why on the report and says it in its own words;
		// the line on stderr is for the log.
		if errno, ok := err.(syscall.Errno); ok {
			report.say("start-error %d", uintptr(errno))
		}
		fmt.Fprintf(os.Stderr, "rootpick guard: starting %s: %v\n", path, err)
		return 127
	}
	report.say("started")
	// Let go of rootpick's pipes: the server holds its own copies.
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		for fd := range 3 {
			_ = syscall.Dup3(int(null.Fd()), fd, 0)
		}
		_ = null.Close()
	}
	// One waiter collects every child: the server, whose status is kept,
	// and the orphans the guard adopts, which are dropped. It ends when no
	// child is left, and says so by closing orphanless: then nothing of
	// the tree runs, since every process of it that loses its parent is
	// re-parented to the guard (a subreaper), so a descendant anywhere
	// keeps a child of the guard. That is the kernel's word, where a look
	// at /proc can miss a process (see settledLook); and it is final, as
	// the guard starts nothing more. __WALL: children that report their
	// end with another signal than SIGCHLD count too.
	exited := make(chan syscall.WaitStatus, 1)
	orphanless := make(chan struct{})
	go func() {
		defer close(orphanless)
		for {
			var ws syscall.WaitStatus
			p, err := syscall.Wait4(-1, &ws, syscall.WALL, nil)
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				return // ECHILD
			}
			if p == pid {
				exited <- ws
			}
		}
	}()
	var status syscall.WaitStatus
	done := false
	select {
	case status = <-exited:
		done = true
	case <-stop:
		// A server that ended just before the signal came ended on its
		// own: rootpick signals the guard only, so nothing else killed
		// it. Its status is on its way.
		if p, ok := readProc(pid); !ok || p.dead() {
			select {
			case status = <-exited:
				done = true
			case <-time.After(time.Second):
			}
		}
	}
	if done {
		// Its own end, which the guard's exit status cannot always
		// mirror (a SIGSEGV becomes 139), said before the rest of the
		// tree is ended: rootpick gives it as the reason at once.
		report.say("exit %d", uint32(status))
	}
	holdTree(pid, orphanless)
	if !done {
		// Sent before the last child was collected, if the tree is gone.
		select {
		case status = <-exited:
		case <-time.After(killGrace):
			return 128 + int(syscall.SIGKILL) // unkillable (in D state): give up
		}
	}
	return exitCode(status)
}

// holdTree ends every process below the guard (the server pid, whose
// status is left to the guard's waiter, and all it started) and returns
// once orphanless is closed: the guard has no child left, so nothing of
// its tree runs. Until then the guard stays, and with it the subreaper
// that holds the tree together: a process forked by one that was dying
// while the guard looked is adopted by the guard and killed by the next
// round. It gives up guardHold after it began, with processes left (one
// that does not die of SIGKILL is stuck in the kernel).
func holdTree(pid int, orphanless <-chan struct{}) {
	deadline := time.Now().Add(guardHold)
	endDescendants(termGrace, guardHold, pid)
	for {
		select {
		case <-orphanless:
			return
		case <-time.After(10 * time.Millisecond):
		}
		left := time.Until(deadline)
		if left <= 0 {
			return
		}
		// Something of the tree runs still, that the last look did not
		// find: it gets no more SIGTERM grace.
		endDescendants(0, left, pid)
	}
}

// enforceOnThisThread restricts the calling thread, locked, to the
// guard's policy: Landlock, then the seccomp filter for what Landlock
// leaves open (sockets below ABI 9, a file's mode, times, owner). It says
// on the report what it enforced, or why it could not; false means the
// server must not be started (the boundary fails closed).
func enforceOnThisThread(report guardReporter) bool {
	policy, abi, skipped, err := applyGuardPolicy()
	if err == nil {
		var fellBack bool
		if fellBack, err = applySeccomp(policy, abi); err != nil {
			err = fmt.Errorf("seccomp filter: %w", err)
		} else if fellBack {
			fmt.Fprintln(os.Stderr, "rootpick guard: another filter answers this process's calls already: changes of a file's mode and times are refused everywhere")
		}
	}
	if err != nil {
		report.say("landlock-error %s", strings.ReplaceAll(err.Error(), "\n", " "))
		fmt.Fprintln(os.Stderr, "rootpick guard: not starting the server: cannot enforce its ruleset:", err)
		return false
	}
	for _, p := range skipped {
		fmt.Fprintf(os.Stderr, "rootpick guard: %q is gone: left out of the ruleset\n", p)
	}
	report.say("landlock %d", abi)
	return true
}

// guardHold bounds how long a guard keeps ending its tree: it exits no
// sooner while a process of the tree runs, unless that process has not
// died of SIGKILL for this long (it is stuck in the kernel, and dies when
// it wakes). rootpick waits guardGrace for a guard it stopped.
const guardHold = 30 * time.Second

// endGuard asks the guard pid (started at stamp, see startStamp) to end
// its server's tree, with SIGTERM to the guard alone, and waits up to
// bound for the guard to have exited, which it does only once its tree is
// gone. The guard is never sent SIGKILL here: killed while it ends its
// tree, it would leave the tree's orphans to rootpick, and to init if
// rootpick were killed meanwhile.
func endGuard(pid int, stamp uint64, bound time.Duration) {
	t := target{pid: stamp}
	if len(t.live()) == 0 {
		return
	}
	t.signal(syscall.SIGTERM)
	t.waitGone(bound)
}

// exitCode returns the code to exit with for a server that ended with ws;
// a server killed by SIGKILL, SIGTERM, SIGINT or SIGHUP is mirrored by
// dying of the same signal, so that rootpick sees what it would have seen
// without the guard. Other signals become 128+N: the Go runtime does not
// die quietly of those.
func exitCode(ws syscall.WaitStatus) int {
	if !ws.Signaled() {
		return ws.ExitStatus()
	}
	sig := ws.Signal()
	switch sig {
	case syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP:
		signal.Reset(sig)
		_ = syscall.Kill(os.Getpid(), sig)
		time.Sleep(time.Second) // the signal is delivered meanwhile
	}
	return 128 + int(sig)
}

// applyGuardPolicy reads the guard's policy and restricts the calling
// thread to it.
func applyGuardPolicy() (policy Policy, abi int, skipped []string, err error) {
	policy, err = readGuardPolicy()
	if err != nil {
		return policy, 0, nil, err
	}
	abi, skipped, err = restrictThread(policy)
	return policy, abi, skipped, err
}
