package mcpconn

import "testing"

func init() {
	// The tests that are not about enforcement keep what they test: a
	// server notified of a change (not restarted under a new ruleset),
	// writing its pid files and records where the test says. The
	// enforcement tests ask for it (Spec.Enforce, ProxyOptions.Enforce),
	// and TestEnforceDefaultIsOn checks what the default is in rootpick.
	defaultEnforce = EnforceOff
}

// TestEnforceDefaultIsOn: outside the tests an unset Enforce means on.
func TestEnforceDefaultIsOn(t *testing.T) {
	saved := defaultEnforce
	t.Cleanup(func() { defaultEnforce = saved })
	defaultEnforce = EnforceOn // what the package starts with (policy.go)
	if got := EnforceDefault.resolve(); got != EnforceOn {
		t.Errorf("the default resolves to %q, want on", got)
	}
	for _, s := range []string{"on", "off", "require"} {
		if e, err := ParseEnforce(s); err != nil || string(e) != s {
			t.Errorf("ParseEnforce(%q) = %q, %v", s, e, err)
		}
	}
	if _, err := ParseEnforce("yes"); err == nil {
		t.Error("ParseEnforce(yes) was accepted")
	}
}

// TestEnforceOffIsAdvisory: enforce = off never asks the kernel, and says
// why; require without a kernel that can is a final error (see the
// Linux tests for require with one).
func TestEnforceOffIsAdvisory(t *testing.T) {
	abi, why, err := decideEnforcement(EnforceOff, "srv")
	if abi != 0 || why != "enforce is off for this server" || err != nil {
		t.Errorf("off: %d, %q, %v", abi, why, err)
	}
	if kabi, _ := landlockABI(); kabi == 0 {
		_, why, err := decideEnforcement(EnforceRequire, "srv")
		if !isFinal(err) || why == "" {
			t.Errorf("require without Landlock: %q, %v (want a final error)", why, err)
		}
	}
}
