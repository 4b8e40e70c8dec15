package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/vcsdetect"
)

// fakeClock is the clock of the type-ahead guard in tests.
type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time          { return c.t }
func (c *fakeClock) Advance(d time.Duration) { c.t = c.t.Add(d) }

var clocks = map[*Model]*fakeClock{}

// clockOf gives the model a fake clock (once) and returns it.
func clockOf(m *Model) *fakeClock {
	if c, ok := clocks[m]; ok {
		return c
	}
	c := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	clocks[m] = c
	m.cfg.Now = c.Now
	return c
}

// openDialogWith opens the dialog on items, checks that a key typed at
// once is ignored, and waits out the guard on the fake clock.
func openDialogWith(t *testing.T, m *Model, items ...proposedRoot) {
	t.Helper()
	clk := clockOf(m)
	m.review.sh.Review(nil) // as enter leaves it: preparing
	_, cmd := m.Update(proposalMsg{proposed: items})
	if m.review.sh.Dialog() == nil {
		t.Fatal("no dialog after proposalMsg")
	}
	if cmd == nil {
		t.Fatal("opening the dialog returned no guard command")
	}
	send(m, "y") // type-ahead: ignored while the guard runs
	if m.review.sh.Dialog() == nil {
		t.Fatal("a key answered the dialog before its guard passed")
	}
	// The key line offers no key that would be ignored.
	if kl := ansi.Strip(m.shortHelp()); strings.Contains(kl, "confirm") {
		t.Fatalf("the key line offers y while keys are ignored: %q", kl)
	}
	clk.Advance(time.Second)
	m.Update(consentGuardMsg{id: m.review.sh.Dialog().id, seq: m.review.sh.Dialog().guardSeq})
	if kl := ansi.Strip(m.shortHelp()); m.width >= 40 && !strings.Contains(kl, "n/esc cancel") {
		t.Fatalf("the armed dialog's key line: %q", kl)
	}
	send(m, "up") // a key: the "too soon" note of the early y goes
}

// armedAfter opens a dialog on items at the model's clock, without waiting.
func openRaw(t *testing.T, m *Model, items ...proposedRoot) *fakeClock {
	t.Helper()
	clk := clockOf(m)
	m.review.sh.Review(nil) // as enter leaves it: preparing
	m.Update(proposalMsg{proposed: items})
	if m.review.sh.Dialog() == nil {
		t.Fatal("no dialog")
	}
	return clk
}

func plainItems(paths ...string) []proposedRoot {
	var out []proposedRoot
	for _, p := range paths {
		out = append(out, proposedRoot{Root: mkRoot(p), Requested: p})
	}
	return out
}

func warnedItem(p string, codes ...string) proposedRoot {
	it := proposedRoot{Root: mkRoot(p), Requested: p}
	for _, c := range codes {
		it.Warnings = append(it.Warnings, consent.Warning{Code: c, Text: "reason " + c})
	}
	return it
}

// press sends one key and reports whether it confirmed a change, and the
// set then consented. (Running the returned command would block on the
// guard's timer, so the model's state is read instead.)
func press(m *Model, k string) ([]consent.Root, bool) {
	before := m.review.sh.Applying()
	send(m, k)
	if m.review.sh.Applying() && !before && m.review.sh.Dialog() == nil {
		return m.Consented(), true
	}
	return nil, false
}

// TestGuardDelay measures the type-ahead guard on the model's clock with
// the default delay: a key 100ms after opening is ignored (and restarts
// the guard), one 400ms after opening is accepted.
func TestGuardDelay(t *testing.T) {
	m := fixture(t, demoRepos()...)
	if m.cfg.ArmDelay != 300*time.Millisecond {
		t.Fatalf("default ArmDelay %v, want 300ms", m.cfg.ArmDelay)
	}
	clk := openRaw(t, m, plainItems("/work/demo/api")...)
	clk.Advance(100 * time.Millisecond)
	if _, ok := press(m, "y"); ok || m.review.sh.Dialog() == nil {
		t.Fatal("y 100ms after the dialog opened was accepted")
	}
	clk.Advance(300 * time.Millisecond) // 400ms after opening, 300ms after the ignored key
	roots, ok := press(m, "y")
	if !ok || len(roots) != 1 {
		t.Fatalf("y 400ms after opening was not accepted (dialog open: %v)", m.review.sh.Dialog() != nil)
	}
}

