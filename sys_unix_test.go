//go:build unix

package main

import "syscall"

// The tests' process calls, so that the tests build and vet on Windows too
// (GOOS=windows go vet ./... in .ci/run); see sys_windows_test.go.

func sysKill(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

func sessionAttr(setsid bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: setsid} }

func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
