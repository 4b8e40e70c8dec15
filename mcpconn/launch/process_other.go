//go:build !unix && !windows

package launch

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// On systems with neither Unix process groups nor Windows job objects a server is
// ended by killing its process; processes it started itself are not
// followed.

// BecomeSubreaper returns an error wrapping errors.ErrUnsupported: this
// system has no child subreapers. See the Linux version.
func BecomeSubreaper() error {
	return fmt.Errorf("child subreaper: %w", errors.ErrUnsupported)
}

// setProcAttr leaves the command as it is.
func setProcAttr(*exec.Cmd) {}

// startStamp is 0: process start times are not read here.
func startStamp(int) uint64 { return 0 }

// endTree kills the server process; there is no gentler signal to send.
func endTree(pid int, _ uint64, _ string, _, killGrace time.Duration) {
	p, err := os.FindProcess(pid)
	if err != nil {
		return
	}
	_ = p.Kill()
	_ = killGrace
}

// EndDescendants does nothing and returns 0: descendants are not found on
// this system.
func EndDescendants(time.Duration) int { return 0 }