// TestGuardRestartsOnHeldKey: a key held down (repeating every 30ms for
// two seconds) never answers the dialog; the first key after a quiet
// ArmDelay does.
func TestGuardRestartsOnHeldKey(t *testing.T) {
	m := fixture(t, demoRepos()...)
	clk := openRaw(t, m, plainItems("/work/demo/api")...)
	for i := 0; i < 66; i++ {
		clk.Advance(30 * time.Millisecond)
		if _, ok := press(m, "y"); ok || m.review.sh.Dialog() == nil {
			t.Fatalf("a held y answered the dialog after %v", time.Duration(i+1)*30*time.Millisecond)
		}
	}
	if strings.Contains(screen(m), "y confirm  n/esc cancel") {
		t.Fatal("the dialog shows itself armed while keys are still arriving")
	}
	clk.Advance(299 * time.Millisecond)
	if _, ok := press(m, "y"); ok {
		t.Fatal("y 299ms after the last held key was accepted")
	}
	clk.Advance(300 * time.Millisecond)
	if _, ok := press(m, "y"); !ok {
		t.Fatal("y after a quiet 300ms was refused")
	}
}

// TestGuardIgnoresOnlyTheKeysThatShare: while the guard holds, moving,
// scrolling and cancelling work at once and do not restart it (issue 17:
// j every 250 ms left the dialog deaf, "enter n" could not cancel); only
// y and space are ignored, and restart the wait.
func TestGuardIgnoresOnlyTheKeysThatShare(t *testing.T) {
	repos, items := manyRoots(5)
	m := fixture(t, repos...)
	clk := openRaw(t, m, items...)
	for range 4 { // j every 100 ms: each one moves, none restarts the guard
		clk.Advance(100 * time.Millisecond)
		send(m, "j")
	}
	if m.review.sh.Dialog().cursor <= 1 {
		t.Fatalf("j during the guard did not move the cursor (line %d)", m.review.sh.Dialog().cursor)
	}
	if _, ok := press(m, "y"); !ok {
		t.Fatalf("y 400 ms after opening, after moving with j, was refused: j restarted the guard")
	}

	repos, items = manyRoots(30)
	m = fixture(t, repos...)
	clk = openRaw(t, m, items...)
	top := m.review.sh.Dialog().vp.YOffset()
	clk.Advance(10 * time.Millisecond)
	send(m, "space")
	clk.Advance(250 * time.Millisecond)
	if _, ok := press(m, "y"); ok {
		t.Fatal("y 250 ms after an ignored space was accepted: space did not restart the guard")
	}
	send(m, "pgdown")
	if m.review.sh.Dialog().vp.YOffset() == top {
		t.Fatal("pgdown during the guard did not scroll")
	}
	send(m, "n")
	if m.review.sh.Dialog() != nil {
		t.Fatal("n during the guard did not cancel")
	}
}

// TestKeysWhileTheReviewIsBuiltGoToTheDialog: "enter n" cancels even when
// n arrives before the proposal (built off the Update loop) opens the
// dialog; it is not typed into the query.
func TestKeysWhileTheReviewIsBuiltGoToTheDialog(t *testing.T) {
	m := fixture(t, demoRepos()...)
	typeText(m, "web")
	send(m, "enter", "n")
	if m.filter.Value() != "web" {
		t.Fatalf("n pressed while the review was built went into the query: %q", m.filter.Value())
	}
	m.Update(proposalMsg{proposed: plainItems("/work/demo/web")})
	if m.review.sh.Dialog() != nil || m.mode() != modeList {
		t.Fatalf("the early n did not cancel the dialog (mode %d)", m.mode())
	}
}

