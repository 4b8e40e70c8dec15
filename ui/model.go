// Package ui is rootpick's terminal interface: Bubble Tea models, views, key
// maps and styles. It turns scan results and server events into messages and
// key presses into intents on the domain packages; it does no I/O in Update.
//
// The flow, as fzf's core.go tells its own:
//
//	Init ─ scan (scanline.go, the walk scan.go) ─ scanStartedMsg, scanBatchMsg ─▶ picker.State (rows)
//	     ─ hub events (hub.go onHubEvent) ─ hubEventMsg, tickMsg ─▶ fleet.Fleet (the servers)
//	     ─ proxies (proxies.go) ─ proxiesMsg ──────────────▶ the proxies beside the servers
//	     ─ --resume (consent.go) ─ resumeMsg ────────────────▶ serveRoots
//
//	key ─▶ handleKey (model.go): one switch; what is on top (mode.go) decides
//	  list (model.go listKey): move, check, ctrl chords; any other key edits
//	    the query (filter.go) ─ filterResultMsg (large lists, off the loop)
//	  enter / ctrl+d ─▶ the review (review.go) ─▶ proposeConsent (off
//	    the loop: it reads the disk) ─ proposalMsg ─▶ the review opens a
//	    consentDialog (dialog.go), held by the sharing state
//	    ─ y ─▶ confirmConsent: serveRoots ─ rootsServedMsg (the hub has
//	      notified every server); saveConsent ─ consentSavedMsg
//	  help (help.go), server pane (servers.go), a question on the
//	    status line (ask.go: quit, check all) ─ back to the list
//
//	the rows' facts (facts.go) ─ factsMsg; commit times for the sort
//	(sorttimes.go) ─ timesMsg, timesResortMsg: read by pools for the rows
//	on screen first, applied when they arrive.
//
// [Model] is the program. What it draws is split into components that own
// their size (the [component] contract): the consent dialog
// ([consentDialog]); and those drawn from a value their owner hands them
// on each frame, keeping no pointer back to the model (the [framed]
// contract): the list ([listView], handed a [listFrame]), the server
// pane ([serverPane], its lines) and the status line ([statusLine],
// handed a [statusFrame]). The review is a sub-model ([review]): it
// takes the review's messages with what it reads of the picker as a value
// ([reviewIn]) and returns an action that [Model.onReview] carries out.
// The consented sets have one writer, [sharing.State] (package
// ui/sharing), which the review holds: [Model.confirmConsent] and
// [Model.onResume] hand a set to the hub through [serveRoots]; the hub's
// withdrawals come back as hub events ([Model.onHubEvent]). The servers
// and their states are a [fleet.Fleet] (package ui/fleet): it is told the
// hub's events and the proxies, derives each server's word and draws it,
// reading the sharing state and the clock only from the [fleet.View] each
// call hands it ([Model.fleetView]).
//
// [Model.handleKey] is where every key goes; [Model.mode] says what is on
// top, derived from the dialog, the question and the [page], never
// stored. Texts name keys from their bindings ([keyName]).
//
// Files are named by what they hold, one per mode (list.go and filter.go,
// help.go, servers.go, dialog.go, ask.go) and one per flow (scanline.go,
// hub.go, proxies.go, consent.go), beside the shared ones (model.go,
// mode.go, common.go, keys.go, dialogkeys.go, styles.go, rows.go,
// details.go, status.go, mouse.go); the servers are a package of their
// own, ui/fleet.
// The components, the sub-models and the small pieces below them
// (config.go, text.go, keys.go, styles.go, the components' files; the
// review, review.go; the walk, [scanState] in scan.go; the rows' facts,
// [rowFacts] in facts.go; the sort's commit times, [sortTimes] in
// sorttimes.go) never name [Model]: each is handed what it reads of the
// rest on each call, and only the flows' files name the model, so
// references between files run one way except among the flows.
package ui

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/picker"
	"github.com/rootpick/rootpick/ui/fleet"
	"github.com/rootpick/rootpick/vcsdetect"
)

