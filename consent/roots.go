package consent

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// Roots builds a Root for each path with NewRoot. Paths that fail are
// skipped and their errors returned in input order; roots keep input order,
// and a folder reached through several paths (say, a symlink and its target)
// appears once, under the first path that reached it.
func Roots(paths []string) ([]Root, []error) {
	var roots []Root
	var errs []error
	seen := make(map[string]bool, len(paths))
	for _, p := range paths {
		r, err := NewRoot(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if seen[r.URI] {
			continue
		}
		seen[r.URI] = true
		roots = append(roots, r)
	}
	return roots, errs
}

// SortRoots sorts roots in place by Path, then by URI and Name so that the
// order is fully determined.
func SortRoots(roots []Root) {
	slices.SortFunc(roots, func(a, b Root) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if c := strings.Compare(a.URI, b.URI); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// rootError is a NewRoot failure. Its message quotes every path with %q, so
// a file name cannot put control characters into a log or terminal, while
// Unwrap still returns the original error for errors.Is and errors.As.
type rootError struct {
	msg string
	err error
}

func (e *rootError) Error() string { return e.msg }
func (e *rootError) Unwrap() error { return e.err }

// wrapPathErr describes a failure of step on the root path. An fs.PathError
// is re-quoted: its own message prints its path verbatim.
func wrapPathErr(path, step string, err error) error {
	msg := fmt.Sprintf("consent: root %q: %s: ", path, step)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg += fmt.Sprintf("%s %q: %v", pe.Op, pe.Path, pe.Err)
	} else {
		msg += err.Error()
	}
	return &rootError{msg: msg, err: err}
}

// Recheck says why r, served until now, may no longer be served: its
// folder was deleted or renamed, became unreadable or no folder, or now
// resolves elsewhere (a link put in its place); "" if it still may be.
// The hub withdraws such a root from every server, and rootpick proxy
// from its child.
func Recheck(r Root) string {
	now, err := NewRoot(r.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "deleted or renamed"
	case errors.Is(err, fs.ErrPermission):
		return "no longer readable"
	case err != nil:
		return "no longer a readable folder"
	case now.Path != r.Path:
		return "now resolves to " + now.Path
	}
	return ""
}
