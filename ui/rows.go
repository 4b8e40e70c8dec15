package ui

import (
	"path/filepath"
	"strings"

	"github.com/rootpick/rootpick/consent"
)

// Row states, each with its own glyph and word so that none is told by
// colour alone.
const (
	glyphAdd        = "+"
	glyphRemove     = "−"
	glyphShared     = "✓"
	glyphCovered    = "⊂"
	glyphWithdrawn  = "✗"
	glyphRemembered = "↺"
)

// rowTagger returns the state column of a repository row: what a
// confirmation would change for it, whether it is shared, covered by a
// checked or shared folder, withdrawn by a server, or remembered. It is
// built once per frame.
func (m *Model) rowTagger() func(path string) string {
	shared := m.sharedPaths()
	set := m.coverSet(shared)
	return func(path string) string { return m.rowTags(path, shared, set) }
}

func (m *Model) rowTags(path string, shared, set map[string]bool) string {
	checked := m.picker.IsChecked(path)
	var t []string
	reason, withdrawn := m.withdrawn[path]
	if withdrawn {
		t = append(t, m.st.err.Render(glyphWithdrawn+" withdrawn: "+clean(reason)))
	}
	switch {
	case checked && withdrawn && !shared[path]:
		// Withdrawn by the hub, still checked: not a change the person
		// made, and only a new consent shares it again.
	case checked && shared[path]:
		t = append(t, m.st.ok.Render(glyphShared+" shared"))
	case checked && m.isRemembered(path):
		t = append(t, m.st.pending.Render(glyphRemembered+" remembered"))
	case checked:
		t = append(t, m.st.added.Render(glyphAdd+" add"))
	case shared[path]:
		t = append(t, m.st.removed.Render(glyphRemove+" remove"))
	}
	if outer, ok := consent.CoveringRoot(path, set); ok {
		t = append(t, m.st.dim.Render(glyphCovered+" covered by "+m.rel(outer)))
	}
	return strings.Join(t, " ")
}

// coverSet is every folder whose contents are or will be exposed: checked
// or shared.
func (m *Model) coverSet(shared map[string]bool) map[string]bool {
	set := make(map[string]bool, len(shared))
	for p := range shared {
		set[p] = true
	}
	for _, p := range m.picker.Checked() {
		set[p] = true
	}
	return set
}

// rel is path relative to the scanned folder, for showing.
func (m *Model) rel(path string) string {
	if consent.Within(path, m.cfg.Dir) {
		if r, err := filepath.Rel(m.cfg.Dir, path); err == nil {
			return clean(r)
		}
	}
	return clean(path)
}

// pendingCounts is the header's count of row states, e.g.
// " · +2 add · −1 remove · ✓3 shared · ⊂4 covered".
func (m *Model) pendingCounts() string {
	shared := m.sharedPaths()
	set := m.coverSet(shared)
	var add, remove, sharedN, covered, remembered, withdrawn int
	for _, p := range m.picker.Checked() {
		_, gone := m.withdrawn[p]
		switch {
		case shared[p], gone:
		case m.isRemembered(p):
			remembered++
		default:
			add++
		}
	}
	for p := range shared {
		if m.picker.IsChecked(p) {
			sharedN++
		} else {
			remove++
		}
	}
	// Everything strictly inside an outermost checked or shared folder is
	// covered; the candidates are sorted, so each folder is two binary
	// searches.
	for p := range set {
		if _, inner := consent.CoveringRoot(p, set); !inner {
			covered += m.picker.CountInside(p)
		}
	}
	withdrawn = len(m.withdrawn)
	var parts []string
	part := func(n int, glyph, word string) {
		if n > 0 {
			parts = append(parts, glyph+itoa(n)+" "+word)
		}
	}
	part(add, glyphAdd, "add")
	part(remembered, glyphRemembered, "remembered")
	part(remove, glyphRemove, "remove")
	part(sharedN, glyphShared, "shared")
	part(covered, glyphCovered, "covered")
	part(withdrawn, glyphWithdrawn, "withdrawn")
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
	m.picker.Toggle()
	if outer, ok := consent.CoveringRoot(c.Path, m.coverSet(m.sharedPaths())); ok {
		if m.picker.IsChecked(c.Path) {
			m.setNote(m.rel(c.Path)+" is already covered by "+m.rel(outer)+": checking it adds nothing.", false)
		} else {
			m.setNote(m.rel(c.Path)+" stays exposed: it is inside "+m.rel(outer)+", which is checked or shared.", false)
		}
	}
}
