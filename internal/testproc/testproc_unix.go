//go:build unix

package testproc

import "syscall"

// Kill sends sig to pid (a negative pid: the process group).
func Kill(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

// SessionAttr starts a process in a new session when setsid is set.
func SessionAttr(setsid bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: setsid} }

// GroupAttr starts a process in a new process group.
func GroupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