// Model is the whole program state.
type Model struct {
	*common // the palette and key maps every part shares (common.go)
	cfg     Config
	width   int
	height  int

	picker picker.State
	list   listView

	walk scanState // the scan: its generation, counts and spinner (scan.go)

	filter        queryLine // the query line, always focused: typing filters
	filterWant    string    // the query typed last; the picker shows it once matched
	filterSyncMax int       // lists up to this size are matched inside Update (filter.go)
	early         earlyKeys // keys (and pastes behind them) that wait for the query's result or the review's dialog (earlykeys.go)

	// Derived per change, not per frame (rows.go).
	shared    sharedCache
	rowCounts rowCounts

	// The consented set, the consent pipeline's phase and its pending
	// work: one owner and writer (package sharing).
	review review // the review flow, with the sharing state (review.go)

	fleet           *fleet.Fleet // the servers and proxies, and how they are drawn (package ui/fleet)
	now             time.Time    // the clock, as of the last event or tick
	ticking         bool         // a tick is scheduled
	registryProblem string       // why the proxy registry was not read, as last shown

	page     page           // what the body shows under any overlay (mode.go)
	srvPane  serverPane     // the server pane (servers.go)
	question question       // the question on the status line, askNone when none (ask.go)
	status   statusLine     // the status line and its note (status.go)
	helpVP   viewport.Model // the full help (help.go)
	chrome   chrome         // the fixed lines: their height at the last layout, as Update drew them
	helpLine struct {       // the drawn key help, for its key
		key   helpLineKey
		text  string
		short string // the key help in one line, for a short terminal
	}

	facts   rowFacts  // the rows' facts, read by a pool for the visible rows first (facts.go)
	times   sortTimes // commit times for the sort (sorttimes.go)
	paneKey paneKey
	pane    string // the drawn details pane, for paneKey
}

// New returns the model for cfg.
func New(cfg Config) *Model {
	if cfg.Scan == nil {
		cfg.Scan = vcsdetect.Scan
	}
	if cfg.ArmDelay == 0 {
		cfg.ArmDelay = 300 * time.Millisecond
	}
	// Dark until the terminal answers tea.RequestBackgroundColor, unless
	// the config file says which.
	st := newStyles(cfg.Theme != "light", noColorEnv())
	ti := textinput.New()
	ti.Prompt = "/ "
	ti.Placeholder = "type to filter"
	ti.SetStyles(st.inputStyles())
	ti.Focus()
	m := &Model{
		common: &common{st: st, keys: defaultKeys(), dkeys: defaultDialogKeys()},
		cfg:    cfg,
		filter: queryLine{Model: ti},

		walk: scanState{spinner: spinner.New(spinner.WithSpinner(scanSpinner), spinner.WithStyle(st.spinner.Style))},

		filterSyncMax: syncFilterMax,
	}
	m.list = listView{common: m.common, dir: cfg.Dir}
	labels := make([]string, len(cfg.Servers))
	for i, s := range cfg.Servers {
		labels[i] = s.Label()
	}
	m.fleet = fleet.New(labels...)
	m.srvPane = serverPane{common: m.common}
	m.status = statusLine{common: m.common}
	m.newPool()
	m.picker.SetCommitTime(lastCommit(&m.times, &m.facts))
	m.picker.SetBase(cfg.Dir)
	m.picker.SetReadOnlyNew(cfg.ReadOnly)
	m.applyRemembered(cfg.Remembered)
	if cfg.Intro && m.status.note == "" {
		m.setNote(m.introNote(), false)
	}
	if cfg.StoreProblem != "" {
		m.setNote(safetext.Escape(cfg.StoreProblem), true)
	}
	return m
}

// newPool closes the pools, if any, and starts reading facts afresh
// (rowFacts.reset): the describer's cache goes with it.
func (m *Model) newPool() {
	m.closePool()
	describe := m.cfg.Describe
	if describe == nil {
		describe = vcsdetect.NewDescriber(vcsdetect.DescribeOptions{Logger: m.cfg.ScanOptions.Logger}).Describe
	}
	m.facts.reset(describe, m.cfg.Dir)
	m.paneKey = paneKey{}
}

// closePool cancels what the pools (facts, commit times) are reading;
// their results are dropped.
func (m *Model) closePool() {
	m.facts.close()
	m.times.close()
}

