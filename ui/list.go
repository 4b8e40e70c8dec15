package ui

import (
	"slices"
	"strings"

	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/picker"
	"github.com/rootpick/rootpick/vcsdetect"
)

// listView draws the candidates with their checkboxes. It keeps only the
// scroll offset; what is shown, checked and highlighted lives in picker.State.
type listView struct {
	*common
	width, height int
	offset        int
	dir           string
	markCells     map[markKey]markCell
	// drawn keeps the last frame's rows by path, with what they were
	// drawn from: a ↓ changes two rows, and scrolling none of them.
	drawn map[string]drawnRow
}

// drawnRow is a drawn row and everything it was drawn from.
type drawnRow struct {
	rowInputs
	pos []int // the filter's matched offsets
	out string
}

// rowInputs are the comparable inputs of a row's drawing (with its
// matched offsets, compared apart).
type rowInputs struct {
	cur, checked          bool
	branch                string
	kind                  vcsdetect.Kind
	marks                 branchMarks
	state                 rowState
	width, nw, bw, kw, sw int
	dark, noColor         bool // the styles' palette
}

var _ framed[listFrame] = (*listView)(nil)

// listFrame is what the list draws from on one frame, handed by its owner
// (Model.listFrame, the checklist) and not kept: the rows and their
// checks, whether the scan still runs, each row's state column (built
// once a frame: rows.go) and a row's details once read (nil: none).
type listFrame struct {
	rows     *picker.State
	scanning bool
	state    func(path string) rowState
	details  func(path string) (vcsdetect.Details, bool)
}

// detailsOf is a row's details, once read.
func (f listFrame) detailsOf(path string) (vcsdetect.Details, bool) {
	if f.details == nil {
		return vcsdetect.Details{}, false
	}
	return f.details(path)
}

// SetSize sets the area the list may draw in.
func (l *listView) SetSize(w, h int) { l.width, l.height = max(w, 0), max(h, 0) }

// follow scrolls so that the cursor row is visible.
func (l *listView) follow(cursor, total int) {
	if l.height <= 0 {
		return
	}
	if cursor < l.offset {
		l.offset = cursor
	}
	if cursor >= l.offset+l.height {
		l.offset = cursor - l.height + 1
	}
	l.offset = max(0, min(l.offset, total-l.height))
}

// label is a repository's path relative to the scanned folder ("." for the
// folder itself), cleaned of control characters: the text the filter
// matches (picker.Label).
func (l *listView) label(r vcsdetect.Repo) string {
	return safetext.Escape(picker.Label(l.dir, r.Path))
}

// View draws the shown rows; the source's tagger gives a row's state column (shared, to
// add, to remove, covered, withdrawn, remembered: see rows.go), so the
// person sees what the servers see and what a confirmation would change,
// not only what is checked. facts gives a row's details once read: the
// branch is followed by its dirty marker and ahead/behind (branchMarks).
func (l *listView) View(f listFrame) string {
	if l.width <= 0 || l.height <= 0 {
		return ""
	}
	p := f.rows
	n := p.ShownLen()
	if n == 0 {
		msg := "No repositories found."
		switch {
		case f.scanning:
			msg = "Scanning…"
		case p.Len() > 0:
			msg = "Nothing matches the filter."
		}
		return l.st.dim.Render(cut("  "+msg, l.width, "…"))
	}
	c := l.measure(f, min(n, l.offset+l.height)-l.offset)
	out := make([]string, 0, len(c.raws))
	drawn := make(map[string]drawnRow, len(c.raws))
	for j := range c.raws {
		i := l.offset + j
		r := p.ShownAt(i)
		in := rowInputs{cur: i == p.Cursor(), checked: p.IsChecked(r.Path), branch: r.Branch, kind: r.Kind,
			marks: c.marks[j], state: c.states[j], width: l.width, nw: c.nw, bw: c.bw, kw: c.kw, sw: c.sw,
			dark: l.st.dark, noColor: l.st.noColor}
		pos := p.MatchedAt(i)
		d, ok := l.drawn[r.Path]
		if !ok || d.rowInputs != in || !slices.Equal(d.pos, pos) {
			d = drawnRow{rowInputs: in, pos: pos, out: l.row(p, j, &c)}
		}
		drawn[r.Path] = d
		out = append(out, d.out)
	}
	l.drawn = drawn
	return strings.Join(out, "\n")
}

