package ui

import (
	"path/filepath"
	"strings"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
)

// rowTagger returns the state column of a repository row: its risk (once
// its facts are read), what a confirmation would change for it, whether
// it is shared, covered by a checked or shared folder, withdrawn by a
// server, or remembered. It is built once per frame and costs nothing per
// candidate: only the rows drawn are asked about.
func (m *Model) rowTagger() func(path string) rowState {
	shared := m.sharedSet()
	return func(path string) rowState { return m.rowTags(path, shared) }
}

func (m *Model) rowTags(path string, shared map[string]bool) rowState {
	checked := m.picker.IsChecked(path)
	var full, mid, short []string
	tag := func(st ink, glyph, word, more string) {
		full = append(full, st.Render(glyph+" "+word+more))
		mid = append(mid, st.Render(glyph+" "+word))
		short = append(short, st.Render(glyph))
	}
	if f, ok := m.facts.known[path]; ok && len(f.risks) > 0 {
		// Words, not codes, in every form: ⚠ alone would not say which.
		// The full form names every risk; the shorter ones the first,
		// with how many more.
		words := make([]string, len(f.risks))
		for i, code := range f.risks {
			words[i] = riskWord(code)
		}
		first := words[0]
		if n := len(words); n > 1 {
			first += " +" + itoa(n-1)
		}
		full = append(full, m.st.warn.Render(glyphRisk+" "+strings.Join(words, ", ")))
		mid, short = append(mid, m.st.warn.Render(glyphRisk+" "+first)), append(short, m.st.warn.Render(glyphRisk+" "+first))
	}
	reason, withdrawn := m.review.sh.Withdrawn(path)
	if withdrawn {
		tag(m.st.err, glyphWithdrawn, "withdrawn", ": "+safetext.Escape(reason))
	}
	ro := checked && m.picker.IsReadOnly(path)
	accessSaid := false
	switch {
	case checked && withdrawn && !shared[path]:
		// Withdrawn by the hub, still checked: not a change the person
		// made, and only a new consent shares it again.
	case checked && shared[path]:
		switch was, ok := m.review.sh.ServedReadOnly(path); {
		case ok && was != ro:
			// A change of access alone is a change to confirm.
			r := consent.Root{ReadOnly: ro}
			tag(m.st.added, glyphAccess, r.Access(), " (was "+consent.Root{ReadOnly: was}.Access()+")")
			accessSaid = true
		case !ok:
			// Served by the profile's proxies only: say by whom.
			tag(m.st.ok, glyphShared, "served", " by "+m.fleet.ServingNames(path))
		default:
			tag(m.st.ok, glyphShared, "shared", "")
		}
	case checked && m.review.sh.IsRemembered(path):
		tag(m.st.pending, glyphRemembered, "remembered", "")
	case checked:
		tag(m.st.added, glyphAdd, "add", "")
	case shared[path]:
		tag(m.st.removed, glyphRemove, "remove", "")
	}
	if ro && !accessSaid {
		full, mid, short = append(full, m.st.dim.Render("read-only")), append(mid, m.st.dim.Render("read-only")), append(short, m.st.dim.Render(glyphReadOnly))
	}
	if outer, ok := m.coveringRoot(path, shared); ok {
		tag(m.st.dim, glyphCovered, "covered", " by "+m.rel(outer))
	}
	return rowState{full: strings.Join(full, " "), mid: strings.Join(mid, " "), short: strings.Join(short, " ")}
}

// sharedCache is sharedPaths as of the sharing and proxy-serving versions
// ver.
type sharedCache struct {
	set map[string]bool
	ver [2]uint64
}

// sharedSet is the exposed paths as a set, rebuilt only when the sets
// change (sharing's version).
func (m *Model) sharedSet() map[string]bool {
	if v := [2]uint64{m.review.sh.Version(), m.fleet.ServingVersion()}; m.shared.set == nil || m.shared.ver != v {
		m.shared = sharedCache{set: m.sharedPaths(), ver: v}
	}
	return m.shared.set
}