func (m *Model) sharedPaths() map[string]bool {
	out := make(map[string]bool, len(m.review.sh.Served()))
	for _, r := range m.review.sh.Served() {
		out[r.Path] = true
	}
	// What the profile's proxies serve (its remembered consent) is
	// exposed too: a row they serve is shared, and unchecking it is a
	// removal to review.
	for _, r := range m.fleet.ProxyServed() {
		out[r.Path] = true
	}
	return out
}

// fleetView is what the fleet reads of the picker on one call: the
// sharing state (read only), the clock, the settings it names, the
// palette and the keys as bound now.
func (m *Model) fleetView() fleet.View {
	protocol := mcpconn.DefaultProtocolVersion
	if m.cfg.Hub != nil {
		protocol = m.cfg.Hub.ProtocolVersion()
	}
	return fleet.View{Sharing: &m.review.sh, Now: m.now, Dir: m.cfg.Dir, LogPath: m.cfg.LogPath,
		Protocol: protocol, AsRoot: m.cfg.AsRoot, Consumers: m.cfg.Consumers,
		Styles: fleetStyles(m.st), Keys: fleetKeys(m.keys)}
}

// fleetKeys names the keys the fleet's texts name, as they are bound.
func fleetKeys(k keyMap) fleet.Keys {
	return fleet.Keys{Retry: keyName(k.Retry), Pane: keyName(k.Servers), Back: keyName(backKeys),
		Allow: keyName(paneAllowKey), Advisory: keyName(paneAdvisoryKey)}
}

// fleetStyles are the palette's inks the fleet draws with.
func fleetStyles(st styles) fleet.Styles {
	return fleet.Styles{Title: st.title, Dim: st.dim, OK: st.ok, Pending: st.pending, Warn: st.warn, Err: st.err}
}

// introNote says in one line what rootpick is for, and that nothing is
// shared until the person says yes.
func (m *Model) introNote() string {
	return "rootpick shares the folders you check (" + keyName(m.keys.Toggle) + ") with MCP servers, as roots. " +
		"Nothing is shared until you review (" + keyName(m.keys.Review) + ") and confirm (" + keyName(m.dkeys.Confirm) + ")."
}

// Init starts the scan, the server connections and the event reader.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.scan()}
	if !m.st.noColor && m.autoTheme() {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.cfg.Resume && m.cfg.Remembered != nil {
		cmds = append(cmds, resumeConsent(m.cfg.Dir, *m.cfg.Remembered))
	}
	if m.cfg.ProxyDir != "" && m.cfg.Store != nil {
		cmds = append(cmds, pollProxies(m.cfg.ProxyDir, m.cfg.Store.Profile(), 0))
	}
	if m.cfg.Hub != nil {
		cmds = append(cmds, waitEvent(m.cfg.Hub.Events()))
		for _, s := range m.cfg.Servers {
			cmds = append(cmds, addServer(m.cfg.Hub, s))
		}
	}
	return tea.Batch(cmds...)
}

