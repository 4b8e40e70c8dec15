package enforcetest

import (
	"context"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// TestMain lets the test binary act as the servers the tests start: a
// guard (GuardMain, unless ROOTPICK_TEST_NO_GUARD is set: a program that
// never calls it starts its servers unguarded), one of this package's
// servers (faultModes: snoop and the others), one of faultserver's, or
// the demo server, when ROOTPICK_TEST_SERVE names it.
func TestMain(m *testing.M) {
	testproc.NoRaceExitSleep()
	if os.Getenv("ROOTPICK_TEST_NO_GUARD") == "" {
		launch.GuardMain()
	}
	faultserver.Serve(faultModes)
	testskip.Exit("mcpconn/enforcetest", m.Run(), "as root", "not root")
}

// faultModes are the servers this package's tests add.
var faultModes = map[string]func(){
	// setsid-deaf starts a grandchild in a new session that ignores
	// SIGTERM, SIGHUP, SIGINT and end of input, and itself ignores them
	// and stays after the end of its input: only a signal the kernel
	// sends on its parent's death (PR_SET_PDEATHSIG), or a kill, ends it.
	"setsid-deaf": func() {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		faultserver.SpawnSleeper()
		serveDemo()
		select {}
	},
	"demo": serveDemo,
}

func serveDemo() {
	if err := mcpconn.NewDemo(nil, nil).ServeStdio(context.Background()); err != nil {
		os.Exit(1)
	}
}

// testTiming makes supervision quick enough for tests.
var testTiming = mcpconn.Timing{BackoffMin: 20 * time.Millisecond, BackoffMax: 80 * time.Millisecond,
	StuckAfter: 500 * time.Millisecond, NotFetchingAfter: 300 * time.Millisecond}

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

// collect gathers h's events from now on.
func collect(h *mcpconn.Hub) func() []mcpconn.Event { return testproc.Collect(h.Events()) }

// has reports whether evs hold an event of kind from server.
func has(evs []mcpconn.Event, kind mcpconn.EventKind, server string) bool {
	return slices.ContainsFunc(evs, func(e mcpconn.Event) bool { return e.Kind == kind && e.Server == server })
}
