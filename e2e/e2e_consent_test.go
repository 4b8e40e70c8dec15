package e2e

// End-to-end tests of consent: what the dialog shows, what needs a second
// confirmation, and what is remembered between launches. They use the
// tmux helpers of e2e_tmux_test.go.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// restart runs rootpick again in the same home and state folders (so the
// consent store carries over), after the previous run has exited.
func (tt *tui) restart(o tuiOptions) {
	tt.t.Helper()
	_, _ = tt.tmux("kill-server")
	// Wait until the old tmux server is gone: a client that reaches a
	// dying server fails with "server exited unexpectedly".
	deadline := time.Now().Add(e2eWait)
	for {
		if _, err := tt.tmux("list-sessions"); err != nil && !strings.Contains(err.Error(), "exited unexpectedly") {
			break
		}
		if time.Now().After(deadline) {
			tt.t.Fatal("the previous tmux server does not go away")
		}
		time.Sleep(20 * time.Millisecond)
	}
	os.Remove(tt.exitFile)
	tt.start(o)
}

// TestE2ENestedRepositoryNamed: checking a parent of a nested repository
// marks the nested row covered, and the dialog says what the parent brings
// in and, on e, names it.
func TestE2ENestedRepositoryNamed(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "work", "work/secrets", "zother")
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{tree}})
	rows := tt.waitRows(3)
	if rows[0].label() != "work" || rows[1].label() != "work/secrets" {
		t.Fatalf("rows:\n%s", describeRows(rows))
	}
	tt.send("Space")
	tt.waitText("⊂ covered by work")
	tt.send("Enter")
	tt.waitArmed(1, 0)
	tt.waitText("+ work", "brings in 1 repo ▸")
	tt.send("e")
	tt.waitText("· work/secrets")
	tt.send("n")
	tt.send("C-q")
	tt.waitText("Discard 1 unconfirmed change?")
	tt.quit()
}

// TestE2EDirRepoNeedsItsOwnYes: when DIR is itself a repository, a then
// one y shares the plain repositories but never DIR; DIR needs space on
// its own line, then y.
func TestE2EDirRepoNeedsItsOwnYes(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), ".", "app")
	out := filepath.Join(t.TempDir(), "out.json")
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{"--print", tree}, stdout: out})
	tt.waitRows(2)
	tt.send("C-a", "Enter")
	screen := tt.waitText("(1 of 2 added, 0 removed)") // of the two added, only app is granted by y
	for _, want := range []string{"! .", "[ ] not granted", "the scanned folder itself", "1 warned root stays"} {
		if !strings.Contains(screen, want) {
			t.Errorf("dialog lacks %q:\n%s", want, screen)
		}
	}
	tt.send("y")
	tt.waitStatus("1 root exposed")
	rows := tt.waitRows(2)
	if rows[0].label() != "." || rows[0].checked {
		t.Errorf("DIR should be unchecked after a plain y:\n%s", describeRows(rows))
	}
	// Now grant it deliberately: check it, review, space on its line, y.
	tt.send("Home", "Space", "Enter")
	tt.waitText("(0 of 1 added, 0 removed)")
	tt.send("Space")
	tt.waitArmed(1, 0)
	tt.waitText("[x] granted")
	tt.send("y")
	tt.waitStatus("2 roots exposed")
	tt.quit()
	printed := readPrinted(t, out)
	if len(printed) != 2 || printed[0].Path != tree {
		t.Fatalf("printed %+v, want DIR and app", printed)
	}
}

// TestE2EPrintIsWhatYConfirmed: q right after y prints exactly that y's
// set, however fast it comes.
func TestE2EPrintIsWhatYConfirmed(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "alpha", "beta", "gamma")
	out := filepath.Join(t.TempDir(), "out.json")
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{"--print", tree}, stdout: out})
	tt.waitRows(3)
	tt.send("Space", "Down", "Down", "Space", "Enter")
	tt.waitArmed(2, 0)
	tt.send("y", "C-q") // one write: q arrives right behind y
	if code := tt.waitExit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	printed := readPrinted(t, out)
	if len(printed) != 2 || printed[0].Path != filepath.Join(tree, "alpha") || printed[1].Path != filepath.Join(tree, "gamma") {
		t.Fatalf("printed %+v, want alpha and gamma", printed)
	}
}

