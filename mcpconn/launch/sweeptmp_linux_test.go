package launch

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSweepServerTmps: the temporary folders of servers whose rootpick is
// gone (killed with SIGKILL: nothing removed them) are removed by the next
// rootpick, whatever the server left in them; a live rootpick's, a link
// named like one, another user's name pattern and other folders stay.
func TestSweepServerTmps(t *testing.T) {
	dir := tempDir(t)
	self := os.Getpid()
	gone := exec.Command("true")
	must(t, gone.Run())
	dead := gone.Process.Pid
	ns := pidNamespace()
	if ns == "0" {
		t.Skip("no /proc/self/ns/pid: nothing is swept")
	}
	name := func(pid int, stamp uint64) string {
		return fmt.Sprintf("%s%s-%d-%d-123", tmpPrefix, ns, pid, stamp)
	}
	live := filepath.Join(dir, name(self, startStamp(self)))
	stale := filepath.Join(dir, name(dead, 42))
	reused := filepath.Join(dir, name(self, startStamp(self)+1)) // this pid, another process's start
	other := filepath.Join(dir, tmpPrefix+"old")
	// A rootpick in another PID namespace sharing /tmp (a container,
	// unshare -p): its pid means nothing here, so its folder stays.
	elsewhere := filepath.Join(dir, fmt.Sprintf("%s%s1-%d-42-123", tmpPrefix, ns, dead))
	victim := filepath.Join(dir, "victim")
	link := filepath.Join(dir, name(dead, 43))
	for _, d := range []string{live, stale, reused, other, elsewhere, victim, filepath.Join(stale, "ro", "deep")} {
		must(t, os.MkdirAll(d, 0o700))
	}
	must(t, os.WriteFile(filepath.Join(stale, "ro", "deep", "f"), []byte("x"), 0o400))
	must(t, os.Chmod(filepath.Join(stale, "ro"), 0o500)) // the server made it unwritable
	must(t, os.WriteFile(filepath.Join(victim, "keep"), []byte("x"), 0o600))
	must(t, os.Symlink(victim, link))

	if n := sweepServerTmps(dir); n != 2 {
		t.Errorf("swept %d folders, want 2 (the gone rootpick's, the reused pid's)", n)
	}
	for _, p := range []string{stale, reused} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there: %v", p, err)
		}
	}
	for _, p := range []string{live, other, elsewhere, link, filepath.Join(victim, "keep")} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}
