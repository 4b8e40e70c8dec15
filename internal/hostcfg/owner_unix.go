//go:build unix

package hostcfg

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of the file it replaces, when they
// differ from the process's (root editing a person's file must not leave
// it root's); it is best effort, as only root may give a file away.
func keepOwner(f *os.File, old fs.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid()) {
		return
	}
	_ = f.Chown(int(st.Uid), int(st.Gid))
}
