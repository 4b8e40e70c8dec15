package e2e

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/logfile"

	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// rssKiB returns the resident set size of pid in KiB (what ps -o rss
// shows), or -1 if it cannot be read.
func rssKiB(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return -1
}

// TestE2EStderrFloodBoundedMemory: a server writing stderr as fast as the
// pipe takes it, for ROOTPICK_FLOOD_SECONDS (default 10; docs/troubleshooting.md's
// figure is for 30), keeps rootpick under 100 MB resident and its log
// small, and the UI answers keys throughout.
//
// Not parallel: the flood keeps both cores of a small machine busy, and
// would slow the other end-to-end tests past their waits.
func TestE2EStderrFloodBoundedMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux: reads the resident size from /proc")
	}
	requireE2E(t)
	secs := 10
	if s, err := strconv.Atoi(os.Getenv("ROOTPICK_FLOOD_SECONDS")); err == nil && s > 0 {
		secs = s
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tree := makeRepos(t, t.TempDir(), "alpha", "beta")
	pidfile := filepath.Join(t.TempDir(), "pids")
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{tree, "--allow-write", filepath.Dir(pidfile), "--",
		"env", "ROOTPICK_FAULT_SERVER=flood", "ROOTPICK_FAULT_PIDFILE=" + pidfile, exe}})
	tt.waitRows(2)
	tt.waitServed()
	pid := tt.rootpickPid()

	maxRSS := 0
	for start, k := time.Now(), 0; time.Since(start) < time.Duration(secs)*time.Second; k++ {
		if r := rssKiB(pid); r > maxRSS {
			maxRSS = r
		}
		if k%10 == 0 { // every 2 s the cursor moves, and must be seen to
			rows := tt.waitRows(2)
			want := 0
			if rows[0].cursor {
				want = 1
			}
			tt.send("Down")
			if want == 0 {
				tt.send("Up")
			}
			tt.waitFor("the cursor to move during the flood", func(s string) bool {
				r := listRows(s)
				return len(r) == 2 && r[want].cursor
			})
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("stderr flood for %ds: max resident size %d KiB", secs, maxRSS)
	if maxRSS <= 0 || maxRSS > 100<<10 {
		t.Errorf("max resident size %d KiB during a %ds stderr flood, want under 100 MiB", maxRSS, secs)
	}
	if st, err := os.Stat(tt.logFile); err != nil || st.Size() > logfile.MaxBytes {
		t.Errorf("log after the flood: %v, %v; want under %d bytes", st, err, logfile.MaxBytes)
	}
	if !strings.Contains(tt.log(), "stderr lines not logged") {
		t.Errorf("the log does not say that flooded stderr lines were not logged")
	}
	tt.quit()
	for _, p := range faultserver.ReadPids(pidfile + ".server") {
		if faultserver.Running(p) {
			t.Errorf("flooding server %d outlived rootpick", p)
		}
	}
}
