package launch

import (
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// TestMain lets the test binary act as the processes the tests start: a
// guard (GuardMain), one of the fault modes below (registered by the test
// files that use them) or one of faultserver's, when ROOTPICK_TEST_SERVE
// names it.
func TestMain(m *testing.M) {
	testproc.NoRaceExitSleep()
	GuardMain()
	faultserver.Serve(faultModes)
	testskip.Exit("mcpconn/launch", m.Run(), "as root", "not root")
}

// faultModes are this package's own process modes (guardhop_linux_test.go,
// outlive_linux_test.go, seccomp_linux_test.go add theirs).
var faultModes = map[string]func(){}

// hangBound is how long a wait that is promised to be short may take in a
// test before it counts as hung: far above the promise, so that a loaded
// machine does not fail the test.
const hangBound = 20 * time.Second

// The helpers the tests share with mcpconn's.
var (
	tempDir = testproc.TempDir
	waitFor = testproc.WaitFor
	must    = testproc.Must
)

// needLandlock skips t where the kernel offers no Landlock (a failure
// under ROOTPICK_TEST_STRICT, as in CI), and returns the kernel's ABI.
func needLandlock(t *testing.T) int {
	t.Helper()
	abi, why := landlockABI()
	if abi == 0 {
		testskip.Skip(t, "landlock", why+": run the enforcement tests on Linux 5.13 or later with Landlock on")
	}
	return abi
}
