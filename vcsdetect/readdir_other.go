//go:build !linux

package vcsdetect

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// dirReader reads folders with os.File.ReadDir, unsorted. The Linux build
// reads getdents64 directly instead.
type dirReader struct{}

func newDirReader() *dirReader { return &dirReader{} }

// release is a no-op: no folder is kept open here.
func (r *dirReader) release() {}

// readIn reads the small file at rel inside the folder dir (readSmall).
func (r *dirReader) readIn(dir, rel string) ([]byte, error) {
	return readSmall(filepath.Join(dir, rel), maxHeadSize)
}

// read opens the folder at path and calls fn for each of its entries. See
// the Linux version; here a symlink replacing a folder is caught by an
// Lstat when follow is not set.
func (r *dirReader) read(path string, follow bool, check func(fileID) bool, wantID func() bool, fn func(name []byte, typ entryType)) (bool, fileID, error) {
	if !follow {
		fi, err := os.Lstat(path)
		if err != nil {
			return false, fileID{}, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return false, fileID{}, &fs.PathError{Op: "open", Path: path, Err: syscall.ELOOP}
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return false, fileID{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false, fileID{}, err
	}
	if !fi.IsDir() {
		return false, fileID{}, &fs.PathError{Op: "open", Path: path, Err: syscall.ENOTDIR}
	}
	id := idOf(fi)
	if check != nil && !check(id) {
		return false, id, nil
	}
	entries, err := f.ReadDir(-1)
	for _, e := range entries {
		fn([]byte(e.Name()), fileModeType(e.Type()))
	}
	return true, id, err
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

// readSmall reads at most limit bytes of a regular file. It opens without
// blocking, so that a FIFO planted as HEAD cannot hang a walking goroutine,
// and refuses anything that is not a regular file.
func readSmall(name string, limit int) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, &os.PathError{Op: "read", Path: name, Err: errors.New("not a regular file")}
	}
	return io.ReadAll(io.LimitReader(f, int64(limit)))
}
