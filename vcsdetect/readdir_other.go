//go:build !linux

package vcsdetect

import (
	"io/fs"
	"os"
	"syscall"
)

// dirReader reads folders with os.File.ReadDir, unsorted. The Linux build
// reads getdents64 directly instead.
type dirReader struct{}

func newDirReader() *dirReader { return &dirReader{} }

// read opens the folder at path and calls fn for each of its entries. See
// the Linux version; here a symlink replacing a folder is caught by an
// Lstat when follow is not set.
func (r *dirReader) read(path string, follow bool, check func(fileID) bool, fn func(name []byte, typ entryType)) (bool, error) {
	if !follow {
		fi, err := os.Lstat(path)
		if err != nil {
			return false, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return false, &fs.PathError{Op: "open", Path: path, Err: syscall.ELOOP}
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if check != nil {
		fi, err := f.Stat()
		if err != nil {
			return false, err
		}
		if !fi.IsDir() {
			return false, &fs.PathError{Op: "open", Path: path, Err: syscall.ENOTDIR}
		}
		if !check(idOf(fi)) {
			return false, nil
		}
	}
	entries, err := f.ReadDir(-1)
	for _, e := range entries {
		fn([]byte(e.Name()), fileModeType(e.Type()))
	}
	return true, err
}

func fileModeType(m fs.FileMode) entryType {
	switch {
	case m&fs.ModeSymlink != 0:
		return typeSymlink
	case m.IsDir():
		return typeDir
	case m.IsRegular():
		return typeFile
	}
	return typeOther
}

func statID(path string) (fileID, entryType, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}, typeUnknown, err
	}
	return idOf(fi), fileModeType(fi.Mode().Type()), nil
}

func lstatType(path string) (entryType, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return typeUnknown, err
	}
	return fileModeType(fi.Mode().Type()), nil
}
