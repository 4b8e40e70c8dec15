package consent

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestMountNearIn(t *testing.T) {
	info := []byte(`22 1 0:21 / / rw - ext4 /dev/sda1 rw
30 22 0:25 / /tmp rw - tmpfs tmpfs rw
40 30 0:21 /home/u /tmp/ws/bh rw - ext4 /dev/sda1 rw
41 30 0:26 / /tmp/ws/proj/with\040space rw - tmpfs tmpfs rw
42 30 0:27 / /tmp/ws/deep/a rw - tmpfs tmpfs rw
43 42 0:28 / /tmp/ws/deep/a/b rw - tmpfs tmpfs rw
44 30 0:29 / /tmp/ws rw - tmpfs tmpfs rw
`)
	tests := []struct {
		p, want string
	}{
		{"/tmp/ws/bh", "/tmp/ws/bh"},                             // the mount point itself
		{"/tmp/ws/bh/src", "/tmp/ws/bh"},                         // inside it
		{"/tmp/ws", "/tmp/ws/bh"},                                // the scanned folder holds them; its own mount does not count
		{"/tmp/ws/proj", "/tmp/ws/proj/with space"},              // holds one (escapes undone)
		{"/tmp/ws/deep/a/b/c", "/tmp/ws/deep/a/b"},               // the deepest above
		{"/tmp/ws/deep", "/tmp/ws/deep/a"},                       // the shallowest below
		{"/tmp/ws/other", ""},                                    // beside them
		{"/tmp/ws/bhx", ""},                                      // a prefix is not a parent
		{"/etc", ""},                                             // outside the scanned folder
		{"/tmp/ws/proj/with space/x", "/tmp/ws/proj/with space"}, // below an escaped one
	}
	for _, tt := range tests {
		got, ok := mountNear(tt.p, mountsInsideIn(info, "/tmp/ws"))
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("mountNearIn(%q) = %q, %v; want %q", tt.p, got, ok, tt.want)
		}
	}
}

// bindHelperEnv names the scanned folder to the test binary when it runs
// again inside a private mount namespace (TestBindMountAliases).
const bindHelperEnv = "ROOTPICK_TEST_BIND_DIR"

// TestBindMountAliases mounts the home folder, its parent, / and /etc
// inside the scanned folder — in a private mount namespace, so nothing
// outside the test sees the mounts — and checks that each carries the
// warning of the folder it is, judged by identity, not by path, plus the
// warning that another file system is mounted there.
func TestBindMountAliases(t *testing.T) {
	if os.Getenv(bindHelperEnv) != "" {
		t.Skip("run by TestBindMountAliasesInNamespace")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare(1) to make a private mount namespace (util-linux)")
	}
	dir := tempDir(t)
	cmd := exec.Command(unshare, "-m", "--propagation", "private", os.Args[0],
		"-test.run", "^TestBindMountAliasesInNamespace$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), bindHelperEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "cannot make a private mount namespace") || (err != nil && strings.Contains(string(out), "unshare failed")) {
		t.Skipf("cannot make a private mount namespace (needs root or CAP_SYS_ADMIN): %s", firstLine(out))
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: TestBindMountAliasesInNamespace") {
		t.Fatalf("in a private mount namespace: %v\n%s", err, out)
	}
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}

// TestBindMountAliasesInNamespace is TestBindMountAliases' half that runs
// inside the namespace.
func TestBindMountAliasesInNamespace(t *testing.T) {
	dir := os.Getenv(bindHelperEnv)
	if dir == "" {
		t.Skip("run by TestBindMountAliases")
	}
	home := mkdir(t, filepath.Join(t.TempDir(), "parent", "home"))
	home, _ = filepath.EvalSymlinks(home)
	env := Env{Dir: dir, Home: home}
	bind := func(src, name string) string {
		at := mkdir(t, filepath.Join(dir, name))
		if err := syscall.Mount(src, at, "", syscall.MS_BIND, ""); err != nil {
			t.Fatalf("mount --bind %s %s: %v", src, at, err)
		}
		t.Cleanup(func() {
			if err := syscall.Unmount(at, syscall.MNT_DETACH); err != nil {
				t.Errorf("umount %s: %v", at, err)
			}
		})
		return at
	}
	tests := []struct {
		src, name string
		want      []string
	}{
		{home, "bh", []string{WarnHome, WarnMount}},
		{filepath.Dir(home), "bparent", []string{WarnHomeAncestor, WarnMount}},
		{"/", "broot", []string{WarnFSRoot, WarnMount}},
		{"/etc", "betc", []string{WarnSystem, WarnMount}},
	}
	for _, tt := range tests {
		at := bind(tt.src, tt.name)
		r, err := NewRoot(at)
		if err != nil {
			t.Fatal(err)
		}
		got := codes(Risks(at, r, env))
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s (a bind mount of %s): warnings %v, want %s among them", tt.name, tt.src, got, w)
			}
		}
		// And a record naming it is not served unless those were granted.
		if ok, _ := Admit(Record{Dir: dir, Roots: []Root{r}}, env); len(ok) != 0 {
			t.Errorf("%s: a record naming it was admitted without a grant", tt.name)
		}
	}
	// A folder that holds a mount point carries the warning too.
	proj := mkdir(t, filepath.Join(dir, "proj"))
	bind(home, filepath.Join("proj", "inner"))
	r, _ := NewRoot(proj)
	if got := codes(Risks(proj, r, env)); !slices.Contains(got, WarnMount) {
		t.Errorf("a folder holding a bind mount of home: warnings %v, want %s", got, WarnMount)
	}
}
