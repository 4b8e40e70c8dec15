package hostcfg

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/rootpick/rootpick/internal/redact"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// redactLead is how many lines before a hunk are redacted with it, so that
// a secret-named flag on a line above the hunk still hides its value on
// the hunk's first lines (redact.Text looks across at most 3 line ends).
const redactLead = 8

// Diff is the unified diff (as diff -u writes it) from a to b, whose names
// are shown as oldName and newName; "" when they are equal. The lines
// common to the start and the end of both are left out first; the rest is
// matched with go-diff's line mode (Myers' algorithm), which go-git
// already brings into the program.
//
// Every line shown, context and changed alike, has its secrets hidden
// (redact.Text: URL credentials, tokens, the values of secret-named
// settings and flags). Each hunk is redacted with the lines before it, so
// that a flag on one line hides the value on the next ("--api-key",\n
// "X"); the lines are matched on the real text, so a change in a secret
// alone still shows as a changed line.
func Diff(oldName, newName string, a, b []byte) string {
	var out strings.Builder
	_ = writeDiff(&out, oldName, newName, a, b, trimmed(a, b)) // a Builder does not fail
	return out.String()
}

// WriteDiff writes Diff(oldName, newName, r.Old, r.New) to w, one Write
// per hunk (whole lines, headers with the first), matching only the lines
// the rewrite's splices touched: a wrap of thousands of servers in a
// ~/.claude.json of tens of megabytes costs memory in proportion to what
// changed, not to the file.
func (r *Rewrite) WriteDiff(w io.Writer, oldName, newName string) error {
	return writeDiff(w, oldName, newName, r.Old, r.New, r.regions())
}

// region is a range of whole lines of a, [aStart, aEnd), and of b,
// [bStart, bEnd), in bytes, that may differ; between two regions (and
// before the first and after the last) a and b hold the same lines.
type region struct{ aStart, aEnd, bStart, bEnd int }

// trimmed is the one region of a and b left once the lines common to their
// start and end are taken off; nil when they are equal.
func trimmed(a, b []byte) []region {
	if bytes.Equal(a, b) {
		return nil
	}
	n := min(len(a), len(b))
	p := 0
	for p < n && a[p] == b[p] {
		p++
	}
	p = bytes.LastIndexByte(a[:p], '\n') + 1 // back to a line start
	s := 0
	for s < n-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	// Forward to where a line starts in both.
	for s > 0 && !(lineStart(a, len(a)-s) && lineStart(b, len(b)-s)) {
		s--
	}
	return []region{{p, len(a) - s, p, len(b) - s}}
}

// lineStart reports whether a line of text starts at i.
func lineStart(text []byte, i int) bool { return i == 0 || text[i-1] == '\n' }

// regions are the lines r's splices touched, in both files: each splice
// widened to the lines it is on, and splices whose lines meet merged.
func (r *Rewrite) regions() []region {
	var out []region
	delta := 0 // what the splices so far added to b
	for _, e := range r.edits {
		aStart := bytes.LastIndexByte(r.Old[:e.start], '\n') + 1
		aEnd := len(r.Old)
		if i := bytes.IndexByte(r.Old[e.end:], '\n'); i >= 0 {
			aEnd = e.end + i + 1
		}
		if n := len(out); n == 0 || aStart > out[n-1].aEnd {
			out = append(out, region{aStart: aStart, aEnd: aEnd, bStart: aStart + delta})
		}
		last := &out[len(out)-1]
		last.aEnd = max(last.aEnd, aEnd)
		delta += len(e.text) - (e.end - e.start)
		last.bEnd = last.aEnd + delta
	}
	return out
}

// lineRef is one line of a diff: its op (' ', '-' or '+'), and on each
// side its number (0-based; on the side that lacks it, the number of the
// next line there) and, on the side or sides that have it, its bytes
// without the line end; eol says the line ended with one.
type lineRef struct {
	op               byte
	aNum, bNum       int
	aStart, aEnd     int
	bStart, bEnd     int
	aEOL, bEOL, both bool
}

// side walks the lines of one file.
type side struct {
	text []byte
	off  int // where the next line starts
	num  int // its number
}

// next takes the next line: its range without the line end, and whether
// it had one.
func (s *side) next() (start, end int, eol bool) {
	start = s.off
	if i := bytes.IndexByte(s.text[start:], '\n'); i >= 0 {
		end, s.off, eol = start+i, start+i+1, true
	} else {
		end, s.off = len(s.text), len(s.text)
	}
	s.num++
	return start, end, eol
}

// writeDiff writes the diff of a and b, which hold the same lines outside
// regions, hunk by hunk.
func writeDiff(w io.Writer, oldName, newName string, a, b []byte, regions []region) error {
	if len(regions) == 0 {
		return nil
	}
	h := &hunks{w: w, a: a, b: b, header: fmt.Sprintf("--- %s\n+++ %s\n", oldName, newName)}
	A, B := &side{text: a}, &side{text: b}
	equal := func() {
		ln := lineRef{op: ' ', aNum: A.num, bNum: B.num, both: true}
		ln.aStart, ln.aEnd, ln.aEOL = A.next()
		ln.bStart, ln.bEnd, ln.bEOL = B.next()
		h.add(ln)
	}
	dmp := diffmatchpatch.New()
	for _, r := range regions {
		for A.off < r.aStart {
			equal()
		}
		// The lines are read from a and b as the diff consumes them; each
		// rune of a diff is one line.
		ra, rb, _ := dmp.DiffLinesToRunes(string(a[r.aStart:r.aEnd]), string(b[r.bStart:r.bEnd]))
		for _, d := range dmp.DiffMainRunes(ra, rb, false) {
			for range []rune(d.Text) {
				switch d.Type {
				case diffmatchpatch.DiffDelete:
					ln := lineRef{op: '-', aNum: A.num, bNum: B.num}
					ln.aStart, ln.aEnd, ln.aEOL = A.next()
					h.add(ln)
				case diffmatchpatch.DiffInsert:
					ln := lineRef{op: '+', aNum: A.num, bNum: B.num}
					ln.bStart, ln.bEnd, ln.bEOL = B.next()
					h.add(ln)
				case diffmatchpatch.DiffEqual:
					equal()
				}
			}
		}
	}
	for A.off < len(a) {
		equal()
	}
	return h.flush()
}

