//go:build unix

package consent

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/paths"
)

// nobody is the user that stands for "another user" when the tests run as
// root.
const nobody = 65534

// saveTestRecord saves a record of one folder and returns the store and
// its state folder.
func saveTestRecord(t *testing.T, profile string) (*Store, string) {
	t.Helper()
	s, state := openTestStore(t, profile)
	r, err := NewRoot(tempDir(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Save(Record{Dir: filepath.Dir(r.Path), Roots: []Root{r}}); err != nil {
		t.Fatal(err)
	}
	return s, state
}

// loadWithin loads s's record, failing the test if that takes more than
// a few seconds (a FIFO read without O_NONBLOCK would never end).
func loadWithin(t *testing.T, s *Store) (Record, error) {
	t.Helper()
	type result struct {
		r   Record
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := s.Load()
		done <- result{r, err}
	}()
	select {
	case res := <-done:
		return res.r, res.err
	case <-time.After(5 * time.Second):
		t.Fatal("Load did not return within 5 s")
		return Record{}, nil
	}
}

// TestLoadBelievesOnlyTheOwnRecord replaces the record (or a folder above
// it) with everything that is not the person's own regular file, and
// checks that Load refuses each with a reason naming the path, never
// blocking and never reading more than MaxStateFile.
func TestLoadBelievesOnlyTheOwnRecord(t *testing.T) {
	root := os.Geteuid() == 0
	cases := []struct {
		name   string
		rootOK bool // needs root (chown)
		mangle func(t *testing.T, s *Store, state string)
		want   string // in the error
	}{
		{name: "symlink to a good record", mangle: func(t *testing.T, s *Store, state string) {
			other := filepath.Join(tempDir(t), "planted.json")
			b, _ := os.ReadFile(s.Path())
			must(t, os.WriteFile(other, b, 0o600))
			replaceWith(t, s.Path(), func(p string) error { return os.Symlink(other, p) })
		}, want: "is a symbolic link"},
		{name: "symlink to /dev/zero", mangle: func(t *testing.T, s *Store, state string) {
			replaceWith(t, s.Path(), func(p string) error { return os.Symlink("/dev/zero", p) })
		}, want: "is a symbolic link"},
		{name: "FIFO", mangle: func(t *testing.T, s *Store, state string) {
			replaceWith(t, s.Path(), func(p string) error { return syscall.Mkfifo(p, 0o600) })
		}, want: "is a FIFO"},
		{name: "socket", mangle: func(t *testing.T, s *Store, state string) {
			replaceWith(t, s.Path(), func(p string) error {
				l, err := net.Listen("unix", p)
				if err == nil {
					t.Cleanup(func() { l.Close() })
				}
				return err
			})
		}, want: "is a socket"},
		{name: "directory", mangle: func(t *testing.T, s *Store, state string) {
			replaceWith(t, s.Path(), func(p string) error { return os.Mkdir(p, 0o700) })
		}, want: "is a folder, not a regular file"},
		{name: "group-writable", mangle: func(t *testing.T, s *Store, state string) {
			must(t, os.Chmod(s.Path(), 0o620))
		}, want: "writable by others (mode 0620)"},
		{name: "world-writable", mangle: func(t *testing.T, s *Store, state string) {
			must(t, os.Chmod(s.Path(), 0o606))
		}, want: "writable by others (mode 0606)"},
		{name: "oversized", mangle: func(t *testing.T, s *Store, state string) {
			must(t, os.WriteFile(s.Path(), []byte(`{"profile":"default","roots":[],"pad":"`+strings.Repeat("x", MaxStateFile)+`"}`), 0o600))
		}, want: "more than 1048576"},
		{name: "another user's record", rootOK: true, mangle: func(t *testing.T, s *Store, state string) {
			must(t, os.Chown(s.Path(), nobody, nobody))
		}, want: "belongs to user 65534"},
		{name: "consent folder is a symlink", mangle: func(t *testing.T, s *Store, state string) {
			other := tempDir(t)
			b, _ := os.ReadFile(s.Path())
			must(t, os.WriteFile(filepath.Join(other, "default.json"), b, 0o600))
			must(t, os.Chmod(other, 0o700))
			replaceWith(t, s.Dir(), func(p string) error { return os.Symlink(other, p) })
		}, want: "is a symbolic link, not a folder"},
		{name: "consent folder open to others", mangle: func(t *testing.T, s *Store, state string) {
			must(t, os.Chmod(s.Dir(), 0o755))
		}, want: "is open to others (mode 0755"},
		{name: "state folder open to others", mangle: func(t *testing.T, s *Store, state string) {
			must(t, os.Chmod(filepath.Join(state, "rootpick"), 0o777))
		}, want: "is open to others (mode 0777"},
		{name: "consent folder of another user", rootOK: true, mangle: func(t *testing.T, s *Store, state string) {
			must(t, os.Chown(s.Dir(), nobody, nobody))
		}, want: "belongs to user 65534"},
		{name: "state folder of another user, open to all", rootOK: true, mangle: func(t *testing.T, s *Store, state string) {
			must(t, os.Chown(filepath.Join(state, "rootpick"), nobody, nobody))
			must(t, os.Chmod(filepath.Join(state, "rootpick"), 0o777))
		}, want: "belongs to user 65534"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.rootOK && !root {
				t.Skip("needs root to give a file to another user")
			}
			s, state := saveTestRecord(t, "default")
			c.mangle(t, s, state)
			_, err := loadWithin(t, s)
			var u *UntrustedError
			if !errors.As(err, &u) {
				t.Fatalf("Load = %v, want an UntrustedError", err)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), state) {
				t.Errorf("Load error %q: want it to name the path and say %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("the reason is not one line: %q", err)
			}
		})
	}
}

// replaceWith removes path and makes something else there.
func replaceWith(t *testing.T, path string, make func(string) error) {
	t.Helper()
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
	if err := make(path); err != nil {
		t.Fatal(err)
	}
}

// TestLoadRefusesBadContent: what is the person's own but not a record of
// this profile is no consent either.
func TestLoadRefusesBadContent(t *testing.T) {
	for name, content := range map[string]string{
		"empty":                    "",
		"truncated":                `{"profile":"default","dir":"/x","roots":[{"path":"/x/a","uri":"file:///x/a"`,
		"not JSON":                 "hello",
		"another profile's record": `{"profile":"work","dir":"/x","roots":[]}`,
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := saveTestRecord(t, "default")
			if err := os.WriteFile(s.Path(), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			if r, err := loadWithin(t, s); err == nil {
				t.Errorf("Load accepted %s: %+v", name, r)
			}
		})
	}
}

