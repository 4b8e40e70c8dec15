//go:build !unix

package prefetch

import (
	"os"
	"os/exec"
)

// ownGroup does nothing: Windows sends ctrl+c to the console's processes
// alike.
func ownGroup(*exec.Cmd) {}

// interrupt interrupts the launcher, or kills it where it cannot be
// interrupted (Windows).
func interrupt(p *os.Process) error {
	if err := p.Signal(os.Interrupt); err != nil {
		return p.Kill()
	}
	return nil
}
