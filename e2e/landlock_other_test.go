//go:build !linux

package e2e

// landlockHere is false: Landlock is Linux's.
func landlockHere() bool { return false }
