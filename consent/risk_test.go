package consent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func codes(ws []Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Code)
	}
	return out
}

// TestRisks covers every warning reason with roots that need not exist
// (only the secrets check reads the disk, and finds nothing there).
func TestRisks(t *testing.T) {
	env := Env{Dir: "/home/u/src", Home: "/home/u"}
	tests := []struct {
		path, requested string
		want            []string
	}{
		{"/home/u/src/api", "", nil},
		{"/home/u/src/api", "/home/u/src/api/", nil},
		{"/home/u/src", "", []string{WarnDir}},
		{"/", "", []string{WarnFSRoot, WarnOutside}},
		{"/home/u", "", []string{WarnHome, WarnOutside}},
		{"/home", "", []string{WarnHomeAncestor, WarnSystem, WarnOutside}},
		{"/etc", "", []string{WarnSystem, WarnOutside}},
		{"/etc/nginx", "", []string{WarnSystem, WarnOutside}},
		{"/usr/local/src", "", []string{WarnSystem, WarnOutside}},
		{"/root", "", []string{WarnSystem, WarnOutside}},
		{"/proc", "", []string{WarnSystem, WarnOutside}},
		{"/opt", "", []string{WarnSystem, WarnOutside}},
		{"/opt/proj", "", []string{WarnOutside}},
		{"/home/u/other", "", []string{WarnOutside}},
		{"/home/u/src-old", "", []string{WarnOutside}}, // a prefix is not a parent
		{"/home/u/src/real", "/home/u/src/link", []string{WarnSymlink}},
	}
	for _, tt := range tests {
		got := codes(Risks(tt.requested, Root{Path: tt.path}, env))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Risks(%q via %q) = %v, want %v", tt.path, tt.requested, got, tt.want)
		}
	}
}

// TestRisksSystemFolderByPath: a system folder is known by its path, on
// any system, whether or not it exists here: each of systemTrees and
// anything inside it, and each of systemFolders itself (not what is inside
// it), warns "system folder X" for the X it is in. The identity check
// (device and inode) only adds aliases; it cannot stand in for the path,
// since it knows only folders that exist and names them otherwise.
func TestRisksSystemFolderByPath(t *testing.T) {
	env := Env{Home: "/nonexistent-home"}
	system := func(p string) []Warning {
		var out []Warning
		for _, w := range Risks("", Root{Path: p}, env) {
			if w.Code == WarnSystem {
				out = append(out, w)
			}
		}
		return out
	}
	check := func(p, in string) {
		t.Helper()
		got := system(p)
		if in == "" {
			if got != nil {
				t.Errorf("%s: %v, want no system warning", p, got)
			}
			return
		}
		if want := []Warning{{WarnSystem, "system folder " + in}}; !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", p, got, want)
		}
	}
	for _, s := range systemTrees {
		check(s, s)
		check(s+"/a", s)
		check(s+"/a/b c", s)
		check(s+"x", "") // a prefix is not a parent
	}
	for _, s := range systemFolders {
		in := s
		for _, tree := range systemTrees {
			if Within(s, tree) {
				in = tree
			}
		}
		check(s, in)
	}
	for _, p := range []string{"/home/u/src", "/opt/proj", "/srv/www", "/tmp/x", "/Users/u/src", "/private/tmp/x", "/Volumes/disk/src"} {
		check(p, "")
	}
}

