//go:build windows

package main

import (
	"os"
	"syscall"
)

// Windows has no signals, sessions or process groups: sysKill kills the
// process (a negative pid, a Unix group, names its leader).

func sysKill(pid int, _ syscall.Signal) error {
	p, err := os.FindProcess(max(pid, -pid))
	if err != nil {
		return err
	}
	return p.Kill()
}

func sessionAttr(bool) *syscall.SysProcAttr { return nil }

func groupAttr() *syscall.SysProcAttr { return nil }
