//go:build linux

package procinfo

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// TestIdentity: this process has a namespace and a start time; a process
// that started later has a later one; a gone pid has none.
func TestIdentity(t *testing.T) {
	if PIDNamespace() == "" {
		t.Fatal("no PID namespace read from /proc/self/ns/pid")
	}
	self, _ := strconv.ParseUint(StartTime(os.Getpid()), 10, 64)
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	later, _ := strconv.ParseUint(StartTime(cmd.Process.Pid), 10, 64)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if self == 0 || later < self {
		t.Errorf("start times: this process %d, one started after it %d", self, later)
	}
	if got := StartTime(cmd.Process.Pid); got != "" {
		t.Errorf("a gone process has start time %q", got)
	}
}
