//go:build unix

package consent

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ownDirImpl holds the folder's descriptor; every file is reached through
// it (openat, renameat, unlinkat).
type ownDirImpl struct{ fd int }

func (d ownDirImpl) close() error { return unix.Close(d.fd) }

// OpenOwnDir opens the folder base/subs[0]/subs[1]/…, checking base and
// each folder below it: a real folder (not a symbolic link), owned by the
// person running rootpick, and closed to group and others. Folders above
// base are not rootpick's and are not checked. With create, missing folders
// are made 0700 (and base's parents, 0700), and a folder of the person's own
// that is open to others is tightened to 0700 — except a state folder the
// person named (OpenStateDir), which is never changed; a folder of another
// user is refused either way, never tightened. A missing folder without
// create is an error satisfying errors.Is(err, fs.ErrNotExist).
func OpenOwnDir(base string, create bool, subs ...string) (*OwnDir, error) {
	return openOwnDir(base, create, false, subs)
}

// openOwnDir is OpenOwnDir; keepBase says base is never tightened.
func openOwnDir(base string, create, keepBase bool, subs []string) (*OwnDir, error) {
	if !filepath.IsAbs(base) {
		return nil, untrusted(base, "is not an absolute path")
	}
	if create {
		if err := os.MkdirAll(filepath.Dir(base), 0o700); err != nil {
			return nil, fmt.Errorf("consent: making %s: %w", filepath.Dir(base), err)
		}
	}
	path := filepath.Clean(base)
	fd, err := openOwnDirAt(unix.AT_FDCWD, path, path, create, keepBase)
	if err != nil {
		return nil, err
	}
	for _, s := range subs {
		if s == "" || s == "." || s == ".." || filepath.Base(s) != s {
			unix.Close(fd)
			return nil, fmt.Errorf("consent: %q is not a folder name", s)
		}
		path = filepath.Join(path, s)
		next, err := openOwnDirAt(fd, s, path, create, false)
		unix.Close(fd)
		if err != nil {
			return nil, err
		}
		fd = next
	}
	return &OwnDir{path: path, impl: ownDirImpl{fd: fd}}, nil
}

// openOwnDirAt opens the folder name relative to at (path is its full
// path, for messages) and checks it is the person's own. With create, a
// loose one is tightened, unless keep.
func openOwnDirAt(at int, name, path string, create, keep bool) (int, error) {
	if create {
		if err := unix.Mkdirat(at, name, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
			return -1, &fs.PathError{Op: "mkdir", Path: path, Err: err}
		}
	}
	fd, err := unix.Openat(at, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, openError(at, name, path, err, "a folder")
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if why := notOwn(&st); why != "" {
		unix.Close(fd)
		return -1, untrusted(path, "%s", why)
	}
	if perm := uint32(st.Mode) & 0o777; perm&0o077 != 0 {
		if !create || keep {
			unix.Close(fd)
			return -1, untrusted(path, "is open to others (mode %04o, not 0700)", perm)
		}
		// The person's own folder, made loose by hand or an old version:
		// close it before anything is written into it.
		if err := unix.Fchmod(fd, 0o700); err != nil {
			unix.Close(fd)
			return -1, &fs.PathError{Op: "chmod", Path: path, Err: err}
		}
	}
	return fd, nil
}

// openError turns a failed openat of name into what a person can act on:
// a symbolic link or a file of the wrong type is untrusted, a missing one is
// fs.ErrNotExist.
func openError(at int, name, path string, err error, want string) error {
	if errors.Is(err, unix.ENOENT) {
		return &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if unix.Fstatat(at, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
		if kind := fileKind(uint32(st.Mode)); kind != want {
			return untrusted(path, "is %s, not %s", kind, want)
		}
	}
	return &fs.PathError{Op: "open", Path: path, Err: err}
}

// fileKind names a file type for a message ("a symbolic link").
func fileKind(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return "a regular file"
	case unix.S_IFDIR:
		return "a folder"
	case unix.S_IFLNK:
		return "a symbolic link"
	case unix.S_IFIFO:
		return "a FIFO"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFCHR, unix.S_IFBLK:
		return "a device"
	}
	return "not a regular file"
}

// notOwn says why st is not the person's own, or "".
func notOwn(st *unix.Stat_t) string {
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return fmt.Sprintf("belongs to user %d, not to you (user %d)", st.Uid, uid)
	}
	return ""
}

