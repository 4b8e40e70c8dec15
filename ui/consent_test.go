package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/vcsdetect"
)

// TestQuitAsksAboutUnconfirmedChanges: ctrl+q with checks not confirmed
// asks; another key goes back; ctrl+q again quits, and so does y pressed
// on its own once the question has been up for the arm delay; enter
// reviews the changes, as everywhere else, and throws nothing away.
func TestQuitAsksAboutUnconfirmedChanges(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "space", "down", "space")
	if cmd := send(m, "ctrl+q"); cmd != nil {
		t.Fatal("q with unconfirmed changes quit at once")
	}
	if out := strings.Join(strings.Fields(screen(m)), " "); !strings.Contains(out, "Discard 2 unconfirmed changes? y or ctrl+q quits, enter reviews them, any other key goes back.") {
		t.Fatalf("no question:\n%s", out)
	}
	if cmd := send(m, "j"); cmd != nil || m.mode() != modeList {
		t.Fatal("another key did not go back")
	}
	if !m.picker.IsChecked("/work/demo/api") {
		t.Fatal("going back lost the checks")
	}
	send(m, "ctrl+q")
	if cmd := send(m, "enter"); cmd != nil && isQuit(cmd) {
		t.Fatal("enter after the question quit: it reviews")
	}
	if !m.review.sh.Busy() && m.review.sh.Dialog() == nil {
		t.Fatal("enter after the question did not start the review")
	}
	m = fixture(t, demoRepos()...)
	send(m, "space")
	send(m, "ctrl+q")
	if msg := send(m, "ctrl+q")(); msg != tea.Quit() {
		t.Fatalf("ctrl+q after the question returned %#v", msg)
	}
	// y: only as a key of its own, once the question has been up for the
	// arm delay.
	now := time.Unix(1000, 0)
	m = fixture(t, demoRepos()...)
	m.cfg.Now = func() time.Time { return now }
	send(m, "space", "ctrl+q")
	now = now.Add(m.cfg.ArmDelay)
	if cmd := send(m, "y"); cmd == nil || !isQuit(cmd) {
		t.Fatal("y on its own after the question did not quit")
	}
	// Served and unchecked also counts; nothing pending quits at once.
	m = fixture(t, demoRepos()...)
	m.review.sh.ServedNow([]consent.Root{mkRoot("/work/demo/web")})
	send(m, "ctrl+q")
	if out := screen(m); m.mode() != modeAsk || !strings.Contains(out, "Discard 1 unconfirmed change?") {
		t.Fatalf("an unchecked shared row is not counted (mode %d):\n%s", m.mode(), out)
	}
	m = fixture(t, demoRepos()...)
	if msg := send(m, "ctrl+q")(); msg != tea.Quit() {
		t.Fatal("q with nothing pending did not quit")
	}
	// A checked root the hub withdrew is not the person's change.
	m = fixture(t, demoRepos()...)
	m.picker.SetChecked([]string{"/work/demo/api"})
	m.review.sh.Withdraw("/work/demo/api", "deleted or renamed")
	if msg := send(m, "ctrl+q")(); msg != tea.Quit() {
		t.Fatal("q asked about a withdrawn root")
	}
}