// listColumns are the visible rows' cells and the columns' widths: after
// the name, each column is as wide as its widest visible cell and
// left-aligned, so the branch sits next to the name, not at the far edge:
// the branch with its marks, the kind (when not plain git), and the row's
// state (its risk, what a confirmation would change; see rows.go), whose
// short form is never dropped. Only the visible rows are read.
type listColumns struct {
	raws, labels   []string // the label and its escaped text
	states         []rowState
	marks          []branchMarks
	nw, bw, kw, sw int
}

// measure reads the rows rows from the list's offset and fits the columns
// to the width.
func (l *listView) measure(f listFrame, rows int) listColumns {
	p, state := f.rows, f.state
	c := listColumns{raws: make([]string, rows), labels: make([]string, rows), states: make([]rowState, rows), marks: make([]branchMarks, rows)}
	swMid, swMin := 0, 0
	for j := range rows {
		r := p.ShownAt(l.offset + j)
		c.raws[j] = picker.Label(l.dir, r.Path)
		c.labels[j] = safetext.Escape(c.raws[j])
		c.nw = max(c.nw, cellWidth(c.labels[j]))
		c.states[j] = state(r.Path)
		c.sw = max(c.sw, cellWidth(c.states[j].full))
		swMid = max(swMid, cellWidth(c.states[j].mid))
		swMin = max(swMin, cellWidth(c.states[j].short))
		if r.Kind != vcsdetect.KindGit {
			c.kw = max(c.kw, len(r.Kind))
		}
		if d, ok := f.detailsOf(r.Path); ok {
			c.marks[j] = marksOf(d)
		}
		c.bw = max(c.bw, cellWidth(safetext.Escape(r.Branch))+l.cell(c.marks[j], r.Branch != "", true).width)
	}
	if c.sw > 0 {
		// A checked row's "+ add" becomes "✓ shared" after y: the column
		// is that wide from the start, so that nothing jumps then.
		c.sw, swMid = max(c.sw, stateWidthAfterY), max(swMid, stateWidthAfterY)
	}
	c.nw, c.bw, c.kw, c.sw = fitColumns(l.width-6, c.nw, typicalWidth(c.labels), c.bw, c.kw, c.sw, swMid, swMin)
	return c
}

// row draws the j-th visible row in the columns c.
func (l *listView) row(p *picker.State, j int, c *listColumns) string {
	i := l.offset + j
	r := p.ShownAt(i)
	cur := i == p.Cursor()
	pointer, box := "  ", "[ ]"
	if cur {
		pointer = l.st.cursor.Render("› ")
	}
	if p.IsChecked(r.Path) {
		box = l.st.checked.Render("[x]")
	}
	raw, label := c.raws[j], c.labels[j]
	pos := p.MatchedAt(i)
	name := label
	switch {
	case len(pos) > 0 && label == raw:
		// Escaped names are not highlighted: the offsets are into the raw text.
		base, hit := l.st.plain, l.st.plainMatch
		if cur {
			base, hit = l.st.cursor, l.st.cursorMatch
		}
		name = highlight(label, pos, 0, base, hit, !cur)
	case cur:
		name = l.st.cursor.Render(label)
	}
	row := pointer + box + " " + padRight(midCut(name, max(c.nw, 1)), c.nw)
	if c.bw > 0 {
		branch := safetext.Escape(r.Branch)
		if len(pos) > 0 && branch == r.Branch {
			// The branch follows the label and a space in the haystack.
			branch = highlight(branch, pos, len(raw)+1, l.st.branch, l.st.branchMatch, false)
		} else {
			branch = l.st.branch.Render(branch)
		}
		row += "  " + padRight(l.branchCell(branch, r.Branch != "", c.marks[j], c.bw), c.bw)
	}
	if c.kw > 0 {
		kind := ""
		if r.Kind != vcsdetect.KindGit {
			kind = l.st.kind.Render(cut(string(r.Kind), c.kw, "…"))
		}
		row += "  " + padRight(kind, c.kw)
	}
	if st := c.states[j]; c.sw > 0 && st.short != "" {
		text := st.full
		if cellWidth(text) > c.sw {
			text = st.mid
		}
		if cellWidth(text) > c.sw {
			text = st.short
		}
		row += "  " + cut(text, c.sw, "…")
	}
	return cut(strings.TrimRight(row, " "), l.width, "")
}

