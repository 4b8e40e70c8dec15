//go:build !unix

package launch

import "syscall"

// signalName is "": a process here is not ended by a signal it could name.
func signalName(syscall.Signal) string { return "" }
