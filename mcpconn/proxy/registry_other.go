//go:build !unix

package proxy

import "os"

// processRuns reports whether process pid exists.
func processRuns(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
