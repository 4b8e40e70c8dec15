package ui

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
)

// accessLine says in one line what sharing a folder means.
const accessLine = "A server may read, and some servers may change, every file in these folders."

// readOnlyAccessLine replaces it when every folder is shared read-only.
const readOnlyAccessLine = "A server may read every file in these folders; where the kernel enforces it, change none (read-only)."

// revokeNoticeLine replaces it when no server is restarted for that (the
// built-in demo server honours an empty list).
const revokeNoticeLine = "Revoking every root: each server is told it has none."

// revokeLine replaces the access line when a change revokes every root:
// servers that ignore an empty list keep their folders, so rootpick
// restarts them (mcpconn does; the demo server is not restarted).
const revokeLine = "Revoking every root restarts each server with none (some ignore an empty list)."

// reviewAction is what the review asks of the model after a message, as
// crush's dialogs return an action: nil (it scrolled, granted, or took an
// early key; its own command, if any, comes beside), reviewCancel or
// reviewConfirm. The dialog never changes the sharing state, the list or
// the disk itself; the model acts on the action (Model.onReview).
type reviewAction interface{ reviewAction() }

// reviewCancel: close the review with nothing changed. changed says
// whether it proposed a change (the note says it was cancelled).
type reviewCancel struct{ changed bool }

// reviewConfirm: the person confirmed decision.
type reviewConfirm struct{ decision consentDecision }

func (reviewCancel) reviewAction()  {}
func (reviewConfirm) reviewAction() {}

// consentDecision is a confirmation, a value (CONVENTIONS: consent is a
// value): the set to serve, the warnings acknowledged, and the warned
// roots left out.
type consentDecision struct {
	final        []consent.Root      // the set y serves (Final)
	granted      map[string][]string // by URI, the warning codes granted (Granted)
	acknowledged []string            // "path: reason" of each warning granted (Acknowledged)
	withheld     []withheldRoot      // the warned roots not granted, which stay unshared
}

// withheldRoot is a warned root left out at y: its path, and the path it
// was checked as in the list.
type withheldRoot struct{ path, requested string }

// decision is the confirmation as it stands.
func (d *consentDialog) decision() consentDecision {
	dec := consentDecision{final: d.Final(), granted: d.Granted(), acknowledged: d.Acknowledged()}
	for _, r := range d.Withheld() {
		dec.withheld = append(dec.withheld, withheldRoot{path: r.Path, requested: d.requested(r)})
	}
	return dec
}

// proposedRoot is a checked folder turned into a root, with the reasons it
// needs its own confirmation (none for a plain root).
type proposedRoot struct {
	consent.Root
	Requested string // the path as checked, before symlinks were resolved
	Warnings  []consent.Warning
}

// addedRoot is one line of the "+ added" section.
type addedRoot struct {
	proposedRoot
	inside    []string // labels of the repositories it brings in
	redundant string   // the proposed root that already holds it, if any
	granted   bool     // a warned root the person granted with its own key
	seen      bool     // its line has been on screen
	expanded  bool     // its brought-in repositories are listed
}

func (a *addedRoot) warned() bool { return len(a.Warnings) > 0 }

// dline is one line of the dialog's scrolling body.
type dline struct {
	text  string
	sel   bool          // the cursor can rest on it
	root  *consent.Root // shown in full under the body when highlighted
	added int           // index into added, or -1
	kept  bool          // the "= kept" header, which expands
	many  []int         // indices into added of a packed line (compact)
}

// consentDialog shows exactly what a confirmation would add and remove, in
// a scrolling body: every added root with what it brings in and why it is
// risky, the removed roots, and a count of the kept ones. It owns its keys,
// its type-ahead guard and its scrolling, and answers each key with a
// decision; confirming is refused until every added line has been on
// screen, and a warned root is only granted by its own key.
type consentDialog struct {
	id        int    // which opening this is; guard ticks carry it
	dir       string // paths are shown relative to it
	exposed   []consent.Root
	change    consent.Change
	added     []*addedRoot
	problems  []string // selected folders that cannot be shared, with why
	servers   string   // who will receive the roots
	scanning  bool     // the scan is not done: "brings in" counts may grow
	revokeAll bool     // ctrl+d's review: every folder, whatever the filter shows
	keptOpen  bool
	compact   bool // the plain added roots packed several a line (the List key)

	// The type-ahead guard: keys are ignored until delay has passed since
	// the dialog opened or since the last ignored key.
	delay     time.Duration
	guardFrom time.Time
	guardSeq  int
	armed     bool   // only for drawing; keys are judged by the clock
	restarts  bool   // revoking every root restarts a server (any but the built-in demo)
	tooSoon   string // a key that shares was pressed while the guard held: said until it ends
	replaces  string // y replaces the profile's consent for another folder: says so, else ""
	access    string // enforced or advisory, in a sentence (recipients.access); "" for the general one
	beyond    string // what else enforced servers can read

	cursor int // index into lines; always a selectable line when any
	lines  []dline
	vp     viewport.Model
	flash  string // why the last y was refused

	*common
	width  int
	height int
}

