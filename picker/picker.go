// Package picker holds the browsing state of the repository list: the
// candidates found so far, the fuzzy filter, the sort, the cursor and the
// checked set.
//
// It is pure and synchronous: no I/O, no goroutines, no terminal. The UI
// feeds it repositories and key intents and renders what it reports, so the
// whole browsing behaviour can be tested without a screen. Matching a query
// against a large list may be run on another goroutine (Prepare, Run,
// Apply) without sharing anything mutable with the State.
package picker

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rootpick/rootpick/vcsdetect"
)

// SortKey is the order of the unfiltered list.
type SortKey int

// The sort orders, in the order the UI cycles through them.
const (
	ByPath       SortKey = iota // relative path, A to Z
	ByLastCommit                // newest last commit first; unknown times after, by path
	ByName                      // folder name, then path
	numSortKeys
)

// String names the sort for the header.
func (k SortKey) String() string {
	switch k {
	case ByLastCommit:
		return "last commit"
	case ByName:
		return "name"
	case ByPath:
		return "path"
	}
	return "path"
}

// State is the browsing state. The zero value is an empty list, ready to use.
//
// Candidates are kept by id (the order they were first added; within a
// batch, path order), so a filter result computed for a snapshot stays
// valid while a scan appends more; order and byPath are the ids in
// display order and in path order.
type State struct {
	base   string
	rows   []row   // by id, packed (rows.go); a Query reads a snapshot
	extras []extra // the rows' rare fields, append-only

	byPath []int32 // ids sorted by path
	order  []int32 // ids in the display order of sortKey (byPath itself for ByPath)

	sortKey    SortKey
	commitTime func(vcsdetect.Repo) (time.Time, bool)
	byName     []int32 // the order by name, kept while listVer is byNameVer
	byNameVer  int

	checked    map[string]bool
	checkedVer int
	// readOnly are the checked paths to share read-only; a path checked
	// anew is read-only when readOnlyNew is set (--read-only).
	readOnly    map[string]bool
	readOnlyNew bool

	filter  string
	matches []Match  // the filter's result, ranked; nil when filter is ""
	kept    []Result // results for prefixes of filter, for erasing (filter.go)
	// pos caches MatchedAt's offsets of the rows drawn, for posText and
	// posVer (the filter and version they were found for).
	pos     map[int32][]int
	posText string
	posVer  int

	cursor int    // position in the shown list
	want   string // path to put the cursor on when it appears (after Reset)

	// version changes whenever a candidate's haystack changes in place
	// (an update, a new base), which makes filter results computed before
	// it stale. Appending candidates does not: Apply matches the new tail.
	version    int
	latest     *atomic.Int64 // the newest Prepare (filter.go)
	rowsShared bool          // a Query holds s.rows: copy before writing in place
	listVer    int           // changes whenever a candidate is added, updated or dropped
	moved      bool          // the person has moved the cursor since the list began
}

// Label is the text a row shows for a repository: its path relative to
// base, "." for base itself, or the whole path when it is not inside base.
func Label(base, path string) string {
	if base == "" {
		return path
	}
	if path == base {
		return "."
	}
	b := strings.TrimSuffix(base, "/") + "/"
	if rel, ok := strings.CutPrefix(path, b); ok {
		return rel
	}
	return path
}

// Haystack is what the filter matches for r under base: the label shown
// for it, a space, and its branch. State.MatchedAt's offsets index into it.
func Haystack(base string, r vcsdetect.Repo) string {
	if r.Branch == "" {
		return Label(base, r.Path)
	}
	return Label(base, r.Path) + " " + r.Branch
}

// SetBase sets the scanned folder. The filter matches paths relative to it,
// as the list shows them, so a word of the folder's own path does not match
// every candidate.
func (s *State) SetBase(dir string) {
	s.base = dir
	s.unshareRows()
	for i := range s.rows {
		s.rows[i].hay = hayOffset(dir, s.rows[i].pathOf())
	}
	s.version++
	s.listVer++
	s.refilter()
}

// SetCommitTime gives the sort by last commit its key; without it (or when
// it reports no time) that sort falls back to the path.
func (s *State) SetCommitTime(f func(vcsdetect.Repo) (time.Time, bool)) {
	s.commitTime = f
	s.resort()
}