// TestE2ERememberResumeForget: a confirmed consent is remembered (0600 in a
// 0700 folder); the next launch pre-checks it without serving it; --resume
// serves it at once; after a root vanishes --resume refuses; forget clears.
func TestE2ERememberResumeForget(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "alpha", "beta")
	tt := newTUI(t)
	state := filepath.Join(tt.dir, "state", "rootpick", "consent")
	tt.start(tuiOptions{width: 100, height: 24, args: []string{"--profile", "work", tree}})
	tt.waitRows(2)
	tt.send("Space", "Enter")
	tt.waitArmed(1, 0)
	tt.send("y")
	tt.waitStatus("1 root exposed")
	tt.quit()

	file := filepath.Join(state, "work.json")
	for path, want := range map[string]os.FileMode{state: 0o700, file: 0o600, filepath.Join(state, "audit.jsonl"): 0o600} {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s mode %o, want %o", path, st.Mode().Perm(), want)
		}
	}
	var rec struct {
		Profile, Dir string
		Roots        []printedRoot
	}
	b, _ := os.ReadFile(file)
	if err := json.Unmarshal(b, &rec); err != nil || rec.Profile != "work" || rec.Dir != tree || len(rec.Roots) != 1 || rec.Roots[0].Path != filepath.Join(tree, "alpha") {
		t.Fatalf("store holds %s (%v)", b, err)
	}

	// Next launch: pre-checked and remembered, not served.
	tt.restart(tuiOptions{width: 100, height: 24, args: []string{"--profile", "work", tree}})
	rows := tt.waitRows(2)
	if !rows[0].checked || !strings.Contains(rows[0].text, "↺ remembered") {
		t.Errorf("remembered row:\n%s", describeRows(rows))
	}
	tt.waitStatus("nothing shared", "ready")
	tt.quit() // remembered checks are not unconfirmed changes: no question

	// --resume serves it at start, and says so.
	tt.restart(tuiOptions{width: 100, height: 24, args: []string{"--profile", "work", "--resume", tree}})
	tt.waitRows(2)
	tt.waitStatus("1 root exposed", "verified", "Resumed 1 remembered root")
	tt.quit()

	// A remembered root that no longer validates: --resume serves nothing.
	if err := os.RemoveAll(filepath.Join(tree, "alpha")); err != nil {
		t.Fatal(err)
	}
	tt.restart(tuiOptions{width: 100, height: 24, args: []string{"--profile", "work", "--resume", tree}})
	tt.waitRows(1)
	tt.waitStatus("nothing shared", "Not resumed")
	tt.send("C-q", "y")
	tt.waitExit()

	// forget clears it.
	cmd := exec.Command(rootpickBin(t), "forget", "--profile", "work")
	cmd.Env = tt.env
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "Forgot the consent of profile work") {
		t.Fatalf("forget: %v: %s", err, out)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the record is still there after forget: %v", err)
	}
	audit, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	for _, want := range []string{`"action":"confirm"`, `"action":"resume"`, `"action":"forget"`} {
		if !strings.Contains(string(audit), want) {
			t.Errorf("audit log lacks %s:\n%s", want, audit)
		}
	}
}

// TestE2EEarlyYIgnored: a y typed ahead with enter (one write, as a
// person typing "enter y" fast) reaches the dialog inside its 300 ms guard
// and is ignored; nothing is shared and the dialog stays until a later y.
// (A y sent 100 ms after enter could reach a loaded machine's picker past
// the guard, and rightly share.)
func TestE2EEarlyYIgnored(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "alpha")
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{tree}})
	tt.waitRows(1)
	tt.send("Space", "Enter", "y")
	tt.waitArmed(1, 0) // the guard passed: the dialog is still open
	if st := statusLine(tt.capture()); !strings.Contains(st, "nothing shared") {
		t.Fatalf("an early y shared: %q", st)
	}
	tt.send("y")
	tt.waitStatus("1 root exposed", "verified")
	tt.quit()
}