// hunks gathers the lines of a diff into hunks, diff -u's way: a hunk
// starts diffContext lines before a change and ends diffContext lines
// after the last change that at most 2*diffContext unchanged lines
// separate from the one before; each is written when it ends.
type hunks struct {
	w      io.Writer
	a, b   []byte
	header string // written before the first hunk, then ""
	// lead are the last unchanged lines while no hunk is open (at most
	// diffContext); cur the open hunk, and same the unchanged lines at its
	// end.
	lead []lineRef
	cur  []lineRef
	same int
	err  error
}

func (h *hunks) add(ln lineRef) {
	if ln.op == ' ' {
		if h.cur == nil {
			if len(h.lead) == diffContext {
				copy(h.lead, h.lead[1:])
				h.lead = h.lead[:diffContext-1]
			}
			h.lead = append(h.lead, ln)
			return
		}
		h.cur = append(h.cur, ln)
		h.same++
		if h.same > 2*diffContext {
			// The hunk ends diffContext lines after its last change; the
			// last of these lines may lead the next.
			tail := h.cur[len(h.cur)-diffContext:]
			h.cur = h.cur[:len(h.cur)-h.same+diffContext]
			h.write()
			h.lead = append(h.lead[:0], tail...)
		}
		return
	}
	if h.cur == nil {
		h.cur = append(h.cur, h.lead...)
		h.lead = h.lead[:0]
	}
	h.cur = append(h.cur, ln)
	h.same = 0
}

func (h *hunks) flush() error {
	if h.cur != nil {
		h.cur = h.cur[:len(h.cur)-max(0, h.same-diffContext)]
		h.write()
	}
	return h.err
}

// write writes the open hunk and closes it.
func (h *hunks) write() {
	lines := h.cur
	h.cur, h.same = nil, 0
	if h.err != nil || len(lines) == 0 {
		return
	}
	var oldN, newN int
	for _, l := range lines {
		if l.op != '+' {
			oldN++
		}
		if l.op != '-' {
			newN++
		}
	}
	shownA, firstA := h.redacted(h.a, lines, true)
	shownB, firstB := h.redacted(h.b, lines, false)
	var out strings.Builder
	out.WriteString(h.header)
	h.header = ""
	fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(lines[0].aNum, oldN), hunkRange(lines[0].bNum, newN))
	for _, l := range lines {
		var text string
		eol := l.aEOL
		switch l.op {
		case '-':
			text = shownA[l.aNum-firstA]
		case '+':
			text, eol = shownB[l.bNum-firstB], l.bEOL
		default:
			text = bothShown(shownA[l.aNum-firstA], shownB[l.bNum-firstB])
		}
		out.WriteByte(l.op)
		out.WriteString(text)
		out.WriteByte('\n')
		if !eol {
			out.WriteString("\\ No newline at end of file\n")
		}
	}
	_, h.err = io.WriteString(h.w, out.String())
}

// redacted are the lines of one side (a when old) that the hunk shows,
// from line number first on, each with its secrets hidden: the hunk's
// lines on that side and the redactLead lines before them are redacted
// together.
func (h *hunks) redacted(text []byte, lines []lineRef, old bool) (shown []string, first int) {
	first = -1
	start, end := 0, 0
	for _, l := range lines {
		num, s, e, has := l.bNum, l.bStart, l.bEnd, l.op != '-'
		if old {
			num, s, e, has = l.aNum, l.aStart, l.aEnd, l.op != '+'
		}
		if !has {
			continue
		}
		if first < 0 {
			first, start = num, s
		}
		end = e
	}
	if first < 0 {
		return nil, 0
	}
	lead := 0
	for lead < redactLead && start > 0 {
		start = bytes.LastIndexByte(text[:start-1], '\n') + 1
		lead++
	}
	return redactedLines(string(text[start:end]))[lead:], first
}

// hunkRange is a hunk header's "start,count", with diff -u's conventions:
// the count is left out when it is 1, and an empty side starts at the line
// before.
func hunkRange(before, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprint(before + 1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

// redactedLines is s with its secrets hidden, cut into lines (without
// their line ends).
func redactedLines(s string) []string {
	lines := strings.Split(redact.Text(s), "\n")
	if len(lines) != strings.Count(s, "\n")+1 { // redact.Text keeps lines; if it ever did not, redact line by line
		lines = strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = redact.Text(l)
		}
	}
	return lines
}

// bothShown is an unchanged line as shown: its two redactions differ only
// when a line before it, on one side alone, made it a secret's value (a
// flag deleted or added above it); then the one that hides something is
// shown, and if both hide something different, the whole line is hidden.
func bothShown(a, b string) string {
	switch {
	case a == b:
		return a
	case !strings.Contains(b, redact.Marker):
		return a
	case !strings.Contains(a, redact.Marker):
		return b
	}
	indent := len(a) - len(strings.TrimLeft(a, " \t"))
	return a[:indent] + redact.Marker
}
