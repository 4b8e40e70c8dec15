package consent

import (
	"fmt"
	"os"
	"strconv"

	"github.com/rootpick/rootpick/internal/paths"
)

// MaxStateFile is the largest state file rootpick believes: a consent
// record or a proxy's registry entry is a few KiB, so anything bigger is
// not one of them (a link to /dev/zero, a file grown by someone else).
const MaxStateFile = 1 << 20

// UntrustedError says why a state file or folder is not believed: it is not
// plainly the person's own (a symbolic link, a FIFO, another user's file,
// one others may write, one too big). Whatever it holds counts as no
// consent. Its text is one line naming the path and what is wrong.
type UntrustedError struct {
	Path string
	Why  string
}

func (e *UntrustedError) Error() string {
	return strconv.Quote(e.Path) + " " + e.Why
}

func untrusted(path, format string, args ...any) error {
	return &UntrustedError{Path: path, Why: fmt.Sprintf(format, args...)}
}

// OwnDir is one of rootpick's state folders (consent/, run/), opened
// without following symbolic links and checked to be the person's own:
// every file under it is then opened relative to it, so a folder swapped
// for a link after the check is never walked into. Reads refuse what is not
// the person's own regular file; writes never follow a link and replace
// files atomically.
//
// The Unix version opens the folders with O_NOFOLLOW and works on their
// descriptors (openat, renameat); elsewhere the checks are made by path,
// without the owner (Windows has no owner bits to compare).
type OwnDir struct {
	path string
	impl ownDirImpl
}

// Path is the folder's path.
func (d *OwnDir) Path() string { return d.path }

// Close releases the folder.
func (d *OwnDir) Close() error { return d.impl.close() }

// OpenStateDir opens the folder state.Dir/subs… as OpenOwnDir does, where
// state is rootpick's state folder: one the person named (state.Named,
// --state-dir) is made 0700 when absent but never changed when it exists,
// so one that has become open to others is refused, not tightened.
func OpenStateDir(state paths.State, create bool, subs ...string) (*OwnDir, error) {
	return openOwnDir(state.Dir, create, state.Named, subs)
}

// writeSynced writes b to f, syncs it to the disk and closes it: the step
// of an atomic replace that must be done before the rename.
func writeSynced(f *os.File, b []byte) error {
	_, err := f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