// TestWheelScrollsTheDialog: the wheel scrolls the dialog's body, and
// lines it brings into view count as seen for y.
func TestWheelScrollsTheDialog(t *testing.T) {
	repos, items := manyRoots(61)
	m := fixture(t, repos...)
	openDialogWith(t, m, items...)
	before := m.review.sh.Dialog().Unseen()
	for range 40 {
		m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown, X: 10, Y: 10})
	}
	if m.review.sh.Dialog().Unseen() != 0 || before == 0 {
		t.Fatalf("unseen %d before the wheel, %d after 40 notches; want all seen", before, m.review.sh.Dialog().Unseen())
	}
	if _, ok := press(m, "y"); !ok {
		t.Fatal("y refused after every line was wheeled into view")
	}
}

func manyRoots(n int) ([]vcsdetect.Repo, []proposedRoot) {
	var repos []vcsdetect.Repo
	var items []proposedRoot
	for i := 0; i < n; i++ {
		rel := fmt.Sprintf("group%d/project-with-a-rather-long-name-%02d", i%3, i)
		if i == n-1 {
			rel = "zz/.ssh-keys-backup-secret"
		}
		r := repo(rel, "main")
		repos = append(repos, r)
		items = append(items, proposedRoot{Root: mkRoot(r.Path), Requested: r.Path})
	}
	return repos, items
}

// TestUnseenAddedLinesBlockY: with 61 roots at 80x24 y is refused, and
// says how many are unseen, until the person has scrolled to the last one.
func TestUnseenAddedLinesBlockY(t *testing.T) {
	repos, items := manyRoots(61)
	m := fixture(t, repos...)
	openDialogWith(t, m, items...)
	unseen := m.review.sh.Dialog().Unseen()
	if unseen == 0 || unseen == 61 {
		t.Fatalf("unseen %d at 80x24, want some but not all", unseen)
	}
	if _, ok := press(m, "y"); ok {
		t.Fatal("y confirmed with added lines never shown")
	}
	if out := screen(m); !strings.Contains(out, fmt.Sprintf("%d added roots not yet shown", unseen)) {
		t.Fatalf("refused y does not say how many are unseen:\n%s", out)
	}
	for i := 0; i < 20 && m.review.sh.Dialog().Unseen() > 0; i++ {
		send(m, "pgdown")
	}
	if n := m.review.sh.Dialog().Unseen(); n != 0 {
		t.Fatalf("%d still unseen after paging to the end", n)
	}
	if out := screen(m); !strings.Contains(out, "zz/.ssh-keys-backup-secret") {
		t.Fatalf("the last root never appeared:\n%s", out)
	}
	roots, ok := press(m, "y")
	if !ok || len(roots) != 61 {
		t.Fatalf("y after reading everything: %d roots, ok %v", len(roots), ok)
	}
}

// TestDownKeyReachesEveryLine: ↓ alone also reaches every added line.
func TestDownKeyReachesEveryLine(t *testing.T) {
	repos, items := manyRoots(61)
	m := fixture(t, repos...)
	openDialogWith(t, m, items...)
	for i := 0; i < 61; i++ {
		send(m, "down")
	}
	if n := m.review.sh.Dialog().Unseen(); n != 0 {
		t.Fatalf("%d unseen after 61 ↓", n)
	}
}