// Add inserts a repository found by a scan. A repository already present
// (same Path) is updated in place.
func (s *State) Add(r vcsdetect.Repo) { s.AddAll([]vcsdetect.Repo{r}) }

// AddAll inserts a batch of repositories (see Add). New candidates are
// sorted among themselves and merged into the lists, and only new and
// updated ones are matched against the filter, so a batch costs
// O(batch log batch + n) and no fuzzy match of the whole list.
// The cursor stays on the repository it was on.
func (s *State) AddAll(repos []vcsdetect.Repo) {
	if len(repos) == 0 {
		return
	}
	keep, hadCurrent := s.currentID()
	if !s.moved {
		// Until the person moves, the cursor stays on the first row while
		// the list streams in, as in fzf (a row inserted above would
		// otherwise push the highlight down, away from the top).
		hadCurrent = false
		s.cursor = 0
	}
	s.listVer++
	first := int32(len(s.rows))
	var updated []int32
	fresh := make([]int, 0, len(repos)) // indexes in repos of new paths
	for i, r := range repos {
		if id, ok := s.find(r.Path); ok {
			s.unshareRows()
			s.rows[id] = newRow(s.base, r, rowText(r), &s.extras)
			updated = append(updated, id)
			continue
		}
		fresh = append(fresh, i)
	}
	// New paths get their ids in path order, so they need no sort of
	// their own below; of a path given twice, the last copy wins, as
	// with one Add each.
	slices.SortStableFunc(fresh, func(a, b int) int { return strings.Compare(repos[a].Path, repos[b].Path) })
	uniq := fresh[:0]
	for k, i := range fresh {
		if k+1 < len(fresh) && repos[fresh[k+1]].Path == repos[i].Path {
			continue
		}
		uniq = append(uniq, i)
	}
	texts := make([]string, len(uniq))
	packTexts(repos, uniq, texts)
	for k, i := range uniq {
		s.rows = append(s.rows, newRow(s.base, repos[i], texts[k], &s.extras))
	}
	added := make([]int32, 0, int32(len(s.rows))-first)
	for id := first; id < int32(len(s.rows)); id++ {
		added = append(added, id)
	}
	s.byPath = s.mergeSorted(s.byPath, added, s.lessPath)
	switch {
	case s.orderIsPath():
		s.order = s.byPath
	case len(updated) > 0:
		s.resort() // an update may change the key (a commit time)
	default:
		s.order = s.mergeSorted(s.order, slices.Clone(added), s.less)
		if s.sortKey == ByName {
			s.byName, s.byNameVer = s.order, s.listVer
		}
	}
	if len(updated) > 0 {
		s.version++ // results prepared before this matched the old text
	}
	if s.filter != "" {
		// Only the new and the changed candidates are matched again: a
		// scan that fills in details one batch at a time costs a batch.
		again := added
		if len(updated) > 0 {
			changed := make(map[int32]bool, len(updated))
			again = slices.Clone(added)
			for _, id := range updated {
				if id < first && !changed[id] { // new ids are in added already
					changed[id] = true
					again = append(again, id)
				}
			}
			s.matches = slices.DeleteFunc(slices.Clone(s.matches), func(m Match) bool { return changed[m.ID] })
		}
		tail := matchIDs(s.filter, s.rows, again)
		rank(tail, s.rows)
		s.matches = mergeMatches(s.matches, tail, s.rows)
	}
	s.placeCursor(keep, hadCurrent)
}

// placeCursor puts the cursor back on id, or on the path waited for since
// Reset when it has appeared.
func (s *State) placeCursor(keep int32, had bool) {
	if s.want != "" {
		if id, ok := s.find(s.want); ok {
			if i, ok := s.positionOf(id); ok {
				s.cursor, s.want = i, ""
				return
			}
		}
	}
	if had {
		if i, ok := s.positionOf(keep); ok {
			s.cursor = i
			return
		}
	}
	s.clampCursor()
}

