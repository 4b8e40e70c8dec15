package consent

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// openTestStore points the state folder at a fresh temporary folder.
func openTestStore(t *testing.T, profile string) (*Store, string) {
	t.Helper()
	state := tempDir(t)
	t.Setenv("XDG_STATE_HOME", state)
	s, err := OpenStore(profile)
	if err != nil {
		t.Fatal(err)
	}
	return s, state
}

func TestValidateProfile(t *testing.T) {
	for _, ok := range []string{"default", "work", "a.b", "x_y-z", "A1"} {
		if err := ValidateProfile(ok); err != nil {
			t.Errorf("ValidateProfile(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", ".hidden", "a/b", "../x", `a\b`, "a b", "a\x00", "é", strings.Repeat("x", 65)} {
		if err := ValidateProfile(bad); err == nil {
			t.Errorf("ValidateProfile(%q) accepted", bad)
		}
		if _, err := OpenStore(bad); err == nil {
			t.Errorf("OpenStore(%q) accepted", bad)
		}
	}
}

func TestStorePaths(t *testing.T) {
	s, state := openTestStore(t, "work")
	if want := filepath.Join(state, "rootpick", "consent", "work.json"); s.Path() != want {
		t.Errorf("Path = %q, want %q", s.Path(), want)
	}
	if p, err := StatePath("work"); err != nil || p != s.Path() {
		t.Errorf("StatePath = %q, %v", p, err)
	}
	t.Setenv("XDG_STATE_HOME", "relative/ignored")
	t.Setenv("HOME", "/h")
	if p, _ := StatePath("default"); p != "/h/.local/state/rootpick/consent/default.json" {
		t.Errorf("without an absolute XDG_STATE_HOME: %q", p)
	}
}

func TestStoreSaveLoadModes(t *testing.T) {
	s, _ := openTestStore(t, "default")
	if _, err := s.Load(); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Load before Save: %v, want fs.ErrNotExist", err)
	}
	base := tempDir(t)
	a := mkdir(t, filepath.Join(base, "a b#?%"))
	ra, _ := NewRoot(a)
	rec := Record{Dir: base, Roots: []Root{ra}, Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if err := s.Save(rec); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	if got.Profile != "default" || got.Dir != base || !slices.Equal(got.Roots, rec.Roots) || !got.Time.Equal(rec.Time) {
		t.Errorf("Load = %+v, want %+v", got, rec)
	}
	checkMode(t, s.Dir(), 0o700)
	checkMode(t, s.Path(), 0o600)
	// A folder made loose by someone else is tightened.
	if err := os.Chmod(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(rec); err != nil {
		t.Fatal(err)
	}
	checkMode(t, s.Dir(), 0o700)
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 1 {
		t.Errorf("consent folder holds %d entries, want only the record", len(entries))
	}
}

func checkMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != want {
		t.Errorf("%s mode %o, want %o", path, got, want)
	}
}

// TestStoreCrashKeepsPreviousConsent stops Save where a crash could happen
// (new content written and synced, not yet renamed) and checks that the
// previous consent is what any reader sees.
func TestStoreCrashKeepsPreviousConsent(t *testing.T) {
	s, _ := openTestStore(t, "default")
	old := Record{Dir: "/d", Roots: []Root{mk("/d/old")}}
	if err := s.Save(old); err != nil {
		t.Fatal(err)
	}
	crashed := errors.New("simulated crash")
	var tmpSeen string
	saveHook = func(tmp string) error {
		tmpSeen = tmp
		b, _ := os.ReadFile(tmp)
		if !strings.Contains(string(b), "/d/new") {
			t.Errorf("temporary file does not hold the new record: %s", b)
		}
		return crashed
	}
	t.Cleanup(func() { saveHook = nil })
	if err := s.Save(Record{Dir: "/d", Roots: []Root{mk("/d/new")}}); !errors.Is(err, crashed) {
		t.Fatalf("Save = %v, want the crash", err)
	}
	if filepath.Dir(tmpSeen) != s.Dir() {
		t.Errorf("temporary file %q is not beside the record (rename would not be atomic)", tmpSeen)
	}
	got, err := s.Load()
	if err != nil || len(got.Roots) != 1 || got.Roots[0].Path != "/d/old" {
		t.Fatalf("after a crash Load = %+v, %v; want the old record", got, err)
	}
}

func TestStoreLoadRejectsTampering(t *testing.T) {
	s, _ := openTestStore(t, "default")
	if err := s.Save(Record{Dir: "/d"}); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"garbage":       "{",
		"other profile": `{"profile":"work","roots":[]}`,
		"uri mismatch":  `{"profile":"default","roots":[{"path":"/a","uri":"file:///b","name":"a"}]}`,
		"remote uri":    `{"profile":"default","roots":[{"path":"/a","uri":"file://host/a","name":"a"}]}`,
	} {
		if err := os.WriteFile(s.Path(), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if r, err := s.Load(); err == nil {
			t.Errorf("%s: Load = %+v, want an error", name, r)
		}
	}
}

func TestStoreForget(t *testing.T) {
	s, _ := openTestStore(t, "p1")
	if err := s.Forget(); err != nil {
		t.Fatalf("Forget with nothing remembered: %v", err)
	}
	if err := s.Save(Record{Dir: "/d", Roots: []Root{mk("/d/a")}}); err != nil {
		t.Fatal(err)
	}
	other, _ := OpenStore("p2")
	if err := other.Save(Record{Dir: "/d"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Forget(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load after Forget: %v", err)
	}
	if _, err := other.Load(); err != nil {
		t.Errorf("Forget of p1 touched p2: %v", err)
	}
}

func TestStoreAudit(t *testing.T) {
	s, _ := openTestStore(t, "default")
	for i := 0; i < 2; i++ {
		if err := s.AppendAudit(AuditEntry{Action: "confirm", Dir: "/d", Servers: []string{"demo"}, Added: []string{"/d/a"}, Warnings: []string{"/d: the scanned folder itself"}}); err != nil {
			t.Fatal(err)
		}
	}
	checkMode(t, s.AuditPath(), 0o600)
	f, err := os.Open(s.AuditPath())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		for _, k := range []string{"time", "profile", "dir", "servers", "added", "removed", "warnings_acknowledged"} {
			if _, ok := e[k]; !ok {
				t.Errorf("line %d lacks %q: %s", n, k, sc.Bytes())
			}
		}
	}
	if n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
}
