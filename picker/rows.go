package picker

import (
	"strings"

	"github.com/rootpick/rootpick/vcsdetect"
)

// row is a candidate as the State keeps it: 40 bytes and one string, where
// a vcsdetect.Repo takes 104 bytes plus its strings. The string holds the
// path and, after a space, the branch, so the path, the name, the branch
// and the filter's haystack (the label shown, a space, the branch: see
// Haystack) are all substrings of it. On the 48,750-row tree of
// .ci/bench-keys the list takes about 9 MB of heap instead of 19 MB
// (exact heap profiles), which Go's collector roughly doubles in resident
// memory.
//
// A row is never written in place while a Query may read it (see
// State.unshareRows), so a Query reads its snapshot of rows without a lock.
type row struct {
	s     string // the path, then " " and the branch when there is one
	path  int32  // the path is s[:path]
	hay   int32  // the haystack is s[hay:]; hayDot: "." then s[path:]
	name  int32  // Name is s[name:path]; nameExtra: extras[extra-1].name
	depth int32
	extra int32 // 1 + the index in State.extras of the rare fields, 0 for none
	kind  uint8 // index in kinds; kindExtra: extras[extra-1].kind
}

const (
	hayDot    = -1 // the row of the base folder itself: its label is "."
	nameExtra = -1
	kindExtra = 255
)

// kinds are the kinds a row stores as a byte.
var kinds = []vcsdetect.Kind{"", vcsdetect.KindGit, vcsdetect.KindWorktree, vcsdetect.KindSubmodule,
	vcsdetect.KindGitFile, vcsdetect.KindBare, vcsdetect.KindHg, vcsdetect.KindJJ, vcsdetect.KindSvn,
	vcsdetect.KindProject, vcsdetect.KindBroken}

// extra holds what few rows have: a broken repository's reason, a
// project's marker, a name that does not end its path, a kind not in kinds.
// Entries are never changed once appended (a Query may read them).
type extra struct {
	name, reason, marker string
	kind                 vcsdetect.Kind
}

// pathOf is the row's path.
func (r *row) pathOf() string { return r.s[:r.path] }

// hayOf is the text the filter matches for the row (Haystack).
func (r *row) hayOf() string {
	if r.hay == hayDot {
		return "." + r.s[r.path:] // one row at most: the base folder
	}
	return r.s[r.hay:]
}

// hayLen is len(r.hayOf()), without building the base folder's.
func (r *row) hayLen() int {
	if r.hay == hayDot {
		return 1 + len(r.s) - int(r.path)
	}
	return len(r.s) - int(r.hay)
}

// hayOffset is where Haystack(base, path+rest) starts in path+rest, or
// hayDot: the label is a suffix of the path except for the base itself.
func hayOffset(base, path string) int32 {
	l := Label(base, path)
	if !strings.HasSuffix(path, l) {
		return hayDot
	}
	return int32(len(path) - len(l))
}

// rowText is the string a row keeps for r: the path, then a space and
// the branch when there is one.
func rowText(r vcsdetect.Repo) string {
	if r.Branch == "" {
		return r.Path
	}
	return r.Path + " " + r.Branch
}

// rowTextLen is len(rowText(r)).
func rowTextLen(r vcsdetect.Repo) int {
	if r.Branch == "" {
		return len(r.Path)
	}
	return len(r.Path) + 1 + len(r.Branch)
}

// textBlock is the size of the blocks that the rows' strings of a batch
// are packed into (packTexts).
const textBlock = 64 << 10

