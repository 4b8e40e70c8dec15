//go:build unix && !linux

package vcsdetect

import (
	"io/fs"
	"syscall"
)

// idOf returns the device and inode of a file.
func idOf(fi fs.FileInfo) fileID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	}
	return fileID{}
}