// positionOf finds id in the shown list.
func (s *State) positionOf(id int32) (int, bool) {
	if s.filter != "" {
		for i, m := range s.matches {
			if m.ID == id {
				return i, true
			}
		}
		return 0, false
	}
	if s.orderIsPath() {
		// byPath is sorted: a binary search.
		p := s.rows[id].pathOf()
		i, ok := slices.BinarySearchFunc(s.byPath, p, func(x int32, p string) int { return strings.Compare(s.rows[x].pathOf(), p) })
		return i, ok
	}
	for i, x := range s.order {
		if x == id {
			return i, true
		}
	}
	return 0, false
}

// mergeSorted sorts add by less and merges it into dst (already sorted),
// in place: dst grows by len(add) and is filled from its end, so a batch
// costs no new list (a copy of 50,000 ids per batch was most of the
// garbage the picker made while a scan ran). dst's array may be reused:
// nothing else may hold it.
func (s *State) mergeSorted(dst, add []int32, less func(a, b int32) bool) []int32 {
	if len(add) == 0 {
		return dst
	}
	slices.SortFunc(add, func(a, b int32) int {
		if less(a, b) {
			return -1
		}
		if less(b, a) {
			return 1
		}
		return 0
	})
	if len(dst) == 0 || less(dst[len(dst)-1], add[0]) {
		return append(dst, add...) // the common case of an ordered walk
	}
	i, j := len(dst)-1, len(add)-1
	dst = slices.Grow(dst, len(add))[:len(dst)+len(add)]
	// From the end: the larger of the two heads goes last; on a tie the
	// one from add does, as in a forward merge that puts dst's first.
	for w := len(dst) - 1; j >= 0; w-- {
		if i >= 0 && less(add[j], dst[i]) {
			dst[w] = dst[i]
			i--
		} else {
			dst[w] = add[j]
			j--
		}
	}
	return dst
}

func (s *State) lessPath(a, b int32) bool { return s.rows[a].pathOf() < s.rows[b].pathOf() }

// less is the display order of sortKey; ties (and unknown commit times) go
// by path.
func (s *State) less(a, b int32) bool {
	switch s.sortKey {
	case ByName:
		if na, nb := s.nameOf(a), s.nameOf(b); na != nb {
			return na < nb
		}
	case ByLastCommit:
		if s.commitTime != nil {
			ta, oka := s.commitTime(s.repo(a))
			tb, okb := s.commitTime(s.repo(b))
			switch {
			case oka && okb && !ta.Equal(tb):
				return ta.After(tb)
			case oka != okb:
				return oka
			}
		}
	case ByPath:
		// below, as the tie-break of the others
	}
	return s.lessPath(a, b)
}

// repo is the candidate id as a vcsdetect.Repo.
func (s *State) repo(id int32) vcsdetect.Repo { return s.rows[id].repo(s.extras) }

// resort rebuilds the display order from scratch (a new sort key).
func (s *State) resort() {
	if s.orderIsPath() {
		s.order = s.byPath
		return
	}
	if s.sortKey == ByName && s.byName != nil && s.byNameVer == s.listVer {
		s.order = s.byName // unchanged since it was sorted
		return
	}
	defer func() {
		if s.sortKey == ByName {
			s.byName, s.byNameVer = s.order, s.listVer
		}
	}()
	s.order = slices.Clone(s.byPath)
	// Stable over byPath: equal keys stay in path order. The keys are
	// read once per candidate, not once per comparison (a commit time is
	// a map lookup in the UI): 50,000 by last commit sort in about 10 ms.
	switch s.sortKey {
	case ByName:
		slices.SortStableFunc(s.order, func(a, b int32) int { return strings.Compare(s.nameOf(a), s.nameOf(b)) })
	case ByLastCommit:
		if s.commitTime == nil {
			return
		}
		// Newest first, unknown last: the negated time, or the largest key.
		keys := make([]int64, len(s.rows))
		for id := range s.rows {
			keys[id] = math.MaxInt64
			if t, ok := s.commitTime(s.repo(int32(id))); ok {
				keys[id] = -t.UnixNano()
			}
		}
		slices.SortStableFunc(s.order, func(a, b int32) int { return cmp.Compare(keys[a], keys[b]) })
	case ByPath:
		// s.order is byPath (orderIsPath returned above)
	}
}

// orderIsPath reports whether the display order is the path order: by
// path, or by last commit while no commit time is known.
func (s *State) orderIsPath() bool {
	return s.sortKey == ByPath || (s.sortKey == ByLastCommit && s.commitTime == nil)
}

