package consent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAdmit reads back records naming every kind of root a person must
// grant on purpose, with and without that grant: a root is served only if
// every warning it has now was granted for it, and a root that is not a
// clean absolute path to the same folder is never served.
func TestAdmit(t *testing.T) {
	base := tempDir(t)
	dir := mkdir(t, filepath.Join(base, "ws"))
	home := mkdir(t, filepath.Join(base, "home"))
	plain := mkdir(t, filepath.Join(dir, "plain"))
	secret := mkdir(t, filepath.Join(dir, "secret"))
	must(t, os.WriteFile(filepath.Join(secret, ".env"), []byte("TOKEN=x"), 0o600))
	outside := mkdir(t, filepath.Join(base, "elsewhere"))
	linked := filepath.Join(dir, "linked")
	must(t, os.Symlink(plain, linked))
	gone := mkdir(t, filepath.Join(dir, "gone"))
	goneRoot := mustRoot(t, gone)
	os.Remove(gone)
	env := Env{Dir: dir, Home: home}

	root := func(p string) Root { return Root{Path: p, URI: PathToURI(p), Name: filepath.Base(p)} }
	tests := []struct {
		name    string
		root    Root
		granted []string
		admit   bool
		why     string
	}{
		{"plain root", root(plain), nil, true, ""},
		{"/ not granted", root("/"), nil, false, "the whole file system"},
		{"/ granted", root("/"), []string{WarnFSRoot, WarnOutside}, true, ""},
		{"/ granted for another reason only", root("/"), []string{WarnOutside}, false, "the whole file system"},
		{"/etc not granted", root("/etc"), nil, false, "system folder /etc"},
		{"/etc granted", root("/etc"), []string{WarnSystem, WarnOutside}, true, ""},
		{"home not granted", root(home), nil, false, "your home folder"},
		{"home granted", root(home), []string{WarnHome, WarnOutside}, true, ""},
		{"the home's parent", root(base), nil, false, "holds your home folder"},
		{"outside the scanned folder", root(outside), nil, false, "outside the scanned folder"},
		{"outside, granted", root(outside), []string{WarnOutside}, true, ""},
		{"the scanned folder itself", root(dir), nil, false, "the scanned folder itself"},
		{"secrets not granted", root(secret), nil, false, "holds secrets"},
		{"secrets granted", root(secret), []string{WarnSecrets}, true, ""},
		{"a ..-path", Root{Path: dir + "/../ws/plain", URI: PathToURI(dir + "/../ws/plain")}, []string{WarnOutside, WarnDir}, false, "not a clean absolute path"},
		{"a relative path", Root{Path: "ws/plain", URI: "file:ws/plain"}, nil, false, "not a clean absolute path"},
		{"reached through a link", root(linked), []string{WarnSymlink}, false, "now resolves to"},
		{"a deleted folder", goneRoot, nil, false, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := Record{Dir: dir, Roots: []Root{tt.root}}
			if tt.granted != nil {
				rec.Granted = map[string][]string{tt.root.URI: tt.granted}
			}
			ok, dropped := Admit(rec, env)
			if tt.admit {
				if len(ok) != 1 || ok[0].Path != tt.root.Path || len(dropped) != 0 {
					t.Errorf("Admit = %v, dropped %v; want it admitted", ok, dropped)
				}
				return
			}
			if len(ok) != 0 || len(dropped) != 1 {
				t.Fatalf("Admit = %v, dropped %v; want it dropped", ok, dropped)
			}
			if !strings.Contains(dropped[0].Why, tt.why) {
				t.Errorf("dropped because %q, want %q in it", dropped[0].Why, tt.why)
			}
		})
	}
}

// TestAdmitRefusesAURIThatIsNotItsPath: a record's root names its folder
// twice, as a path and as a URI, and the person's grants are filed by the
// URI. A root whose two names disagree is not one the person was shown,
// whatever it was granted, and is dropped.
func TestAdmitRefusesAURIThatIsNotItsPath(t *testing.T) {
	base := tempDir(t)
	dir := mkdir(t, filepath.Join(base, "ws"))
	home := mkdir(t, filepath.Join(base, "home"))
	plain := mkdir(t, filepath.Join(dir, "plain"))
	other := mkdir(t, filepath.Join(dir, "other"))
	env := Env{Dir: dir, Home: home}
	tests := []struct {
		name    string
		root    Root
		granted []string // for the root's URI
	}{
		{"the URI of a sibling", Root{Path: plain, URI: PathToURI(other)}, nil},
		{"the URI of its parent", Root{Path: plain, URI: PathToURI(dir)}, nil},
		{"not a file URI", Root{Path: plain, URI: "https://example.com" + plain}, nil},
		{"no URI", Root{Path: plain}, nil},
		{"home, under the URI of a plain folder granted as home", Root{Path: home, URI: PathToURI(plain)}, []string{WarnHome, WarnOutside}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := Record{Dir: dir, Roots: []Root{tt.root}}
			if tt.granted != nil {
				rec.Granted = map[string][]string{tt.root.URI: tt.granted}
			}
			ok, dropped := Admit(rec, env)
			if len(ok) != 0 || len(dropped) != 1 || dropped[0].Why == "" {
				t.Errorf("Admit(path %q, uri %q) = %v, dropped %v; want it dropped with a reason", tt.root.Path, tt.root.URI, ok, dropped)
			}
		})
	}
}

