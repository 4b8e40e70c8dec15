//go:build unix

package hostcfg

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openFlags opens without blocking (a FIFO swapped in after the check
// would otherwise wait for a writer forever), without becoming the
// controlling terminal, and, for a path that was no link, without
// following one swapped in since.
func openFlags(noFollow bool) int {
	flags := os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY
	if noFollow {
		flags |= syscall.O_NOFOLLOW
	}
	return flags
}

// notYours says why fi is not a file of the person's own that others
// cannot change, or "".
func notYours(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "has no owner to check"
	}
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return fmt.Sprintf("belongs to user %d, not to you (user %d)", st.Uid, uid)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("is writable by others (mode %04o)", perm)
	}
	return ""
}

// sameOwner reports whether a and b have the same owner.
func sameOwner(a, b fs.FileInfo) bool {
	sa, okA := a.Sys().(*syscall.Stat_t)
	sb, okB := b.Sys().(*syscall.Stat_t)
	return okA && okB && sa.Uid == sb.Uid
}
