package mcpconn

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// The figures rootpick promises (a quit within 3 s, a withdrawal within
// 1 s; revoke-all is in revokeall_test.go) are measured here rather than
// checked by the tests, which only catch a hang (hangBound): a loaded
// machine must not fail a test, and a figure is worth reporting with the
// command that gives it. docs/performance.md has the results.

// reportSpread prints what each round took and reports the median and the
// worst.
func reportSpread(b *testing.B, what string, took []time.Duration) {
	b.Helper()
	if len(took) == 0 {
		return
	}
	rounded := make([]time.Duration, len(took))
	for i, d := range took {
		rounded[i] = d.Round(time.Millisecond)
	}
	fmt.Printf("%s: load %s; %s per round: %v\n", b.Name(), loadAverage(), what, rounded)
	sorted := slices.Clone(took)
	slices.Sort(sorted)
	b.ReportMetric(float64(sorted[len(sorted)-1].Milliseconds()), "worst-ms")
	b.ReportMetric(float64(sorted[len(sorted)/2].Milliseconds()), "median-ms")
}

// BenchmarkClose measures Hub.Close, what a quit waits for, with the
// servers that make it slowest: one wedged (it stopped reading its input
// and ignores SIGTERM and the end of its input) and one whose grandchild
// left its session and ignores SIGTERM. Close returns once every process
// of theirs is gone; the promise is 3 s.
//
//	go test -run XXX -bench BenchmarkClose -benchtime 5x ./mcpconn/
func BenchmarkClose(b *testing.B) {
	var took []time.Duration
	for b.Loop() {
		b.StopTimer()
		marker := testproc.UniqueMarker("bench-close")
		pidfile := filepath.Join(b.TempDir(), "pids")
		b.Setenv("ROOTPICK_TEST_PIDFILE", pidfile)
		hub := NewHub(Options{Timing: Timing{StuckAfter: time.Minute}})
		go func() {
			for range hub.Events() {
			}
		}()
		ctx := context.Background()
		if err := hub.Connect(ctx, Spec{Name: "wedge", Command: testproc.SelfServer(b, "wedge", marker)}); err != nil {
			b.Fatal(err)
		}
		if err := hub.Connect(ctx, Spec{Name: "setsid", Command: testproc.SelfServer(b, "setsid", marker)}); err != nil {
			b.Fatal(err)
		}
		hub.SetRoots([]consent.Root{root(b, "a")}) // the wedge wedges at its list_changed
		waitFor(b, "the wedge's writes to block", func() bool {
			c := hub.server("wedge").current()
			return c != nil && c.wc.blocked() > 0
		})
		waitFor(b, "the setsid grandchild", func() bool { return len(faultserver.ReadPids(pidfile)) == 1 })
		b.StartTimer()
		start := time.Now()
		hub.Close()
		took = append(took, time.Since(start))
		b.StopTimer()
		if left := faultserver.ServerPids(marker); len(left) > 0 {
			b.Fatalf("still running after Close: %v", left)
		}
		b.StartTimer()
	}
	reportSpread(b, "Close took", took)
}

// BenchmarkWithdraw measures how soon a served folder that is deleted is
// taken back from a server: from the removal to the server (the
// built-in demo, which fetches at each list_changed) holding only the
// other folder. The promise is 1 s.
//
//	go test -run XXX -bench BenchmarkWithdraw -benchtime 10x ./mcpconn/
func BenchmarkWithdraw(b *testing.B) {
	demo := NewDemo(nil, nil)
	hub := NewHub(Options{})
	defer hub.Close()
	go func() {
		for range hub.Events() {
		}
	}()
	if err := hub.Connect(context.Background(), Spec{Name: "demo", Demo: demo}); err != nil {
		b.Fatal(err)
	}
	kept := root(b, "kept")
	var took []time.Duration
	for n := 0; b.Loop(); n++ {
		b.StopTimer()
		gone := root(b, fmt.Sprintf("gone%d", n))
		hub.SetRoots([]consent.Root{gone, kept})
		waitFor(b, "both held", func() bool { return len(demo.Roots()) == 2 })
		b.StartTimer()
		start := time.Now()
		if err := os.RemoveAll(gone.Path); err != nil {
			b.Fatal(err)
		}
		waitFor(b, "the server to hold only kept", func() bool {
			r := demo.Roots()
			return len(r) == 1 && r[0].URI == kept.URI
		})
		took = append(took, time.Since(start))
	}
	reportSpread(b, "withdrawn after", took)
}
