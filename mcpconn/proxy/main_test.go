package proxy

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

func init() {
	// The tests that are not about enforcement keep what they test: a
	// child notified of a change (not restarted under a new ruleset),
	// writing its records where the test says. mcpconn/enforcetest asks
	// for enforcement.
	defaultEnforce = launch.EnforceOff
}

// TestMain lets the test binary act as the child a proxy runs: a guard
// (GuardMain), one of this package's servers (faultModes), one of
// faultserver's, or the demo server, when ROOTPICK_TEST_SERVE names it.
func TestMain(m *testing.M) {
	testproc.NoRaceExitSleep()
	launch.GuardMain()
	faultserver.Serve(faultModes)
	testskip.Exit("mcpconn/proxy", m.Run(), "as root", "not root")
}

// faultModes are the servers this package's tests add (asker, mrtr, …).
var faultModes = map[string]func(){
	"demo": func() {
		fmt.Fprintln(os.Stderr, "demo server starting")
		if err := mcpconn.NewDemo(nil, os.Stderr).ServeStdio(context.Background()); err != nil {
			os.Exit(1)
		}
	},
}

// testTiming makes supervision quick enough for tests.
var testTiming = mcpconn.Timing{BackoffMin: 20 * time.Millisecond, BackoffMax: 80 * time.Millisecond,
	StuckAfter: 500 * time.Millisecond, NotFetchingAfter: 300 * time.Millisecond}

// The helpers the tests share with mcpconn's and mcpconn/launch's.
var (
	tempDir = testproc.TempDir
	waitFor = testproc.WaitFor
	must    = testproc.Must
)

// root makes the folder name in the test's temporary folder and returns
// its root: served roots are watched, so they must exist.
func root(t testing.TB, name string) consent.Root {
	return testproc.Root(t, filepath.Join(tempDir(t), name))
}