// Update handles one message; whatever moved the cursor or the list, the
// facts of the rows now in view are then asked for.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if m.width > 0 && m.chromeHeight() != m.chrome.laid {
		m.layout() // a line above or below the body came or went
	}
	return m, tea.Batch(cmd, m.facts.want(&m.picker, m.list.offset, m.list.height, m.walk.running, m.clock()), m.times.want(&m.picker, m.cfg.CommitTime))
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.setSize(msg.Width, msg.Height)
		return nil
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseClickMsg, tea.MouseWheelMsg:
		m.onMouse(msg.(tea.MouseMsg))
		return nil
	case scanStartedMsg:
		return m.walk.started(msg)
	case scanBatchMsg:
		return m.onScanBatch(msg)
	case hubEventMsg:
		m.now = msg.at
		return tea.Batch(m.onHubEvent(msg.ev), waitEvent(m.cfg.Hub.Events()))
	case tickMsg:
		return m.onTick(msg.now)
	case spinner.TickMsg:
		// The spinner moves the clock too, while a scan runs.
		if m.walk.running && msg.Time.After(m.now) {
			m.now = msg.Time
		}
		return m.walk.tick(msg)
	case tea.BackgroundColorMsg:
		if m.autoTheme() {
			m.setTheme(msg.IsDark())
		}
		return nil
	case factsRestMsg:
		m.facts.resting = false // Update then wants the rows in view, if the list rested
		return nil
	case factsMsg:
		cur, _ := m.picker.Current()
		cmd, curCame := m.facts.onFacts(msg, cur.Path)
		if curCame {
			m.paneKey = paneKey{} // the pane shows them: draw it again
		}
		return cmd
	case timesMsg:
		return m.times.onTimes(msg)
	case timesResortMsg:
		m.times.resort(&m.picker)
		return nil
	case proxiesMsg:
		return m.onProxies(msg)
	case filterResultMsg:
		return m.onFilterResult(msg)
	case proposalMsg:
		// The dialog is open now (or there was nothing to review): the
		// keys that waited for it follow, in the order pressed, to the
		// dialog, whose guard ignores them, or to the list (filter.go).
		cmd := m.toReview(msg)
		return tea.Batch(cmd, m.releaseKeys())
	case consentGuardMsg:
		return m.toReview(msg)
	case consentSavedMsg:
		return m.onConsentSaved(msg)
	case noteMsg:
		m.setNote(msg.text, msg.isErr)
		return nil
	case resumeMsg:
		return m.onResume(msg)
	case rootsServedMsg:
		m.setNote(m.servedNote(len(msg.roots)), false)
		if m.review.sh.ServedNow(msg.roots) { // enter was pressed while the change was on its way
			return proposeConsent(m.cfg.Dir, m.picker.Checked(), m.picker.ReadOnly())
		}
		return nil
	}
	// A paste, the query line's cursor blink: to the query while the list
	// is shown; a paste waits behind held keys (earlykeys.go).
	if m.mode() != modeList {
		return nil
	}
	if _, paste := msg.(tea.PasteMsg); paste && m.holdKey(msg) {
		return nil
	}
	return m.editQuery(msg)
}

func sharedNote(n int) string {
	switch n {
	case 0:
		return "Consent applied: no folder shared."
	case 1:
		return "Consent applied: 1 folder."
	}
	return "Consent applied: " + itoa(n) + " folders."
}

func (m *Model) setNote(s string, isErr bool) { m.status.set(s, isErr) }

func (m *Model) setSize(w, h int) {
	m.width, m.height = w, h
	m.status.SetSize(w, 0)         // its height is what it needs: the layout asks it
	m.filter.SetWidth(max(w-6, 1)) // the prompt, the cursor and " …" fit beside it
	m.layout()
}

// chromeHeight is the height of the fixed lines around the body: the
// header, the filter line, the scan line, the status line with its note
// and the key help (the last two wrapped, so they may take more than one
// line).
func (m *Model) chromeHeight() int {
	c := &m.chrome
	c.scan = ""
	if m.walk.running {
		c.scan = m.scanLine()
	}
	md := m.bodyMode()
	sf, list := m.statusFrame(), md == modeList
	c.status, c.help, c.drawn = m.status.View(sf), m.shortHelp(), true
	h := chromeOf(c.status, c.help, c.scan, m.walk.running, list)
	want := minBodyRows
	switch {
	case md == modeDialog:
		want = dialogMinRows
		if m.height-h < want { // measured only then: it wraps the dialog's head
			want = min(want, m.review.sh.Dialog().fullHeight())
		}
	case list && m.picker.Len() > 0:
		want = min(want, max(m.picker.ShownLen(), 1))
	}
	if m.height-h >= want {
		return h
	}
	// A short terminal: the rows come first. The key help shrinks to
	// one line ending in "? help", the current row's path under the
	// status line goes, then the key help, then a long note's lines
	// but its first. The status line stays (it says what is shared),
	// and so do a question whole and a line of the dialog's help (its
	// first key confirms or cancels).
	c.help = m.helpLine.short
	if sf.where != "" {
		sf.where = ""
		c.status = m.status.View(sf)
	}
	if h = chromeOf(c.status, c.help, c.scan, m.walk.running, list); m.height-h < want && md != modeDialog {
		c.help = ""
		h = chromeOf(c.status, c.help, c.scan, m.walk.running, list)
	}
	// Then a note wrapped below the status line keeps the lines the body
	// can spare, one at least, its last ending in "…".
	if m.height-h >= want || sf.asking {
		return h
	}
	if n := lipgloss.Height(c.status) - 1; n > 1 { // the note's lines below the status line, as just drawn
		sf.noteRows = max(1, n-(want-(m.height-h)))
		c.status = m.status.View(sf)
		h = chromeOf(c.status, c.help, c.scan, m.walk.running, list)
	}
	return h
}

