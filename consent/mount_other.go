//go:build !linux

package consent

// mountNear finds no mount point: only Linux's /proc/self/mountinfo is read.
func mountNear(p, dir string) (string, bool) { return "", false }
