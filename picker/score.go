package picker

import (
	"os"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/junegunn/fzf/src/algo"
	"github.com/junegunn/fzf/src/util"
)

// Ranking is fzf's: github.com/junegunn/fzf's FuzzyMatchV2 (src/algo)
// finds, for each term, the alignment with the best score, where a
// matched character scores more at the start of a word or path segment
// (after "/", a space, "-", "_", "." or a camel-case hump), more again as
// the query's first character, and more in a run of adjacent characters,
// and a gap between matched characters costs. This is fzf's --scheme=path:
// a character after "/" is the strongest boundary, and the start of the
// haystack counts as one.
//
// On top of fzf's score, the last path segment is preferred: when the
// best alignment of a term can be had inside the repository's own name
// (the label's last segment), the term counts as "in the name", and
// among rows of equal score those with more terms in their names rank
// first (fzf's --tiebreak=pathname does the same for one term). Ties
// after that go to the shorter haystack, then by path (cmpMatch), as the
// fewer-unmatched-letters part of the old score and its ties did.
func init() {
	// The scheme is a global of fzf's package; nothing else in rootpick
	// uses it.
	algo.Init("path")
}

// nameWeight scales fzf's score in Match.Score so that the count of terms
// found in the name (at most nameWeight-1) breaks ties and nothing more.
const nameWeight = 64

// Slab sizes: fzf's scratch space for one match (three int16s a haystack
// byte, two a byte per query character; an int32 a byte and a query
// character). A longer haystack than the int16 slab holds falls back to
// fzf's greedy FuzzyMatchV1; a longer one than the int32 slab holds
// allocates. Paths are far shorter.
const (
	slab16 = 100 << 10 // as fzf's own (200 KB)
	slab32 = 4 << 10
)

// matchers are kept for reuse, each with its fzf slab and rune buffer:
// a match then allocates nothing (fzf keeps a slab per worker).
var matchers = sync.Pool{New: func() any { return &matcher{slab: util.MakeSlab(slab16, slab32)} }}

// matcher matches terms against haystacks with one fzf slab. It is not
// safe for concurrent use: each goroutine takes its own (newMatcher) and
// gives it back (done).
type matcher struct {
	slab  *util.Slab
	runes []rune // a haystack with non-ASCII letters, decoded
}

func newMatcher() *matcher { return matchers.Get().(*matcher) }

func (m *matcher) done() { matchers.Put(m) }

// pattern is term as fzf's matcher takes it: runes, lower case (matching
// ignores case, as it always has in rootpick; fzf's smart case does not
// apply), not normalised (é matches only é).
func pattern(term string) []rune {
	p := []rune(term)
	for i, c := range p {
		p[i] = unicode.ToLower(c)
	}
	return p
}

// chars is s as fzf's input: an ASCII string as it is (fzf only reads
// it), another decoded into m's rune buffer, which fzf's own ToChars
// would allocate for every candidate.
func (m *matcher) chars(s string) util.Chars {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			m.runes = m.runes[:0]
			for _, c := range s {
				m.runes = append(m.runes, c)
			}
			return util.RunesToChars(m.runes)
		}
	}
	return util.ToChars(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// match is fzf's best alignment of pat in s: its score; the byte offsets
// in s where the rightmost of the best alignments ends, and at or before
// which it starts (fzf reports where the first character of pat first
// occurs, unless pat is one character: then where it is); and whether pat
// matched at all.
func (m *matcher) match(pat []rune, s string) (score, start, end int, ok bool) {
	c := m.chars(s)
	r, _ := algo.FuzzyMatchV2(false, false, false, &c, pat, false, m.slab)
	if r.Start < 0 {
		return 0, 0, 0, false
	}
	start, end = r.Start, r.End
	if !c.IsBytes() { // fzf counts runes
		start, end = byteOffset(s, r.Start), byteOffset(s, r.End)
	}
	return r.Score, start, end, true
}

// byteOffset is the byte offset in s of its rune n, counted as range
// does (an invalid byte is one rune), as m.chars decodes.
func byteOffset(s string, n int) int {
	i := 0
	for b := range s {
		if i == n {
			return b
		}
		i++
	}
	return len(s)
}

// score is the term's part of a row's Match.Score: fzf's score of pat in
// h, weighted, plus one when a best alignment lies within h[lo:hi], the
// row's name; and whether pat matched at all.
func (m *matcher) score(pat []rune, h string, lo, hi int) (int, bool) {
	sc, start, end, ok := m.match(pat, h)
	if !ok {
		return 0, false
	}
	switch {
	case lo == 0 && hi == len(h):
		return sc*nameWeight + 1, true // the haystack is the name
	case end <= lo:
		// Even the rightmost best alignment ends before the name (a
		// match of the folders above it): no need to look in the name.
		return sc * nameWeight, true
	case start >= lo && end <= hi && len(h)*len(pat) <= slab16:
		// A best alignment lies in the name. Alone, the name scores it
		// the same: under the path scheme its first character follows
		// a delimiter as it does after the "/" before it, and a score
		// looks only at the characters before. (Past the slab, fzf's
		// greedy matcher scores one alignment, not the best: there the
		// name is matched alone, below.)
		return sc*nameWeight + 1, true
	}
	if in, _, _, ok := m.match(pat, h[lo:hi]); ok && in == sc {
		return sc*nameWeight + 1, true
	}
	return sc * nameWeight, true
}

// positions are the byte offsets in h of the characters of fzf's best
// alignment of pat, the one in h[lo:hi] (the name) when that scores as
// well, ascending.
func (m *matcher) positions(pat []rune, h string, lo, hi int) []int {
	sc, _, _, ok := m.match(pat, h)
	if !ok {
		return nil
	}
	if lo > 0 || hi < len(h) {
		if in, _, _, ok := m.match(pat, h[lo:hi]); ok && in == sc {
			return offsetBy(m.charPositions(pat, h[lo:hi]), lo)
		}
	}
	return m.charPositions(pat, h)
}

// charPositions are the byte offsets in s of fzf's alignment of pat,
// ascending.
func (m *matcher) charPositions(pat []rune, s string) []int {
	c := m.chars(s)
	_, pp := algo.FuzzyMatchV2(false, false, true, &c, pat, true, m.slab)
	if pp == nil {
		return nil
	}
	pos := *pp // character indices, last first
	slices.Sort(pos)
	if !c.IsBytes() { // characters are runes: find their byte offsets
		k, ci := 0, 0
		for b := range s {
			for k < len(pos) && pos[k] == ci {
				pos[k] = b
				k++
			}
			ci++
		}
	}
	return pos
}

func offsetBy(pos []int, d int) []int {
	for i := range pos {
		pos[i] += d
	}
	return pos
}

// nameSpan is where the row's name — the last segment of the label
// shown — lies in its haystack (hayOf): h[lo:hi].
func (r *row) nameSpan() (lo, hi int) {
	if r.hay == hayDot {
		return 0, 1
	}
	label := r.s[r.hay:r.path]
	return lastSegment(label), len(label)
}

// lastSegment is where the last segment of a label starts.
func lastSegment(label string) int {
	for i := len(label) - 1; i >= 0; i-- {
		if label[i] == '/' || label[i] == os.PathSeparator {
			return i + 1
		}
	}
	return 0
}
