package launch

import (
	"strings"
	"testing"
)

// TestWouldEnforce: off is advisory everywhere, and says so; on is
// enforced exactly when the kernel offers Landlock and a guard is there.
func TestWouldEnforce(t *testing.T) {
	if e := WouldEnforce(EnforceOff); e.Enforced || !strings.Contains(e.String(), "advisory: enforce is off") {
		t.Errorf("off: %v", e)
	}
	abi, _ := landlockABI()
	e := WouldEnforce(EnforceOn)
	if want := abi > 0 && guardEnabled.Load(); e.Enforced != want {
		t.Errorf("on, with Landlock ABI %d and guard %v: %v", abi, guardEnabled.Load(), e)
	}
	if !e.Enforced && e.Advisory == "" {
		t.Errorf("advisory without a reason: %+v", e)
	}
}