// TestWritesNeverFollowLinks: the record, the audit log and the consent
// folder are never written through a symbolic link; a link at the record's
// name is replaced, not followed.
func TestWritesNeverFollowLinks(t *testing.T) {
	t.Run("audit log is a symlink", func(t *testing.T) {
		s, _ := saveTestRecord(t, "default")
		target := filepath.Join(tempDir(t), "target")
		must(t, os.WriteFile(target, []byte("before\n"), 0o644))
		must(t, os.Symlink(target, s.AuditPath()))
		err := s.AppendAudit(AuditEntry{Action: "confirm"})
		var u *UntrustedError
		if !errors.As(err, &u) {
			t.Errorf("AppendAudit through a link = %v, want an UntrustedError", err)
		}
		if b, _ := os.ReadFile(target); string(b) != "before\n" {
			t.Errorf("the link's target was written: %q", b)
		}
	})
	t.Run("consent folder is a symlink", func(t *testing.T) {
		s, _ := openTestStore(t, "default")
		target := tempDir(t)
		must(t, os.Chmod(target, 0o755))
		must(t, os.MkdirAll(filepath.Dir(s.Dir()), 0o700))
		must(t, os.Symlink(target, s.Dir()))
		if err := s.Save(Record{Dir: "/x"}); err == nil {
			t.Error("Save wrote through a linked consent folder")
		}
		if err := s.AppendAudit(AuditEntry{Action: "confirm"}); err == nil {
			t.Error("AppendAudit wrote through a linked consent folder")
		}
		if entries, _ := os.ReadDir(target); len(entries) != 0 {
			t.Errorf("the link's target holds %v", entries)
		}
		if st, _ := os.Stat(target); st.Mode().Perm() != 0o755 {
			t.Errorf("the link's target was chmodded to %v", st.Mode().Perm())
		}
	})
	t.Run("record is a symlink", func(t *testing.T) {
		s, _ := saveTestRecord(t, "default")
		target := filepath.Join(tempDir(t), "target")
		must(t, os.WriteFile(target, []byte("before"), 0o644))
		replaceWith(t, s.Path(), func(p string) error { return os.Symlink(target, p) })
		if err := s.Save(Record{Dir: "/x"}); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(target); string(b) != "before" {
			t.Errorf("the link's target was written: %q", b)
		}
		if st, err := os.Lstat(s.Path()); err != nil || !st.Mode().IsRegular() {
			t.Errorf("the record is not a regular file after Save: %v, %v", st, err)
		}
		if _, err := s.Load(); err != nil {
			t.Errorf("Load after Save: %v", err)
		}
	})
	t.Run("own loose folder is tightened on write", func(t *testing.T) {
		s, _ := saveTestRecord(t, "default")
		must(t, os.Chmod(s.Dir(), 0o755))
		if _, err := s.Load(); err == nil {
			t.Error("Load believed a record in a folder open to others")
		}
		if err := s.Save(Record{Dir: "/x"}); err != nil {
			t.Fatal(err)
		}
		checkMode(t, s.Dir(), 0o700)
		if _, err := s.Load(); err != nil {
			t.Errorf("Load after Save tightened the folder: %v", err)
		}
	})
	t.Run("another user's folder is never tightened", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to give a folder to another user")
		}
		s, _ := saveTestRecord(t, "default")
		must(t, os.Chown(s.Dir(), nobody, nobody))
		must(t, os.Chmod(s.Dir(), 0o777))
		if err := s.Save(Record{Dir: "/x"}); err == nil {
			t.Error("Save wrote into another user's folder")
		}
		checkMode(t, s.Dir(), 0o777)
	})
}

