package vcsdetect

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unsafe"
)

// readBufSize is the getdents buffer of one walking goroutine. 32 KiB holds
// about a thousand entries, so most folders are read in one call plus the
// call that says the end.
const readBufSize = 32 << 10

// dirReader reads folders with getdents64 directly: no per-entry
// allocation, no sorting and no stat when the file system reports the entry
// type (it falls back to lstat when it does not). One belongs to one walking
// goroutine.
//
// The folder last read stays open until release, so that a file in it
// (.git/HEAD) is opened relative to it: openat resolves two names instead
// of the whole path, and reads the folder that was listed.
type dirReader struct {
	buf   []byte
	small []byte // readIn's buffer
	name  []byte // openat's NUL-terminated name
	fd    int    // the folder last read, or -1
}

func newDirReader() *dirReader {
	return &dirReader{buf: make([]byte, readBufSize), small: make([]byte, maxHeadSize), fd: -1}
}

// release closes the folder last read, if it is still open.
func (r *dirReader) release() {
	if r.fd >= 0 {
		syscall.Close(r.fd)
		r.fd = -1
	}
}

// readIn reads at most maxHeadSize bytes of the small file at rel inside
// the folder dir, which must be the folder last read (relative to it when
// it is still open), as readSmall does. The bytes are valid until the next
// call.
func (r *dirReader) readIn(dir, rel string) ([]byte, error) {
	if r.fd < 0 {
		return readSmall(dir+string(filepath.Separator)+rel, maxHeadSize)
	}
	fd, err := r.openat(r.fd, rel, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC|syscall.O_NOCTTY)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir + string(filepath.Separator) + rel, Err: err}
	}
	defer syscall.Close(fd)
	for {
		n, err := syscall.Read(fd, r.small)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: dir + string(filepath.Separator) + rel, Err: err}
		}
		return r.small[:n], nil
	}
}

// read opens the folder at path and calls fn for each of its entries but .
// and .., with a name that is only valid during the call. A final symlink
// in path is followed only when follow is set (the scanned folder and
// --follow); otherwise a folder replaced by a symlink since its parent was
// read fails with ELOOP or ENOTDIR, which the walk counts as unreadable.
// When check is not nil it is given the folder's device and inode before
// anything is read, and a false answer skips the folder (read returns
// false). When wantID, called once the entries are read, says so, the
// folder's device and inode are returned (an fstat of the open folder,
// cheaper than a stat of its path). A folder read whole stays open until
// release (or the next read).
func (r *dirReader) read(path string, follow bool, check func(fileID) bool, wantID func() bool, fn func(name []byte, typ entryType)) (bool, fileID, error) {
	r.release()
	flags := syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_CLOEXEC | syscall.O_NONBLOCK
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	fd, err := r.openat(atFDCWD, path, flags)
	if err != nil {
		return false, fileID{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	kept := false
	defer func() {
		if !kept {
			syscall.Close(fd)
		}
	}()
	var id fileID
	if check != nil {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			return false, id, &fs.PathError{Op: "fstat", Path: path, Err: err}
		}
		id = fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
		if !check(id) {
			return false, id, nil
		}
	}
	for {
		n, err := syscall.ReadDirent(fd, r.buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return true, id, &fs.PathError{Op: "getdents", Path: path, Err: err}
		}
		if n <= 0 {
			if id == (fileID{}) && wantID != nil && wantID() {
				var st syscall.Stat_t
				if syscall.Fstat(fd, &st) == nil {
					id = fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
				}
			}
			r.fd, kept = fd, true
			return true, id, nil
		}
		parseDirents(r.buf[:n], fn)
	}
}

// atFDCWD is AT_FDCWD: openat then opens a path as open does.
const atFDCWD = -100

// openat opens name relative to the folder dirfd (or as open does, with
// atFDCWD), retrying on EINTR, without allocating: the NUL-terminated
// name is built in the reader's buffer, where syscall.Open copies every
// path into a new one (20 MB over a walk of 130,000 folders).
func (r *dirReader) openat(dirfd int, name string, flags int) (int, error) {
	if strings.IndexByte(name, 0) >= 0 {
		return -1, syscall.EINVAL
	}
	r.name = append(append(r.name[:0], name...), 0)
	for {
		fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(&r.name[0])),
			uintptr(flags|syscall.O_LARGEFILE), 0, 0, 0)
		switch e {
		case 0:
			return int(fd), nil
		case syscall.EINTR:
			continue
		}
		return -1, e
	}
}

func openRetry(path string, flags int) (int, error) {
	for {
		fd, err := syscall.Open(path, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// direntNameOffset is where the name starts in a linux_dirent64:
// d_ino (8), d_off (8), d_reclen (2), d_type (1).
const direntNameOffset = 19

// parseDirents calls fn for each record in buf, a getdents64 result.
func parseDirents(buf []byte, fn func(name []byte, typ entryType)) {
	for len(buf) >= direntNameOffset {
		d := (*syscall.Dirent)(unsafe.Pointer(&buf[0]))
		reclen := int(d.Reclen)
		if reclen < direntNameOffset || reclen > len(buf) {
			return // malformed: stop rather than read past the record
		}
		name := buf[direntNameOffset:reclen]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		buf = buf[reclen:]
		if d.Ino == 0 || len(name) == 0 || (name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.')) {
			continue
		}
		var typ entryType
		switch d.Type {
		case syscall.DT_DIR:
			typ = typeDir
		case syscall.DT_REG:
			typ = typeFile
		case syscall.DT_LNK:
			typ = typeSymlink
		case syscall.DT_UNKNOWN:
			typ = typeUnknown
		default:
			typ = typeOther
		}
		fn(name, typ)
	}
}

// statID returns the device and inode of the file at path, following
// symlinks, and its type.
func statID(path string) (fileID, entryType, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return fileID{}, typeUnknown, err
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, modeType(st.Mode), nil
}

// lstatType returns the type of the entry at path, not following a symlink.
func lstatType(path string) (entryType, error) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		return typeUnknown, err
	}
	return modeType(st.Mode), nil
}

func modeType(m uint32) entryType {
	switch m & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return typeDir
	case syscall.S_IFREG:
		return typeFile
	case syscall.S_IFLNK:
		return typeSymlink
	}
	return typeOther
}

// readSmall reads at most limit bytes of a small file (HEAD, a .git file, a
// config) with one open, one read and one close: no *os.File, whose
// non-blocking open would also register with the poller. O_NONBLOCK keeps a
// FIFO planted as HEAD from hanging the walk (its read fails at once), and a
// folder fails with EISDIR. A regular file's first read returns all of it
// up to limit.
func readSmall(name string, limit int) ([]byte, error) {
	fd, err := openRetry(name, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC|syscall.O_NOCTTY)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	// Most of these files are a line long: start small, grow while full.
	buf := make([]byte, 0, min(limit, 512))
	for {
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		buf = buf[:len(buf)+n]
		if n == 0 || len(buf) < cap(buf) || len(buf) >= limit {
			return buf, nil
		}
		buf = slices.Grow(buf, min(limit, 2*cap(buf))-len(buf))
	}
}
