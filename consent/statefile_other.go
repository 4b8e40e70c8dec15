//go:build !unix

package consent

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ownDirImpl checks by path: this system has no openat and no owner bits
// that os exposes. Links and non-regular files are still refused.
type ownDirImpl struct{}

func (ownDirImpl) close() error { return nil }

// OpenOwnDir opens the folder base/subs…; see the Unix version. Here a
// folder is checked to be a real folder, not a link; owners and modes are
// not compared.
func OpenOwnDir(base string, create bool, subs ...string) (*OwnDir, error) {
	return openOwnDir(base, create, false, subs)
}

// openOwnDir is OpenOwnDir; nothing is tightened here, so keepBase changes
// nothing.
func openOwnDir(base string, create, _ bool, subs []string) (*OwnDir, error) {
	if !filepath.IsAbs(base) {
		return nil, untrusted(base, "is not an absolute path")
	}
	path := filepath.Clean(base)
	for i := -1; i < len(subs); i++ {
		if i >= 0 {
			if s := subs[i]; s == "" || s == "." || s == ".." || filepath.Base(s) != s {
				return nil, fmt.Errorf("consent: %q is not a folder name", s)
			}
			path = filepath.Join(path, subs[i])
		}
		if create {
			if err := os.MkdirAll(path, 0o700); err != nil {
				return nil, err
			}
		}
		st, err := os.Lstat(path)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			return nil, untrusted(path, "is not a folder")
		}
	}
	return &OwnDir{path: path}, nil
}

func (d *OwnDir) checkFile(path string, missingOK bool) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) && missingOK {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return untrusted(path, "is not a regular file")
	}
	if st.Size() > MaxStateFile {
		return untrusted(path, "is %d bytes, more than %d", st.Size(), MaxStateFile)
	}
	return nil
}

// ReadFile reads the file name in d if it is a regular file of at most
// MaxStateFile bytes.
func (d *OwnDir) ReadFile(name string) ([]byte, error) {
	path := filepath.Join(d.path, name)
	if err := d.checkFile(path, false); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxStateFile+1))
	if err == nil && len(b) > MaxStateFile {
		return nil, untrusted(path, "grew past %d bytes while read", MaxStateFile)
	}
	return b, err
}

// Names lists the entries of d.
func (d *OwnDir) Names() ([]string, error) {
	f, err := os.Open(d.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// WriteFile replaces the file name in d with b through a temporary file
// and a rename; see the Unix version.
func (d *OwnDir) WriteFile(name string, b []byte, before func(tmp string) error) error {
	f, err := os.CreateTemp(d.path, "."+name+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
		}
	}()
	if err := writeSynced(f, b); err != nil {
		return err
	}
	if before != nil {
		if err := before(tmp); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, filepath.Join(d.path, name)); err != nil {
		return err
	}
	ok = true
	return nil
}

// Append adds b to the file name in d with one append write.
func (d *OwnDir) Append(name string, b []byte) error {
	path := filepath.Join(d.path, name)
	if err := d.checkFile(path, true); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Write(b)
	return err
}

// Remove removes the file name from d.
func (d *OwnDir) Remove(name string) error {
	return os.Remove(filepath.Join(d.path, name))
}

// CheckNamedDir checks a state folder the person names: absent, or a real
// folder (owners and modes are not compared here). It changes nothing.
func CheckNamedDir(dir string) error {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return untrusted(dir, "is not a folder")
	}
	return nil
}