// coveringRoot is consent.CoveringRoot over the folders that are or will
// be exposed (checked or shared), asked of the picker's checked set
// directly instead of a set built per frame.
func (m *Model) coveringRoot(path string, shared map[string]bool) (string, bool) {
	return consent.CoveringRootFunc(path, func(p string) bool { return shared[p] || m.picker.IsChecked(p) })
}

// rel is path relative to the scanned folder, for showing.
func (m *Model) rel(path string) string {
	if consent.Within(path, m.cfg.Dir) {
		if r, err := filepath.Rel(m.cfg.Dir, path); err == nil {
			return safetext.Escape(r)
		}
	}
	return safetext.Escape(path)
}

// rowCounts is the header's tally of row states. It is kept between
// frames and recomputed only when what it is made of changes; a toggle
// updates it by the difference, so neither a key nor a frame walks the
// checked set.
type rowCounts struct {
	key                                                     countsKey
	add, remembered, remove, shared, covered, withdrawnRows int
}

// countsKey is everything the tally is made of: the picker's checks and
// list, and the consented sets.
type countsKey struct {
	checked, list    int // picker versions
	sharing, serving uint64
}

func (m *Model) countsKey() countsKey {
	return countsKey{
		checked: m.picker.CheckedVersion(),
		list:    m.picker.ListVersion(),
		sharing: m.review.sh.Version(),
		serving: m.fleet.ServingVersion(),
	}
}

// category is how a checked path counts: +1 add or +1 remembered (or
// neither when it is shared or withdrawn).
func (m *Model) category(p string, shared map[string]bool) (add, remembered int) {
	if _, gone := m.review.sh.Withdrawn(p); shared[p] || gone {
		return 0, 0
	}
	if m.review.sh.IsRemembered(p) {
		return 0, 1
	}
	return 1, 0
}

// tally counts from scratch: O(checked + shared), and for the covered
// rows either a binary search per outermost folder or, when most rows are
// checked, one pass over the candidates.
func (m *Model) tally(shared map[string]bool) rowCounts {
	var c rowCounts
	m.picker.EachChecked(func(p string) {
		a, r := m.category(p, shared)
		c.add += a
		c.remembered += r
	})
	for p := range shared {
		if m.picker.IsChecked(p) {
			c.shared++
		} else {
			c.remove++
		}
	}
	if n := m.picker.CheckedCount() + len(shared); n*8 < m.picker.Len() {
		outermost := func(p string) {
			if _, inner := m.coveringRoot(p, shared); !inner {
				c.covered += m.picker.CountInside(p)
			}
		}
		m.picker.EachChecked(outermost)
		for p := range shared {
			if !m.picker.IsChecked(p) {
				outermost(p)
			}
		}
	} else {
		m.picker.EachPath(func(p string) {
			if _, ok := m.coveringRoot(p, shared); ok {
				c.covered++
			}
		})
	}
	c.withdrawnRows = m.review.sh.WithdrawnCount()
	return c
}

// counts returns the tally, from the cache when nothing changed.
func (m *Model) counts() rowCounts {
	k := m.countsKey()
	if m.rowCounts.key != k {
		m.rowCounts = m.tally(m.sharedSet())
		m.rowCounts.key = k
	}
	return m.rowCounts
}

// toggled updates the cached tally for path having just been checked
// (on) or unchecked, if the cache was current before the change.
func (m *Model) toggled(path string, on bool, before countsKey) {
	if m.rowCounts.key != before {
		return // stale anyway: counts() recomputes
	}
	shared := m.sharedSet()
	sign := 1
	if !on {
		sign = -1
	}
	a, r := m.category(path, shared)
	m.rowCounts.add += sign * a
	m.rowCounts.remembered += sign * r
	if shared[path] {
		m.rowCounts.shared += sign
		m.rowCounts.remove -= sign
	} else if _, inner := m.coveringRoot(path, shared); !inner {
		// path joins (or leaves) the exposed folders and nothing above it
		// covers it: the rows inside it with no other exposed folder
		// between them and path change their covered state.
		n := 0
		m.picker.EachInside(path, func(p string) {
			if !m.coveredBelow(p, path, shared) {
				n++
			}
		})
		m.rowCounts.covered += sign * n
	}
	m.rowCounts.key = m.countsKey()
}

