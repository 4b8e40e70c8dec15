//go:build windows

package testproc

import (
	"os"
	"syscall"
)

// Windows has no signals, sessions or process groups: Kill kills the
// process (a negative pid, a Unix group, names its leader).
func Kill(pid int, _ syscall.Signal) error {
	p, err := os.FindProcess(max(pid, -pid))
	if err != nil {
		return err
	}
	return p.Kill()
}

// SessionAttr is nil: there are no sessions.
func SessionAttr(bool) *syscall.SysProcAttr { return nil }

// GroupAttr is nil: there are no process groups.
func GroupAttr() *syscall.SysProcAttr { return nil }