// Sort returns the current sort order.
func (s *State) Sort() SortKey { return s.sortKey }

// SetSort orders the unfiltered list by k; the cursor stays on the same
// repository. (A filtered list is ranked by score whatever the sort.)
func (s *State) SetSort(k SortKey) {
	keep, had := s.currentID()
	s.sortKey = k
	s.resort()
	s.placeCursor(keep, had)
}

// CycleSort moves to the next sort order (path → last commit → name →
// path) and returns it.
func (s *State) CycleSort() SortKey {
	s.SetSort((s.sortKey + 1) % numSortKeys)
	return s.sortKey
}

// Reset forgets every candidate (a new scan starts) but keeps the checked
// set and the filter, so a rescan does not lose the person's choice, and
// remembers the highlighted repository: the cursor returns to it when the
// new scan finds it again, unless the person moves first.
func (s *State) Reset() {
	if c, ok := s.Current(); ok {
		s.want = strings.Clone(c.Path)
	}
	// The checked paths were cut from the rows' blocks (packTexts): copy
	// them, so that the blocks of the old list can go.
	if len(s.checked) > 0 {
		checked := make(map[string]bool, len(s.checked))
		for p := range s.checked {
			checked[strings.Clone(p)] = true
		}
		s.checked = checked
	}
	s.rows, s.extras, s.byPath, s.order, s.matches, s.cursor = nil, nil, nil, nil, nil, 0
	s.byName, s.kept, s.pos = nil, nil, nil
	s.rowsShared = false
	s.version++
	s.listVer++
	if s.filter != "" {
		s.matches = []Match{}
	}
}

// Len is the number of candidates, filtered or not.
func (s *State) Len() int { return len(s.rows) }

// SetFilter shows only the candidates whose haystack (the label shown and
// the branch) fuzzy-matches every space-separated term of q, ranked as
// fzf ranks them (Match.Score), equal scores the shorter first, then by
// path. The cursor stays on the same repository when it is
// still shown. It matches on the calling goroutine; for a large list the
// UI uses Prepare, Run and Apply instead.
func (s *State) SetFilter(q string) { s.Apply(s.Prepare(q).Run()) }

// Filter returns the filter text applied now.
func (s *State) Filter() string { return s.filter }

// refilter matches the current filter again over every candidate.
func (s *State) refilter() {
	keep, had := s.currentID()
	if s.filter == "" {
		s.matches = nil
	} else {
		s.matches = matchIDs(s.filter, s.rows, nil)
		rank(s.matches, s.rows)
	}
	s.placeCursor(keep, had)
}

func (s *State) currentID() (int32, bool) {
	if s.cursor < 0 || s.cursor >= s.ShownLen() {
		return 0, false
	}
	return s.shownID(s.cursor), true
}

func (s *State) shownID(i int) int32 {
	if s.filter != "" {
		return s.matches[i].ID
	}
	return s.order[i]
}

// ShownLen is the number of candidates that pass the filter. It does not
// copy anything: the UI calls it on every key.
func (s *State) ShownLen() int {
	if s.filter != "" {
		return len(s.matches)
	}
	return len(s.order)
}

// ShownAt returns row i of the shown list (0 ≤ i < ShownLen) without
// copying the list.
func (s *State) ShownAt(i int) vcsdetect.Repo { return s.repo(s.shownID(i)) }

// MatchedAt returns the byte offsets, in Haystack(base, ShownAt(i)), of
// the characters the filter matched in row i; nil without a filter. The
// offsets are ascending.
func (s *State) MatchedAt(i int) []int {
	if s.filter == "" {
		return nil
	}
	if s.posText != s.filter || s.posVer != s.version || len(s.pos) > 1024 {
		s.pos, s.posText, s.posVer = make(map[int32][]int), s.filter, s.version
	}
	id := s.matches[i].ID
	pos, ok := s.pos[id]
	if !ok {
		pos = positions(s.filter, &s.rows[id])
		s.pos[id] = pos
	}
	return pos
}

