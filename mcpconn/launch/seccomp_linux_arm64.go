//go:build linux

package launch

import "golang.org/x/sys/unix"

// The system calls of seccomp_linux.go on arm64, which has only the *at
// forms of the path calls.
const (
	seccompArch   = unix.AUDIT_ARCH_AARCH64
	seccompX32Bit = 0
)

var (
	seccompMode = map[uint32]seccompCall{
		unix.SYS_FCHMOD:   {fd: 0, dirfd: -1, path: -1, mode: 1, times: -1, flags: -1},
		unix.SYS_FCHMODAT: {fd: -1, dirfd: 0, path: 1, mode: 2, times: -1, flags: -1},
		seccompFchmodat2:  {fd: -1, dirfd: 0, path: 1, mode: 2, times: -1, flags: 3},
	}
	seccompTimes = map[uint32]seccompCall{
		unix.SYS_UTIMENSAT: {fd: -1, dirfd: 0, path: 1, mode: -1, times: 2, flags: 3, timeKind: timesTimespec},
	}
	seccompOwner = []uint32{unix.SYS_FCHOWN, unix.SYS_FCHOWNAT}
	seccompXattr = []uint32{unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR,
		unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, seccompSetxattrat, seccompRemovexattrat}
)