// fitColumns shares avail cells between the name column and the branch,
// kind and state columns (each after two spaces), given the widest cell of
// each; the state column has three forms (rowState): full, mid (without
// the "by …" and reasons) and short (the risk and the glyphs), whose
// widest cells are sw, swMid and swMin. Nothing gives way while all fit.
// Then the state drops its details, a name much longer than the others
// (nwTypical is the widest of the others) is cut, the branch gives way
// (to 8 cells; the details pane shows it whole), then the kind, then the
// state down to its short form, then the branch entirely; only then do
// the names give way: the short state is never dropped, so a long name is
// cut instead. What is left over then goes back to the branch, then to
// the name.
func fitColumns(avail, nw, nwTypical, bw, kw, sw, swMid, swMin int) (int, int, int, int) {
	need := func() int {
		n := nw
		for _, w := range []int{bw, kw, sw} {
			if w > 0 {
				n += 2 + w
			}
		}
		return n
	}
	shrink := func(w *int, floor int) {
		if over := need() - avail; over > 0 && *w > floor {
			*w -= min(over, *w-floor)
		}
	}
	wantN, wantB := nw, bw
	// The paths are what the rows are: the other columns give way before
	// them (the details pane shows each whole), but for one path much
	// longer than the rest, which is cut first (it would cut every
	// other row's branch for itself).
	shrink(&sw, min(sw, swMid))
	shrink(&nw, min(nw, nwTypical)) // the outlier
	shrink(&bw, min(bw, 8))
	if need() > avail {
		kw = 0
	}
	shrink(&sw, min(sw, swMin))
	if need() > avail {
		bw = 0 // the details pane shows it
	}
	shrink(&nw, 1)
	grow := func(w *int, want int) {
		if slack := avail - need(); slack > 0 && *w < want {
			*w += min(slack, want-*w)
		}
	}
	if bw > 0 {
		grow(&bw, wantB) // a branch cut beside empty space says nothing
	}
	grow(&nw, wantN)
	return nw, bw, kw, sw
}

// typicalWidth is the widest of the labels that are not outliers: at most
// twice the median width (and any up to 24 cells), so one very long name
// does not set the name column's width for every row.
func typicalWidth(labels []string) int {
	ws := make([]int, len(labels))
	for i, l := range labels {
		ws[i] = cellWidth(l)
	}
	slices.Sort(ws)
	if len(ws) == 0 {
		return 0
	}
	limit, out := max(2*ws[len(ws)/2], 24), 0
	for _, w := range ws {
		if w <= limit {
			out = w
		}
	}
	return out
}

// branchMarks is what follows a row's branch once its details are known:
// "*" when the work tree has uncommitted changes, "?" when that could not
// be told in time, nothing when it is clean (or does not apply); then the
// commits ahead of and behind the upstream ("↑2 ↓1"), the non-zero ones.
// Each is a character of its own, never a colour alone.
type branchMarks struct {
	state         string
	ahead, behind int
}

// Row marks. The shared glyph ✓ is not reused for a clean work tree:
// clean is the quiet case and shows nothing.
const (
	markDirty   = "*"
	markUnknown = "?"
)

func marksOf(d vcsdetect.Details) branchMarks {
	b := branchMarks{ahead: d.Ahead, behind: d.Behind}
	switch d.State {
	case vcsdetect.StateDirty:
		b.state = markDirty
	case vcsdetect.StateUnknown:
		b.state = markUnknown
	}
	return b
}

// markCell is the drawn marks of one kind of row, kept by listView: most
// rows share a few, and drawing them is most of a row's cost.
type markCell struct {
	text  string // styled
	width int
}

type markKey struct {
	m                   branchMarks
	afterBranch, withAB bool
}

