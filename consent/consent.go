// Package consent turns a person's selection of folders into MCP roots.
//
// It owns what a root is (a canonical absolute path to a readable directory
// and its RFC 8089 file:// URI), why a root is risky enough to need its own
// confirmation (Risks), which roots cover others (Overlaps, CoveringRoot),
// the difference between what is exposed and what is proposed (Review),
// which the consent dialog shows before anything changes on the wire, and
// the remembered consent of a profile with its audit log (Store), which
// any process may read. It uses the standard library only and does no
// terminal I/O.
package consent

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Root is one folder a person has agreed to share.
type Root struct {
	// Path is the canonical absolute path: cleaned, symlinks resolved.
	Path string `json:"path"`
	// URI is "file://" plus the percent-encoded Path. URIToPath(URI) == Path.
	URI string `json:"uri"`
	// Name is a human-readable label, by default the last element of Path.
	Name string `json:"name"`
	// ReadOnly shares the folder for reading and listing only: an
	// enforced server may not write, create, remove or execute anything
	// in it. False (and a record written before it existed) is read and
	// write.
	ReadOnly bool `json:"read_only,omitempty"`
}

// Access is how r is shared, in words: "read-only" or "read and write".
func (r Root) Access() string {
	if r.ReadOnly {
		return "read-only"
	}
	return "read and write"
}

// NewRoot validates path and returns its Root: the path is made absolute,
// cleaned and its symlinks resolved; it must name a readable directory.
//
// Errors quote the path with %q, so a folder name holding control
// characters cannot drive a terminal that prints the error, and they wrap
// the cause, so errors.Is(err, fs.ErrNotExist) and similar checks work.
func NewRoot(path string) (Root, error) {
	if path == "" {
		// filepath.Abs("") is the working folder; sharing it by accident
		// is exactly what consent is meant to prevent.
		return Root{}, errors.New("consent: empty path")
	}
	if strings.IndexByte(path, 0) >= 0 {
		return Root{}, fmt.Errorf("consent: root %q: path contains a NUL byte", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Root{}, wrapPathErr(path, "make absolute", err)
	}
	canon, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return Root{}, wrapPathErr(path, "resolve", err)
	}
	canon = filepath.Clean(canon)
	if !filepath.IsAbs(canon) {
		// EvalSymlinks of an absolute path is absolute; be sure anyway.
		return Root{}, fmt.Errorf("consent: root %q: resolved to non-absolute %q", path, canon)
	}
	info, err := os.Stat(canon)
	if err != nil {
		return Root{}, wrapPathErr(path, "stat", err)
	}
	if !info.IsDir() {
		return Root{}, fmt.Errorf("consent: root %q: %q is not a directory", path, canon)
	}
	if err := checkReadable(canon); err != nil {
		return Root{}, wrapPathErr(path, "read", err)
	}
	return Root{Path: canon, URI: PathToURI(canon), Name: filepath.Base(canon)}, nil
}

// checkReadable reports an error unless the directory dir can be listed.
func checkReadable(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// PathToURI returns the file:// URI of an absolute path, percent-encoding
// every byte that is not allowed verbatim in a URI path (RFC 3986/8089), so
// spaces, %, #, ?, non-ASCII and control characters survive.
//
// Bytes are encoded one by one with uppercase hex; '/' is never encoded, so
// the URI has the same segments as the path. A path that is not absolute
// gets the authority-less form "file:" + encoded path, which URIToPath
// rejects, so a relative path can never be read back as a host name.
func PathToURI(path string) string {
	var b strings.Builder
	b.Grow(len("file://") + len(path) + 8)
	if strings.HasPrefix(path, "/") {
		b.WriteString("file://")
	} else {
		b.WriteString("file:")
	}
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(path); i++ {
		c := path[i]
		if pathByteVerbatim(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0x0F])
	}
	return b.String()
}

// Change is the difference between the exposed roots and a proposal.
type Change struct {
	// Added are roots in the proposal that are not exposed yet.
	Added []Root
	// Removed are exposed roots the proposal drops.
	Removed []Root
	// Kept are roots in both.
	Kept []Root
	// Changed are the roots of Kept whose access (Root.ReadOnly) the
	// proposal changes: a change to confirm, as an added root is.
	Changed []Root
}

// Review compares what is exposed with what is proposed, matching roots by
// URI; a root in both whose access differs is also in Changed. Each list
// in the result is sorted by Path.
//
// Kept holds the proposed version of a root that is in both. Duplicate URIs
// within one input count once (the first occurrence wins). Nil inputs are
// empty sets; empty lists in the result are nil.
func Review(exposed, proposed []Root) Change {
	inExposed := make(map[string]bool, len(exposed))
	readOnly := make(map[string]bool, len(exposed))
	for _, r := range exposed {
		if !inExposed[r.URI] {
			readOnly[r.URI] = r.ReadOnly
		}
		inExposed[r.URI] = true
	}
	var c Change
	seen := make(map[string]bool, len(proposed))
	for _, r := range proposed {
		if seen[r.URI] {
			continue
		}
		seen[r.URI] = true
		if inExposed[r.URI] {
			c.Kept = append(c.Kept, r)
			if r.ReadOnly != readOnly[r.URI] {
				c.Changed = append(c.Changed, r)
			}
		} else {
			c.Added = append(c.Added, r)
		}
	}
	for _, r := range exposed {
		if seen[r.URI] {
			continue
		}
		// Marking it seen also collapses duplicates within exposed.
		seen[r.URI] = true
		c.Removed = append(c.Removed, r)
	}
	SortRoots(c.Added)
	SortRoots(c.Removed)
	SortRoots(c.Kept)
	SortRoots(c.Changed)
	return c
}

// Empty reports whether the change adds, removes and changes nothing.
func (c Change) Empty() bool { return len(c.Added) == 0 && len(c.Removed) == 0 && len(c.Changed) == 0 }
