//go:build !linux

package launch

import (
	"errors"
	"runtime"
)

// landlockABI returns 0: Landlock is a Linux security module. Servers run
// advisory here, and say so.
func landlockABI() (int, string) {
	return 0, "Landlock is Linux-only; on " + runtime.GOOS + " rootpick cannot make the kernel enforce the consent"
}

// landlockMaxABI is the newest Landlock ABI rootpick knows (see the Linux
// version).
const landlockMaxABI = 7

// newServerTmp is never called here: no server is enforced.
func newServerTmp() (string, error) {
	return "", errors.New("launch: no private temporary folders without Landlock")
}