// minBodyRows is the fewest rows the fixed lines leave the body while
// they can shrink (chromeHeight), or the list's rows where it has fewer;
// dialogMinRows the same for the consent dialog, or its whole height
// where it is shorter: its border, its title and what sharing means, a
// few of its lines and its footer.
const (
	minBodyRows   = 3
	dialogMinRows = 10
)

// chrome is the fixed lines' height at the last layout, and the lines
// as chromeHeight last drew them: Update draws them at its end to learn
// their height, and the frame drawn right after it (View) takes them
// instead of drawing them again, which was a twelfth of a ↓ key's CPU.
type chrome struct {
	laid               int
	status, help, scan string
	drawn              bool // drawn since the last frame took them
}

// take returns the lines drawn for this frame; the next frame draws its
// own.
func (c *chrome) take() (status, help, scan string) {
	c.drawn = false
	return c.status, c.help, c.scan
}

// chromeOf is the rows the fixed lines take: the header, the filter line
// when there is one, the scan line while scanning, the status and the
// help, as drawn.
func chromeOf(status, help, scan string, scanning, filter bool) int {
	h := 1 + lipgloss.Height(status)
	if help != "" {
		h += lipgloss.Height(help)
	}
	if filter {
		h++
	}
	if scanning {
		h += lipgloss.Height(scan)
	}
	return h
}

// bodyHeight is the rows left by the fixed lines.
func (m *Model) bodyHeight() int {
	return max(m.height-m.chromeHeight(), 0)
}

// layout gives the list, the dialog and the help the rows left by the
// fixed lines.
func (m *Model) layout() {
	m.chrome.laid = m.chromeHeight()
	body := max(m.height-m.chrome.laid, 0) // bodyHeight, without drawing the lines again
	if d := m.review.sh.Dialog(); d != nil {
		d.SetSize(m.width, body)
		// Sized, the dialog may show lines it had not, or hide some, which
		// changes its key help (y once every root was seen, ↑/↓ while some
		// are hidden) and so the fixed lines: lay out again until they
		// hold. The two can feed each other: a help grown by the hidden
		// lines can make the terminal short, which shrinks the help to one
		// line, which gives the dialog its rows back, and the help grows
		// again. Once the lines would shrink back to a height already laid
		// out, the taller stays, and the box fits with a blank row at most.
		laid := []int{m.chrome.laid}
		for range 4 {
			h := m.chromeHeight()
			if h == m.chrome.laid || h < m.chrome.laid && slices.Contains(laid, h) {
				break
			}
			m.chrome.laid, laid = h, append(laid, h)
			body = max(m.height-h, 0)
			d.SetSize(m.width, body)
		}
	}
	if m.page == pageHelp {
		m.sizeHelp()
	}
	switch m.detailsMode() {
	case "side":
		m.list.SetSize(m.sideListWidth(), body)
	case "below":
		m.list.SetSize(m.width, body-min(detailsBelowRows, max(body/3, 1)))
	default:
		m.list.SetSize(m.width, body)
	}
	m.srvPane.SetSize(m.width, body)
	m.list.follow(m.picker.Cursor(), m.picker.ShownLen())
}

// handleKey is where every key goes: one switch, in order. ctrl+c aborts
// whatever is on screen; a key pressed before what it is for is on
// screen (the query's result, the review's dialog) waits in the one queue
// of early keys; then what is on top (Model.mode) takes the key.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch md := m.mode(); {
	case key.Matches(msg, m.keys.Interrupt):
		m.walk.stop()
		m.closePool()
		return tea.Interrupt
	case md == modeList && m.holdKey(msg):
		// A key that acts on rows, pressed while the query typed is still
		// being matched, waits for that result; the keys pressed while a
		// review is being built wait for its dialog; and every key behind
		// one that waits, in the order pressed (earlykeys.go).
		return nil
	case md == modeDialog:
		return m.toReview(msg)
	case md == modeAsk:
		return m.answer(msg)
	case md == modeHelp:
		return m.helpKey(msg)
	case md == modeServers:
		return m.onPane(m.srvPane.Update(msg, len(m.paneLines())))
	}
	return m.listKey(msg)
}

