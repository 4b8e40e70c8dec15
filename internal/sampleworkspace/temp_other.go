//go:build !linux

package sampleworkspace

// processStart is "" here: no start stamp is kept.
func processStart(int) string { return "" }

// processAlive is true here: without /proc a folder's owner cannot be told
// gone from a reused pid, so nothing is swept (a left folder stays for the
// system's own temporary-folder clean-up).
func processAlive(int, string) bool { return true }

// ownFolder is false here; see processAlive.
func ownFolder(string) bool { return false }

// pidNamespace is "" here.
func pidNamespace() string { return "" }
