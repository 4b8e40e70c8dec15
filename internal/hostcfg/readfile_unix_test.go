//go:build unix

package hostcfg

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// projectFile is the File for the VS Code project configuration of a
// new project folder, whose .vscode folder exists.
func projectFile(t *testing.T) File {
	t.Helper()
	p := t.TempDir()
	if err := os.Mkdir(filepath.Join(p, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range Files(Places{Home: t.TempDir(), Project: p}) {
		if f.Host == VSCode && f.Scope == "project" {
			return f
		}
	}
	t.Fatal("no VS Code project file")
	return File{}
}

// TestHostsConfigLinkedToDevice: a repository's .vscode/mcp.json that is
// a symbolic link to /dev/zero is refused at once, without reading it
// (it used to be read until memory ran out).
func TestHostsConfigLinkedToDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	f := projectFile(t)
	if err := os.Symlink("/dev/zero", f.Path); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := loadGuarded(t, f)
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	refusedBecause(t, err, f.Path, "/dev/zero")
	refusedBecause(t, err, f.Path, "a device, not a regular file")
	if d > time.Second {
		t.Errorf("refused after %v", d)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("refusing it allocated %d bytes", n)
	}
}

// TestHostsConfigFIFO: a configuration that is a FIFO, or a link to one,
// is refused, never waited on (opening a FIFO waits for a writer).
func TestHostsConfigFIFO(t *testing.T) {
	f := projectFile(t)
	if err := syscall.Mkfifo(f.Path, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	_, err := loadGuarded(t, f)
	refusedBecause(t, err, f.Path, "is a FIFO, not a regular file")

	g := projectFile(t)
	if err := os.Symlink(f.Path, g.Path); err != nil {
		t.Fatal(err)
	}
	_, err = loadGuarded(t, g)
	refusedBecause(t, err, g.Path, "a FIFO, not a regular file")
}

// TestHostsConfigTooBig: a file over its cap is refused by its size, not
// read (a sparse file of the cap and a byte would be zeros). A project's
// files, from repositories, have the smallest cap; the person's own JSON
// and TOML a larger one, ~/.claude.json (which Claude Code grows with
// every project's history) the largest, Goose's YAML (costly to parse) a
// small one.
func TestHostsConfigTooBig(t *testing.T) {
	sparse := func(path string, size int64) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, size); err != nil {
			t.Fatal(err)
		}
	}
	// padded is valid JSON of size bytes.
	padded := func(path string, size int) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		body := `{"mcpServers": {}}`
		if err := os.WriteFile(path, []byte(body+strings.Repeat(" ", size-len(body))), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	home, project := t.TempDir(), t.TempDir()
	files := map[string]File{}
	for _, f := range Files(Places{Home: home, Project: project}) {
		files[f.Host+" "+string(f.Scope)] = f
	}
	for _, tc := range []struct {
		file string
		size int64
		cap  string
	}{
		{"claude project", MaxProjectFile + 1, "1 MiB"},
		{"vscode project", MaxProjectFile + 1, "1 MiB"},
		{"codex project", MaxProjectFile + 1, "1 MiB"},
		{"cursor user", MaxConfigFile + 1, "16 MiB"},
		{"codex user", MaxConfigFile + 1, "16 MiB"},
		{"goose user", MaxYAMLFile + 1, "256 KiB"},
		{"claude user", MaxClaudeUserFile + 1, "128 MiB"},
	} {
		f := files[tc.file]
		sparse(f.Path, tc.size)
		_, err := loadGuarded(t, f)
		refusedBecause(t, err, f.Path, fmt.Sprintf("is %d bytes, more than the %s rootpick reads", tc.size, tc.cap))
	}
	for _, tc := range []struct {
		file string
		size int
	}{
		{"claude project", MaxProjectFile},
		{"cursor user", MaxProjectFile + 1},
		{"claude user", MaxConfigFile + 1},
	} {
		f := files[tc.file]
		padded(f.Path, tc.size)
		if _, err := loadGuarded(t, f); err != nil {
			t.Errorf("%s of %d bytes: %v", tc.file, tc.size, err)
		}
	}
}

// endless is a reader that never ends, as a file that keeps growing.
type endless struct{}

func (endless) Read(b []byte) (int, error) { return len(b), nil }

// TestHostsConfigGrowing: a file that grows past the cap while it is read
// is refused, having read one byte past it.
func TestHostsConfigGrowing(t *testing.T) {
	r := &countingReader{r: endless{}}
	var err error
	guarded(t, "reading an endless file", func() { _, err = readCapped(r, "/p/mcp.json", 10, 1000) })
	refusedBecause(t, err, "/p/mcp.json", "grew past")
	if r.n > 1001 {
		t.Errorf("read %d bytes with a cap of 1000", r.n)
	}
	b, err := readCapped(strings.NewReader(strings.Repeat("x", 1000)), "/p/mcp.json", 0, 1000)
	if err != nil || len(b) != 1000 {
		t.Errorf("a file of exactly the cap: %d bytes, %v", len(b), err)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += n
	return n, err
}

// TestHostsConfigLinkRules: a link is followed to a regular file of the
// person's own that others cannot write, and to nothing else; a file
// that is no link is read whoever may write it (a 0666 file is still the
// person's configuration).
func TestHostsConfigLinkRules(t *testing.T) {
	const content = `{"servers": {"s": {"command": "x"}}}`
	dir := t.TempDir()
	own := filepath.Join(dir, "own.json")
	if err := os.WriteFile(own, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	f := projectFile(t)
	if err := os.Symlink(own, f.Path); err != nil {
		t.Fatal(err)
	}
	if c, err := loadGuarded(t, f); err != nil || len(c.Servers) != 1 {
		t.Fatalf("a link to the person's own file: %v", err)
	}

	loose := filepath.Join(dir, "loose.json")
	if err := os.WriteFile(loose, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(loose, 0o666); err != nil {
		t.Fatal(err)
	}
	g := projectFile(t)
	if err := os.Symlink(loose, g.Path); err != nil {
		t.Fatal(err)
	}
	_, err := loadGuarded(t, g)
	refusedBecause(t, err, g.Path, "is writable by others (mode 0666)")

	direct := projectFile(t)
	if err := os.WriteFile(direct.Path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(direct.Path, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := loadGuarded(t, direct); err != nil {
		t.Errorf("a 0666 file that is no link: %v", err)
	}

	// Another user's file: as root, one given away; otherwise a file of
	// root's.
	other := filepath.Join(dir, "other.json")
	if os.Geteuid() == 0 {
		if err := os.WriteFile(other, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(other, 65534, 65534); err != nil {
			t.Skip("cannot give a file away:", err)
		}
	} else {
		other = "/etc/passwd"
		if fi, err := os.Stat(other); err != nil || fi.Sys().(*syscall.Stat_t).Uid != 0 {
			t.Skip("no file of root's to link to")
		}
	}
	h := projectFile(t)
	if err := os.Symlink(other, h.Path); err != nil {
		t.Fatal(err)
	}
	_, err = loadGuarded(t, h)
	refusedBecause(t, err, h.Path, "not to you")
}

// TestHostsWriteIgnoresStrangeBackups: a .rootpick-backup that is a link
// to /dev/zero or a FIFO is neither read nor replaced: it is kept, and the
// backup goes to the next name, at once.
func TestHostsWriteIgnoresStrangeBackups(t *testing.T) {
	for _, kind := range []string{"device link", "fifo"} {
		dir := t.TempDir()
		name := filepath.Join(dir, "mcp.json")
		if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		switch kind {
		case "device link":
			if err := os.Symlink("/dev/zero", name+BackupSuffix); err != nil {
				t.Fatal(err)
			}
		case "fifo":
			if err := syscall.Mkfifo(name+BackupSuffix, 0o600); err != nil {
				t.Skip("no FIFO here:", err)
			}
		}
		var w Written
		var err error
		guarded(t, "Write with a "+kind+" as backup", func() { w, err = Write(name, []byte("old"), []byte("new"), "") })
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if w.Backup != name+BackupSuffix+".1" || w.OlderBackup != name+BackupSuffix || readFile(t, w.Backup) != "old" {
			t.Errorf("%s: backup %q (older %q)", kind, w.Backup, w.OlderBackup)
		}
		if fi, err := os.Lstat(name + BackupSuffix); err != nil || fi.Mode().IsRegular() {
			t.Errorf("%s: the strange backup was replaced", kind)
		}
	}
}

// TestHostsWriteRefusesAFIFO: Write given a FIFO refuses it at once.
func TestHostsWriteRefusesAFIFO(t *testing.T) {
	name := filepath.Join(t.TempDir(), "mcp.json")
	if err := syscall.Mkfifo(name, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	var err error
	guarded(t, "Write to a FIFO", func() { _, err = Write(name, []byte("old"), []byte("new"), "") })
	refusedBecause(t, err, name, "is a FIFO")
	if _, err := os.Lstat(name + BackupSuffix); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a backup was made: %v", err)
	}
}

// TestHostsConfigSwappedForFIFO: a FIFO put in place of a checked file
// before it is opened is opened without waiting for a writer, and refused.
func TestHostsConfigSwappedForFIFO(t *testing.T) {
	dir := t.TempDir()
	regular, fifo := filepath.Join(dir, "mcp.json"), filepath.Join(dir, "fifo")
	if err := os.WriteFile(regular, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	st, err := os.Stat(regular)
	if err != nil {
		t.Fatal(err)
	}
	guarded(t, "opening a FIFO checked as a regular file", func() {
		var f *os.File
		if f, _, err = openChecked(fifo, "", st); err == nil {
			f.Close()
		}
	})
	refusedBecause(t, err, fifo, "changed while it was opened")
}

// TestHostsBackupKeepsModeAndOwner: the backup has the file's mode, not
// what the umask leaves of it (a 0666 file gave a 0644 backup), and, when
// root writes a person's file, the person's owner, as the file itself.
func TestHostsBackupKeepsModeAndOwner(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	for _, mode := range []os.FileMode{0o666, 0o640, 0o600} {
		name := filepath.Join(t.TempDir(), "mcp.json")
		if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(name, mode); err != nil {
			t.Fatal(err)
		}
		w, err := Write(name, []byte("old"), []byte("new"), "")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{name, w.Backup} {
			if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != mode {
				t.Errorf("%s: mode %v, want %v (%v)", f, fi.Mode().Perm(), mode, err)
			}
		}
	}

	// An identical backup more open than the file is not taken for its
	// backup: a token would stay readable there.
	name := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name+BackupSuffix, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Write(name, []byte("old"), []byte("new"), "")
	if err != nil || w.BackupExisted || w.Backup != name+BackupSuffix+".1" {
		t.Errorf("with a 0644 copy beside a 0600 file: %+v, %v", w, err)
	}

	if os.Geteuid() != 0 {
		t.Skip("the owner part needs root, to give a file away")
	}
	name = filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(name, 65534, 65534); err != nil {
		t.Skip("cannot give a file away:", err)
	}
	w, err = Write(name, []byte("old"), []byte("new"), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{name, w.Backup} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if st := fi.Sys().(*syscall.Stat_t); st.Uid != 65534 || st.Gid != 65534 || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: owner %d:%d mode %v, want 65534:65534 0600", f, st.Uid, st.Gid, fi.Mode().Perm())
		}
	}
}

// TestHostsProxiedOnlyWhenSelf: an entry runs through the proxy only when
// its command is this rootpick: one of its paths, or the same file reached
// another way (a link, a relative path from the project, a bare name on
// PATH). A repository's own executable named rootpick is a server like
// any other, listed as direct and wrapped: it used to pass for proxied,
// and be skipped by wrap, by its name alone.
func TestHostsProxiedOnlyWhenSelf(t *testing.T) {
	executable := func(path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	self := filepath.Join(dir, "opt", "rp-dev") // this rootpick, named otherwise
	executable(self)
	project := filepath.Join(dir, "project")
	fake := filepath.Join(project, "node_modules", ".bin", "rootpick")
	executable(fake)
	link(self, filepath.Join(project, "tools", "rootpick"))
	otherPath, selfPath := filepath.Join(dir, "other-bin"), filepath.Join(dir, "self-bin")
	executable(filepath.Join(otherPath, "rootpick"))
	link(self, filepath.Join(selfPath, "rootpick"))

	entry := func(command string) string {
		return `{"command": ` + Quote(command) + `, "args": ["proxy", "--", "server"]}`
	}
	mcp := `{"mcpServers": {` +
		`"fake-relative": ` + entry("./node_modules/.bin/rootpick") + `, ` +
		`"fake-absolute": ` + entry(fake) + `, ` +
		`"bare": ` + entry("rootpick") + `, ` +
		`"self": ` + entry(self) + `, ` +
		`"self-linked": ` + entry(filepath.Join(project, "tools", "rootpick")) + `, ` +
		`"self-relative": ` + entry("./tools/rootpick") + `}}`
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(mcp), 0o600); err != nil {
		t.Fatal(err)
	}
	var f File
	for _, g := range Files(Places{Home: filepath.Join(dir, "home"), Project: project, Rootpick: []string{self}}) {
		if g.Host == Claude && g.Scope == "project" {
			f = g
		}
	}
	for _, tc := range []struct {
		path string
		want map[string]Kind
	}{
		{otherPath, map[string]Kind{"fake-relative": Stdio, "fake-absolute": Stdio, "bare": Stdio, "self": Proxied, "self-linked": Proxied, "self-relative": Proxied}},
		{selfPath, map[string]Kind{"fake-relative": Stdio, "fake-absolute": Stdio, "bare": Proxied, "self": Proxied, "self-linked": Proxied, "self-relative": Proxied}},
	} {
		t.Setenv("PATH", tc.path)
		c, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Servers {
			if s.Kind != tc.want[s.Name] {
				t.Errorf("PATH=%s: %s is %v, want %v", filepath.Base(tc.path), s.Name, s.Kind, tc.want[s.Name])
			}
			if ok, why := s.CanWrap(); ok != (tc.want[s.Name] == Stdio) {
				t.Errorf("PATH=%s: %s CanWrap = %v (%s)", filepath.Base(tc.path), s.Name, ok, why)
			}
		}
	}
	// Elsewhere than a project, a relative command has no folder to be
	// found from: it is not this rootpick.
	if IsRootpick("./tools/rootpick", self) || !IsRootpick(self, self) || IsRootpick(fake, self) {
		t.Error("IsRootpick without a project folder")
	}
}

// TestHostsSameFileTwice: a file a host reaches as its project's and as
// the person's (the project folder is the home folder through a link; the
// project's .cursor is a link to ~/.cursor) is listed once, as the
// person's, so wrapping every file writes it once: it used to be written
// as the project's, then refused as "changed since it was read".
func TestHostsSameFileTwice(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	for _, name := range []string{".cursor/mcp.json", ".gemini/settings.json"} {
		path := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(`{"mcpServers": {"fs": {"command": "npx", "args": ["srv"]}}}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	homeLink := filepath.Join(dir, "home-link")
	if err := os.Symlink(home, homeLink); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(project, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".cursor"), filepath.Join(project, ".cursor")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		project string
		want    []string // the files that exist, as listed
	}{
		{homeLink, []string{"cursor user " + filepath.Join(home, ".cursor", "mcp.json"), "gemini user " + filepath.Join(home, ".gemini", "settings.json")}},
		{project, []string{"cursor user " + filepath.Join(home, ".cursor", "mcp.json"), "gemini user " + filepath.Join(home, ".gemini", "settings.json")}},
	} {
		var got []string
		var configs []*Config
		for _, f := range Files(Places{Home: home, Project: tc.project, Rootpick: []string{"/r"}}) {
			c, err := Load(f)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, f.Host+" "+string(f.Scope)+" "+f.Path)
			configs = append(configs, c)
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("project %s: listed\n%s\nwant\n%s", tc.project, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
		// As hosts wrap does: every file read first, then each written.
		for _, c := range configs {
			out, err := c.Wrap([]int{0}, Proxy{Exe: "/r"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Write(c.File.Path, c.Data, out, ""); err != nil {
				t.Errorf("project %s: writing %s: %v", tc.project, c.File.Path, err)
			}
		}
		// Back as it was for the next round.
		for _, c := range configs {
			if err := os.WriteFile(c.File.Path, c.Data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
}