// TestAdmitWithoutAbsoluteDir: a record that names no absolute scanned
// folder cannot be judged against one, and admits nothing.
func TestAdmitWithoutAbsoluteDir(t *testing.T) {
	base := tempDir(t)
	r := mustRoot(t, mkdir(t, filepath.Join(base, "a")))
	for _, dir := range []string{"", ".", "rel/dir"} {
		ok, dropped := Admit(Record{Dir: dir, Roots: []Root{r}}, Env{Dir: dir})
		if len(ok) != 0 || len(dropped) != 1 {
			t.Errorf("Dir %q: admitted %v", dir, ok)
		}
	}
}

// TestAdmitKeepsOrderAndNames: admitted roots keep the record's order and
// names, and a root listed twice is served once.
// TestRecordWithoutAccessIsReadWrite: a record written before roots had
// an access reads back read and write, and a read-only root is written
// with read_only and read back so.
func TestRecordWithoutAccessIsReadWrite(t *testing.T) {
	var rec Record
	must(t, json.Unmarshal([]byte(`{"dir":"/d","roots":[{"path":"/d/a","uri":"file:///d/a","name":"a"}]}`), &rec))
	if rec.Roots[0].ReadOnly || rec.Roots[0].Access() != "read and write" {
		t.Errorf("an old record's root reads back %+v (%s)", rec.Roots[0], rec.Roots[0].Access())
	}
	b, err := json.Marshal(Root{Path: "/d/a", URI: "file:///d/a", ReadOnly: true})
	must(t, err)
	var back Root
	must(t, json.Unmarshal(b, &back))
	if !strings.Contains(string(b), `"read_only":true`) || !back.ReadOnly || back.Access() != "read-only" {
		t.Errorf("a read-only root is written %s and read back %+v", b, back)
	}
}

func TestAdmitKeepsOrderAndNames(t *testing.T) {
	dir := tempDir(t)
	a := mustRoot(t, mkdir(t, filepath.Join(dir, "a")))
	b := mustRoot(t, mkdir(t, filepath.Join(dir, "b")))
	b.Name = "my b"
	b.ReadOnly = true // its access too
	ok, dropped := Admit(Record{Dir: dir, Roots: []Root{b, a, b}}, Env{Dir: dir})
	if len(dropped) != 0 || !slices.EqualFunc(ok, []Root{b, a}, func(x, y Root) bool { return x == y }) {
		t.Errorf("Admit = %v, dropped %v", ok, dropped)
	}
}

// must fails the test when a step of its setup fails.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustRoot(t *testing.T, p string) Root {
	t.Helper()
	r, err := NewRoot(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// BenchmarkLoadAndAdmit reads back a record of 10 roots and admits it
// again, as a proxy does on every change of the store and every 500 ms.
func BenchmarkLoadAndAdmit(b *testing.B) {
	state := b.TempDir()
	dir, _ := filepath.EvalSymlinks(b.TempDir())
	s, err := OpenStoreIn(state, "bench")
	if err != nil {
		b.Fatal(err)
	}
	var roots []Root
	for i := range 10 {
		p := filepath.Join(dir, "r"+string(rune('a'+i)))
		must(b, os.Mkdir(p, 0o700))
		r, _ := NewRoot(p)
		roots = append(roots, r)
	}
	if err := s.Save(Record{Dir: dir, Roots: roots}); err != nil {
		b.Fatal(err)
	}
	env := DefaultEnv(dir)
	b.ResetTimer()
	for b.Loop() {
		rec, err := s.Load()
		if err != nil {
			b.Fatal(err)
		}
		if ok, _ := Admit(rec, env); len(ok) != 10 {
			b.Fatalf("admitted %d", len(ok))
		}
	}
}