// TestForgetRefusesAForeignFolder: forget does not reach through a link.
func TestForgetThroughLinkedFolder(t *testing.T) {
	s, _ := openTestStore(t, "default")
	target := tempDir(t)
	must(t, os.Chmod(target, 0o700))
	must(t, os.WriteFile(filepath.Join(target, "default.json"), []byte("{}"), 0o600))
	must(t, os.MkdirAll(filepath.Dir(s.Dir()), 0o700))
	must(t, os.Symlink(target, s.Dir()))
	if err := s.Forget(); err == nil {
		t.Error("Forget went through a linked consent folder")
	}
	if _, err := os.Stat(filepath.Join(target, "default.json")); errors.Is(err, fs.ErrNotExist) {
		t.Error("Forget removed a file in the link's target")
	}
}

// TestNamedStateDirIsNeverChanged: --state-dir (paths.Dirs.WithStateDir
// with CheckNamedDir, then OpenStateDir) takes a folder
// that is absent (made 0700 on the first write) or already the person's
// own and private; anything else — a folder open to others such as /etc or
// /dev/shm, a link, a file, another user's folder — is refused with its
// reason and left exactly as it was. A named folder that becomes loose
// later is refused too, not tightened, when rootpick next writes.
func TestNamedStateDirIsNeverChanged(t *testing.T) {
	use := func(dir string) (paths.State, error) {
		d, err := paths.New(paths.XDG{}).WithStateDir(dir, CheckNamedDir)
		if err != nil {
			return paths.State{}, err
		}
		return d.State()
	}
	base := tempDir(t)
	mk := func(name string, mode os.FileMode) string {
		t.Helper()
		p := filepath.Join(base, name)
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	private := mk("private", 0o700)
	link := filepath.Join(base, "link")
	if err := os.Symlink(private, link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, dir, why string
		mode           os.FileMode // the mode it must keep; 0: not checked
	}{
		{"open to group and others", mk("loose", 0o755), "is open to others (mode 0755", 0o755},
		{"sticky and open to all, as /dev/shm", mk("shm", 0o777|os.ModeSticky), "is open to others (mode 0777", 0o777 | os.ModeSticky},
		{"group-writable", mk("group", 0o770), "is open to others (mode 0770", 0o770},
		{"a link to a private folder", link, "is a symbolic link", 0},
		{"a file", file, "is a regular file", 0},
	}
	if os.Geteuid() == 0 {
		other := mk("other", 0o700)
		if err := os.Chown(other, nobody, nobody); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			name, dir, why string
			mode           os.FileMode
		}{"another user's", other, "belongs to user 65534", 0o700})
	}
	for _, c := range cases {
		st, err := use(c.dir)
		if err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: WithStateDir = %v, want a refusal saying %q", c.name, err, c.why)
		}
		if st.Named {
			t.Errorf("%s: refused, yet the state folder is now %s", c.name, st.Dir)
		}
		if c.mode != 0 {
			if st, err := os.Stat(c.dir); err != nil || st.Mode()&(os.ModePerm|os.ModeSticky) != c.mode {
				t.Errorf("%s: the folder is now %v (%v), want it left %v", c.name, st.Mode(), err, c.mode)
			}
		}
	}

	// Absent: taken, and made 0700 (with its parents) on the first write.
	absent := filepath.Join(base, "new", "state")
	st, err := use(absent)
	if err != nil || !st.Named || st.Dir != absent {
		t.Fatalf("an absent folder: %+v, %v", st, err)
	}
	if d, err := OpenStateDir(st, true, "consent"); err != nil {
		t.Fatal(err)
	} else {
		d.Close()
	}
	for _, p := range []string{filepath.Dir(absent), absent} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o700 {
			t.Errorf("%s made %v (%v), want 0700", p, st.Mode(), err)
		}
	}

	// Private: taken. Made loose afterwards: refused at the next write,
	// left loose.
	st, err = use(private)
	if err != nil {
		t.Fatalf("a private folder: %v", err)
	}
	if err := os.Chmod(private, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStateDir(st, true, "consent"); err == nil || !strings.Contains(err.Error(), "is open to others") {
		t.Errorf("the named folder made loose: OpenStateDir = %v, want a refusal", err)
	}
	if s, err := OpenStoreAt(st, "p"); err != nil {
		t.Fatal(err)
	} else if err := s.Save(Record{}); err == nil || !strings.Contains(err.Error(), "is open to others") {
		t.Errorf("the named folder made loose: Save = %v, want a refusal", err)
	}
	if st, _ := os.Stat(private); st.Mode().Perm() != 0o755 {
		t.Errorf("the named folder was changed to %v", st.Mode())
	}
	// rootpick's own folders below it, and the default state folder, are
	// still tightened as before.
	if err := os.Chmod(private, 0o700); err != nil {
		t.Fatal(err)
	}
	loose := mk("rootpick", 0o755)
	if d, err := OpenStateDir(paths.State{Dir: loose}, true); err != nil {
		t.Fatalf("the default state folder, loose: %v", err)
	} else {
		d.Close()
	}
	if st, _ := os.Stat(loose); st.Mode().Perm() != 0o700 {
		t.Errorf("the default state folder was left %v, want tightened to 0700", st.Mode())
	}

	if _, err := use("relative/state"); err == nil {
		t.Error("a relative state folder was taken")
	}
}