// TestRowStates: each pending state has its own glyph and word.
func TestRowStates(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.review.sh.ServedNow([]consent.Root{mkRoot("/work/demo/api"), mkRoot("/work/demo/web")})
	m.picker.SetChecked([]string{"/work/demo/api", "/work/demo/tools/cli"})
	m.review.sh.Withdraw("/work/demo/api-wt", "server restarted")
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 24})
	rows := map[string]string{}
	for _, l := range strings.Split(screen(m), "\n") {
		if f := strings.Fields(strings.TrimPrefix(l, "›")); len(f) > 2 && f[0] == "[" || len(f) > 1 && f[0] == "[x]" {
			if f[0] == "[" {
				f = f[1:]
			}
			rows[f[1]] = l
		}
	}
	for name, want := range map[string]string{
		"api":                  "✓ shared",
		"web":                  "− remove",
		"tools/cli":            "+ add",
		"tools/cli/vendor/lib": "⊂ covered by tools/cli",
		"api-wt":               "✗ withdrawn: server restarted",
	} {
		if !strings.Contains(rows[name], want) {
			t.Errorf("row %s = %q, want %q", name, rows[name], want)
		}
	}
	header := firstLine(screen(m))
	for _, want := range []string{"+1 add", "−1 remove", "✓1 shared", "⊂1 covered", "✗1 withdrawn"} {
		if !strings.Contains(header, want) {
			t.Errorf("header %q lacks %q", header, want)
		}
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// TestToggleCoveredRowSaysSo: unchecking a row whose parent is checked
// says it stays exposed.
func TestToggleCoveredRowSaysSo(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.picker.SetChecked([]string{"/work/demo/tools/cli", "/work/demo/tools/cli/vendor/lib"})
	send(m, "down", "down", "down", "space") // tools/cli/vendor/lib
	if !strings.Contains(m.status.note, "stays exposed: it is inside tools/cli") {
		t.Fatalf("note %q", m.status.note)
	}
}

func storeFor(t *testing.T) *consent.Store {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s, err := consent.OpenStore("test")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run executes cmd and the commands of any batch it returns, feeding each
// message back to m, skipping the guard's timers.
func run(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			run(m, c)
		}
	case nil, consentGuardMsg:
	default:
		_, next := m.Update(msg)
		run(m, next)
	}
}

// TestConfirmRemembersAndQuitWaits: y writes the store and the audit log
// (as a command); q pressed before that write ends waits for it.
func TestConfirmRemembersAndQuitWaits(t *testing.T) {
	store := storeFor(t)
	m := fixture(t, demoRepos()...)
	m.cfg.Store = store
	send(m, "space")
	openDialogWith(t, m, warnedItem("/work/demo", consent.WarnDir), proposedRoot{Root: mkRoot("/work/demo/api"), Requested: "/work/demo/api"})
	cmd := send(m, "y")
	if _, err := store.Load(); err == nil {
		t.Fatal("the store was written inside Update")
	}
	if got := m.Consented(); len(got) != 1 || got[0].Path != "/work/demo/api" {
		t.Fatalf("Consented() right after y = %v", got)
	}
	if q := send(m, "ctrl+q"); q != nil {
		t.Fatal("q quit while the consent was still being written")
	}
	// Run the confirmation's commands: the save ends with the quit.
	var quit bool
	for _, c := range cmd().(tea.BatchMsg) {
		msg := c()
		if _, next := m.Update(msg); next != nil && next() == tea.Quit() {
			quit = true
		}
	}
	if !quit {
		t.Fatal("the saved consent did not let the waiting q quit")
	}
	rec, err := store.Load()
	if err != nil || len(rec.Roots) != 1 || rec.Roots[0].Path != "/work/demo/api" || rec.Dir != "/work/demo" {
		t.Fatalf("store holds %+v, %v", rec, err)
	}
	b, _ := os.ReadFile(store.AuditPath())
	if !strings.Contains(string(b), `"added":["/work/demo/api"]`) || !strings.Contains(string(b), `"warnings_acknowledged":[]`) {
		t.Errorf("audit line %s", b)
	}
}