// ReadFile reads the file name in d if it is the person's own regular file,
// closed to writing by group and others, of at most MaxStateFile bytes. It
// is opened without following a symbolic link and without blocking (a
// FIFO is refused, never waited on). A missing file is an error satisfying
// errors.Is(err, fs.ErrNotExist).
func (d *OwnDir) ReadFile(name string) ([]byte, error) {
	path := filepath.Join(d.path, name)
	fd, err := unix.Openat(d.impl.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, openError(d.impl.fd, name, path, err, "a regular file")
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if kind := fileKind(uint32(st.Mode)); kind != "a regular file" {
		return nil, untrusted(path, "is %s, not a regular file", kind)
	}
	if why := notOwn(&st); why != "" {
		return nil, untrusted(path, "%s", why)
	}
	if perm := uint32(st.Mode) & 0o777; perm&0o022 != 0 {
		return nil, untrusted(path, "is writable by others (mode %04o)", perm)
	}
	if st.Size > MaxStateFile {
		return nil, untrusted(path, "is %d bytes, more than %d", st.Size, MaxStateFile)
	}
	// The file may grow while it is read: read one byte past the cap.
	b, err := io.ReadAll(io.LimitReader(f, MaxStateFile+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if len(b) > MaxStateFile {
		return nil, untrusted(path, "grew past %d bytes while read", MaxStateFile)
	}
	return b, nil
}

// Names lists the entries of d.
func (d *OwnDir) Names() ([]string, error) {
	fd, err := unix.Openat(d.impl.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	return f.Readdirnames(-1)
}

// WriteFile replaces the file name in d with b, atomically: b goes to a new
// temporary file (0600, created exclusively, never through a link), which
// is synced and renamed over name — a link at name is replaced, not
// followed — and the folder is synced. A crash at any point leaves the old
// file or the new one. before, if set, runs between the sync and the
// rename (tests stop there, as a crash would).
func (d *OwnDir) WriteFile(name string, b []byte, before func(tmp string) error) error {
	path := filepath.Join(d.path, name)
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := "." + name + ".tmp-" + hex.EncodeToString(rnd[:])
	fd, err := unix.Openat(d.impl.fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return &fs.PathError{Op: "create", Path: filepath.Join(d.path, tmp), Err: err}
	}
	ok := false
	defer func() {
		if !ok {
			_ = unix.Unlinkat(d.impl.fd, tmp, 0)
		}
	}()
	f := os.NewFile(uintptr(fd), filepath.Join(d.path, tmp))
	if err := writeSynced(f, b); err != nil {
		return err
	}
	if before != nil {
		if err := before(filepath.Join(d.path, tmp)); err != nil {
			return err
		}
	}
	if err := unix.Renameat(d.impl.fd, tmp, d.impl.fd, name); err != nil {
		return &fs.PathError{Op: "rename", Path: path, Err: err}
	}
	ok = true
	d.sync()
	return nil
}

// Append adds b to the file name in d with one O_APPEND write, creating it
// 0600. It never writes through a symbolic link, and refuses a file that is
// not the person's own regular file; one of theirs open to others is
// tightened to 0600 first.
func (d *OwnDir) Append(name string, b []byte) error {
	path := filepath.Join(d.path, name)
	fd, err := unix.Openat(d.impl.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_APPEND|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return openError(d.impl.fd, name, path, err, "a regular file")
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if kind := fileKind(uint32(st.Mode)); kind != "a regular file" {
		return untrusted(path, "is %s, not a regular file", kind)
	}
	if why := notOwn(&st); why != "" {
		return untrusted(path, "%s", why)
	}
	if uint32(st.Mode)&0o077 != 0 {
		if err := unix.Fchmod(fd, 0o600); err != nil {
			return &fs.PathError{Op: "chmod", Path: path, Err: err}
		}
	}
	_, err = f.Write(b)
	return err
}

// Remove removes the file name from d; a missing file is an error
// satisfying errors.Is(err, fs.ErrNotExist).
func (d *OwnDir) Remove(name string) error {
	if err := unix.Unlinkat(d.impl.fd, name, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.path, name), Err: err}
	}
	d.sync()
	return nil
}

// sync syncs the folder, so that a rename or removal survives a crash.
// Some file systems cannot sync a folder; the change is made either way.
func (d *OwnDir) sync() { _ = unix.Fsync(d.impl.fd) }

// CheckNamedDir checks a state folder the person names (--state-dir, see
// paths.Dirs.WithStateDir): absent, or a real folder of the person's own
// closed to others. It changes nothing; what is refused is an
// *UntrustedError.
func CheckNamedDir(dir string) error {
	fd, err := openOwnDirAt(unix.AT_FDCWD, dir, dir, false, true)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return unix.Close(fd)
}
