//go:build !linux

package consent

// mountsInside finds no mount point: only Linux's /proc/self/mountinfo is
// read.
func mountsInside(string) []string { return nil }