var _ component = (*consentDialog)(nil)

// consentGuardMsg ends one wait of a dialog's type-ahead guard.
type consentGuardMsg struct{ id, seq int }

// newConsentDialog builds the dialog for proposed against exposed. inside
// returns the labels of the repositories a root brings in.
func newConsentDialog(id int, dir string, exposed []consent.Root, proposed []proposedRoot, problems []string,
	servers recipients, inside func(path string) []string, delay time.Duration, now time.Time, com *common) *consentDialog {
	roots := make([]consent.Root, len(proposed))
	byURI := make(map[string]proposedRoot, len(proposed))
	for i, p := range proposed {
		roots[i] = p.Root
		if _, ok := byURI[p.URI]; !ok {
			byURI[p.URI] = p
		}
	}
	d := &consentDialog{
		id: id, dir: dir, exposed: exposed, problems: problems, servers: servers.names, restarts: servers.restart,
		access: servers.access, beyond: servers.beyond,
		change: consent.Review(exposed, roots), delay: delay, guardFrom: now,
		common: com,
	}
	overlaps := consent.Overlaps(roots)
	// Read and write first, then read-only: the body has a header for
	// each (addedSection).
	slices.SortStableFunc(d.change.Added, func(a, b consent.Root) int {
		return cmp.Compare(boolInt(a.ReadOnly), boolInt(b.ReadOnly))
	})
	for _, r := range d.change.Added {
		a := &addedRoot{proposedRoot: byURI[r.URI]}
		a.Root = r
		a.redundant = overlaps[r.Path]
		if inside != nil {
			a.inside = inside(r.Path)
		}
		d.added = append(d.added, a)
	}
	d.vp = viewport.New()
	d.rebuild()
	return d
}

// boolInt is 1 for true: false sorts first.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// guardTick waits out the current guard.
func (d *consentDialog) guardTick() tea.Cmd {
	id, seq := d.id, d.guardSeq
	return tea.Tick(d.delay, func(time.Time) tea.Msg { return consentGuardMsg{id: id, seq: seq} })
}

// onGuard marks the dialog armed if msg ends the latest guard.
func (d *consentDialog) onGuard(msg consentGuardMsg) {
	if msg.id == d.id && msg.seq == d.guardSeq {
		d.armed = true // tooSoon stays until the next key: it must be read
		d.rebuild()
	}
}

// SetSize sets the area the dialog may use; it draws a box within it.
func (d *consentDialog) SetSize(w, h int) {
	d.width, d.height = max(w, 0), max(h, 0)
	d.rebuild()
}

// Update handles one message at time now: the end of a guard, or a key;
// it returns what the model should do, and a command of its own.
func (d *consentDialog) Update(msg tea.Msg, now time.Time) (reviewAction, tea.Cmd) {
	switch msg := msg.(type) {
	case consentGuardMsg:
		d.onGuard(msg)
	case tea.KeyPressMsg:
		return d.key(msg, now)
	}
	return nil, nil
}

