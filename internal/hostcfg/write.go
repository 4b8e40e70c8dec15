package hostcfg

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrChanged is returned by Write when the file no longer holds what was
// read: its host (Claude Code rewrites ~/.claude.json as it runs) or a
// person changed it in between.
var ErrChanged = errors.New("the file changed since it was read; nothing written to it: run the command again")

// Written says what Write did.
type Written struct {
	// Target is the file written: the path given, or the file its symbolic
	// link leads to.
	Target string
	// Link says the path given is a symbolic link to Target.
	Link bool
	// Backup is the copy of the previous content: in the backups folder
	// Write was given (BackupName), else beside Target; BackupExisted says
	// an identical copy was already there.
	Backup        string
	BackupExisted bool
	// OlderBackup, when not "", is a backup of other content that was
	// already at Target+".rootpick-backup" and is kept.
	OlderBackup string
}

// BackupSuffix ends the name of the copy Write keeps of a file's previous
// content.
const BackupSuffix = ".rootpick-backup"

// Write replaces the file at path, which must still hold old, with new.
//
// A symbolic link is followed: the file it leads to is written, so that a
// configuration kept in a dotfiles repository and linked into place stays a
// link (replacing the link by a file would silently fork the two); the
// temporary file is made in the target's folder, so the final rename stays
// within one folder and one file system. The previous content is first
// copied beside the target as TARGET.rootpick-backup, never over an older
// backup that holds something else (that one is kept, and the copy gets
// the next free TARGET.rootpick-backup.N). The new content is written to a
// temporary file in the same folder with the target's permissions, synced,
// and renamed over the target, so that the host never reads half a file.
// The file is read as Load reads it (see ReadConfig), never more than old
// and one byte.
//
// With backups (a folder of the person's own: rootpick's state folder's
// backups), the previous content goes there instead, as BackupName(Target):
// one backup per file, the newest, replacing the one before, so that
// nothing is left beside a file a team commits and backups do not pile up.
func Write(path string, old, new []byte, backups string) (Written, error) {
	w := Written{Target: path}
	if fi, err := os.Lstat(path); err != nil {
		return w, err
	} else if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return w, err
		}
		w.Target, w.Link = target, true
	}
	// Read as Load reads (through the link, with its rules), never more
	// than the old content and a byte.
	same, fi, err := holds(path, old, true)
	if err != nil {
		return w, err
	}
	if tfi, err := os.Lstat(w.Target); err != nil || !os.SameFile(fi, tfi) {
		return w, ErrChanged // the link leads elsewhere now
	}
	if !same {
		return w, ErrChanged
	}
	mode := fi.Mode().Perm()
	keep := w.backup
	if backups != "" {
		keep = func(old []byte, fi fs.FileInfo) error { return w.backupIn(backups, old, fi) }
	}
	if err := keep(old, fi); err != nil {
		return w, fmt.Errorf("writing the backup: %w", err)
	}
	dir := filepath.Dir(w.Target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(w.Target)+".rootpick-*")
	if err != nil {
		return w, err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(mode); err != nil {
		return w, err
	}
	keepOwner(tmp, fi)
	if _, err := tmp.Write(new); err != nil {
		return w, err
	}
	if err := tmp.Sync(); err != nil {
		return w, err
	}
	if err := tmp.Close(); err != nil {
		return w, err
	}
	// Last look before the rename: the host may have written meanwhile.
	if same, _, err := holds(w.Target, old, false); err != nil || !same {
		os.Remove(tmp.Name())
		done = true
		if err != nil {
			return w, err
		}
		return w, ErrChanged
	}
	if err := os.Rename(tmp.Name(), w.Target); err != nil {
		return w, err
	}
	done = true
	return w, nil
}

// backup copies old beside the target, created new (never through a link,
// never over another file), with the target's permissions and owner: a
// configuration may hold tokens in its env blocks, so the copy is as
// private as the file (and no more open), and root editing a person's
// file leaves a copy the person owns, as the file. An existing backup is
// reused only when it is a regular file (not a link) of the target's owner,
// no more open than the target, holding old; it is read no further than
// that, so a FIFO or a link to a device in its place costs nothing and is
// kept, as any other older backup.
func (w *Written) backup(old []byte, target fs.FileInfo) error {
	mode := target.Mode().Perm()
	base := w.Target + BackupSuffix
	for n := 0; n < 1000; n++ {
		name := base
		if n > 0 {
			name = base + "." + strconv.Itoa(n)
		}
		if same, fi, err := holds(name, old, false); err == nil && same && sameOwner(fi, target) && fi.Mode().Perm()&^mode == 0 {
			w.Backup, w.BackupExisted = name, true
			return nil
		}
		// Made private, then given the target's owner and mode: created
		// with the mode, it would get what the umask leaves of it.
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			if n == 0 {
				w.OlderBackup = name
			}
			continue
		}
		if err != nil {
			return err
		}
		_, err = f.Write(old)
		if err == nil {
			keepOwner(f, target)
			err = f.Chmod(mode)
		}
		if serr := f.Sync(); err == nil {
			err = serr
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return err
		}
		w.Backup = name
		return nil
	}
	return errors.New("too many backups beside " + w.Target)
}

// BackupName is the name of target's backup in a backups folder: its base
// name (letters, digits, '.', '-' and '_' kept) and a hash of its absolute
// path, so that the .mcp.json of two projects keep one backup each.
func BackupName(target string) string {
	abs, err := filepath.Abs(target)
	if err != nil {
		abs = target
	}
	sum := sha256.Sum256([]byte(abs))
	base := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, filepath.Base(abs))
	return strings.TrimLeft(base, ".") + "-" + hex.EncodeToString(sum[:6]) + BackupSuffix
}

// backupIn keeps old as the one backup of the target in dir, with the
// target's permissions and owner (as backup does): written to a temporary
// file made new in dir, synced, and renamed over the older backup (a link
// there is replaced, never followed). Nothing is written when the backup
// there already holds old, is a regular file of the target's owner and
// is no more open than the target.
func (w *Written) backupIn(dir string, old []byte, target fs.FileInfo) error {
	name := BackupName(w.Target)
	full := filepath.Join(dir, name)
	if same, fi, err := holds(full, old, false); err == nil && same && sameOwner(fi, target) && fi.Mode().Perm()&^target.Mode().Perm() == 0 {
		w.Backup, w.BackupExisted = full, true
		return nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := "." + name + ".tmp-" + hex.EncodeToString(rnd[:])
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(old)
	if err == nil {
		keepOwner(f, target)
		err = f.Chmod(target.Mode().Perm())
	}
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(tmp, name)
	}
	if err != nil {
		_ = root.Remove(tmp)
		return err
	}
	w.Backup = full
	return nil
}
