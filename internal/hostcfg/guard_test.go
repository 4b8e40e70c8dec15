package hostcfg

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
)

// guarded runs fn, and ends the test binary at once when it takes longer
// than 5 s (scaled by the machine's load: a 64 MB file read under -race
// at load 15 took longer) or allocates more than 256 MB: code that reads
// a device or waits on a FIFO would otherwise take the machine's memory
// or hang every test after it.
func guarded(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	go func() {
		defer close(done)
		fn()
	}()
	limit := testproc.LoadScaled(5 * time.Second)
	deadline := time.After(limit)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-deadline:
			fmt.Fprintf(os.Stderr, "FAIL %s: %s still running after %v (waiting on a FIFO?)\n", t.Name(), what, limit)
			os.Exit(1)
		case <-tick.C:
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.TotalAlloc-before.TotalAlloc > 256<<20 {
				fmt.Fprintf(os.Stderr, "FAIL %s: %s allocated over 256 MB (reading a device?)\n", t.Name(), what)
				os.Exit(1)
			}
		}
	}
}

// loadGuarded is Load(f), guarded.
func loadGuarded(t *testing.T, f File) (c *Config, err error) {
	t.Helper()
	guarded(t, "Load("+f.Path+")", func() { c, err = Load(f) })
	return c, err
}

// refusedBecause checks that err is a RefusedError naming path whose text
// holds why.
func refusedBecause(t *testing.T, err error, path, why string) {
	t.Helper()
	var r *RefusedError
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, why) || strings.Contains(msg, "\n") {
		t.Errorf("refusal %q: want one line naming %s and saying %q", msg, path, why)
	}
}