// key handles one key at time now.
func (d *consentDialog) key(msg tea.KeyPressMsg, now time.Time) (reviewAction, tea.Cmd) {
	k := d.dkeys
	if now.Sub(d.guardFrom) < d.delay && key.Matches(msg, k.Confirm, k.Grant) {
		// Type-ahead guard: an early y or space (the keys that share) is
		// ignored and restarts the wait, so a held or repeated key can
		// never share. Reading, scrolling and cancelling work at once.
		// The footer says the key was not taken.
		d.guardFrom = now
		d.guardSeq++
		d.armed = false
		d.tooSoon = "too soon — press " + keyName(k.Confirm) + " again"
		if key.Matches(msg, k.Grant) {
			d.tooSoon = "too soon — press " + keyName(k.Grant) + " again"
		}
		d.rebuild()
		return nil, d.guardTick()
	}
	if now.Sub(d.guardFrom) >= d.delay {
		d.armed = true
	}
	d.flash, d.tooSoon = "", ""
	switch {
	case key.Matches(msg, k.Cancel):
		return reviewCancel{changed: !d.change.Empty()}, nil
	case key.Matches(msg, k.Confirm):
		if d.confirm() {
			return reviewConfirm{d.decision()}, nil
		}
	case key.Matches(msg, k.Grant, k.Expand) && !d.cursorShown():
		// Scrolled past the highlighted root (to read what follows it): the
		// key brings it back on screen instead of acting on a root not seen.
		d.vp.EnsureVisible(d.cursor, 0, 0)
	case key.Matches(msg, k.Grant):
		if a := d.current(); a != nil && a.warned() {
			a.granted = !a.granted
		}
	case key.Matches(msg, k.List):
		d.compact = !d.compact
	case key.Matches(msg, k.Expand):
		if a := d.current(); a != nil && len(a.inside) > 0 {
			a.expanded = !a.expanded
		} else if d.cursor < len(d.lines) && d.lines[d.cursor].kept {
			d.keptOpen = !d.keptOpen
		}
	case key.Matches(msg, k.Up):
		d.moveCursor(-1)
	case key.Matches(msg, k.Down):
		d.moveCursor(1)
	case key.Matches(msg, k.PageUp):
		d.vp.ScrollUp(max(d.vp.Height(), 1))
		d.cursorIntoView(true)
	case key.Matches(msg, k.PageDown):
		d.vp.ScrollDown(max(d.vp.Height(), 1))
		d.cursorIntoView(false)
	case key.Matches(msg, k.Top):
		d.vp.GotoTop()
		d.cursorIntoView(true)
	case key.Matches(msg, k.Bottom):
		d.vp.GotoBottom()
		d.cursorIntoView(false)
	}
	d.rebuild()
	return nil, nil
}

// Wheel scrolls the body, as the page keys do, a few lines a notch.
func (d *consentDialog) Wheel(up bool) {
	if up {
		d.vp.ScrollUp(3)
		d.cursorIntoView(true)
	} else {
		d.vp.ScrollDown(3)
		d.cursorIntoView(false)
	}
	d.rebuild()
}

// canConfirm reports whether y would confirm now (confirm, without its
// side effects): the key line and the footer offer y only then.
func (d *consentDialog) canConfirm() bool {
	return !d.change.Empty() && d.Unseen() == 0 && !consent.Review(d.exposed, d.Final()).Empty()
}

// keysThatAct are the dialog's keys that do something now, for the key
// line: y only when it would confirm, space only with a warned root, e
// only with something to expand, l only with more added roots than fit.
func (d *consentDialog) keysThatAct() []key.Binding {
	k := d.dkeys
	out := []key.Binding{}
	if d.canConfirm() {
		out = append(out, k.Confirm)
	}
	out = append(out, k.Cancel)
	if slices.ContainsFunc(d.added, (*addedRoot).warned) {
		out = append(out, k.Grant)
	}
	if len(d.change.Kept) > 0 || slices.ContainsFunc(d.added, func(a *addedRoot) bool { return len(a.inside) > 0 }) {
		out = append(out, k.Expand)
	}
	if len(d.added) > d.vp.Height() {
		out = append(out, k.List)
	}
	if len(d.lines) > d.vp.Height() {
		out = append(out, k.Down)
	}
	return out
}

// confirm decides on y: refused while added lines are unseen or when y
// would change nothing (every addition warned and none granted).
func (d *consentDialog) confirm() bool {
	if d.change.Empty() {
		return false
	}
	if n := d.Unseen(); n > 0 {
		d.flash = fmt.Sprintf("%d added %s not yet shown: scroll down to read them first", n, noun(n, "root", "roots"))
		return false
	}
	if consent.Review(d.exposed, d.Final()).Empty() {
		d.flash = "Nothing to confirm: grant a warned root with " + keyName(d.dkeys.Grant) + ", or cancel"
		return false
	}
	return true
}

// Final is the set y serves: the kept roots, the plain added roots and the
// warned ones granted one by one. Removed roots are left out.
func (d *consentDialog) Final() []consent.Root {
	out := append([]consent.Root(nil), d.change.Kept...)
	for _, a := range d.added {
		if !a.warned() || a.granted {
			out = append(out, a.Root)
		}
	}
	consent.SortRoots(out)
	return out
}

// Withheld lists the warned added roots that were not granted: they stay
// unshared, and the list unchecks them.
func (d *consentDialog) Withheld() []consent.Root {
	var out []consent.Root
	for _, a := range d.added {
		if a.warned() && !a.granted {
			out = append(out, a.Root)
		}
	}
	return out
}

// requested is the path r was checked as in the list (before symlinks
// were resolved), or its path.
func (d *consentDialog) requested(r consent.Root) string {
	for _, a := range d.added {
		if a.URI == r.URI && a.Requested != "" {
			return a.Requested
		}
	}
	return r.Path
}

