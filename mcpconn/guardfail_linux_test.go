//go:build linux

package mcpconn

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestGuardFailsClosed: a guard that cannot apply its server's ruleset
// never starts the server: it exits 126, says why on its report (which
// ends rootpick's wait for the start), and the server's program never
// ran. Each way a ruleset fails: a policy it cannot read, a rule the
// kernel refuses (a path on the kernel's internal name-space file system,
// which Landlock does not take rules on).
func TestGuardFailsClosed(t *testing.T) {
	needLandlock(t)
	if !guardEnabled.Load() {
		t.Fatal("guards are not enabled (GuardMain in TestMain)")
	}
	for _, tc := range []struct {
		name   string
		policy Policy
		spoil  func(t *testing.T, cmd *exec.Cmd) // after guard(): make the policy unreadable
		why    string
	}{
		{name: "unreadable policy", spoil: func(t *testing.T, cmd *exec.Cmd) {
			fd, err := unix.MemfdCreate("spoilt-policy", unix.MFD_CLOEXEC)
			must(t, err)
			f := os.NewFile(uintptr(fd), "spoilt policy")
			_, err = f.WriteString("{not json")
			must(t, err)
			_, err = f.Seek(0, 0)
			must(t, err)
			t.Cleanup(func() { f.Close() })
			cmd.ExtraFiles[1] = f
		}, why: "reading the policy"},
		{name: "a rule the kernel refuses", policy: Policy{Paths: []PolicyPath{{Path: "/proc/self/ns/net", Access: AccessRead, Why: WhySystem}}},
			why: "landlock_add_rule /proc/self/ns/net"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			marker := filepath.Join(tempDir(t), "ran")
			cmd := exec.Command("sh", "-c", "touch "+marker)
			setProcAttr(cmd)
			report, err := guard(cmd, &tc.policy)
			must(t, err)
			if tc.spoil != nil {
				tc.spoil(t, cmd)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err = cmd.Start()
			report.afterStart(err == nil)
			must(t, err)
			serr := report.startError(10 * time.Second)
			_ = cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 126 {
				t.Errorf("the guard exited %d; want 126", code)
			}
			if serr == nil || !strings.Contains(serr.Error(), tc.why) {
				t.Errorf("the report's start error: %v; want one naming %q", serr, tc.why)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("the server ran although its ruleset could not be applied (stderr %q)", stderr.String())
			}
			if !strings.Contains(stderr.String(), "not starting the server") {
				t.Errorf("the guard's stderr says %q; want why it did not start the server", stderr.String())
			}
		})
	}
}
