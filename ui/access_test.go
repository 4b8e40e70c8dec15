package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/vcsdetect"
)

// roRoot is mkRoot shared read-only.
func roRoot(p string) consent.Root { r := mkRoot(p); r.ReadOnly = true; return r }

// TestReadOnlyKeyFromRowToServedSet: ctrl+l makes the highlighted
// checked row read-only and the row says so; the dialog lists it under
// "read-only"; y serves it read-only. Switching it back is a change of its
// own: the row says "~ read and write (was read-only)", it counts as
// unconfirmed, and the dialog asks to change the access alone.
func TestReadOnlyKeyFromRowToServedSet(t *testing.T) {
	m := fixture(t, demoRepos()...)
	store := storeFor(t)
	m.cfg.Store = store
	send(m, "ctrl+l")
	if !strings.Contains(m.status.note, "Check the row first") || len(m.picker.ReadOnly()) != 0 {
		t.Fatalf("ctrl+l on an unchecked row: note %q, read-only %v", m.status.note, m.picker.ReadOnly())
	}
	send(m, "space", "ctrl+l") // api
	if !m.picker.IsReadOnly("/work/demo/api") || !strings.Contains(m.status.note, "api: read-only") {
		t.Fatalf("ctrl+l on a checked row: read-only %v, note %q", m.picker.ReadOnly(), m.status.note)
	}
	if row := rowOf(t, m, "api "); !strings.Contains(row, "read-only") {
		t.Errorf("the read-only row reads %q", row)
	}

	m.picker.SetChecked([]string{"/work/demo/api", "/work/demo/web"}) // api keeps its access
	openDialog(t, m, roRoot("/work/demo/api"), mkRoot("/work/demo/web"))
	scr := screen(m)
	for _, want := range []string{"+ added, read and write (1)", "+ web", "+ added, read-only (1)", "+ api"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, readOnlyAccessLine) {
		t.Errorf("with a folder shared read and write, the dialog says all are read-only:\n%s", scr)
	}
	if strings.Index(scr, "read-only (1)") < strings.Index(scr, "read and write (1)") {
		t.Errorf("read-only roots come before read and write ones:\n%s", scr)
	}
	cmd := send(m, "y")
	if got := m.Consented(); len(got) != 2 || got[0].Path != "/work/demo/api" || !got[0].ReadOnly || got[1].ReadOnly {
		t.Fatalf("Consented() = %+v", got)
	}
	run(m, cmd)
	rec, err := store.Load()
	if err != nil || len(rec.Roots) != 2 || !rec.Roots[0].ReadOnly {
		t.Errorf("the record: %+v, %v", rec, err)
	}
	if b, _ := os.ReadFile(store.AuditPath()); !strings.Contains(string(b), `"read_only":["/work/demo/api"]`) {
		t.Errorf("the audit line does not list the read-only root: %s", b)
	}

	// Back to read and write: a change to confirm on its own.
	m.picker.MoveTo(0)
	send(m, "ctrl+l")
	if m.picker.IsReadOnly("/work/demo/api") {
		t.Fatal("ctrl+l did not switch api back")
	}
	if row := rowOf(t, m, "api "); !strings.Contains(row, "~ read and write") {
		t.Errorf("a shared row whose access changed reads %q", row)
	}
	if n := m.unconfirmed(); n != 1 {
		t.Errorf("unconfirmed() = %d after a change of access; want 1", n)
	}
	openDialog(t, m, mkRoot("/work/demo/api"), mkRoot("/work/demo/web"))
	scr = screen(m)
	for _, want := range []string{"Change the access of 1 root shared with", "~ access changed (1)", "read and write (was read-only)", "1 access changed"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, scr)
		}
	}
	cmd = send(m, "y")
	if got := m.Consented(); len(got) != 2 || got[0].ReadOnly {
		t.Fatalf("after the change of access, Consented() = %+v", got)
	}
	run(m, cmd)
	if n := m.unconfirmed(); n != 0 {
		t.Errorf("unconfirmed() = %d once served", n)
	}
}