// Acknowledged lists "path: reason" for every warned root granted.
func (d *consentDialog) Acknowledged() []string {
	var out []string
	for _, a := range d.added {
		if a.warned() && a.granted {
			for _, w := range a.Warnings {
				out = append(out, a.Path+": "+w.Text)
			}
		}
	}
	return out
}

// Granted returns, by URI, the warning codes of every warned root
// granted: what the record keeps as the person's acknowledgement.
func (d *consentDialog) Granted() map[string][]string {
	out := map[string][]string{}
	for _, a := range d.added {
		if a.warned() && a.granted {
			out[a.URI] = consent.GrantCodes(a.Warnings)
		}
	}
	return out
}

// Unseen counts the added roots whose line has not been on screen yet.
func (d *consentDialog) Unseen() int {
	n := 0
	for _, a := range d.added {
		if !a.seen {
			n++
		}
	}
	return n
}

// current is the added root under the cursor, if the cursor is on one.
func (d *consentDialog) current() *addedRoot {
	if d.cursor < 0 || d.cursor >= len(d.lines) || d.lines[d.cursor].added < 0 {
		return nil
	}
	return d.added[d.lines[d.cursor].added]
}

// moveCursor moves to the next selectable line in dir; past the last one
// it scrolls, so that lines after it (reasons, problems) can be read.
func (d *consentDialog) moveCursor(dir int) {
	for i := d.cursor + dir; i >= 0 && i < len(d.lines); i += dir {
		if d.lines[i].sel {
			d.cursor = i
			d.rebuild()
			d.vp.EnsureVisible(i, 0, 0)
			return
		}
	}
	if dir > 0 {
		d.vp.ScrollDown(1)
	} else {
		d.vp.ScrollUp(1)
	}
}

// cursorIntoView puts the cursor on the first (or last) selectable line in
// view after a page scroll, unless it is in view already.
func (d *consentDialog) cursorIntoView(first bool) {
	top, h := d.vp.YOffset(), d.vp.Height()
	if d.cursor >= top && d.cursor < top+h {
		return
	}
	best := -1
	for i := top; i < min(top+h, len(d.lines)); i++ {
		if d.lines[i].sel {
			best = i
			if first {
				break
			}
		}
	}
	if best >= 0 {
		d.cursor = best
	}
}

// cursorShown is whether the highlighted line is in the body's view.
func (d *consentDialog) cursorShown() bool {
	top := d.vp.YOffset()
	return d.cursor >= top && d.cursor < top+d.vp.Height()
}

// rebuild lays the body out again for the current state and size, and
// marks the added lines now on screen as seen. The highlighted root stays
// on screen when it was (or nothing was drawn yet), whatever shrank the
// body (a resize, a line of the footer): the keys act on it. A person who
// scrolled past it to read what follows keeps reading there.
func (d *consentDialog) rebuild() {
	inView := d.vp.Height() == 0 || d.cursorShown()
	inner := max(d.width-4, 1) // border and padding
	d.lines = d.bodyLines(inner)
	if d.cursor >= len(d.lines) || !d.lines[d.cursor].sel {
		d.cursor = 0
		for i, l := range d.lines {
			if l.sel {
				d.cursor = i
				break
			}
		}
	}
	texts := make([]string, len(d.lines))
	for i, l := range d.lines {
		t := l.text
		if i == d.cursor && l.sel {
			t = d.st.cursor.Render("›") + t[1:]
		}
		texts[i] = t
	}
	offset := d.vp.YOffset()
	_, _, bodyH := d.layout()
	d.vp.SetWidth(inner)
	d.vp.SetHeight(bodyH)
	d.vp.SetContentLines(texts)
	d.vp.SetYOffset(offset)
	if inView && d.vp.Height() > 0 && d.cursor < len(d.lines) && d.lines[d.cursor].sel {
		d.vp.EnsureVisible(d.cursor, 0, 0)
	}
	d.markSeen()
}

func (d *consentDialog) markSeen() {
	top, h := d.vp.YOffset(), d.vp.Height()
	if d.width < 8 || d.height < 3 {
		return // nothing is drawn
	}
	for i := top; i < min(top+h, len(d.lines)); i++ {
		if a := d.lines[i].added; a >= 0 {
			d.added[a].seen = true
		}
		for _, a := range d.lines[i].many {
			d.added[a].seen = true
		}
	}
}

// recipients are who a confirmation reaches, in words, and whether
// revoking every root restarts one of them.
type recipients struct {
	names   string
	restart bool
	// access says whether the kernel holds the servers to the folders
	// (fleet.Fleet.AccessSentence), and beyond what else they can read; "" when
	// no server has said.
	access, beyond string
}