// TestAuditRecordsAcknowledgedWarnings: a granted warned root's reasons go
// to the audit log.
func TestAuditRecordsAcknowledgedWarnings(t *testing.T) {
	store := storeFor(t)
	m := fixture(t, demoRepos()...)
	m.cfg.Store = store
	openDialogWith(t, m, warnedItem("/work/demo", consent.WarnDir))
	send(m, "space")
	run(m, send(m, "y"))
	b, _ := os.ReadFile(store.AuditPath())
	if !strings.Contains(string(b), `"warnings_acknowledged":["/work/demo: reason dir"]`) {
		t.Errorf("audit line %s", b)
	}
	// The record keeps the grant with its root, so that a proxy or a
	// --resume reading it back serves that root for that reason only.
	rec, err := store.Load()
	if err != nil || !slices.Equal(rec.Granted[consent.PathToURI("/work/demo")], []string{consent.WarnDir}) {
		t.Fatalf("record grants %v, %v; want /work/demo granted for %s", rec.Granted, err, consent.WarnDir)
	}
	// A later confirmation that keeps the root keeps its grant.
	m.review.sh.ServedNow(m.Consented()) // served
	openDialogWith(t, m, warnedItem("/work/demo", consent.WarnDir), proposedRoot{Root: mkRoot("/work/demo/api"), Requested: "/work/demo/api"})
	run(m, send(m, "y"))
	if rec, _ = store.Load(); len(rec.Roots) != 2 || !slices.Equal(rec.Granted[consent.PathToURI("/work/demo")], []string{consent.WarnDir}) {
		t.Fatalf("after a second confirmation: roots %v, grants %v", rec.Roots, rec.Granted)
	}
}

// TestResumeRefusesUngrantedRisk: --resume serves a remembered root only
// if each warning it has now was granted for it in the picker; a record
// naming the scanned folder itself without that grant resumes nothing,
// and with it resumes.
func TestResumeRefusesUngrantedRisk(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	t.Setenv("HOME", "/nonexistent-home")
	rd, _ := consent.NewRoot(dir)
	rec := consent.Record{Profile: "p", Dir: dir, Roots: []consent.Root{rd}, Time: time.Now()}
	m := New(Config{Dir: dir, Remembered: &rec, Resume: true})
	m.Update(resumeConsent(dir, rec)())
	if len(m.Consented()) != 0 || m.review.sh.Applying() || !strings.Contains(m.status.note, "never granted in the picker") {
		t.Fatalf("an ungranted warned root was resumed: %v, note %q", m.Consented(), m.status.note)
	}
	rec.Granted = map[string][]string{rd.URI: {consent.WarnDir}}
	m = New(Config{Dir: dir, Remembered: &rec, Resume: true})
	m.Update(resumeConsent(dir, rec)())
	if got := m.Consented(); len(got) != 1 || !m.review.sh.Applying() {
		t.Fatalf("a granted root was not resumed: %v, note %q", got, m.status.note)
	}
	if !slices.Equal(m.review.sh.Grants()[rd.URI], []string{consent.WarnDir}) {
		t.Errorf("the resumed grants were not kept: %v", m.review.sh.Grants())
	}
}

// TestRememberedAndResume: remembered roots are pre-checked and marked but
// not served; with Resume they are served once revalidated, and a root that
// no longer validates stops the resume.
func TestRememberedAndResume(t *testing.T) {
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	a := filepath.Join(dir, "a")
	if err := os.Mkdir(a, 0o755); err != nil {
		t.Fatal(err)
	}
	ra, _ := consent.NewRoot(a)
	rec := &consent.Record{Profile: "p", Dir: dir, Roots: []consent.Root{ra}, Time: time.Now()}

	m := New(Config{Dir: dir, Remembered: rec})
	if !m.picker.IsChecked(a) || !m.review.sh.IsRemembered(a) {
		t.Fatal("remembered root not pre-checked")
	}
	if len(m.Consented()) != 0 || !strings.Contains(m.status.note, "not shared until you confirm") {
		t.Fatalf("consented %v, note %q", m.Consented(), m.status.note)
	}

	if m := New(Config{Dir: dir, Resume: true}); !strings.Contains(m.status.note, "Nothing remembered to resume") {
		t.Errorf("--resume with nothing remembered: note %q", m.status.note)
	}

	m = New(Config{Dir: dir, Remembered: rec, Resume: true})
	m.Update(resumeConsent(dir, *rec)())
	if got := m.Consented(); len(got) != 1 || got[0].Path != a || !m.review.sh.Applying() {
		t.Fatalf("resume served %v (applying %v)", got, m.review.sh.Applying())
	}
	if !strings.Contains(m.status.note, "Resumed 1 remembered root") {
		t.Errorf("note %q", m.status.note)
	}

	// Remembered for another folder: neither pre-checked nor resumed here.
	if m := New(Config{Dir: a, Remembered: rec}); len(m.picker.Checked()) != 0 || !strings.Contains(m.status.note, "not applied here") {
		t.Fatalf("a consent for another folder was pre-checked: %v, note %q", m.picker.Checked(), m.status.note)
	}
	// Remembered for another folder: not resumed here.
	m = New(Config{Dir: a, Remembered: rec, Resume: true})
	m.Update(resumeConsent(a, *rec)())
	if len(m.Consented()) != 0 || !strings.Contains(m.status.note, "not this folder") {
		t.Fatalf("resumed a consent given for another folder: %v, note %q", m.Consented(), m.status.note)
	}

	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	m = New(Config{Dir: dir, Remembered: rec, Resume: true})
	m.Update(resumeConsent(dir, *rec)())
	if len(m.Consented()) != 0 || m.review.sh.Applying() || !strings.Contains(m.status.note, "Not resumed") {
		t.Fatalf("a vanished root was resumed: %v, note %q", m.Consented(), m.status.note)
	}
}