// TestWarnedRootNeedsItsOwnKey: y grants the plain roots only; a warned
// root is granted by space on its own line, then y.
func TestWarnedRootNeedsItsOwnKey(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "ctrl+a")
	openDialogWith(t, m, warnedItem("/work/demo", consent.WarnDir), proposedRoot{Root: mkRoot("/work/demo/api"), Requested: "/work/demo/api"})
	out := screen(m)
	for _, want := range []string{"! .", "[ ] not granted", "⚠ reason dir", "1 warned root stays", "+ added, read and write (2)", "(1 of 2 added, 0 removed)"} {
		if !strings.Contains(out, want) {
			t.Errorf("dialog lacks %q:\n%s", want, out)
		}
	}
	roots, ok := press(m, "y")
	if !ok || len(roots) != 1 || roots[0].Path != "/work/demo/api" {
		t.Fatalf("y served %v, want only the plain root", roots)
	}
	if m.picker.IsChecked("/work/demo") {
		t.Error("the warned root that was not granted stays checked")
	}
	// The root left out is named in the result line, then and once served.
	if !strings.Contains(m.status.note, "not shared: . (needs its own yes") {
		t.Errorf("the result line does not name the root left out: %q", m.status.note)
	}
	m.Update(rootsServedMsg{roots: m.Consented()})
	if !strings.Contains(m.status.note, "Consent applied: 1 folder; not shared: . (needs its own yes") {
		t.Errorf("once served, the result line does not name the root left out: %q", m.status.note)
	}
	if got := m.Consented(); len(got) != 1 {
		t.Errorf("Consented() = %v right after y", got)
	}

	// Now grant it: move onto its line, space, y.
	m2 := fixture(t, demoRepos()...)
	openDialogWith(t, m2, warnedItem("/work/demo", consent.WarnDir, consent.WarnSecrets), proposedRoot{Root: mkRoot("/work/demo/api"), Requested: "/work/demo/api"})
	if a := m2.review.sh.Dialog().current(); a == nil || !a.warned() {
		send(m2, "down")
	}
	if a := m2.review.sh.Dialog().current(); a == nil || !a.warned() {
		t.Fatal("cursor not on the warned root")
	}
	send(m2, "space")
	if !strings.Contains(screen(m2), "[x] granted") {
		t.Fatalf("grant not shown:\n%s", screen(m2))
	}
	roots, ok = press(m2, "y")
	if !ok || len(roots) != 2 {
		t.Fatalf("after granting, y served %v", roots)
	}
}

// TestNoSingleKeyGrantsAWarnedRoot presses each key once on an armed
// dialog holding only a warned root: none serves it.
func TestNoSingleKeyGrantsAWarnedRoot(t *testing.T) {
	for _, k := range []string{"y", "Y", "enter", "space", "e", "a", "down", "up", "G", "g", "pgdown", "n", "esc", "q", "j", "k", "s"} {
		m := fixture(t, demoRepos()...)
		openDialogWith(t, m, warnedItem("/work/demo", consent.WarnDir))
		if roots, ok := press(m, k); ok {
			t.Errorf("key %q alone served %v", k, roots)
		}
		if m.review.sh.Applying() || len(m.Consented()) != 0 {
			t.Errorf("key %q alone started sharing", k)
		}
	}
	m := fixture(t, demoRepos()...)
	openDialogWith(t, m, warnedItem("/work/demo", consent.WarnDir))
	send(m, "y")
	if out := screen(m); !strings.Contains(out, "Nothing to confirm") {
		t.Fatalf("y on only warned roots must say why nothing happens:\n%s", out)
	}
}