// head and tail are the fixed lines around the body; they are dropped
// from the least to the most important when the box is short.
func (d *consentDialog) head(inner int) []string {
	second := accessLine
	if final := d.Final(); len(final) > 0 && !slices.ContainsFunc(final, func(r consent.Root) bool { return !r.ReadOnly }) {
		second = readOnlyAccessLine
	}
	if d.access != "" {
		second = d.access
	}
	if len(d.change.Added) == 0 && len(d.change.Kept) == 0 && len(d.change.Removed) > 0 {
		second = revokeLine
		if !d.restarts {
			second = revokeNoticeLine
		}
	}
	if d.revokeAll {
		second = keyName(d.keys.RevokeAll) + ": every root, whatever the filter shows. " + second
	}
	// Both wrap: the title and what sharing means are never cut.
	lines := []string{
		d.st.title.Render(wrapText(d.title(), inner)),
		d.st.dim.Render(wrapText(second, inner)),
	}
	if d.beyond != "" && (len(d.added) > 0 || len(d.change.Kept) > 0) {
		lines = append(lines, d.st.dim.Render(wrapText(d.beyond, inner)))
	}
	if d.replaces != "" && !d.change.Empty() {
		lines = append(lines, d.st.warn.Render(wrapText(d.replaces, inner)))
	}
	return lines
}

// title says what y does: "Share 2 roots, stop sharing 1, with NAME?".
func (d *consentDialog) title() string {
	add, rm, ch := len(d.added), len(d.change.Removed), len(d.change.Changed)
	with := " with " + d.servers + "?"
	access := ""
	if ch > 0 {
		access = "change the access of " + itoa(ch) + " " + noun(ch, "root", "roots")
	}
	switch {
	case d.change.Empty():
		return "Nothing to change"
	case add == 0 && rm == 0:
		return strings.ToUpper(access[:1]) + access[1:] + " shared with " + d.servers + "?"
	case access != "":
		with = ", " + access + "," + with
	}
	switch {
	case d.revokeAll || add == 0 && len(d.change.Kept) == 0:
		return "Stop sharing all " + itoa(rm) + " " + noun(rm, "root", "roots") + with
	case add == 0:
		return "Stop sharing " + itoa(rm) + " of " + itoa(rm+len(d.change.Kept)) + " roots" + with
	}
	// What y shares: a warned root not granted is not shared.
	share := "Share " + itoa(add) + " " + noun(add, "root", "roots")
	if g := add - len(d.Withheld()); g < add {
		share = "Share " + itoa(g) + " of " + itoa(add) + " " + noun(add, "root", "roots")
	}
	if rm == 0 {
		return share + with
	}
	return share + ", stop sharing " + itoa(rm) + "," + with
}

func (d *consentDialog) tail(inner int) []string {
	// The full path and URI of the highlighted line; two lines always, so
	// that moving the cursor never changes the body's height.
	out := []string{"", ""}
	if d.cursor < len(d.lines) && d.lines[d.cursor].root != nil {
		r := d.lines[d.cursor].root
		out[0] = d.st.dim.Render(midCut("path "+safetext.Escape(r.Path), inner))
		out[1] = d.st.dim.Render(midCut("uri  "+r.URI, inner))
	}
	return append(out, d.footer(inner)...)
}

func (d *consentDialog) footer(inner int) []string {
	if !d.armed {
		return []string{d.st.dim.Render(cut(d.waitLine(), inner, "…"))}
	}
	if d.change.Empty() {
		return []string{cut(d.st.title.Render(keyName(d.dkeys.Cancel))+d.st.dim.Render(" close"), inner, "…")}
	}
	// A line of news, if any (the most urgent), then how to answer.
	news := ""
	withheld := len(d.Withheld())
	switch n := d.Unseen(); {
	case d.flash != "":
		news = d.flash
	case d.tooSoon != "":
		news = d.tooSoon
	case n > 0:
		pack := ""
		if len(d.added) > d.vp.Height() && !d.compact {
			pack = " (" + keyName(d.dkeys.List) + " packs them)"
		}
		news = fmt.Sprintf("%s %d added %s not yet shown%s: %s waits until you have scrolled to them", d.unseenArrow(), n, noun(n, "root", "roots"), pack, keyName(d.dkeys.Confirm))
	case withheld > 0:
		news = fmt.Sprintf("%d warned %s unshared unless you grant each with %s", withheld, noun(withheld, "root stays", "roots stay"), keyName(d.dkeys.Grant))
	}
	// The counts are those of the sections above: "+ added, read and write (2)" with one
	// warned root not granted reads "1 of 2 added".
	added := fmt.Sprintf("%d added", len(d.added))
	if withheld > 0 {
		added = fmt.Sprintf("%d of %d added", len(d.added)-withheld, len(d.added))
	}
	var out []string
	if news != "" {
		out = append(out, d.st.warn.Render(cut(news, inner, "…")))
	}
	counts := fmt.Sprintf("(%s, %d removed)", added, len(d.change.Removed))
	if n := len(d.change.Changed); n > 0 {
		counts = fmt.Sprintf("(%s, %d removed, %d access changed)", added, len(d.change.Removed), n)
	}
	answer := d.st.title.Render(keyName(d.dkeys.Cancel)) + " cancel   "
	if d.canConfirm() {
		answer = d.st.title.Render(keyName(d.dkeys.Confirm)) + " confirm  " + answer
	}
	return append(out, cut(answer+d.st.dim.Render(counts), inner, "…"))
}