// TestProposalJudgesRisk: enter's command marks DIR itself and a folder
// with secrets at its top.
func TestProposalJudgesRisk(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	t.Setenv("HOME", "/nonexistent-home")
	keys := filepath.Join(dir, "keys")
	plain := filepath.Join(dir, "plain")
	for _, d := range []string{keys, plain, filepath.Join(keys, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	msg := proposeConsent(dir, []string{dir, keys, plain}, nil)().(proposalMsg)
	got := map[string][]string{}
	for _, p := range msg.proposed {
		for _, w := range p.Warnings {
			got[p.Path] = append(got[p.Path], w.Code)
		}
	}
	if !slices.Equal(got[dir], []string{consent.WarnDir}) || !slices.Equal(got[keys], []string{consent.WarnSecrets}) || got[plain] != nil {
		t.Fatalf("warnings %v", got)
	}
}

// BenchmarkRenderRowStates draws the list of 10,000 repositories (in 100
// groups of 100, every group folder checked) with its row states and
// header counts: the cost coverage adds to each frame.
func BenchmarkRenderRowStates(b *testing.B) {
	var repos []vcsdetect.Repo
	var checked []string
	for g := 0; g < 100; g++ {
		group := fmt.Sprintf("group%02d", g)
		repos = append(repos, repo(group, "main"))
		checked = append(checked, "/work/demo/"+group)
		for i := 0; i < 99; i++ {
			repos = append(repos, repo(fmt.Sprintf("%s/sub/project%02d", group, i), "main"))
		}
	}
	m := New(Config{Dir: "/work/demo"})
	m.walk.gen = 1
	m.Update(scanBatchMsg{gen: 1, repos: repos, done: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.picker.SetChecked(checked)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.render()
	}
}

// TestATypedWordNeverAnswersAQuestion: esc on an empty query with a change
// not confirmed asks whether to quit; typing "yarn" then is typing: the y
// goes back to the list and into the query, with the rest of the word,
// and nothing quits. (The question took y as its answer and quit.)
func TestATypedWordNeverAnswersAQuestion(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "space", "esc")
	if m.mode() != modeAsk {
		t.Fatalf("precondition: esc with a change did not ask (mode %d)", m.mode())
	}
	for _, k := range []string{"y", "a", "r", "n"} {
		if cmd := send(m, k); cmd != nil && isQuit(cmd) {
			t.Fatalf("typing %q after the question quit", k)
		}
	}
	if m.mode() != modeList || m.filter.Value() != "yarn" {
		t.Fatalf("after typing yarn: mode %d, query %q; want the list with the query yarn", m.mode(), m.filter.Value())
	}
	if !m.picker.IsChecked("/work/demo/api") {
		t.Fatal("the change was lost")
	}

	// The same for check-all: a letter is no yes.
	var repos []vcsdetect.Repo
	for i := range 40 {
		repos = append(repos, repo(fmt.Sprintf("svc-%02d", i), "main"))
	}
	m = fixture(t, repos...) // 80×24: not 40 rows
	send(m, "ctrl+a")
	if m.mode() != modeAsk {
		t.Fatalf("precondition: ctrl+a with rows off screen did not ask (mode %d)", m.mode())
	}
	send(m, "y")
	if m.picker.CheckedCount() != 0 || m.filter.Value() != "y" {
		t.Fatalf("y after ctrl+a's question: %d checked, query %q", m.picker.CheckedCount(), m.filter.Value())
	}
}

// TestIntroSaysWhatItIsFor: the demo's first screen says in one line what
// rootpick is for and that nothing is shared until the review is
// confirmed.
func TestIntroSaysWhatItIsFor(t *testing.T) {
	m := New(Config{Dir: "/work/demo", Intro: true})
	m.setSize(200, 20)
	if n := m.status.note; !strings.Contains(n, "shares the folders you check (space) with MCP servers") || !strings.Contains(n, "Nothing is shared until you review (enter) and confirm (y)") {
		t.Errorf("intro note %q", n)
	}
	if n := New(Config{Dir: "/work/demo"}).status.note; n != "" {
		t.Errorf("without Intro the first note is %q", n)
	}
}

// TestDialogSaysItReplacesAnotherFolder: a profile remembers one folder's
// consent; y on another folder with the same profile replaces it, and the
// dialog says so, with the folder and how many roots; not once the
// consent is this folder's.
func TestDialogSaysItReplacesAnotherFolder(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.cfg.Store = storeFor(t)
	m.cfg.Remembered = &consent.Record{Dir: "/work/other", Roots: []consent.Root{mkRoot("/work/other/a"), mkRoot("/work/other/b")}}
	openDialog(t, m, mkRoot("/work/demo/api"))
	want := "Replaces profile test's consent for /work/other (2 roots)"
	if out := strings.Join(strings.Fields(screen(m)), " "); !strings.Contains(out, want) {
		t.Fatalf("the dialog does not say it replaces the other folder's consent:\n%s", screen(m))
	}
	run(m, send(m, "y"))
	m.review.sh.ServedNow(m.Consented())
	openDialog(t, m, mkRoot("/work/demo/api"), mkRoot("/work/demo/web"))
	if strings.Contains(screen(m), "Replaces profile") {
		t.Fatalf("after a consent here the dialog still says it replaces another folder's:\n%s", screen(m))
	}
	m = fixture(t, demoRepos()...)
	m.cfg.Store = storeFor(t)
	m.cfg.Remembered = &consent.Record{Dir: "/work/demo", Roots: []consent.Root{mkRoot("/work/demo/web")}}
	openDialog(t, m, mkRoot("/work/demo/api"))
	if strings.Contains(screen(m), "Replaces profile") {
		t.Fatalf("this folder's own record is not another folder's:\n%s", screen(m))
	}
}

// A checked folder deleted before enter: the dialog says it is gone, in
// full (wrapped, never cut), and does not say that nothing is checked.
func TestReviewOfADeletedFolder(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	gone := filepath.Join(dir, "a-folder-with-a-long-name-that-was-deleted")
	msg := proposeConsent(dir, []string{gone}, nil)().(proposalMsg)
	if len(msg.problems) != 1 || !strings.Contains(msg.problems[0], "it is gone") || !strings.Contains(msg.problems[0], gone) {
		t.Fatalf("problems %q", msg.problems)
	}
	m := fixture(t, demoRepos()...)
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 24})
	m.review.sh.Review(nil)
	m.Update(msg)
	s := strings.Join(strings.Fields(strings.ReplaceAll(screen(m), "│", "")), " ")
	if strings.Contains(s, "Nothing is checked") || !strings.Contains(s, "The checked folder cannot be shared:") || !strings.Contains(s, "deleted or moved since the scan") {
		t.Fatalf("the dialog for a deleted folder:\n%s", screen(m))
	}
}
