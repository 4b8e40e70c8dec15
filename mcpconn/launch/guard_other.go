//go:build !linux

package launch

import (
	"os/exec"
	"time"
)

// GuardMain must be called first in main, before the command line is
// parsed, by a program that launches stdio servers. On Linux it makes the
// program able to act as a server's guard (see guard_linux.go); here it
// only returns: Windows ends a server's tree through its job object, and
// other systems have neither PR_SET_PDEATHSIG nor child subreapers.
func GuardMain() {}

// guard leaves cmd as it is: there are no guards here, and no policy is
// ever enforced (decideEnforcement says why).
func guard(*exec.Cmd, *Policy) (*guardReport, error) { return nil, nil }

// guardReport is the report of a guard, which does not exist here: every
// method of a nil one says nothing.
type guardReport struct{}

func (*guardReport) afterStart(bool)                {}
func (*guardReport) startError(time.Duration) error { return nil }
func (*guardReport) serverEnd(time.Duration) string { return "" }
func (*guardReport) whenServerEnds(func(string))    {}

// endGuard does nothing: there are no guards here.
func endGuard(int, uint64, time.Duration) {}