// unseenArrow points to where the added roots not yet shown are: ↓ below
// the view, ↑ above it, ↕ both.
func (d *consentDialog) unseenArrow() string {
	top, h := d.vp.YOffset(), d.vp.Height()
	above, below := false, false
	for i, l := range d.lines {
		idx := l.many
		if l.added >= 0 {
			idx = []int{l.added}
		}
		for _, a := range idx {
			if !d.added[a].seen {
				above, below = above || i < top, below || i >= top+h
			}
		}
	}
	switch {
	case above && below:
		return "↕"
	case above:
		return "↑"
	}
	return "↓"
}

// waitLine is the footer while the type-ahead guard holds: which keys
// wait, which work now, and a key swallowed too soon.
func (d *consentDialog) waitLine() string {
	k := d.dkeys
	line := keyName(k.Confirm) + " and " + keyName(k.Grant) + " work in a moment (read the change first); " +
		keyName(k.Cancel) + " and " + keyName(k.Down) + " work now"
	if d.tooSoon != "" {
		line = d.tooSoon + " · " + line
	}
	return line
}

// layout fits the fixed lines and the body into the box: a box too short
// for the whole body drops the full path (the body scrolls); one too
// short for a line of body drops the access line, the title, then the
// news line. The line
// saying how to answer stays while anything fits.
func (d *consentDialog) layout() (head, tail []string, bodyH int) {
	inner := max(d.width-4, 1)
	head, tail = d.head(inner), d.tail(inner)
	avail := d.height - 2 // the border
	if avail <= 0 {
		return nil, nil, 0
	}
	fixed := func() int { return fixedRows(head, tail) }
	// First make room for the whole body, then for at least one line of
	// it: what sharing means stays while any of the body fits.
	if fixed()+len(d.lines) > avail && len(tail) >= 3 {
		tail = tail[2:] // the full path and URI
	}
	for fixed()+min(len(d.lines), 1) > avail {
		if len(head) > 0 {
			head = giveWay(head)
		} else if len(tail) == 2 {
			tail = tail[1:] // the news line
		} else {
			return head, tail, max(avail-fixed(), 0)
		}
	}
	return head, tail, min(len(d.lines), avail-fixed())
}

// fixedRows is the rows the head and the tail take (the title and the
// access sentence may wrap onto several lines).
func fixedRows(head, tail []string) int {
	n := len(tail)
	for _, h := range head {
		n += lipgloss.Height(h)
	}
	return n
}

// giveWay is head without its least needed part: what sharing means goes
// first, then what else enforced servers read, then the consent y
// replaces; the title last.
func giveWay(head []string) []string {
	if len(head) > 1 {
		return slices.Delete(head, 1, 2)
	}
	return nil
}

// fullHeight is the rows the dialog takes drawn whole at its width: the
// border, the title and access lines, every body line and the footer.
func (d *consentDialog) fullHeight() int {
	inner := max(d.width-4, 1)
	return 2 + fixedRows(d.head(inner), d.tail(inner)) + len(d.lines)
}

// bodyLines are the scrolling lines: the sections and their entries.
func (d *consentDialog) bodyLines(inner int) []dline {
	b := &bodyWriter{d: d, inner: inner}
	b.addedSection()
	if d.scanning && len(d.added) > 0 {
		b.text(d.st.warn.Render(cut("  The scan is still running: these folders may hold more repositories.", inner, "…")))
	}
	b.removedSection()
	b.changedSection()
	b.keptSection()
	if d.change.Empty() {
		b.text(d.st.dim.Render(cut(emptyChange(len(d.change.Kept), len(d.problems)), inner, "…")))
	}
	// Why a checked folder cannot be shared is wrapped, never cut.
	for _, p := range d.problems {
		for l := range strings.SplitSeq(wrapText("! "+safetext.Escape(p), inner), "\n") {
			b.text(d.st.warn.Render(l))
		}
	}
	return b.out
}