// coveredBelow reports whether a folder strictly between top and path is
// exposed (checked or shared).
func (m *Model) coveredBelow(path, top string, shared map[string]bool) bool {
	for p := path; len(p) > len(top); {
		i := strings.LastIndexByte(p, '/')
		if i <= len(top) {
			return false
		}
		p = p[:i]
		if shared[p] || m.picker.IsChecked(p) {
			return true
		}
	}
	return false
}

// pendingCounts is the header's count of row states, e.g.
// " · +2 add · −1 remove · ✓3 shared · ⊂4 covered".
func (m *Model) pendingCounts() string {
	c := m.counts()
	var parts []string
	part := func(n int, glyph, word string) {
		if n > 0 {
			parts = append(parts, glyph+itoa(n)+" "+word)
		}
	}
	part(c.add, glyphAdd, "add")
	part(c.remembered, glyphRemembered, "remembered")
	part(c.remove, glyphRemove, "remove")
	part(c.shared, glyphShared, "shared")
	part(c.covered, glyphCovered, "covered")
	part(c.withdrawnRows, glyphWithdrawn, "withdrawn")
	// What the profile's proxies serve is counted as shared (sharedPaths):
	// its rows say by whom, and the status line how many proxies.
	if len(parts) == 0 {
		return ""
	}
	return m.st.dim.Render(" · " + strings.Join(parts, " · "))
}

// toggle checks or unchecks the highlighted row, and says when that
// changes nothing a server sees because a checked or shared folder above it
// already exposes it.
func (m *Model) toggle() {
	c, ok := m.picker.Current()
	if !ok {
		return
	}
	before := m.countsKey()
	m.picker.Toggle()
	on := m.picker.IsChecked(c.Path)
	m.toggled(c.Path, on, before)
	if outer, ok := m.coveringRoot(c.Path, m.sharedSet()); ok {
		if on {
			m.setNote(m.rel(c.Path)+" is inside "+m.rel(outer)+", which is checked or shared: as a root of its own it shows the servers nothing more.", false)
		} else {
			m.setNote(m.rel(c.Path)+" stays exposed: it is inside "+m.rel(outer)+", which is checked or shared.", false)
		}
	}
}

// accessNote says what ctrl+l did to the row rel: made it read-only (ro)
// or read and write, or nothing (!ok: the row is not checked).
func accessNote(rel string, ro, ok bool, check, review string) string {
	switch {
	case !ok:
		return "Check the row first (" + check + "): read-only or read and write is how a checked folder is shared."
	case ro:
		return rel + ": read-only — an enforced server may read and list it, and change or run nothing in it (" + review + " to review)."
	}
	return rel + ": read and write (" + review + " to review)."
}

// riskWords are the words a row's ⚠ mark uses for consent's warning
// codes, with what each means for the help's legend. The audit log keeps
// the codes.
var riskWords = []struct{ code, word, meaning string }{
	{consent.WarnDir, "whole folder", "the scanned folder itself: everything below it"},
	{consent.WarnFSRoot, "whole disk", "/: every file you can read"},
	{consent.WarnHome, "home", "your home folder: keys, tokens, mail, every project"},
	{consent.WarnHomeAncestor, "above home", "a folder that holds your home folder"},
	{consent.WarnSystem, "system", "a system folder, or inside one"},
	{consent.WarnOutside, "outside", "not inside the folder you scanned"},
	{consent.WarnSymlink, "symlink", "reached through a symbolic link: a server sees where it points"},
	{consent.WarnSecrets, "secrets", "well-known secret files at its top (.env, keys, credentials)"},
	{consent.WarnMount, "mount", "another file system is mounted in or above it"},
	{consent.WarnLinks, "hard links", "files at its top have other names, maybe outside it, which a server reads through these"},
	{consent.WarnLinkOut, "links out", "symbolic links at its top lead to your home folder or above it: an enforced server cannot follow them, an advisory one may"},
}

// riskWord is the word for a warning code; an unknown code shows as is.
func riskWord(code string) string {
	for _, r := range riskWords {
		if r.code == code {
			return r.word
		}
	}
	return code
}
