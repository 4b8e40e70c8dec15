//go:build !linux

package sampleworkspace

// processAlive is true here: without /proc a folder's owner cannot be told
// gone from a reused pid, so nothing is swept (a left folder stays for the
// system's own temporary-folder clean-up).
func processAlive(int, string) bool { return true }

// ownFolder is false here; see processAlive.
func ownFolder(string) bool { return false }