// bodyWriter writes the dialog's body lines, a section at a time, for
// the width inner.
type bodyWriter struct {
	d     *consentDialog
	inner int
	out   []dline
}

// text is a line that the cursor passes over.
func (b *bodyWriter) text(s string) { b.out = append(b.out, dline{text: s, added: -1}) }

// entry is a root's line: its sign and name, and a suffix on the right;
// added is its index among the added roots, or -1.
func (b *bodyWriter) entry(sign string, st ink, r consent.Root, suffix string, added int) {
	d, inner := b.d, b.inner
	name := d.label(r.Path)
	if added >= 0 && d.added[added].Requested != "" {
		name = d.label(d.added[added].Requested) // as the list shows it, before symlinks
	}
	// The suffix may take what the name leaves, but the name keeps at
	// least 24 cells (or all it needs) and is cut in its middle.
	suffix = cut(suffix, max(inner-5-min(cellWidth(name), 24), inner/2, 1), "…")
	nameW := max(inner-4-cellWidth(suffix)-1, 4)
	name = midCut(name, nameW)
	gap := max(1, inner-4-cellWidth(name)-cellWidth(suffix))
	line := "  " + st.Render(sign+" "+name)
	if suffix != "" {
		line += strings.Repeat(" ", gap) + suffix
	}
	root := r
	b.out = append(b.out, dline{text: line, sel: true, root: &root, added: added})
}

// addedSection is "+ added, read and write (N)" then "+ added, read-only
// (N)": each root with what it brings in, its redundancy and its grant,
// then its warnings and, expanded, the repositories inside it.
func (b *bodyWriter) addedSection() {
	d, inner := b.d, b.inner
	if len(d.added) == 0 {
		return
	}
	// The added roots come read and write first, then read-only
	// (newConsentDialog): each group has its header, with its access in
	// words.
	ro := slices.IndexFunc(d.added, func(a *addedRoot) bool { return a.ReadOnly })
	rw := len(d.added)
	if ro >= 0 {
		rw = ro
	}
	var pack []int // plain roots waiting to be packed (compact)
	for i, a := range d.added {
		if i == ro {
			b.pack(pack)
			pack = nil
		}
		switch {
		case i == 0 && rw > 0:
			b.text(d.st.added.Render(fmt.Sprintf("+ added, read and write (%d)", rw)))
		case i == ro:
			b.text(d.st.added.Render(fmt.Sprintf("+ added, read-only (%d)", len(d.added)-ro)))
		}
		if d.compact && !a.warned() && !a.expanded {
			pack = append(pack, i)
			continue
		}
		sign, st := "+", d.st.added
		if a.warned() {
			sign, st = "!", d.st.warn
		}
		b.entry(sign, st, a.Root, d.st.dim.Render(strings.Join(d.addedSuffix(a, inner), "  ")), i)
		for _, w := range a.Warnings {
			b.text(d.st.warn.Render(cut("      ⚠ "+safetext.Escape(w.Text), inner, "…")))
		}
		if a.expanded {
			for _, in := range a.inside {
				b.text(d.st.dim.Render("      · " + midCut(in, max(inner-8, 4))))
			}
		}
	}
	b.pack(pack)
}

// pack writes the added roots of idx several a line, in columns of the
// width their labels need (cut in the middle past a third of the line):
// the compact form of a large confirmation, where each root is still
// named, and seen when its line is on screen.
func (b *bodyWriter) pack(idx []int) {
	d, inner := b.d, b.inner
	if len(idx) == 0 {
		return
	}
	labels := make([]string, len(idx))
	colW := 0
	for j, i := range idx {
		a := d.added[i]
		labels[j] = d.label(cmp.Or(a.Requested, a.Path))
		colW = max(colW, cellWidth(labels[j]))
	}
	avail := max(inner-4, 4)
	colW = min(colW, max(avail/3-2, 8))
	perLine := max(1, (avail+2)/(colW+2))
	for start := 0; start < len(idx); start += perLine {
		end := min(start+perLine, len(idx))
		var cells []string
		for _, l := range labels[start:end] {
			l = midCut(l, colW)
			cells = append(cells, l+strings.Repeat(" ", colW-cellWidth(l)))
		}
		text := "  " + d.st.added.Render("+ "+strings.TrimRight(strings.Join(cells, "  "), " "))
		b.out = append(b.out, dline{text: text, added: -1, many: slices.Clone(idx[start:end])})
	}
}