func TestRisksSecretsAtTop(t *testing.T) {
	base := tempDir(t)
	env := Env{Dir: base, Home: "/nonexistent-home"}
	for _, name := range []string{".ssh", ".gnupg", ".aws", ".env", "server.pem", "id_ed25519", ".env.local"} {
		dir := mkdir(t, filepath.Join(base, "r-"+name))
		if name == ".ssh" || name == ".gnupg" || name == ".aws" {
			mkdir(t, filepath.Join(dir, name))
		} else if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := NewRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		ws := Risks(dir, r, env)
		if got := codes(ws); !slices.Equal(got, []string{WarnSecrets}) {
			t.Errorf("%s at the top: %v, want [secrets]", name, got)
		} else if want := "holds secrets at its top: " + name; ws[0].Text != want {
			t.Errorf("text %q, want %q", ws[0].Text, want)
		}
	}
	// Deeper secrets and look-alikes do not count.
	plain := mkdir(t, filepath.Join(base, "plain"))
	mkdir(t, filepath.Join(plain, "sub", ".ssh"))
	for _, n := range []string{"ssh", "pem", "my_id", "env"} {
		if err := os.WriteFile(filepath.Join(plain, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r, _ := NewRoot(plain)
	if ws := Risks(plain, r, env); ws != nil {
		t.Errorf("plain folder warned: %v", ws)
	}
}

func TestRisksSymlinkOnDisk(t *testing.T) {
	base := tempDir(t)
	real := mkdir(t, filepath.Join(base, "real"))
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	r, err := NewRoot(link)
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Dir: base, Home: "/nonexistent-home"}
	if got := codes(Risks(link, r, env)); !slices.Equal(got, []string{WarnSymlink}) {
		t.Errorf("through a link: %v", got)
	}
	if got := codes(Risks(real, r, env)); got != nil {
		t.Errorf("direct: %v", got)
	}
}

func TestOverlaps(t *testing.T) {
	roots := []Root{mk("/a"), mk("/a/b"), mk("/a/b/c"), mk("/ab"), mk("/x/y")}
	got := Overlaps(roots)
	want := map[string]string{"/a/b": "/a", "/a/b/c": "/a"}
	if len(got) != len(want) {
		t.Fatalf("Overlaps = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Overlaps[%q] = %q, want %q", k, got[k], v)
		}
	}
	if got := Overlaps([]Root{mk("/"), mk("/x")}); got["/x"] != "/" {
		t.Errorf("inside /: %v", got)
	}
	if got := Overlaps(nil); got != nil {
		t.Errorf("Overlaps(nil) = %v", got)
	}
}

func TestCoveringRoot(t *testing.T) {
	set := map[string]bool{"/w": true, "/w/a": true, "/w/b/c": true}
	for path, want := range map[string]string{
		"/w/a/x":     "/w",
		"/w/a":       "/w",
		"/w":         "",
		"/wx/a":      "",
		"/w/b/c/d/e": "/w",
		"/v":         "",
	} {
		got, ok := CoveringRoot(path, set)
		if got != want || ok != (want != "") {
			t.Errorf("CoveringRoot(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
	if got, _ := CoveringRoot("/w/a/x", map[string]bool{"/": true}); got != "/" {
		t.Errorf("under /: %q", got)
	}
}

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		p, root string
		want    bool
	}{
		{"/a", "/a", true}, {"/a/b", "/a", true}, {"/ab", "/a", false}, {"/a", "/a/b", false},
		{"/x", "/", true}, {"/", "/", true},
	} {
		if got := Within(tt.p, tt.root); got != tt.want {
			t.Errorf("Within(%q, %q) = %v", tt.p, tt.root, got)
		}
	}
}

// TestRisksHardLinksAtTop: a file at a root's top with another name (a
// hard link to a file outside) warns, naming it; a folder, a symlink and
// a file with one name do not.
func TestRisksHardLinksAtTop(t *testing.T) {
	base := tempDir(t)
	env := Env{Dir: base, Home: "/nonexistent-home"}
	outside := filepath.Join(base, "outside-key")
	if err := os.WriteFile(outside, []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	repo := mkdir(t, filepath.Join(base, "repo"))
	mkdir(t, filepath.Join(repo, "sub"))
	if err := os.WriteFile(filepath.Join(repo, "plain"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(repo, "link")); err != nil {
		t.Fatal(err)
	}
	r, _ := NewRoot(repo)
	if ws := Risks(repo, r, env); ws != nil {
		t.Fatalf("no hard link yet, warned: %v", ws)
	}
	if err := os.Link(outside, filepath.Join(repo, "notes.txt")); err != nil {
		t.Skipf("this file system makes no hard links: %v", err)
	}
	ws := Risks(repo, r, env)
	if got := codes(ws); !slices.Equal(got, []string{WarnLinks}) {
		t.Fatalf("a hard link at the top: %v, want [links]", got)
	}
	if !strings.HasSuffix(ws[0].Text, ": notes.txt") {
		t.Errorf("text %q does not name notes.txt", ws[0].Text)
	}
}

// TestRisksLinkOut: a symbolic link at a root's top that leads to the
// home folder or above it is warned, naming it and where it leads; one to
// a sibling folder, one inside the root and a dangling one are not.
func TestRisksLinkOut(t *testing.T) {
	base := tempDir(t)
	home := mkdir(t, filepath.Join(base, "home"))
	sibling := mkdir(t, filepath.Join(home, "src", "other"))
	repo := mkdir(t, filepath.Join(home, "src", "repo"))
	mkdir(t, filepath.Join(repo, "sub"))
	env := Env{Dir: filepath.Join(home, "src"), Home: home}
	for name, to := range map[string]string{"sib": sibling, "in": filepath.Join(repo, "sub"), "gone": filepath.Join(base, "nothing")} {
		must(t, os.Symlink(to, filepath.Join(repo, name)))
	}
	r, _ := NewRoot(repo)
	if ws := Risks(repo, r, env); ws != nil {
		t.Fatalf("links inside, to a sibling and dangling warned: %v", ws)
	}
	must(t, os.Symlink(home, filepath.Join(repo, "h")))
	must(t, os.Symlink("/", filepath.Join(repo, "root")))
	ws := Risks(repo, r, env)
	if got := codes(ws); !slices.Equal(got, []string{WarnLinkOut}) {
		t.Fatalf("links to home and /: %v, want [link-out]", got)
	}
	if !strings.HasSuffix(ws[0].Text, ": h → ~, root → /") {
		t.Errorf("text %q does not name the links and where they lead", ws[0].Text)
	}
}