// packTexts returns rowText of each of repos, packed one after the other
// into shared blocks of up to textBlock bytes (a longer one gets its own).
// The list's strings then sit together, away from the walk's garbage: one
// string a row, allocated while the walk drops a path a folder of the same
// sizes, left pages partly used after a collection, which the runtime
// cannot return (at 48,750 rows, 30 MB of heap pages stayed for 12 MB of
// objects; with blocks, 28.5 MB, and VmRSS after typing went from 47.8
// to 44.9 MB). A block stays alive while a row, or a string cut from one
// (a checked path), refers to it; Reset copies the checked paths out.
//
// The repositories are repos[idx[0]], repos[idx[1]], …; out[k] receives
// the string of repos[idx[k]].
func packTexts(repos []vcsdetect.Repo, idx []int, out []string) {
	var b strings.Builder
	start := 0 // the first of idx written to b
	flush := func(end int) {
		block, off := b.String(), 0
		for k := start; k < end; k++ {
			n := rowTextLen(repos[idx[k]])
			out[k] = block[off : off+n]
			off += n
		}
		b = strings.Builder{}
		start = end
	}
	for k, i := range idx {
		r := repos[i]
		n := rowTextLen(r)
		if n > textBlock/4 {
			flush(k)
			out[k], start = rowText(r), k+1
			continue
		}
		if b.Len()+n > textBlock {
			flush(k)
		}
		if b.Len() == 0 {
			left := 0
			for _, j := range idx[k:] {
				if left += rowTextLen(repos[j]); left >= textBlock {
					break
				}
			}
			b.Grow(min(left, textBlock))
		}
		b.WriteString(r.Path)
		if r.Branch != "" {
			b.WriteByte(' ')
			b.WriteString(r.Branch)
		}
	}
	flush(len(idx))
}

// newRow packs r, whose rowText is s, for the list under base; rare fields
// go to *extras.
func newRow(base string, r vcsdetect.Repo, s string, extras *[]extra) row {
	w := row{s: s, path: int32(len(r.Path)), hay: hayOffset(base, r.Path), depth: int32(r.Depth)}
	var ex extra
	odd := false
	if strings.HasSuffix(r.Path, r.Name) {
		w.name = int32(len(r.Path) - len(r.Name))
	} else {
		w.name, ex.name, odd = nameExtra, r.Name, true
	}
	w.kind = kindExtra
	for i, k := range kinds {
		if k == r.Kind {
			w.kind = uint8(i)
			break
		}
	}
	if w.kind == kindExtra {
		ex.kind, odd = r.Kind, true
	}
	if r.Reason != "" || r.Marker != "" {
		ex.reason, ex.marker, odd = r.Reason, r.Marker, true
	}
	if odd {
		*extras = append(*extras, ex)
		w.extra = int32(len(*extras))
	}
	return w
}

// repo unpacks the row.
func (r *row) repo(extras []extra) vcsdetect.Repo {
	out := vcsdetect.Repo{Path: r.s[:r.path], Depth: int(r.depth)}
	if int(r.path) < len(r.s) {
		out.Branch = r.s[r.path+1:]
	}
	var ex extra
	if r.extra > 0 {
		ex = extras[r.extra-1]
		out.Reason, out.Marker = ex.reason, ex.marker
	}
	if r.name == nameExtra {
		out.Name = ex.name
	} else {
		out.Name = r.s[r.name:r.path]
	}
	if r.kind == kindExtra {
		out.Kind = ex.kind
	} else {
		out.Kind = kinds[r.kind]
	}
	return out
}

// nameOf is the row's Repo.Name, without building the Repo.
func (s *State) nameOf(id int32) string {
	r := &s.rows[id]
	if r.name == nameExtra {
		return s.extras[r.extra-1].name
	}
	return r.s[r.name:r.path]
}

// find returns the id of the candidate at path: a binary search of the
// path order (a map from path to id would cost about 40 bytes a row).
func (s *State) find(path string) (int32, bool) {
	lo, hi := 0, len(s.byPath)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.rows[s.byPath[m]].pathOf() < path {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s.byPath) && s.rows[s.byPath[lo]].pathOf() == path {
		return s.byPath[lo], true
	}
	return 0, false
}

// unshareRows copies the rows before an in-place write when a Query may
// be reading them on another goroutine.
func (s *State) unshareRows() {
	if s.rowsShared {
		s.rows = append([]row(nil), s.rows...)
		s.rowsShared = false
	}
}
