//go:build unix

package sampleworkspace

import (
	"os"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// fillStat puts the file's device, inode and owner into its index entry.
func fillStat(e *index.Entry, fi os.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.Dev, e.Inode, e.UID, e.GID = uint32(st.Dev), uint32(st.Ino), st.Uid, st.Gid
	}
}
