package e2e

// End-to-end: whatever way rootpick ends, no process a server started
// survives it — including a grandchild that left the server's process group
// with setsid() and ignores SIGTERM and end of input, and an orphaned one
// with a cleared environment that only the subreaper can catch.

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// rootpickPid finds the running rootpick of tt: argv[0] is the binary and
// its --log is tt's log.
func (tt *tui) rootpickPid() int {
	tt.t.Helper()
	bin := rootpickBin(tt.t)
	pids := faultserver.Find(func(argv []string) bool {
		// "--log LOG" comes first, or after a command (tuiOptions.command).
		i := slices.Index(argv, "--log")
		return argv[0] == bin && i >= 1 && i+1 < len(argv) && argv[i+1] == tt.logFile
	})
	if len(pids) != 1 {
		tt.t.Fatalf("rootpick's process: found %v, want one", pids)
	}
	pid, _ := strconv.Atoi(pids[0])
	return pid
}

// waitServed waits until the server has fetched its roots: the status
// says synced, or verified when rootpick could ask the server what it
// holds, or ready when nothing is shared.
func (tt *tui) waitServed() {
	tt.t.Helper()
	tt.waitFor("the server to be synced, verified or ready", func(s string) bool {
		l := statusLine(s)
		return strings.Contains(l, "synced") || strings.Contains(l, "verified") || strings.Contains(l, " ready")
	})
}

func TestE2ENoOrphans(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux: /proc and a child subreaper")
	}
	requireE2E(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		quit func(tt *tui)
		code int
	}{
		{"q", func(tt *tui) { tt.send("C-q") }, 0},
		{"ctrl+c", func(tt *tui) { tt.send("C-c") }, 130},
		{"SIGTERM", func(tt *tui) { _ = testproc.Kill(tt.rootpickPid(), syscall.SIGTERM) }, 128 + 15},
		{"SIGHUP", func(tt *tui) { _ = testproc.Kill(tt.rootpickPid(), syscall.SIGHUP) }, 128 + 1},
		// rootpick ends nothing itself: the servers' guards do.
		{"SIGKILL", func(tt *tui) { _ = testproc.Kill(tt.rootpickPid(), syscall.SIGKILL) }, 128 + 9},
		{"panic", func(tt *tui) { tt.send("F12") }, 2},
		{"goroutine panic", func(tt *tui) { tt.send("F11") }, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tree := makeRepos(t, t.TempDir(), "alpha")
			pidfile := filepath.Join(t.TempDir(), "pids")
			t.Cleanup(func() { // never leave a deaf sleeper for an hour
				for _, p := range append(faultserver.ReadPids(pidfile), faultserver.ReadPids(pidfile+".server")...) {
					if faultserver.Running(p) {
						_ = testproc.Kill(p, syscall.SIGKILL)
					}
				}
			})
			tt := newTUI(t)
			if strings.HasSuffix(tc.name, "panic") {
				tt.env = append(tt.env, "ROOTPICK_TEST_PANIC=1")
			}
			tt.start(tuiOptions{width: 100, height: 24, args: []string{tree, "--allow-write", filepath.Dir(pidfile), "--",
				"env", "ROOTPICK_FAULT_SERVER=setsid", "ROOTPICK_FAULT_PIDFILE=" + pidfile, exe}})
			tt.waitRows(1)
			tt.waitServed()
			var pids []int
			deadline := time.Now().Add(e2eWait)
			for {
				pids = append(faultserver.ReadPids(pidfile), faultserver.ReadPids(pidfile+".server")...)
				live := 0
				for _, p := range pids {
					if faultserver.Running(p) {
						live++
					}
				}
				if len(pids) == 3 && live == 3 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("want the server and its 2 deaf descendants running, have %v (%d running)", pids, live)
				}
				time.Sleep(20 * time.Millisecond)
			}

			start := time.Now()
			tc.quit(tt)
			if code := tt.waitExit(); code != tc.code {
				t.Errorf("exit code %d after %s, want %d", code, tc.name, tc.code)
			}
			took := time.Since(start)
			if tc.name == "panic" {
				// Bubble Tea restored the terminal and printed the panic.
				s, _ := tt.tmux("capture-pane", "-p", "-S", "-", "-t", tt.session) // with the scrollback
				if !strings.Contains(s, "Caught panic") || !strings.Contains(s, "ROOTPICK_TEST_PANIC") {
					t.Errorf("the panic is not on the restored terminal:\n%s", s)
				}
			}
			// However it ended, the terminal is back as it was: main
			// screen, no mouse reporting. (tmux's cursor flag is not read:
			// it reads 0 or 1 after the same clean q.) After SIGKILL
			// nothing can restore it.
			flags, _ := tt.tmux("display-message", "-p", "-t", tt.session, "#{alternate_on} #{mouse_any_flag}#{mouse_button_flag}#{mouse_sgr_flag}")
			if got := strings.TrimSpace(flags); got != "0 000" && tc.name != "SIGKILL" {
				t.Errorf("after %s the terminal is left with alternate screen and mouse flags %q, want \"0 000\"", tc.name, got)
			}
			if tc.name == "SIGKILL" {
				// rootpick is gone at once; the guard ends the deaf
				// processes after their grace for SIGTERM.
				for deadline := time.Now().Add(e2eWait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
					if !slices.ContainsFunc(pids, faultserver.Running) {
						break
					}
				}
				took = time.Since(start)
			}
			if strings.HasSuffix(tc.name, "panic") {
				if s, _ := tt.tmux("capture-pane", "-p", "-S", "-", "-t", tt.session); !strings.Contains(s, "ROOTPICK_TEST_PANIC") {
					t.Errorf("the panic is not on the terminal:\n%s", s)
				}
			}
			for _, p := range pids {
				if faultserver.Running(p) {
					t.Errorf("process %d outlived rootpick (quit by %s)", p, tc.name)
				}
			}
			if bound := loadBound(t, 3*time.Second); took > bound {
				t.Errorf("rootpick took %v to exit after %s, want < %v", took, tc.name, bound)
			}
			t.Logf("%s: exited in %v, %d processes ended", tc.name, took.Round(10*time.Millisecond), len(pids))
		})
	}
}
