//go:build !linux

package launch

import (
	"os/exec"
	"time"
)

// outliveParent does nothing: only Linux ends a server when rootpick dies
// (outlive_linux.go).
func outliveParent(*exec.Cmd, time.Duration) {}
