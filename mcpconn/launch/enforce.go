package launch

import (
	"fmt"
	"os"
	"path/filepath"
)

// Enforcement says whether the kernel enforces what a stdio server may
// open (Landlock, on Linux), or the server runs advisory and why.
type Enforcement struct {
	// Enforced: the server runs under a Landlock ruleset made of Policy.
	Enforced bool `json:"enforced"`
	// ABI is the Landlock ABI of the ruleset (enforced only).
	ABI int `json:"abi,omitempty"`
	// Advisory says why the server is not enforced ("enforce is off for
	// this server", "Landlock is Linux-only…").
	Advisory string `json:"advisory,omitempty"`
	// Policy is what the server may open (enforced only).
	Policy *Policy `json:"policy,omitempty"`
}

// String says it in a few words: "enforced (Landlock ABI 7)" or
// "advisory: enforce is off for this server".
func (e Enforcement) String() string {
	if e.Enforced {
		return fmt.Sprintf("enforced (Landlock ABI %d)", e.ABI)
	}
	if e.Advisory == "" {
		return "advisory"
	}
	return "advisory: " + e.Advisory
}

// Mode is "enforced" or "advisory".
func (e Enforcement) Mode() string {
	if e.Enforced {
		return "enforced"
	}
	return "advisory"
}

// decideEnforcement returns the ABI a server started with setting would be
// enforced with, or 0 and why it would run advisory; with
// EnforceRequire, that is an error instead (final: starting again cannot
// help until the setting, the kernel or the program changes).
func decideEnforcement(setting Enforce, program string) (abi int, advisory string, err error) {
	s := setting.Resolve()
	if s == EnforceOff {
		return 0, "enforce is off for this server", nil
	}
	abi, why := landlockABI()
	if abi > 0 && !guardEnabled.Load() {
		abi, why = 0, "no guard process to apply the ruleset (the program did not call launch.GuardMain)"
	}
	if abi == 0 && s == EnforceRequire {
		reason := "not started: enforce = require, and " + why
		return 0, why, &FinalError{msg: program + ": " + reason, Reason: reason}
	}
	return min(abi, landlockMaxABI), why, nil
}

// removeTmp removes a server's private temporary folder and all in it,
// after its processes ended. Folders the server made unwritable are made
// writable first; a symlink is removed, never followed.
func removeTmp(dir string) {
	if dir == "" {
		return
	}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}

// makeCreates makes the missing folders a policy asks for (a launcher's
// cache), 0700, so that the kernel has a folder to grant.
func makeCreates(p Policy) {
	for _, pp := range p.Paths {
		if pp.Create {
			_ = os.MkdirAll(pp.Path, 0o700)
		}
	}
}

// landlockError is why a guard could not enforce its server's ruleset
// (and did not start it).
type landlockError string

func (e landlockError) Error() string { return string(e) }