// Shown returns the candidates that pass the filter, in display order. It
// copies them; hot paths use ShownLen and ShownAt.
func (s *State) Shown() []vcsdetect.Repo {
	n := s.ShownLen()
	out := make([]vcsdetect.Repo, n)
	for i := range n {
		out[i] = s.ShownAt(i)
	}
	return out
}

// Cursor is the index, within the shown list, of the highlighted candidate.
func (s *State) Cursor() int { return s.cursor }

// Current returns the highlighted candidate, if any is shown.
func (s *State) Current() (vcsdetect.Repo, bool) {
	if s.cursor < 0 || s.cursor >= s.ShownLen() {
		return vcsdetect.Repo{}, false
	}
	return s.ShownAt(s.cursor), true
}

// Move moves the cursor by delta rows, clamped to the shown list.
func (s *State) Move(delta int) { s.MoveTo(s.cursor + delta) }

// MoveTo puts the cursor on row i of the shown list, clamped to the list.
// A move by the person ends the wait for the repository highlighted before
// a rescan.
func (s *State) MoveTo(i int) {
	s.want, s.moved = "", true
	s.cursor = i
	s.clampCursor()
}

func (s *State) clampCursor() { s.cursor = max(0, min(s.cursor, s.ShownLen()-1)) }

// Toggle checks the highlighted candidate, or unchecks it if it was checked.
func (s *State) Toggle() {
	if c, ok := s.Current(); ok {
		s.setChecked(c.Path, !s.checked[c.Path])
	}
}

// CheckShown checks (on) or unchecks (off) every shown candidate; candidates
// hidden by the filter keep their state.
func (s *State) CheckShown(on bool) {
	for i := range s.ShownLen() {
		s.setChecked(s.rows[s.shownID(i)].pathOf(), on)
	}
}

// SetChecked checks exactly the given paths, dropping any other check. Paths
// need not be candidates yet (a remembered choice may precede the scan).
//
// A path that was checked and stays checked keeps its access (a review
// cancelled puts back the checks as they were); one checked anew gets
// SetReadOnlyNew's.
func (s *State) SetChecked(paths []string) {
	was := s.checked
	s.checked = map[string]bool{}
	s.checkedVer++
	for _, p := range paths {
		if was[p] {
			s.checked[p] = true
		} else {
			s.setChecked(p, true)
		}
	}
	maps.DeleteFunc(s.readOnly, func(p string, _ bool) bool { return !s.checked[p] })
}

func (s *State) setChecked(path string, on bool) {
	if s.checked == nil {
		s.checked = map[string]bool{}
	}
	if on == s.checked[path] {
		return
	}
	s.checkedVer++
	if on {
		s.checked[path] = true
		s.setReadOnly(path, s.readOnlyNew)
	} else {
		delete(s.checked, path)
		delete(s.readOnly, path)
	}
}

// SetReadOnlyNew makes every path checked from now on read-only (on) or
// read and write; paths already checked keep their access.
func (s *State) SetReadOnlyNew(on bool) { s.readOnlyNew = on }

// SetReadOnly sets the access of a checked path: read-only (on) or read
// and write. A path that is not checked has none: it is left alone.
func (s *State) SetReadOnly(path string, on bool) {
	if s.checked[path] {
		s.setReadOnly(path, on)
	}
}

func (s *State) setReadOnly(path string, on bool) {
	if on == s.readOnly[path] {
		return
	}
	s.checkedVer++ // what a confirmation would change, changes
	if on {
		if s.readOnly == nil {
			s.readOnly = map[string]bool{}
		}
		s.readOnly[path] = true
	} else {
		delete(s.readOnly, path)
	}
}

// ToggleReadOnly switches the highlighted row between read-only and read
// and write, if it is checked; it returns the row and its new access, and
// false when there is no highlighted checked row.
func (s *State) ToggleReadOnly() (path string, readOnly, ok bool) {
	c, ok := s.Current()
	if !ok || !s.checked[c.Path] {
		return "", false, false
	}
	s.setReadOnly(c.Path, !s.readOnly[c.Path])
	return c.Path, s.readOnly[c.Path], true
}

// IsReadOnly reports whether the checked path at path is to be shared
// read-only.
func (s *State) IsReadOnly(path string) bool { return s.readOnly[path] }