// TestLoadSizeCapIsInclusive: a record of exactly MaxStateFile bytes is
// believed; one byte more is refused, naming both sizes.
func TestLoadSizeCapIsInclusive(t *testing.T) {
	s, _ := saveTestRecord(t, "default")
	saved, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	padTo := func(n int) {
		t.Helper()
		// JSON allows any amount of white space after the value.
		b := append(slices.Clone(saved), bytes.Repeat([]byte(" "), n-len(saved))...)
		must(t, os.WriteFile(s.Path(), b, 0o600))
	}

	padTo(MaxStateFile)
	if _, err := loadWithin(t, s); err != nil {
		t.Errorf("a record of exactly MaxStateFile (%d) bytes: Load = %v, want it believed", MaxStateFile, err)
	}

	padTo(MaxStateFile + 1)
	_, err = loadWithin(t, s)
	var u *UntrustedError
	if want := fmt.Sprintf("is %d bytes, more than %d", MaxStateFile+1, MaxStateFile); !errors.As(err, &u) || !strings.Contains(err.Error(), want) {
		t.Errorf("a record of MaxStateFile+1 bytes: Load = %v, want an UntrustedError saying %q", err, want)
	}
}

// TestOpenOwnDirTakesOneFolderNameAtATime: each sub-folder is one name. A
// name with a slash would be resolved by the kernel, following a link in
// its first part (O_NOFOLLOW covers only the last) or leaving the base
// folder; it is refused before anything is made.
func TestOpenOwnDirTakesOneFolderNameAtATime(t *testing.T) {
	base := tempDir(t)
	state := mkdir(t, filepath.Join(base, "state"))
	elsewhere := mkdir(t, filepath.Join(base, "elsewhere"))
	must(t, os.Symlink(elsewhere, filepath.Join(state, "link")))
	mkdir(t, filepath.Join(state, "real"))
	abs := filepath.Join(base, "absolute")

	for _, sub := range []string{
		"link/consent", // through a link to another folder
		"real/consent", // even through a real folder of the person's own
		"../escaped",   // beside the state folder
		abs,            // anywhere at all
		"real/",
		"",
		".",
		"..",
	} {
		d, err := OpenOwnDir(state, true, sub)
		if err == nil {
			d.Close()
		}
		if want := fmt.Sprintf("%q is not a folder name", sub); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("OpenOwnDir(state, true, %q) = %v, want an error saying %s", sub, err, want)
		}
	}
	for _, p := range []string{
		filepath.Join(elsewhere, "consent"),
		filepath.Join(state, "real", "consent"),
		filepath.Join(base, "escaped"),
		abs,
	} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s was made (Lstat: %v)", p, err)
		}
	}
}

