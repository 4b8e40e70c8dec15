package picker

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/rootpick/rootpick/internal/panics"
)

// Match is one candidate that passes the filter.
type Match struct {
	// ID is the candidate's id in the State that prepared the query.
	ID int32
	// Score ranks matches: higher is better. It is fzf's score of the
	// best alignment of each term (bonuses for a character at the start
	// of a word or path segment, for the query's first character there,
	// and for adjacent characters; a cost for gaps), summed over the
	// terms, times 64, plus the number of terms whose best alignment lies
	// in the repository's name (score.go). Equal scores rank the shorter
	// haystack first, then by path.
	// The matched characters' offsets are not kept: MatchedAt finds them
	// again for the few rows drawn, so a result costs 8 bytes a match
	// however long the query (50,000 matches: 0.4 MB, not 15 MB).
	Score int32
}

// Query is a filter to compute, possibly on another goroutine: it holds a
// snapshot of the rows that the State will not write to again.
type Query struct {
	// Text is the filter text the query is for.
	Text    string
	version int
	rows    []row
	within  []int32 // if not nil, only these ids can match (narrowing)
	seq     int64
	latest  *atomic.Int64 // the seq of the newest Prepare of the State
	// kept is the result kept for this text (a copy: the State may drop
	// or move what it keeps meanwhile; a Result's matches are never
	// written in place); Run starts from it.
	kept    Result
	hasKept bool
}

// Result is what Query.Run found. Apply puts it on screen unless it has
// gone stale.
type Result struct {
	// Text is the filter text the result is for.
	Text    string
	version int
	n       int32 // ids below n were matched
	matches []Match
	stopped bool
}

// Superseded reports that the query was given up because a newer one was
// prepared: its result will come instead, and this one shows nothing.
func (r Result) Superseded() bool { return r.stopped }

// Prepare snapshots what matching q needs. When q only extends the filter
// applied now (more characters typed), only the current matches are
// searched again, as fzf does: a longer fuzzy query never matches more.
//
// Preparing a query supersedes the queries prepared before: their Run
// stops early (see Result.Superseded), so a burst of keys on a large list
// does not leave a match running for every key.
func (s *State) Prepare(q string) Query {
	s.rowsShared = true
	if s.latest == nil {
		s.latest = new(atomic.Int64)
	}
	qu := Query{Text: q, version: s.version, rows: s.rows[:len(s.rows):len(s.rows)],
		seq: s.latest.Add(1), latest: s.latest}
	for _, r := range s.kept {
		if r.Text == q && r.version == s.version {
			qu.kept, qu.hasKept = r, true
			return qu
		}
	}
	if s.filter != "" && strings.HasPrefix(q, s.filter) {
		qu.within = make([]int32, len(s.matches))
		for i, m := range s.matches {
			qu.within[i] = m.ID
		}
	}
	return qu
}

// Ready reports that Run costs at most tail candidates' match: the text
// is a prefix of the filter, whose result is kept (erasing a character,
// as in fzf), and at most tail candidates were added since.
func (q Query) Ready(tail int) bool {
	return q.hasKept && len(q.rows)-int(q.kept.n) <= tail
}

// Run matches and ranks the query; for a kept text, only the candidates
// added since it was kept. It reads only the snapshot, so it may run on
// any goroutine.
func (q Query) Run() Result {
	stop := func() bool { return q.latest != nil && q.latest.Load() != q.seq }
	if q.hasKept {
		r := q.kept
		r.matches, r.n = withTail(r.Text, q.rows, r.matches, r.n, stop), int32(len(q.rows))
		if stop() {
			return Result{Text: q.Text, version: q.version, stopped: true}
		}
		return r
	}
	r := Result{Text: q.Text, version: q.version, n: int32(len(q.rows))}
	if strings.TrimSpace(q.Text) == "" {
		return r
	}
	r.matches = matchStop(q.Text, q.rows, q.within, stop)
	if stop() {
		return Result{Text: q.Text, version: q.version, stopped: true}
	}
	rank(r.matches, q.rows)
	return r
}

// Apply shows a result and reports whether it did. A result is stale, and
// dropped, when a candidate's haystack changed after its Prepare; the
// caller then prepares the query again. Candidates added after Prepare are
// matched here (they are few: one scan batch). As in fzf, a new query
// puts the cursor on its best match (the top row), so that tab or enter
// right after typing takes the row the query ranks first; the same query
// applied again (more candidates arrived) keeps the cursor on the same
// repository when it is still shown.
func (s *State) Apply(r Result) bool {
	if r.version != s.version || r.stopped {
		return false
	}
	keep, had := s.currentID()
	if strings.TrimSpace(r.Text) != strings.TrimSpace(s.filter) {
		had = false // a new query: the best match, not the old row
		s.want = ""
	}
	if strings.TrimSpace(r.Text) == "" {
		s.filter, s.matches = "", nil
		if !had {
			s.cursor = 0
		}
		s.placeCursor(keep, had)
		return true
	}
	ms := withTail(r.Text, s.rows, r.matches, r.n, func() bool { return false })
	if ms == nil {
		ms = []Match{}
	}
	s.filter, s.matches = r.Text, ms
	s.keep(Result{Text: r.Text, version: r.version, n: int32(len(s.rows)), matches: ms})
	if had {
		if i, ok := s.positionOf(keep); ok {
			s.cursor = i
			return true
		}
	}
	s.cursor = 0
	return true
}

// withTail is ms, the ranked matches of text among the candidates below
// n, with those among the candidates from n on (appended since) matched
// and merged in; partial if stop reports true meanwhile.
func withTail(text string, rows []row, ms []Match, n int32, stop func() bool) []Match {
	if int(n) >= len(rows) {
		return ms
	}
	tail := make([]int32, 0, len(rows)-int(n))
	for id := n; id < int32(len(rows)); id++ {
		tail = append(tail, id)
	}
	more := matchStop(text, rows, tail, stop)
	rank(more, rows)
	return mergeMatches(ms, more, rows)
}

