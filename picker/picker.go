// Package picker holds the browsing state of the repository list: the
// candidates found so far, the filter, the cursor and the checked set.
//
// It is pure and synchronous: no I/O, no goroutines, no terminal. The UI
// feeds it repositories and key intents and renders what it reports, so the
// whole browsing behaviour can be tested without a screen.
package picker

import (
	"sort"
	"strings"

	"github.com/rootpick/rootpick/vcsdetect"
)

// State is the browsing state. The zero value is an empty list, ready to use.
type State struct {
	base    string           // the scanned folder; paths are matched relative to it
	all     []vcsdetect.Repo // sorted by Path
	hay     []string         // per candidate: what the filter searches, lower case
	index   map[string]int   // path → position in all
	checked map[string]bool
	filter  string
	shown   []int // positions in all that match the filter, in display order
	cursor  int   // position in shown
}

// SetBase sets the scanned folder. The filter matches paths relative to it,
// as the list shows them, so a word of the folder's own path does not match
// every candidate.
func (s *State) SetBase(dir string) {
	s.base = dir
	for i, r := range s.all {
		s.hay[i] = s.haystack(r)
	}
	s.refilter(s.currentPath())
}

func (s *State) haystack(r vcsdetect.Repo) string {
	rel := r.Path
	if s.base != "" {
		rel = strings.TrimPrefix(strings.TrimPrefix(rel, s.base), "/")
	}
	return strings.ToLower(rel + " " + r.Branch)
}

func (s *State) currentPath() string {
	if c, ok := s.Current(); ok {
		return c.Path
	}
	return ""
}

// Add inserts a repository found by a scan, keeping the list sorted by path.
// A repository already present (same Path) is updated in place.
func (s *State) Add(r vcsdetect.Repo) { s.AddAll([]vcsdetect.Repo{r}) }

// AddAll inserts a batch of repositories (see Add) and filters once, so a
// scan's results cost O(n log n) per batch rather than per repository.
func (s *State) AddAll(repos []vcsdetect.Repo) {
	if len(repos) == 0 {
		return
	}
	if s.index == nil {
		s.index = map[string]int{}
	}
	current := s.currentPath()
	added := false
	for _, r := range repos {
		if i, ok := s.index[r.Path]; ok {
			s.all[i], s.hay[i] = r, s.haystack(r)
			continue
		}
		s.index[r.Path] = len(s.all)
		s.all = append(s.all, r)
		s.hay = append(s.hay, s.haystack(r))
		added = true
	}
	if added && !sort.SliceIsSorted(s.all, func(i, j int) bool { return s.all[i].Path < s.all[j].Path }) {
		sort.Sort(byPath{s})
		for i, r := range s.all {
			s.index[r.Path] = i
		}
	}
	s.refilter(current)
}

// byPath sorts the candidates and their haystacks together.
type byPath struct{ s *State }

func (b byPath) Len() int           { return len(b.s.all) }
func (b byPath) Less(i, j int) bool { return b.s.all[i].Path < b.s.all[j].Path }
func (b byPath) Swap(i, j int) {
	b.s.all[i], b.s.all[j] = b.s.all[j], b.s.all[i]
	b.s.hay[i], b.s.hay[j] = b.s.hay[j], b.s.hay[i]
}

// Reset forgets every candidate (a new scan starts) but keeps the checked
// set, so a rescan does not lose the person's choice.
func (s *State) Reset() {
	s.all, s.hay, s.index, s.shown, s.cursor = nil, nil, nil, nil, 0
}

// Len is the number of candidates, filtered or not.
func (s *State) Len() int { return len(s.all) }

// SetFilter shows only candidates whose path relative to the base, or whose
// branch, contains every space-separated word of q, ignoring case. The
// cursor stays on the same repository when it is still shown.
func (s *State) SetFilter(q string) {
	current := s.currentPath()
	s.filter = q
	s.refilter(current)
}

// Filter returns the current filter text.
func (s *State) Filter() string { return s.filter }

