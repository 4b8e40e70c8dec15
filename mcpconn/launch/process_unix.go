//go:build unix && !linux

package launch

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// Without /proc and subreapers (macOS, the BSDs), a server is ended as a
// process group: a grandchild that left the group with setsid() is out of
// reach.

// BecomeSubreaper returns an error wrapping errors.ErrUnsupported: this
// system has no child subreapers. See the Linux version.
func BecomeSubreaper() error {
	return fmt.Errorf("child subreaper: %w", errors.ErrUnsupported)
}

// setProcAttr puts a server in its own process group, so that the
// terminal's signals (ctrl+c) do not reach it and it can be ended with its
// children.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// startStamp is 0: process start times are not read here.
func startStamp(int) uint64 { return 0 }

// endTree sends SIGTERM to the process group pid, waits up to termGrace for
// it to be gone, then sends SIGKILL and waits up to killGrace.
func endTree(pid int, _ uint64, _ string, termGrace, killGrace time.Duration) {
	if syscall.Kill(-pid, syscall.SIGTERM) != nil {
		return // no such group: everything has exited
	}
	if groupGone(pid, termGrace) {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	groupGone(pid, killGrace)
}

// groupGone polls until process group pgid is empty or d has passed.
// Zombies count as present: signal 0 cannot tell them apart.
func groupGone(pgid int, d time.Duration) bool {
	for deadline := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		if syscall.Kill(-pgid, 0) != nil {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// EndDescendants does nothing and returns 0: without /proc the descendants
// are not found. Servers are ended by their process group.
func EndDescendants(time.Duration) int { return 0 }