// TestDialogCoverage: an added root says how many repositories it brings
// in and lists them on demand; a root inside another is flagged redundant.
func TestDialogCoverage(t *testing.T) {
	m := fixture(t, append(demoRepos(), repo("tools/cli/secrets", "main"))...)
	openDialog(t, m, mkRoot("/work/demo/tools/cli"), mkRoot("/work/demo/tools/cli/vendor/lib"))
	out := screen(m)
	for _, want := range []string{"tools/cli", "brings in 2 repos ▸", "redundant: inside tools/cli"} {
		if !strings.Contains(out, want) {
			t.Errorf("dialog lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "· tools/cli/secrets") {
		t.Fatal("brought-in repositories listed before asking")
	}
	send(m, "e")
	out = screen(m)
	for _, want := range []string{"brings in 2 repos ▾", "· tools/cli/secrets", "· tools/cli/vendor/lib"} {
		if !strings.Contains(out, want) {
			t.Errorf("expanded dialog lacks %q:\n%s", want, out)
		}
	}
}

// TestDialogSections: removed and kept sections; kept shows a count until
// expanded; the highlighted line's absolute path and URI are shown.
func TestDialogSections(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.review.sh.ServedNow([]consent.Root{mkRoot("/work/demo/api"), mkRoot("/work/demo/web")})
	openDialog(t, m, mkRoot("/work/demo/api"), mkRoot("/work/demo/tools/cli"))
	out := screen(m)
	for _, want := range []string{"+ added, read and write (1)", "− removed (1)", "− web", "= kept (1, already shared) ▸", "path /work/demo/tools/cli", "uri  file:///work/demo/tools/cli", accessLine} {
		if !strings.Contains(out, want) {
			t.Errorf("dialog lacks %q:\n%s", want, out)
		}
	}
	send(m, "down", "down", "e")
	if out := screen(m); !strings.Contains(out, "= api") {
		t.Errorf("kept not expanded:\n%s", out)
	}
}

// TestRemovedButStillReadable: a removed root inside a root that stays is
// flagged as still readable.
func TestRemovedButStillReadable(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	m.review.sh.ServedNow([]consent.Root{mkRoot("/work/demo/tools/cli"), mkRoot("/work/demo/tools/cli/vendor/lib")})
	openDialog(t, m, mkRoot("/work/demo/tools/cli"))
	if out := screen(m); !strings.Contains(out, "still readable: inside tools/cli") {
		t.Errorf("removal inside a kept root not flagged:\n%s", out)
	}
}

// TestDialogSaysScanRunning: while the scan runs, "brings in" counts are
// not final, and the dialog says so.
func TestDialogSaysScanRunning(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.walk.running = true
	openDialog(t, m, mkRoot("/work/demo/tools"))
	if out := screen(m); !strings.Contains(out, "The scan is still running") {
		t.Errorf("dialog opened during a scan does not say so:\n%s", out)
	}
	m = fixture(t, demoRepos()...)
	openDialog(t, m, mkRoot("/work/demo/tools"))
	if out := screen(m); strings.Contains(out, "The scan is still running") {
		t.Errorf("dialog after the scan says it is running:\n%s", out)
	}
}

func TestMidCut(t *testing.T) {
	for _, tt := range []struct {
		in   string
		w    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdefghij", 5, "ab…ij"},
		{"abcdefghij", 6, "ab…hij"},
		{"日本語のなまえ", 7, "日…まえ"},
		{"abc", 1, "a"},
	} {
		if got := midCut(tt.in, tt.w); got != tt.want {
			t.Errorf("midCut(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
	}
}

// TestDialogGoldens: warnings and 61 roots at both sizes, scrolled to the
// end once.
func TestDialogGoldens(t *testing.T) {
	t.Setenv("HOME", "/nonexistent-home")
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		suffix := "_" + itoa(size[0]) + "x" + itoa(size[1])
		repos, items := manyRoots(61)
		items[0] = warnedItem(items[0].Path, consent.WarnSecrets)
		items[0].Warnings[0].Text = "holds secrets at its top: .ssh, id_rsa"
		items = append(items, warnedItem("/work/demo", consent.WarnDir))
		items[len(items)-1].Warnings[0].Text = "the scanned folder itself (everything in it)"
		m := fixture(t, repos...)
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		openDialogWith(t, m, items...)
		golden(t, "dialog_many"+suffix, screen(m))
		send(m, "G")
		golden(t, "dialog_many_end"+suffix, screen(m))
	}
}

// TestAccessSentenceStays: with 44 roots at 60 columns the sentence on
// what sharing means is on screen whole, wrapped, not dropped or cut
// (issue 17: dropped with 44 roots, "every f…" at 60 columns).
func TestAccessSentenceStays(t *testing.T) {
	repos, items := manyRoots(44)
	m := fixture(t, repos...)
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 24})
	openDialogWith(t, m, items...)
	out := strings.Join(strings.Fields(strings.ReplaceAll(screen(m), "│", " ")), " ")
	if !strings.Contains(out, accessLine) {
		t.Fatalf("the access sentence is not whole on screen:\n%s", screen(m))
	}
}

// TestGuardSaysWhatWaits: while the type-ahead guard holds, the footer
// says that y and space come in a moment and n/esc and ↓ work now; a y
// pressed too soon is not silently lost: the footer says "too soon —
// press y again" until the guard ends.
func TestGuardSaysWhatWaits(t *testing.T) {
	m := fixture(t, demoRepos()...)
	clk := openRaw(t, m, plainItems("/work/demo/api")...)
	flat := func() string { return strings.Join(strings.Fields(screen(m)), " ") }
	if out := flat(); !strings.Contains(out, "y and space work in a moment") || !strings.Contains(out, "n/esc and ↓/j work now") {
		t.Fatalf("the guard's footer does not say what waits:\n%s", screen(m))
	}
	clk.Advance(50 * time.Millisecond)
	press(m, "y")
	if out := flat(); !strings.Contains(out, "too soon — press y again") {
		t.Fatalf("a y swallowed by the guard gave no sign:\n%s", screen(m))
	}
	clk.Advance(400 * time.Millisecond)
	m.Update(consentGuardMsg{id: m.review.sh.Dialog().id, seq: m.review.sh.Dialog().guardSeq})
	if out := flat(); !strings.Contains(out, "too soon — press y again") || !strings.Contains(out, "y confirm") {
		t.Fatalf("once armed: the footer no longer says too soon (it must stay until the next key), or offers no y:\n%s", screen(m))
	}
	send(m, "down")
	if out := flat(); strings.Contains(out, "too soon") || !strings.Contains(out, "y confirm") {
		t.Fatalf("after the next key: the footer still says too soon, or offers no y:\n%s", screen(m))
	}
}

// TestLargeConfirmationPacks: 200 added roots at 80×24: the footer
// offers no y while some are unseen, its arrow points to them (↓ below,
// ↑ once the person jumped to the end), and l packs the roots several a
// line, so that three pages show them all and y confirms; the key line
// offers y only then.
func TestLargeConfirmationPacks(t *testing.T) {
	m := fixture(t, demoRepos()...)
	var paths []string
	for i := range 200 {
		paths = append(paths, fmt.Sprintf("/work/demo/g/r%03d", i))
	}
	openDialogWith(t, m, plainItems(paths...)...)
	send(m, "up") // the helper's early y: its note goes with the next key
	d := m.review.sh.Dialog()
	flat := func() string { return strings.Join(strings.Fields(screen(m)), " ") }
	if out := flat(); !strings.Contains(out, "↓ ") || !strings.Contains(out, "(l packs them)") || strings.Contains(out, "y confirm") {
		t.Fatalf("with roots unseen below:\n%s", screen(m))
	}
	send(m, "G")
	if out := flat(); !strings.Contains(out, "↑ ") {
		t.Errorf("after G the arrow does not point up to the unseen roots:\n%s", screen(m))
	}
	send(m, "g", "l")
	pages := 0
	for d.Unseen() > 0 && pages < 10 {
		send(m, "pgdown")
		pages++
	}
	if pages > 3 {
		t.Errorf("packed, %d pages to see 200 roots; want at most 3", pages)
	}
	if kl := ansi.Strip(m.shortHelp()); !strings.Contains(kl, "y confirm") {
		t.Errorf("once all are seen the key line does not offer y: %q", kl)
	}
	if roots, ok := press(m, "y"); !ok || len(roots) != 200 {
		t.Fatalf("y served %d roots (%v)", len(roots), ok)
	}
}