func (s *State) refilter(keep string) {
	words := strings.Fields(strings.ToLower(s.filter))
	s.shown = s.shown[:0]
	for i, hay := range s.hay {
		ok := true
		for _, w := range words {
			if !strings.Contains(hay, w) {
				ok = false
				break
			}
		}
		if ok {
			s.shown = append(s.shown, i)
		}
	}
	s.cursor = 0
	for i, p := range s.shown {
		if s.all[p].Path == keep {
			s.cursor = i
			break
		}
	}
}

// Shown returns the candidates that pass the filter, in display order.
func (s *State) Shown() []vcsdetect.Repo {
	out := make([]vcsdetect.Repo, len(s.shown))
	for i, p := range s.shown {
		out[i] = s.all[p]
	}
	return out
}

// Cursor is the index, within Shown, of the highlighted candidate.
func (s *State) Cursor() int { return s.cursor }

// Current returns the highlighted candidate, if any is shown.
func (s *State) Current() (vcsdetect.Repo, bool) {
	if s.cursor < 0 || s.cursor >= len(s.shown) {
		return vcsdetect.Repo{}, false
	}
	return s.all[s.shown[s.cursor]], true
}

// Move moves the cursor by delta rows, clamped to the shown list.
func (s *State) Move(delta int) { s.MoveTo(s.cursor + delta) }

// MoveTo puts the cursor on row i of Shown, clamped to the list.
func (s *State) MoveTo(i int) {
	s.cursor = max(0, min(i, len(s.shown)-1))
}

// Toggle checks the highlighted candidate, or unchecks it if it was checked.
func (s *State) Toggle() {
	if c, ok := s.Current(); ok {
		s.setChecked(c.Path, !s.checked[c.Path])
	}
}

// CheckShown checks (on) or unchecks (off) every shown candidate; candidates
// hidden by the filter keep their state.
func (s *State) CheckShown(on bool) {
	for _, p := range s.shown {
		s.setChecked(s.all[p].Path, on)
	}
}

// SetChecked checks exactly the given paths, dropping any other check. Paths
// need not be candidates yet (a remembered choice may precede the scan).
func (s *State) SetChecked(paths []string) {
	s.checked = map[string]bool{}
	for _, p := range paths {
		s.setChecked(p, true)
	}
}

func (s *State) setChecked(path string, on bool) {
	if s.checked == nil {
		s.checked = map[string]bool{}
	}
	if on {
		s.checked[path] = true
	} else {
		delete(s.checked, path)
	}
}

// IsChecked reports whether the repository at path is checked.
func (s *State) IsChecked(path string) bool { return s.checked[path] }

// Checked returns the checked paths, sorted.
func (s *State) Checked() []string {
	out := make([]string, 0, len(s.checked))
	for p := range s.checked {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Inside returns the candidates strictly inside the folder root (not root
// itself), in path order: what sharing root brings in with it. The list is
// sorted by path, so this is a binary search and a scan of the matches.
func (s *State) Inside(root string) []vcsdetect.Repo {
	prefix := strings.TrimSuffix(root, "/") + "/"
	i := sort.Search(len(s.all), func(i int) bool { return s.all[i].Path >= prefix })
	var out []vcsdetect.Repo
	for ; i < len(s.all) && strings.HasPrefix(s.all[i].Path, prefix); i++ {
		out = append(out, s.all[i])
	}
	return out
}

// CountInside is len(Inside(root)) without building the list.
func (s *State) CountInside(root string) int {
	prefix := strings.TrimSuffix(root, "/") + "/"
	lo := sort.Search(len(s.all), func(i int) bool { return s.all[i].Path >= prefix })
	hi := sort.Search(len(s.all), func(i int) bool {
		return s.all[i].Path >= prefix && !strings.HasPrefix(s.all[i].Path, prefix)
	})
	return max(hi-lo, 0)
}

// All returns every candidate, filtered or not, in path order.
func (s *State) All() []vcsdetect.Repo { return s.all }

// Uncheck unchecks the repository at path, shown or not.
func (s *State) Uncheck(path string) { s.setChecked(path, false) }
