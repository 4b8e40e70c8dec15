//go:build unix

package proxy

import (
	"errors"
	"syscall"
)

// processRuns reports whether process pid exists.
func processRuns(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