// keep remembers r, the result on screen, for when the text is erased back
// to it; the results kept are those of the prefixes of r's text (at most
// one a character typed), so typing on and erasing cost no match.
func (s *State) keep(r Result) {
	s.kept = slices.DeleteFunc(s.kept, func(k Result) bool {
		return k.version != r.version || k.Text == r.Text || !strings.HasPrefix(r.Text, k.Text)
	})
	s.kept = append(s.kept, r)
}

// positions finds the byte offsets in the row's haystack of the
// characters that q's terms match, ascending, as the filter matched them.
func positions(q string, r *row) []int {
	m := newMatcher()
	defer m.done()
	h := r.hayOf()
	lo, hi := r.nameSpan()
	var pos []int
	for _, term := range strings.Fields(q) {
		pos = mergePos(pos, m.positions(pattern(term), h, lo, hi))
	}
	return pos
}

// matchIDs matches every space-separated term of q against the haystacks
// of ids (all of hay when ids is nil). A candidate must match every term;
// its score is the sum and its positions the union.
func matchIDs(q string, rows []row, ids []int32) []Match {
	return matchStop(q, rows, ids, func() bool { return false })
}

// stopChunk is how many candidates are scored between two looks at stop.
const stopChunk = 2048

// matchStop is matchIDs giving up (with a partial result) once stop
// reports true; it looks between chunks of candidates.
func matchStop(q string, rows []row, ids []int32, stop func() bool) []Match {
	terms := strings.Fields(q)
	if len(terms) == 0 {
		return nil
	}
	if ids == nil {
		ids = make([]int32, len(rows))
		for i := range ids {
			ids[i] = int32(i)
		}
	}
	parts := min(runtime.GOMAXPROCS(0), len(ids)/matchPartMin)
	if parts <= 1 {
		return matchTerms(terms, rows, ids, stop)
	}
	// As fzf does, the candidates are cut into one part a processor, each
	// matched on its own goroutine; the parts' matches, joined in order,
	// are what one pass over all of them finds.
	outs := make([][]Match, parts)
	size := (len(ids) + parts - 1) / parts
	var wg sync.WaitGroup
	for p := range parts {
		part := ids[p*size : min((p+1)*size, len(ids))]
		wg.Go(func() {
			defer panics.Guard()
			outs[p] = matchTerms(terms, rows, part, stop)
		})
	}
	wg.Wait()
	n := 0
	for _, o := range outs {
		n += len(o)
	}
	out := make([]Match, 0, n)
	for _, o := range outs {
		out = append(out, o...)
	}
	return out
}

// matchPartMin is the fewest candidates a goroutine of matchStop takes:
// below twice as many, one goroutine matches them all. Typing on within
// the 1,649 rows that match "m" in .ci/bench-keys' short tree takes
// 0.52–0.80 ms in two parts, 0.77–0.87 in one.
const matchPartMin = 512

// matchTerms matches every term of a query against ids, in their order.
func matchTerms(terms []string, rows []row, ids []int32, stop func() bool) []Match {
	m := newMatcher()
	defer m.done()
	var out []Match
	for t, term := range terms {
		// A cheap in-order byte check first: fzf's matcher fills a table
		// of every character of a path by every character of the term,
		// while most candidates do not hold the term's letters in order
		// at all.
		cand := prefilter(term, rows, ids)
		// For an ASCII term, everything the prefilter keeps matches.
		found := make([]Match, 0, len(cand))
		pat := pattern(term)
		for lo := 0; lo < len(cand); lo += stopChunk {
			if stop() {
				return nil
			}
			for _, id := range cand[lo:min(lo+stopChunk, len(cand))] {
				r := &rows[id]
				nlo, nhi := r.nameSpan()
				if sc, ok := m.score(pat, r.hayOf(), nlo, nhi); ok {
					found = append(found, Match{ID: id, Score: int32(sc)})
				}
			}
		}
		if t == 0 {
			out = found
		} else {
			// found is in the order of cand, which is the order of out.
			next := out[:0]
			j := 0
			for _, f := range found {
				for out[j].ID != f.ID {
					j++
				}
				m := out[j]
				m.Score += f.Score
				next = append(next, m)
				j++
			}
			out = next
		}
		if len(out) == 0 {
			return out
		}
		ids = make([]int32, len(out))
		for i, m := range out {
			ids[i] = m.ID
		}
	}
	return out
}

// prefilter keeps the ids whose haystack holds the term's characters in
// order, ignoring ASCII case. A term with other characters is not
// prefiltered (the matcher folds Unicode case itself).
func prefilter(term string, rows []row, ids []int32) []int32 {
	lower := strings.ToLower(term)
	for i := 0; i < len(lower); i++ {
		if lower[i] >= utf8.RuneSelf {
			return ids
		}
	}
	out := make([]int32, 0, len(ids)/4)
	for _, id := range ids {
		if inOrder(lower, rows[id].hayOf()) {
			out = append(out, id)
		}
	}
	return out
}

func inOrder(q, h string) bool {
	j := 0
	for i := 0; i < len(h) && j < len(q); i++ {
		c := h[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c == q[j] {
			j++
		}
	}
	return j == len(q)
}

// mergePos is the sorted union of two ascending offset lists.
func mergePos(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// mergeMatches merges the ranked b into the ranked a.
func mergeMatches(a, b []Match, rows []row) []Match {
	if len(b) == 0 {
		return a
	}
	out := make([]Match, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if cmpMatch(b[j], a[i], rows) < 0 {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
