//go:build linux

package launch

import "golang.org/x/sys/unix"

// The system calls of seccomp_linux.go on x86-64, where the x32 ABI
// shares the architecture and tells its calls apart by a bit of the
// number.
const (
	seccompArch   = unix.AUDIT_ARCH_X86_64
	seccompX32Bit = 0x40000000
)

var (
	// seccompMode are the calls that change a file's mode, each with where
	// its arguments are (see seccompCall).
	seccompMode = map[uint32]seccompCall{
		unix.SYS_CHMOD:    {fd: -1, dirfd: -1, path: 0, mode: 1, times: -1, flags: -1},
		unix.SYS_FCHMOD:   {fd: 0, dirfd: -1, path: -1, mode: 1, times: -1, flags: -1},
		unix.SYS_FCHMODAT: {fd: -1, dirfd: 0, path: 1, mode: 2, times: -1, flags: -1},
		seccompFchmodat2:  {fd: -1, dirfd: 0, path: 1, mode: 2, times: -1, flags: 3},
	}
	// seccompTimes are the calls that set a file's times.
	seccompTimes = map[uint32]seccompCall{
		unix.SYS_UTIME:     {fd: -1, dirfd: -1, path: 0, mode: -1, times: 1, flags: -1, timeKind: timesUtimbuf},
		unix.SYS_UTIMES:    {fd: -1, dirfd: -1, path: 0, mode: -1, times: 1, flags: -1, timeKind: timesTimeval},
		unix.SYS_FUTIMESAT: {fd: -1, dirfd: 0, path: 1, mode: -1, times: 2, flags: -1, timeKind: timesTimeval},
		unix.SYS_UTIMENSAT: {fd: -1, dirfd: 0, path: 1, mode: -1, times: 2, flags: 3, timeKind: timesTimespec},
	}
	// seccompOwner change a file's owner: refused everywhere.
	seccompOwner = []uint32{unix.SYS_CHOWN, unix.SYS_FCHOWN, unix.SYS_LCHOWN, unix.SYS_FCHOWNAT}
	// seccompXattr set or remove extended attributes: refused everywhere.
	seccompXattr = []uint32{unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR,
		unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, seccompSetxattrat, seccompRemovexattrat}
)
