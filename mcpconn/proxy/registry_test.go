package proxy

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/internal/testproc"
)

// registryDir is a fresh state folder's run/ folder.
func registryDir(t *testing.T) string {
	t.Helper()
	return filepath.Join(tempDir(t), "rootpick", "run")
}

// deadPID is the pid of a process that has exited and been waited for.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run true: %v", err)
	}
	return cmd.Process.Pid
}

// TestListProxiesOfItsProfileOnly: a picker sees the proxies of its own
// profile, never another profile's.
func TestListProxiesOfItsProfileOnly(t *testing.T) {
	dir := registryDir(t)
	self := os.Getpid()
	other := livePID(t) // not the parent: run as PID 1 the test has none
	if err := Register(paths.State{Dir: filepath.Dir(dir)}, Entry{PID: self, Profile: "work", Status: Status{Host: "work host"}}); err != nil {
		t.Fatal(err)
	}
	if err := Register(paths.State{Dir: filepath.Dir(dir)}, Entry{PID: other, Profile: "home", Status: Status{Host: "home host"}}); err != nil {
		t.Fatal(err)
	}
	got, err := List(dir, "work")
	if err != nil || len(got) != 1 || got[0].Host != "work host" {
		t.Errorf("List(work) = %+v, %v; want only the work proxy", got, err)
	}
	got, err = List(dir, "home")
	if err != nil || len(got) != 1 || got[0].Host != "home host" {
		t.Errorf("List(home) = %+v, %v; want only the home proxy", got, err)
	}
	checkPerm(t, dir, 0o700)
	checkPerm(t, filepath.Join(dir, "proxy-"+strconv.Itoa(self)+".json"), 0o600)
}

// TestListProxiesDropsTheDead: the entry of a proxy that died without
// unregistering (SIGKILL) is not shown, and is removed.
func TestListProxiesDropsTheDead(t *testing.T) {
	dir := registryDir(t)
	dead := deadPID(t)
	if err := Register(paths.State{Dir: filepath.Dir(dir)}, Entry{PID: dead, Profile: "default"}); err != nil {
		t.Fatal(err)
	}
	if err := Register(paths.State{Dir: filepath.Dir(dir)}, Entry{PID: os.Getpid(), Profile: "default"}); err != nil {
		t.Fatal(err)
	}
	got, err := List(dir, "default")
	if err != nil || len(got) != 1 || got[0].PID != os.Getpid() {
		t.Errorf("List = %+v, %v; want only the live proxy", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "proxy-"+strconv.Itoa(dead)+".json")); !os.IsNotExist(err) {
		t.Errorf("the dead proxy's entry is still there: %v", err)
	}
}

// livePID is the pid of a process that runs until the test ends.
func livePID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot run sleep: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd.Process.Pid
}

// TestListProxiesBelievesOnlyOwnEntries: entries that are not the
// person's own regular files are skipped, whatever they claim, and a
// registry folder that is not the person's own is refused whole with a
// reason that names it. Every planted entry names a process the test
// started, none a pid it guessed: run as PID 1 (in a PID namespace), the
// test's parent is pid 1 and its own pid is small.
func TestListProxiesBelievesOnlyOwnEntries(t *testing.T) {
	dir := registryDir(t)
	self := os.Getpid()
	if err := Register(paths.State{Dir: filepath.Dir(dir)}, Entry{PID: self, Profile: "default", Status: Status{Host: "real"}}); err != nil {
		t.Fatal(err)
	}
	entry := func(pid int) string { return filepath.Join(dir, "proxy-"+strconv.Itoa(pid)+".json") }
	claim := func(pid int, host string) []byte {
		return []byte(`{"pid":` + strconv.Itoa(pid) + `,"profile":"default","host":"` + host + `"}`)
	}
	linked, zero, misnamed := livePID(t), livePID(t), livePID(t)
	// Planted beside it: a link to a good-looking entry of a live
	// process, and a link to /dev/zero named for another.
	planted := filepath.Join(t.TempDir(), "planted.json")
	must(t, os.WriteFile(planted, claim(linked, "Claude Code"), 0o600))
	must(t, os.Symlink(planted, entry(linked)))
	must(t, os.Symlink("/dev/zero", entry(zero)))
	// An entry whose name does not match its pid.
	must(t, os.WriteFile(entry(misnamed), claim(linked, "fake"), 0o600))
	done := make(chan []Entry, 1)
	go func() {
		got, _ := List(dir, "default")
		done <- got
	}()
	select {
	case got := <-done:
		if len(got) != 1 || got[0].Host != "real" {
			t.Errorf("List = %+v; want only the real entry", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("List did not return (read /dev/zero?)")
	}

	must(t, os.Chmod(dir, 0o777))
	_, err := List(dir, "default")
	var u *consent.UntrustedError
	if err == nil || !strings.Contains(err.Error(), dir) || !errors.As(err, &u) {
		t.Errorf("List of a folder open to all = %v; want an UntrustedError naming it", err)
	}
}

// TestStoreSourceAdmits: the proxy's source of consent serves a record's
// roots only as Admit does — a root never granted in the picker for the
// warning it has is dropped with why, the rest are served.
func TestStoreSourceAdmits(t *testing.T) {
	state := tempDir(t)
	t.Setenv("XDG_STATE_HOME", state)
	store, err := consent.OpenStore("default")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(root(t, "x").Path)
	inside := testproc.Root(t, filepath.Join(dir, "x"))
	elsewhere := root(t, "elsewhere")
	rec := consent.Record{Dir: dir, Roots: []consent.Root{inside, elsewhere, {Path: "/", URI: "file:///", Name: "/"}},
		Granted: map[string][]string{elsewhere.URI: {consent.WarnOutside}}}
	if err := store.Save(rec); err != nil {
		t.Fatal(err)
	}
	src := NewStoreSource(t.Context(), store)
	got, err := src.Roots()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(uriList(got), []string{inside.URI, elsewhere.URI}) {
		t.Errorf("served %v; want the inside root and the granted outside one", uriList(got))
	}
	if d := src.Dropped(); len(d) != 1 || d[0].Root.Path != "/" || !strings.Contains(d[0].Why, "never granted") {
		t.Errorf("dropped %v; want / as never granted", d)
	}

	// Through a proxy: the server holds what was admitted, and the
	// proxy's status says what it left out.
	exe, _ := os.Executable()
	t.Setenv("ROOTPICK_TEST_SERVE", "demo")
	h := startTestHost(t, []string{exe, testproc.UniqueMarker("proxy-admit")}, src)
	testproc.Eventually(t, "the demo to hold the admitted roots", func() (string, bool) {
		out, err := h.call(t, "list_roots", nil)
		return out, err == nil && strings.Contains(out, inside.URI) && strings.Contains(out, elsewhere.URI) && !strings.Contains(out, "file:///\n")
	})
	testproc.Eventually(t, "the status to name the dropped root", func() (string, bool) {
		st := h.statuses()
		if len(st) == 0 {
			return "no status", false
		}
		last := st[len(st)-1]
		return strings.Join(last.Dropped, "; "), len(last.Dropped) == 1 && strings.HasPrefix(last.Dropped[0], `"/": never granted`)
	})
}

func checkPerm(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != want {
		t.Errorf("%s is %v, want %v", path, st.Mode().Perm(), want)
	}
}