// markCellsMax bounds the kept cells (ahead/behind counts vary).
const markCellsMax = 256

// cell draws the marks: a space before each (not before the first when
// there is no branch); withAB false leaves ahead/behind out.
func (l *listView) cell(m branchMarks, afterBranch, withAB bool) markCell {
	k := markKey{m, afterBranch, withAB}
	if c, ok := l.markCells[k]; ok {
		return c
	}
	var plain, styled []string
	if m.state != "" {
		st := l.st.warn
		if m.state == markUnknown {
			st = l.st.dim
		}
		plain, styled = append(plain, m.state), append(styled, st.Render(m.state))
	}
	if withAB {
		var ab []string
		if m.ahead > 0 {
			ab = append(ab, "↑"+itoa(m.ahead))
		}
		if m.behind > 0 {
			ab = append(ab, "↓"+itoa(m.behind))
		}
		if len(ab) > 0 {
			t := strings.Join(ab, " ")
			plain, styled = append(plain, t), append(styled, l.st.dim.Render(t))
		}
	}
	c := markCell{text: strings.Join(styled, " "), width: cellWidth(strings.Join(plain, " "))}
	if c.width > 0 && afterBranch {
		c.text, c.width = " "+c.text, c.width+1
	}
	if l.markCells == nil || len(l.markCells) >= markCellsMax {
		l.markCells = map[markKey]markCell{}
	}
	l.markCells[k] = c
	return c
}

// branchCell fits the styled branch and its marks in bw cells. The marks
// stay whole: the branch is cut first (down to 8 cells), then
// ahead/behind is left out and the branch cut further; on the narrowest
// column the dirty marker is what remains.
func (l *listView) branchCell(branch string, hasBranch bool, m branchMarks, bw int) string {
	need := min(8, cellWidth(branch)) // the branch keeps this much before ahead/behind goes
	for _, withAB := range []bool{true, false} {
		c := l.cell(m, hasBranch, withAB)
		if c.width == 0 {
			return cut(branch, bw, "…")
		}
		if room := bw - c.width; room >= need || !withAB && room > 0 {
			return cut(branch, room, "…") + c.text
		}
	}
	return cut(l.cell(m, hasBranch, false).text, bw, "")
}

// highlight draws s with the bytes at offsets pos (ascending, relative to
// s after subtracting from) in hit and the rest in base; pos outside s are
// ignored. It cuts only between runes, and emits one style run per span.
func highlight(s string, pos []int, from int, base, hit ink, plainBase bool) string {
	var b strings.Builder
	run := func(t string, on bool) {
		switch {
		case t == "":
		case on:
			b.WriteString(hit.Render(t))
		case plainBase:
			b.WriteString(t)
		default:
			b.WriteString(base.Render(t))
		}
	}
	start, on := 0, false
	for i := range s { // rune starts
		_, hitHere := slices.BinarySearch(pos, i+from)
		if hitHere != on {
			run(s[start:i], on)
			start, on = i, hitHere
		}
	}
	run(s[start:], on)
	return b.String()
}

// Row states, each with its own glyph and word so that none is told by
// colour alone.
const (
	glyphAdd        = "+"
	glyphRemove     = "−"
	glyphShared     = "✓"
	glyphCovered    = "⊂"
	glyphWithdrawn  = "✗"
	glyphRemembered = "↺"
	glyphRisk       = "⚠"
	glyphAccess     = "~" // a shared row whose access a confirmation changes
	// glyphReadOnly is a checked row shared read-only, in the short form
	// (the longer ones say "read-only").
	glyphReadOnly = "ro"
)

// stateWidthAfterY is the width of "✓ shared", what a checked row's state
// becomes after y: the least the state column takes while it shows any.
var stateWidthAfterY = cellWidth(glyphShared + " shared")

// rowState is a row's state column, in full ("⚠ secrets ✓ shared ⊂
// covered by web"), without details ("⚠ secrets ✓ shared ⊂ covered") and
// short ("⚠ secrets ✓ ⊂": the risk with its word, the glyphs alone
// otherwise). The short form is never dropped from a row, at any size: a
// long name is cut instead.
type rowState struct{ full, mid, short string }
