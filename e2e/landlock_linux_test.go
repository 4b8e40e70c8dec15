//go:build linux

package e2e

import "golang.org/x/sys/unix"

// landlockHere says whether this kernel offers Landlock, so that a server
// rootpick starts is enforced (the kernel's own answer: securityfs, where
// /sys/kernel/security/lsm lists it, is often not mounted).
func landlockHere() bool {
	abi, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	return errno == 0 && abi >= 1
}