// TestDialogSaysReadOnly: when every folder is shared read-only, the
// dialog does not say a server may change them.
func TestDialogSaysReadOnly(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.setSize(120, 30)
	openDialog(t, m, roRoot("/work/demo/api"))
	if scr := strings.Join(strings.Fields(screen(m)), " "); !strings.Contains(scr, readOnlyAccessLine) || strings.Contains(scr, accessLine) {
		t.Errorf("an all read-only dialog:\n%s", screen(m))
	}
}

// rowOf is the screen line of the list row whose text holds name.
func rowOf(t *testing.T, m *Model, name string) string {
	t.Helper()
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.Contains(l, "] "+name) {
			return l
		}
	}
	t.Fatalf("no row %q on screen:\n%s", name, screen(m))
	return ""
}

// TestReadOnlyDefaultAndRemembered: with Config.ReadOnly a row checked
// anew is read-only; a remembered root keeps the access it was confirmed
// with, whatever the default; the proposal carries each root's access.
func TestReadOnlyDefaultAndRemembered(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ra, _ := consent.NewRoot(a)
	rec := &consent.Record{Dir: dir, Roots: []consent.Root{ra}, Time: time.Now()} // read and write
	m := New(Config{Dir: dir, Remembered: rec, ReadOnly: true})
	if m.picker.IsReadOnly(a) {
		t.Error("a remembered read-and-write root took the --read-only default")
	}
	m.picker.SetChecked([]string{a, b})
	if !m.picker.IsReadOnly(b) {
		t.Error("a row checked anew under --read-only is read and write")
	}
	msg := proposeConsent(dir, m.picker.Checked(), m.picker.ReadOnly())().(proposalMsg)
	if len(msg.proposed) != 2 || msg.proposed[0].ReadOnly || !msg.proposed[1].ReadOnly {
		t.Fatalf("the proposal: %+v", msg.proposed)
	}

	rec.Roots[0].ReadOnly = true
	if m := New(Config{Dir: dir, Remembered: rec}); !m.picker.IsReadOnly(a) {
		t.Error("a remembered read-only root is checked read and write")
	}
}

// TestNothingJumpsAfterY: a checked row's "+ add" becomes "✓ shared"
// after y; the state column is that wide from the start, so the row's
// path and branch stay as they were (at 60 columns, where "+ add" alone
// would leave room for the whole branch and "✓ shared" would not).
func TestNothingJumpsAfterY(t *testing.T) {
	m := fixture(t, repo("services/payments-gateway", "hotfix/retry-jitter"), repo("web", "main"))
	m.setSize(60, 12)
	m.picker.SetChecked([]string{"/work/demo/services/payments-gateway"})
	before := rowOf(t, m, "services/payments-gateway")
	m.review.sh.ServedNow([]consent.Root{mkRoot("/work/demo/services/payments-gateway")})
	after := rowOf(t, m, "services/payments-gateway")
	head := func(row, state string) string { return strings.TrimSpace(row[:max(strings.Index(row, state), 0)]) }
	if b, a := head(before, "+ add"), head(after, "✓ shared"); b == "" || b != a {
		t.Errorf("the row moved or lost its branch after y:\n%q\n%q", before, after)
	}
}

// TestDetailsWrapAWarning: the details pane wraps a warning rather than
// cut it: its end names the file.
func TestDetailsWrapAWarning(t *testing.T) {
	m := fixture(t, repo("api", "main"))
	m.setSize(120, 30)
	m.Update(factsMsg{pool: m.facts.pool, results: []vcsdetect.Result[repoFacts]{
		{Repo: repo("api", "main"), Value: repoFacts{warnings: []string{"holds secrets at its top: .env, id_ed25519-deploy-key-for-production"}, risks: []string{consent.WarnSecrets}}},
	}})
	// Wrapped, the name may break at its hyphens: read it without the
	// line breaks and the pane's border.
	out := strings.Join(strings.Fields(strings.ReplaceAll(screen(m), "│", " ")), "")
	if !strings.Contains(out, "id_ed25519-deploy-key-for-production") {
		t.Errorf("the warning is cut before it names the file:\n%s", screen(m))
	}
}
