//go:build unix

package prefetch

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that the
// terminal's ctrl+c reaches rootpick, which lets the fetch finish (a
// launcher interrupted mid-install leaves its cache broken), and not the
// launcher.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// interrupt sends SIGINT to the launcher's whole group, as the terminal's
// ctrl+c would have.
func interrupt(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGINT) }