// onPane acts on what a key in the server pane asked.
func (m *Model) onPane(a paneAction) tea.Cmd {
	switch a {
	case paneQuit:
		return m.quit()
	case paneRetry:
		return m.retry()
	case paneAllow, paneAdvisory:
		label, path, ok := m.fleet.TakeRefusal(a == paneAllow, m.now)
		if !ok {
			return nil
		}
		return answerRefusal(m.cfg.Hub, m.cfg.RememberAllow, label, path, a == paneAllow)
	case paneClose:
		m.page = pageList
	case paneNone:
	}
	return nil
}

// listKey handles a key in the list. Commands are keys that cannot be
// typed in a name (keys.go); every other key edits the query.
func (m *Model) listKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.ClearQuery) && m.filterWant != "":
		m.clearQuery()
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Up):
		m.picker.Move(-1)
	case key.Matches(msg, k.Down):
		m.picker.Move(1)
	case key.Matches(msg, k.PageUp):
		m.picker.Move(-max(m.list.height-1, 1))
	case key.Matches(msg, k.PageDown):
		m.picker.Move(max(m.list.height-1, 1))
	case key.Matches(msg, k.Top):
		m.picker.MoveTo(0)
	case key.Matches(msg, k.Bottom):
		m.picker.MoveTo(m.picker.ShownLen() - 1)
	case key.Matches(msg, k.Toggle) && strings.TrimSpace(m.filter.Value()) == "":
		m.toggle() // in a query, space separates terms (default below)
	case key.Matches(msg, k.MarkDown):
		m.toggle()
		m.picker.Move(1)
	case key.Matches(msg, k.MarkUp):
		m.toggle()
		m.picker.Move(-1)
	case key.Matches(msg, k.ReadOnly):
		path, ro, ok := m.picker.ToggleReadOnly()
		m.setNote(accessNote(m.rel(path), ro, ok, keyName(k.Toggle), keyName(k.Review)), false)
	case key.Matches(msg, k.CheckAll):
		return m.checkShown(true)
	case key.Matches(msg, k.UncheckAll):
		return m.checkShown(false)
	case key.Matches(msg, k.RevokeAll):
		return m.toReview(reviewAsked{revoke: true})
	case key.Matches(msg, k.Sort):
		m.setNote("Sorted by "+m.picker.CycleSort().String()+".", false)
	case key.Matches(msg, k.Review):
		return m.toReview(reviewAsked{})
	case key.Matches(msg, k.Rescan):
		return m.scan()
	case key.Matches(msg, k.Retry):
		return m.retry()
	case key.Matches(msg, k.Servers):
		m.page = pageServers
		m.srvPane.top = 0
	case key.Matches(msg, k.Help):
		m.openHelp()
	default:
		return m.editQuery(msg)
	}
	m.list.follow(m.picker.Cursor(), m.picker.ShownLen())
	return nil
}

// paneLines are the server pane's lines at its width, unscrolled: what
// the pane draws on this frame and scrolls through.
func (m *Model) paneLines() []string { return m.fleet.PaneLines(m.fleetView(), m.width) }

// statusFrame is what the status line draws beside its note on this
// frame: the servers' line at its width, whether the note is a question,
// and the highlighted row's path where no details pane shows it.
func (m *Model) statusFrame() statusFrame {
	where := ""
	if m.width < detailsBelowMinW && m.bodyMode() == modeList {
		if r, ok := m.picker.Current(); ok {
			where = safetext.Escape(home(r.Path))
		}
	}
	return statusFrame{servers: m.fleet.Line(m.fleetView(), m.width), asking: m.question.kind != askNone, where: where}
}

// listFrame is what the list draws from on this frame: the rows, the
// scan, each row's state column (built once a frame) and the facts read.
func (m *Model) listFrame() listFrame {
	return listFrame{rows: &m.picker, scanning: m.walk.running, state: m.rowTagger(), details: detailsOf(m.facts.known)}
}

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	if !m.cfg.NoMouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "rootpick"
	return v
}

