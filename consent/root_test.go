package consent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/testskip"
)

// tempDir returns a temporary folder with its symlinks resolved (on some
// systems the temp folder itself sits behind a symlink).
func tempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mkdir(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(path, 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestNewRootAccepts(t *testing.T) {
	base := tempDir(t)
	target := mkdir(t, filepath.Join(base, "target"))
	link := filepath.Join(base, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	relLink := filepath.Join(base, "rel-link")
	if err := os.Symlink("target", relLink); err != nil {
		t.Fatal(err)
	}
	mkdir(t, filepath.Join(base, "sub", "deeper"))

	tests := []struct {
		name, in, path string
	}{
		{"plain", target, target},
		{"trailing slash", target + "/", target},
		{"not clean", base + "//sub/./deeper/..", filepath.Join(base, "sub")},
		{"symlink", link, target},
		{"relative symlink", relLink, target},
		{"through symlink", link + "/../sub", filepath.Join(base, "sub")},
		{"space", mkdir(t, filepath.Join(base, "my project")), ""},
		{"percent", mkdir(t, filepath.Join(base, "100%20off")), ""},
		{"hash and question", mkdir(t, filepath.Join(base, "#1 why?")), ""},
		{"newline", mkdir(t, filepath.Join(base, "two\nlines")), ""},
		{"escape", mkdir(t, filepath.Join(base, "red\x1b[31m")), ""},
		{"unicode", mkdir(t, filepath.Join(base, "café 日本")), ""},
		{"plus and colon", mkdir(t, filepath.Join(base, "a+b:c")), ""},
		{"empty", mkdir(t, filepath.Join(base, "empty")), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.path
			if want == "" {
				want = tt.in
			}
			r, err := NewRoot(tt.in)
			if err != nil {
				t.Fatalf("NewRoot(%q): %v", tt.in, err)
			}
			if r.Path != want {
				t.Errorf("Path = %q, want %q", r.Path, want)
			}
			if r.Name != filepath.Base(want) {
				t.Errorf("Name = %q, want %q", r.Name, filepath.Base(want))
			}
			if r.URI != PathToURI(want) {
				t.Errorf("URI = %q, want %q", r.URI, PathToURI(want))
			}
			checkURI(t, r.Path)
		})
	}
}

func TestNewRootRelative(t *testing.T) {
	base := tempDir(t)
	mkdir(t, filepath.Join(base, "proj", "sub"))
	t.Chdir(filepath.Join(base, "proj"))
	for _, in := range []string{".", "sub", "./sub/", "sub/..", "../proj/sub"} {
		r, err := NewRoot(in)
		if err != nil {
			t.Fatalf("NewRoot(%q): %v", in, err)
		}
		want := filepath.Join(base, "proj", filepath.Clean(in))
		if !filepath.IsAbs(r.Path) || r.Path != want {
			t.Errorf("NewRoot(%q).Path = %q, want %q", in, r.Path, want)
		}
	}
}

func TestNewRootRejects(t *testing.T) {
	base := tempDir(t)
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	fileLink := filepath.Join(base, "file-link")
	if err := os.Symlink(file, fileLink); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(base, "dangling")
	if err := os.Symlink(filepath.Join(base, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(base, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	missingOdd := filepath.Join(base, "gone\x1b[2J\nnext")

	tests := []struct {
		name, in string
		is       error // if set, errors.Is(err, is) must hold
	}{
		{"empty", "", nil},
		{"NUL", base + "/a\x00b", nil},
		{"file", file, nil},
		{"symlink to file", fileLink, nil},
		{"missing", filepath.Join(base, "missing"), fs.ErrNotExist},
		{"missing parent", filepath.Join(base, "missing", "child"), fs.ErrNotExist},
		{"dangling symlink", dangling, fs.ErrNotExist},
		{"symlink loop", loop, nil},
		{"odd missing name", missingOdd, fs.ErrNotExist},
		{"below a file", filepath.Join(file, "x"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRoot(tt.in)
			if err == nil {
				t.Fatalf("NewRoot(%q) = %+v, want an error", tt.in, r)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("NewRoot(%q) error %v, want errors.Is %v", tt.in, err, tt.is)
			}
			msg := err.Error()
			if tt.in != "" && !strings.Contains(msg, strconv.Quote(tt.in)) {
				t.Errorf("error %q does not quote the path %q", msg, tt.in)
			}
			if strings.ContainsAny(msg, "\x00\x1b\n") {
				t.Errorf("error %q holds raw control characters", msg)
			}
		})
	}
}

func TestNewRootUnreadable(t *testing.T) {
	testskip.SkipAsRoot(t)
	dir := mkdir(t, filepath.Join(tempDir(t), "locked"))
	if err := os.Chmod(dir, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { must(t, os.Chmod(dir, 0o700)) })
	r, err := NewRoot(dir)
	if err == nil {
		t.Fatalf("NewRoot(%q) = %+v, want an error", dir, r)
	}
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("error %v, want errors.Is fs.ErrPermission", err)
	}
}

func TestRoots(t *testing.T) {
	base := tempDir(t)
	a := mkdir(t, filepath.Join(base, "a"))
	b := mkdir(t, filepath.Join(base, "b"))
	link := filepath.Join(base, "link-to-a")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(base, "missing")

	roots, errs := Roots([]string{b, missing, link, a, "", b})
	var paths []string
	for _, r := range roots {
		paths = append(paths, r.Path)
	}
	if want := []string{b, a}; strings.Join(paths, "|") != strings.Join(want, "|") {
		t.Errorf("Roots paths = %q, want %q", paths, want)
	}
	if len(errs) != 2 || !errors.Is(errs[0], fs.ErrNotExist) {
		t.Errorf("Roots errors = %v, want [missing, empty]", errs)
	}

	roots, errs = Roots(nil)
	if roots != nil || errs != nil {
		t.Errorf("Roots(nil) = %v, %v, want nil, nil", roots, errs)
	}
}

// TestRecheckReasons: each way a root can stop being servable is named.
func TestRecheckReasons(t *testing.T) {
	base := tempDir(t)
	root := func(name string) Root {
		p := filepath.Join(base, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		r, err := NewRoot(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	gone := root("gone")
	must(os.Remove(gone.Path))
	swapped := root("swapped")
	must(os.Rename(swapped.Path, swapped.Path+".old"))
	must(os.Symlink("/etc", swapped.Path))
	file := root("file")
	must(os.Remove(file.Path))
	must(os.WriteFile(file.Path, nil, 0o600))
	ok := root("ok")
	for _, tc := range []struct {
		r    Root
		want string
	}{
		{gone, "deleted or renamed"},
		{swapped, "now resolves to /etc"},
		{file, "no longer a readable folder"},
		{ok, ""},
	} {
		if got := Recheck(tc.r); got != tc.want {
			t.Errorf("Recheck(%s) = %q, want %q", filepath.Base(tc.r.Path), got, tc.want)
		}
	}
}