// ReadOnly returns a copy of the set of checked paths to be shared
// read-only, for a proposal built off the UI goroutine.
func (s *State) ReadOnly() map[string]bool { return maps.Clone(s.readOnly) }

// IsChecked reports whether the repository at path is checked.
func (s *State) IsChecked(path string) bool { return s.checked[path] }

// CheckedCount is len(Checked()) without building or sorting the list.
func (s *State) CheckedCount() int { return len(s.checked) }

// CheckedVersion changes whenever the checked set does, so a caller can
// keep what it derives from the set until the next change.
func (s *State) CheckedVersion() int { return s.checkedVer }

// EachChecked calls f for every checked path, in no particular order,
// without building a list.
func (s *State) EachChecked(f func(path string)) {
	for p := range s.checked {
		f(p)
	}
}

// EachCheckedWhile calls f for checked paths, in no particular order,
// until it returns false: a sample of the checked set costs what is taken,
// not the size of the set.
func (s *State) EachCheckedWhile(f func(path string) bool) {
	for p := range s.checked {
		if !f(p) {
			return
		}
	}
}

// Lookup returns the candidate at path, shown or not.
func (s *State) Lookup(path string) (vcsdetect.Repo, bool) {
	id, ok := s.find(path)
	if !ok {
		return vcsdetect.Repo{}, false
	}
	return s.repo(id), true
}

// Checked returns the checked paths, sorted.
func (s *State) Checked() []string {
	out := make([]string, 0, len(s.checked))
	for p := range s.checked {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// insideRange is the span of byPath strictly inside the folder root.
func (s *State) insideRange(root string) (lo, hi int) {
	prefix := strings.TrimSuffix(root, "/") + "/"
	lo = sort.Search(len(s.byPath), func(i int) bool { return s.rows[s.byPath[i]].pathOf() >= prefix })
	hi = lo + sort.Search(len(s.byPath)-lo, func(i int) bool {
		return !strings.HasPrefix(s.rows[s.byPath[lo+i]].pathOf(), prefix)
	})
	return lo, hi
}

// Inside returns the candidates strictly inside the folder root (not root
// itself), in path order: what sharing root brings in with it. The ids are
// kept in path order, so this is a binary search and a scan of the matches.
func (s *State) Inside(root string) []vcsdetect.Repo {
	lo, hi := s.insideRange(root)
	var out []vcsdetect.Repo
	for _, id := range s.byPath[lo:hi] {
		out = append(out, s.repo(id))
	}
	return out
}

// EachInside calls f for every candidate path strictly inside root, in
// path order, without building a list.
func (s *State) EachInside(root string, f func(path string)) {
	lo, hi := s.insideRange(root)
	for _, id := range s.byPath[lo:hi] {
		f(s.rows[id].pathOf())
	}
}

// EachPath calls f for every candidate path, in path order.
func (s *State) EachPath(f func(path string)) {
	for _, id := range s.byPath {
		f(s.rows[id].pathOf())
	}
}

// ListVersion changes whenever a candidate is added, updated or dropped,
// so a caller can keep what it derives from the list until then.
func (s *State) ListVersion() int { return s.listVer }

// CountInside is len(Inside(root)) without building the list.
func (s *State) CountInside(root string) int {
	lo, hi := s.insideRange(root)
	return hi - lo
}

// All returns every candidate, filtered or not, in path order.
func (s *State) All() []vcsdetect.Repo {
	out := make([]vcsdetect.Repo, len(s.byPath))
	for i, id := range s.byPath {
		out[i] = s.repo(id)
	}
	return out
}

// Uncheck unchecks the repository at path, shown or not.
func (s *State) Uncheck(path string) { s.setChecked(path, false) }

// rank orders matches by score, best first (see score.go: fzf's score,
// then the terms found in the row's name), then the shorter haystack
// (fewer letters left unmatched), then by path.
func rank(ms []Match, rows []row) {
	slices.SortFunc(ms, func(a, b Match) int { return cmpMatch(a, b, rows) })
}

func cmpMatch(a, b Match, rows []row) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	if c := cmp.Compare(rows[a.ID].hayLen(), rows[b.ID].hayLen()); c != 0 {
		return c
	}
	return strings.Compare(rows[a.ID].pathOf(), rows[b.ID].pathOf())
}
