package hostcfg

// Reading a host's configuration file as a claim from outside: the files
// live in the home folder and in repositories, and a cloned repository
// can ship .vscode/mcp.json as a symbolic link to /dev/zero or to a FIFO
// (git stores links). Only regular files are read; a device, FIFO or
// socket is refused before it is opened (opening some devices does
// something), the file is opened without blocking and checked again once
// open, and no more than a cap is read.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// The most bytes hostcfg reads of a host's configuration file. The
// servers of a host fit in a few KiB, so anything near a cap is not a
// configuration (a link to a huge file, one grown by someone else). The
// caps also bound memory: the parsers take up to 100 times a file's size
// (JSON kept whole in one servers object, TOML of one-character values)
// and goccy/go-yaml up to 550 times (a flow sequence of one-letter items).
const (
	// MaxProjectFile is the cap for a project's files (.mcp.json,
	// .vscode/mcp.json, …): they come with repositories, from anyone.
	MaxProjectFile = 1 << 20
	// MaxConfigFile is the cap for the person's own JSON and TOML files.
	MaxConfigFile = 16 << 20
	// MaxYAMLFile is the cap for Goose's config.yaml.
	MaxYAMLFile = 256 << 10
	// MaxClaudeUserFile is the cap for Claude Code's ~/.claude.json, which
	// keeps every project's prompt history beside the servers and is
	// known to grow to tens of megabytes (65 and 101 MB are reported in
	// anthropics/claude-code#6394 and #2593); refusing it would leave such
	// a person without `rootpick hosts`. Most of it is history, which is
	// only walked over: reading and wrapping a 22 MB one takes about 130 MB.
	MaxClaudeUserFile = 128 << 20
)

// limit is the cap for f.
func (f File) limit() int64 {
	switch {
	case f.Scope == ScopeProject:
		return MaxProjectFile
	case f.layout == layoutClaudeUser:
		return MaxClaudeUserFile
	case f.format == formatYAML:
		return MaxYAMLFile
	}
	return MaxConfigFile
}

// RefusedError says why a file was not read. Its text is one line naming
// the file (and where its link leads) and what is wrong.
type RefusedError struct {
	// Path is the file asked for; Link, when not "", is where it leads
	// as a symbolic link.
	Path, Link string
	// Why is what is wrong ("is a FIFO, not a regular file").
	Why string
}

func (e *RefusedError) Error() string {
	s := strconv.Quote(e.Path)
	if e.Link != "" {
		s += " (a symbolic link to " + strconv.Quote(e.Link) + ")"
	}
	return s + " " + e.Why + "; not read"
}

// refused is a RefusedError.
func refused(path, link, format string, args ...any) error {
	return &RefusedError{Path: path, Link: link, Why: fmt.Sprintf(format, args...)}
}

// ReadConfig reads the file at path as a host's configuration file, of at
// most limit bytes. It must be a regular file: a device, FIFO or socket is
// refused without being opened. A symbolic link is followed only to a
// regular file of the person's own (owned by the user rootpick runs as,
// not writable by group or others): a repository can ship a link to
// anything. The file is opened without blocking and checked again once
// open (it must still be the file that was checked), and a file that grows
// past limit while it is read is refused. A missing file is an error
// satisfying errors.Is(err, fs.ErrNotExist); every refusal is a
// *RefusedError.
func ReadConfig(path string, limit int64) ([]byte, error) {
	f, fi, err := openRegular(path, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, refused(path, "", "is %d bytes, more than the %s rootpick reads", fi.Size(), sizeName(limit))
	}
	return readCapped(f, path, fi.Size(), limit)
}

// readCapped reads r to its end, refusing more than limit bytes; size is
// what the file said it held, so that one allocation usually does.
func readCapped(r io.Reader, path string, size, limit int64) ([]byte, error) {
	b := make([]byte, 0, min(size, limit)+1)
	for {
		n, err := r.Read(b[len(b):min(int64(cap(b)), limit+1)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, refused(path, "", "grew past the %s rootpick reads while it was read", sizeName(limit))
		}
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // room to read on
		}
	}
}

// holds reports whether the file at path holds exactly want, reading it a
// piece at a time (a large ~/.claude.json is not copied whole again) and
// no more than one byte past want; follow says a symbolic link at path is
// followed (as ReadConfig does) rather than refused. fi is the open
// file's.
func holds(path string, want []byte, follow bool) (same bool, fi fs.FileInfo, err error) {
	f, fi, err := openRegular(path, follow)
	if err != nil {
		return false, nil, err
	}
	defer f.Close()
	if fi.Size() != int64(len(want)) {
		return false, fi, nil
	}
	buf := make([]byte, min(len(want)+1, 64<<10))
	rest := want
	for {
		n, err := f.Read(buf[:min(len(buf), len(rest)+1)])
		if n > len(rest) || !bytes.Equal(buf[:n], rest[:n]) {
			return false, fi, nil // different, or longer
		}
		rest = rest[n:]
		if errors.Is(err, io.EOF) {
			return len(rest) == 0, fi, nil
		}
		if err != nil {
			return false, fi, &fs.PathError{Op: "read", Path: path, Err: err}
		}
	}
}

// openRegular opens path for reading if it is a regular file; see
// ReadConfig. With follow false a symbolic link is refused.
func openRegular(path string, follow bool) (*os.File, fs.FileInfo, error) {
	lst, err := os.Lstat(path)
	if err != nil {
		return nil, nil, err
	}
	st, link := lst, ""
	if lst.Mode()&fs.ModeSymlink != 0 {
		link = linkTarget(path)
		if !follow {
			return nil, nil, refused(path, link, "is a symbolic link, not a regular file")
		}
		if st, err = os.Stat(path); err != nil {
			return nil, nil, err // a dangling link is a missing file
		}
	}
	if !st.Mode().IsRegular() {
		return nil, nil, refused(path, link, "is %s, not a regular file", kindOf(st.Mode()))
	}
	if link != "" {
		if why := notYours(st); why != "" {
			return nil, nil, refused(path, link, "%s: a linked configuration is read only when it is your own", why)
		}
	}
	return openChecked(path, link, st)
}

// openChecked opens path, checked as st (through the link to link, when
// not ""), and checks that what it opened is that file still: between the
// check and the open, a FIFO or a device may have been put in its place.
func openChecked(path, link string, st fs.FileInfo) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, openFlags(link == ""), 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && (!fi.Mode().IsRegular() || !os.SameFile(st, fi)) {
		err = refused(path, link, "changed while it was opened")
	}
	if err == nil && link != "" {
		if why := notYours(fi); why != "" {
			err = refused(path, link, "%s: a linked configuration is read only when it is your own", why)
		}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// linkTarget is where the link at path leads, for a message: the file at
// the end of its chain, or its own text when that cannot be found.
func linkTarget(path string) string {
	if t, err := filepath.EvalSymlinks(path); err == nil {
		return t
	}
	t, _ := os.Readlink(path)
	return t
}

// kindOf names a file type for a message ("a FIFO").
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// sizeName writes a cap in MiB or KiB.
func sizeName(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MiB"
	}
	return strconv.FormatInt(n>>10, 10) + " KiB"
}