// addedSuffix is what follows an added root's name: what it brings in,
// what makes it redundant, whether it is granted.
func (d *consentDialog) addedSuffix(a *addedRoot, inner int) []string {
	var suffix []string
	if n := len(a.inside); n > 0 {
		arrow := "▸"
		if a.expanded {
			arrow = "▾"
		}
		suffix = append(suffix, fmt.Sprintf("brings in %d %s %s", n, noun(n, "repo", "repos"), arrow))
	}
	if a.redundant != "" {
		suffix = append(suffix, "redundant: inside "+midCut(d.label(a.redundant), max(inner/4, 4)))
	}
	switch {
	case !a.warned():
	case a.granted:
		suffix = append(suffix, "[x] granted")
	default:
		suffix = append(suffix, "[ ] not granted")
	}
	return suffix
}

// removedSection is "− removed (N)". A removed root inside a root that
// stays is still readable through it: it says so rather than let "−"
// suggest it is gone.
func (b *bodyWriter) removedSection() {
	d := b.d
	if len(d.change.Removed) == 0 {
		return
	}
	b.text(d.st.removed.Render(fmt.Sprintf("− removed (%d)", len(d.change.Removed))))
	stays := map[string]bool{}
	for _, r := range d.Final() {
		stays[r.Path] = true
	}
	for _, r := range d.change.Removed {
		suffix := ""
		if outer, ok := consent.CoveringRoot(r.Path, stays); ok {
			suffix = d.st.warn.Render("still readable: inside " + midCut(d.label(outer), max(b.inner/4, 4)))
		}
		b.entry("−", d.st.removed, r, suffix, -1)
	}
}

// changedSection is "~ access changed (N)": kept roots whose access a
// confirmation switches, each with its access before and after.
func (b *bodyWriter) changedSection() {
	d := b.d
	if len(d.change.Changed) == 0 {
		return
	}
	b.text(d.st.added.Render(fmt.Sprintf("~ access changed (%d)", len(d.change.Changed))))
	for _, r := range d.change.Changed {
		was := consent.Root{ReadOnly: !r.ReadOnly}
		b.entry("~", d.st.added, r, d.st.dim.Render(r.Access()+" (was "+was.Access()+")"), -1)
	}
}

// keptSection is "= kept (N, already shared)", folded until opened.
func (b *bodyWriter) keptSection() {
	d := b.d
	n := len(d.change.Kept)
	if n == 0 {
		return
	}
	arrow := "▸"
	if d.keptOpen {
		arrow = "▾"
	}
	b.out = append(b.out, dline{text: "  " + d.st.dim.Render(fmt.Sprintf("= kept (%d, already shared) %s", n, arrow)), sel: true, added: -1, kept: true})
	if d.keptOpen {
		for _, r := range d.change.Kept {
			b.entry("=", d.st.dim, r, d.st.dim.Render(r.Access()), -1)
		}
	}
}

// emptyChange says why a review changes nothing, kept folders being
// exactly what is shared, or the checked folders (problems of them)
// being ones that cannot be shared, said below it.
func emptyChange(kept, problems int) string {
	switch {
	case kept == 0 && problems > 0:
		return noun(problems, "The checked folder cannot be shared:", "The checked folders cannot be shared:")
	case kept == 0:
		return "Nothing is checked and nothing is shared."
	case kept == 1:
		return "The checked folder is exactly what is shared."
	}
	return fmt.Sprintf("The %d checked folders are exactly what is shared.", kept)
}

// label is path relative to the scanned folder ("." for the folder), or the
// absolute path when it is outside; control characters are escaped.
func (d *consentDialog) label(path string) string {
	if d.dir != "" && consent.Within(path, d.dir) {
		if rel, err := filepath.Rel(d.dir, path); err == nil {
			return safetext.Escape(rel)
		}
	}
	return safetext.Escape(path)
}

// View draws the dialog box.
func (d *consentDialog) View() string {
	if d.width < 8 || d.height < 3 {
		return ""
	}
	head, tail, bodyH := d.layout()
	if bodyH > 0 && d.vp.Height() != bodyH {
		// The body keeps the height rebuild marked its lines seen at:
		// seeing the last root takes the footer's news line away, which
		// can bring back a part of the head that made room for it. That
		// part gives way again, as layout gives parts way.
		bodyH = d.vp.Height()
		for len(head) > 0 && 2+fixedRows(head, tail)+bodyH > d.height {
			head = giveWay(head)
		}
	}
	body := ""
	if bodyH > 0 {
		body = d.vp.View()
	}
	rows := append([]string(nil), head...)
	if body != "" {
		rows = append(rows, body)
	}
	rows = append(rows, tail...)
	return d.st.dialog.Width(d.width).Render(strings.Join(rows, "\n"))
}