// TestAppendRefusesAnotherUsersLog: an audit log that is not the person's
// own is neither written nor tightened (it is not theirs to change).
func TestAppendRefusesAnotherUsersLog(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the audit log to another user")
	}
	for _, mode := range []os.FileMode{0o600, 0o666} {
		t.Run(fmt.Sprintf("%04o", mode), func(t *testing.T) {
			s, _ := saveTestRecord(t, "default")
			must(t, s.AppendAudit(AuditEntry{Action: "confirm"}))
			must(t, os.Chown(s.AuditPath(), nobody, nobody))
			must(t, os.Chmod(s.AuditPath(), mode))
			before, err := os.ReadFile(s.AuditPath())
			if err != nil {
				t.Fatal(err)
			}
			err = s.AppendAudit(AuditEntry{Action: "forget"})
			var u *UntrustedError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), "belongs to user 65534") || !strings.Contains(err.Error(), s.AuditPath()) {
				t.Errorf("AppendAudit to user 65534's log = %v, want an UntrustedError naming it and saying it belongs to user 65534", err)
			}
			if after, _ := os.ReadFile(s.AuditPath()); !bytes.Equal(after, before) {
				t.Errorf("another user's audit log was written: %d bytes, was %d", len(after), len(before))
			}
			checkMode(t, s.AuditPath(), mode)
		})
	}
}

// TestAppendTightensOwnLooseLog: the person's own audit log, opened to
// others by hand or an old version, is closed to 0600 and written; a
// private one is left 0600.
func TestAppendTightensOwnLooseLog(t *testing.T) {
	for _, mode := range []os.FileMode{0o644, 0o666, 0o640, 0o600} {
		t.Run(fmt.Sprintf("%04o", mode), func(t *testing.T) {
			s, _ := saveTestRecord(t, "default")
			must(t, s.AppendAudit(AuditEntry{Action: "confirm"}))
			must(t, os.Chmod(s.AuditPath(), mode))
			if err := s.AppendAudit(AuditEntry{Action: "forget"}); err != nil {
				t.Fatalf("AppendAudit to the person's own %04o log: %v", mode, err)
			}
			checkMode(t, s.AuditPath(), 0o600)
			b, err := os.ReadFile(s.AuditPath())
			if err != nil {
				t.Fatal(err)
			}
			if lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"); len(lines) != 2 || !strings.Contains(lines[1], `"action":"forget"`) {
				t.Errorf("the log holds %q, want the confirm line and then the forget line", b)
			}
		})
	}
}