func (m *Model) render() string {
	if m.width <= 0 || m.height <= 0 {
		return "" // nothing is drawn before the size is known
	}
	// The fixed lines are drawn once a frame, and the body gets the rows
	// they leave (chromeHeight, without drawing them again).
	lines := []string{m.headerView()}
	filter, hasFilter := m.filterLine()
	if hasFilter {
		lines = append(lines, filter)
	}
	if !m.chrome.drawn {
		m.chromeHeight()
	}
	status, help, scan := m.chrome.take()
	bodyH := max(m.height-chromeOf(status, help, scan, m.walk.running, hasFilter), 0)
	var body string
	switch m.bodyMode() {
	case modeDialog:
		body = m.review.sh.Dialog().View()
	case modeHelp:
		body = m.helpView()
	case modeServers:
		body = m.srvPane.View(m.paneLines())
	case modeList, modeAsk: // the list (bodyMode never answers modeAsk)
		if m.picker.Len() == 0 {
			body = m.emptyView(m.width, bodyH)
		} else {
			body = m.withDetails(m.list.View(m.listFrame()), m.width, bodyH)
		}
	}
	// Each part is fitted to the width on its own, the body to its rows:
	// measuring the whole frame again cost a sixth of a ↓ key's frame.
	parts := []string{fit(strings.Join(lines, "\n"), m.width, len(lines))}
	if bodyH > 0 {
		parts = append(parts, fit(body, m.width, bodyH))
	}
	var below []string
	if m.walk.running {
		below = append(below, scan)
	}
	below = append(below, status)
	if help != "" {
		below = append(below, help)
	}
	b := strings.Join(below, "\n")
	parts = append(parts, fit(b, m.width, strings.Count(b, "\n")+1))
	// A terminal smaller than the fixed lines shows the top of the screen.
	return firstLines(strings.Join(parts, "\n"), m.height)
}

func (m *Model) headerView() string {
	count := plural(m.picker.Len(), "repo", "repos")
	if m.picker.ShownLen() != m.picker.Len() {
		count = itoa(m.picker.ShownLen()) + "/" + count
	}
	if k := m.picker.Sort(); k != picker.ByPath {
		count += " by " + k.String()
	}
	// The counts come first, whole; the folder takes what is left, cut in
	// its middle, so a long path never hides how many rows are checked.
	head := m.st.title.Render("rootpick") + "  " + m.st.dim.Render(count+" · "+itoa(m.picker.CheckedCount())+" checked") + m.pendingCounts()
	tail := strings.Join(m.walk.header(m.st), "  ")
	room := m.width - cellWidth(head) - 2
	if tail != "" {
		room -= cellWidth(tail) + 2
	}
	line := head
	if dir := safetext.Escape(home(m.cfg.Dir)); room >= 8 {
		line += "  " + midCut(dir, room)
	}
	if tail != "" {
		line += "  " + tail
	}
	return cut(line, m.width, "…")
}

// mode is what is on top: the consent dialog, then a question, then the
// page.
func (m *Model) mode() mode {
	if m.question.kind != askNone && m.review.sh.Dialog() == nil {
		return modeAsk
	}
	return m.bodyMode()
}

// bodyMode is the mode whose view fills the body: the page, or the dialog
// over it. The question is a note on the status line, drawn over the page
// it was asked from.
func (m *Model) bodyMode() mode {
	if m.review.sh.Dialog() != nil {
		return modeDialog
	}
	switch m.page {
	case pageHelp:
		return modeHelp
	case pageServers:
		return modeServers
	case pageList:
	}
	return modeList
}

// autoTheme says whether the palette follows the terminal's background
// (the config file's theme is "auto" or unset).
func (m *Model) autoTheme() bool { return m.cfg.Theme == "" || m.cfg.Theme == "auto" }

// setTheme rebuilds every style for a background (from
// tea.BackgroundColorMsg; until it comes the background is taken as dark)
// in common, which every part shares, and in the bubbles that keep their
// own.
func (m *Model) setTheme(dark bool) {
	m.st = newStyles(dark, m.st.noColor)
	m.filter.SetStyles(m.st.inputStyles())
	m.walk.spinner.Style = m.st.spinner.Style
	if m.review.sh.Dialog() != nil {
		m.review.sh.Dialog().rebuild()
	}
	m.paneKey = paneKey{}  // the details pane is drawn again in the new colours
	m.list.markCells = nil // and the rows' marks
}
