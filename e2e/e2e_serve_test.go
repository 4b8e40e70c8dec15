package e2e

// End-to-end tests of serving under faults: the built binary in tmux with
// misbehaving servers (mcpconn/faultserver, run from this test binary) and
// the demo server beside them, asserting what the healthy server holds.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// init turns this test binary into a fault server when ROOTPICK_FAULT
// names one; rootpick starts it as a server command.
func init() {
	if name := os.Getenv("ROOTPICK_FAULT"); name != "" {
		if faultserver.Run(name) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "no fault server", name)
		os.Exit(2)
	}
}

// faultCommand is a --server value that runs the fault server name; marker
// appears in its command line so that the test can find its process.
func faultCommand(t *testing.T, name, marker string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(exe+marker, " '\"\\") {
		t.Skip("test binary path needs quoting")
	}
	return "env ROOTPICK_FAULT=" + name + " " + exe + " " + marker
}

// procsWith lists the live processes of this test binary (fault servers)
// whose command line holds s.
func procsWith(s string) []string {
	exe, _ := os.Executable()
	return faultserver.PidsOf(exe, s)
}

// TestE2EWedgedServer: a server that stops reading while it floods
// roots/list must not keep a revocation from the healthy server, is shown
// stuck, and q still ends everything within 3 s. The servers run advisory
// (--enforce off, as everywhere but Linux): only then is a change told by
// list_changed, which is what sets the wedge flooding; enforced, a change
// restarts it instead (mcpconn's revoke-all tests cover that path).
func TestE2EWedgedServer(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("needs /proc to find the server processes")
	}
	bin := rootpickBin(t)
	marker := uniqueMarker("wedge-e2e")
	tree := makeRepos(t, t.TempDir(), "alpha", "beta")
	rec := filepath.Join(t.TempDir(), "roots.jsonl")
	tt := startTUI(t, tuiOptions{width: 200, height: 24,
		args: []string{tree, "--enforce", "off", "--server", faultCommand(t, "wedge", marker), "--", bin, "serve-demo", "--record", rec}})
	rows := tt.waitRows(2)
	first, second := filepath.Join(tree, rows[0].label()), filepath.Join(tree, rows[1].label())

	tt.send("Space", "Enter")
	tt.waitArmed(1, 0)
	tt.send("y")
	waitRec(t, rec, "file://"+first)
	// The wedge now floods roots/list without reading the answers.
	tt.waitFor("the wedge to be declared stuck", func(s string) bool {
		return strings.Contains(statusLine(s), "stuck") || strings.Contains(tt.log(), "server stuck")
	})

	// Swap the first for the second: the demo must get it at once.
	tt.send("Space", "Down", "Space", "Enter")
	tt.waitArmed(1, 1)
	start := time.Now()
	tt.send("y")
	waitRec(t, rec, "file://"+second)
	t.Logf("revocation reached the healthy server %v after y (through tmux)", time.Since(start))

	// Restarted after being stopped; it ignores SIGTERM and end of input.
	tt.waitFor("the wedge running again", func(string) bool { return len(procsWith(marker)) == 1 })
	start = time.Now()
	tt.send("C-q")
	if code := tt.waitExit(); code != 0 {
		t.Fatalf("exit code %d after q", code)
	}
	d := time.Since(start)
	t.Logf("q to exit with a wedged server that ignores SIGTERM: %v", d)
	if d > loadBound(t, 3*time.Second) {
		t.Errorf("q took %v to end rootpick with a wedged server", d)
	}
	if pids := procsWith(marker); len(pids) > 0 {
		t.Errorf("the wedged server %v outlived rootpick", pids)
	}
	if pids := serveDemoPids(bin, rec); len(pids) > 0 {
		t.Errorf("serve-demo %v outlived rootpick", pids)
	}
}

// TestE2EWithdrawnFolder: a shared folder that is deleted, renamed,
// swapped for a symlink to /etc or made unreadable is withdrawn from the
// server within a second, and the screen says so.
func TestE2EWithdrawnFolder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(dir string) error
		why    string // "" accepts any reason (two steps: either may be seen first)
	}{
		{"deleted", os.RemoveAll, "deleted or renamed"},
		{"renamed", func(dir string) error { return os.Rename(dir, dir+".old") }, "deleted or renamed"},
		{"symlink", func(dir string) error {
			if err := os.Rename(dir, dir+".old"); err != nil {
				return err
			}
			return os.Symlink("/etc", dir)
		}, ""},
		{"unreadable", func(dir string) error { return os.Chmod(dir, 0) }, "no longer readable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			requireE2E(t)
			if tc.name == "unreadable" {
				testskip.SkipAsRoot(t)
			}
			bin := rootpickBin(t)
			tree := makeRepos(t, t.TempDir(), "alpha", "beta")
			rec := filepath.Join(t.TempDir(), "roots.jsonl")
			tt := startTUI(t, tuiOptions{width: 160, height: 24,
				args: []string{tree, "--allow-write", filepath.Dir(rec), "--", bin, "serve-demo", "--record", rec}})
			rows := tt.waitRows(2)
			first, second := filepath.Join(tree, rows[0].label()), filepath.Join(tree, rows[1].label())
			t.Cleanup(func() { _ = os.Chmod(first, 0o755) })
			tt.send("C-a", "Enter")
			tt.waitArmed(2, 0)
			tt.send("y")
			tt.waitStatus("2 roots exposed", "verified")

			start := time.Now()
			if err := tc.change(first); err != nil {
				t.Fatal(err)
			}
			waitRec(t, rec, "file://"+second)
			took := time.Since(start)
			t.Logf("%s folder withdrawn from the server in %v", tc.name, took)
			if took > loadBound(t, time.Second) {
				t.Errorf("withdrawal took %v", took)
			}
			tt.waitStatus("1 root exposed", "Withdrawn "+rows[0].label()+": "+tc.why)
			tt.waitStatus("1 root exposed", "verified")
			tt.quit()
		})
	}
}

// TestE2EKilledServerComesBack: the server rootpick started is killed
// again and again; each time the status says when it restarts, R restarts
// it at once, and it is served the consented set again.
func TestE2EKilledServerComesBack(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	bin := rootpickBin(t)
	tree := makeRepos(t, t.TempDir(), "alpha")
	rec := filepath.Join(t.TempDir(), "roots.jsonl")
	tt := startTUI(t, tuiOptions{width: 200, height: 24,
		args: []string{tree, "--allow-write", filepath.Dir(rec), "--", bin, "serve-demo", "--record", rec}})
	tt.waitRows(1)
	alpha := filepath.Join(tree, "alpha")
	tt.send("Space", "Enter")
	tt.waitArmed(1, 0)
	tt.send("y")
	tt.waitStatus("1 root exposed", "verified")
	for i := range 5 {
		pids := serveDemoPids(bin, rec)
		if len(pids) != 1 {
			t.Fatalf("kill %d: serve-demo processes %v", i, pids)
		}
		before := len(readRec(t, rec))
		var pid int
		if _, err := fmt.Sscan(pids[0], &pid); err != nil {
			t.Fatal(err)
		}
		if err := testproc.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// The backoff doubles with each kill (0.5 s, 1 s, 2 s, 4 s, 8 s): from
		// the fourth kill on, only R can bring it back within 2 s.
		attempt := fmt.Sprintf("(attempt %d,", i+1)
		if i >= 3 {
			tt.waitStatus("restarting in", attempt)
		} else {
			tt.waitFor("the restart announced or done", func(s string) bool {
				return strings.Contains(statusLine(s), attempt) || len(readRec(t, rec)) > before
			})
		}
		tt.send("C-t")
		start := time.Now()
		bound := loadBound(t, 2*time.Second)
		deadline := start.Add(bound)
		for {
			lines := readRec(t, rec)
			if len(lines) > before && slices.Equal(lines[len(lines)-1].uris(), []string{"file://" + alpha}) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("kill %d: not served alpha again within %v of R; record %+v", i, bound, lines)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("kill %d: served again %v after R", i, time.Since(start))
		tt.waitStatus("1 root exposed", "verified")
	}
	tt.quit()
}

// TestE2ENotFetchingAndInitTimeout: a server that never asks roots/list is
// shown as not fetching, with a hint; one that never answers initialize
// fails after --init-timeout and waits to be restarted; R retries at once.
func TestE2ENotFetchingAndInitTimeout(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "alpha")
	marker := uniqueMarker("nofetch-e2e")
	tt := startTUI(t, tuiOptions{width: 250, height: 24,
		args: []string{tree, "--init-timeout", "700ms", "--server", faultCommand(t, "nofetch", marker),
			"--", "sh", "-c", "echo warming up >&2; exec sleep 30"}})
	tt.waitRows(1)
	tt.send("Space", "Enter")
	tt.waitArmed(1, 0)
	tt.send("y")
	// Named as it was given (--server: the program), not as it calls itself.
	tt.waitStatus("e2e.test not fetching", "{roots}")
	tt.waitStatus("restarting in", "no answer to initialize within 700ms (stderr: warming up)")
	// Once the backoff has grown to 4 s, R restarts it at once: the next
	// attempt comes well before the wait would have ended.
	var attempt, secs int
	tt.waitFor("a restart 3 s or more away", func(s string) bool {
		i := strings.Index(statusLine(s), "restarting in ")
		if i < 0 {
			return false
		}
		_, err := fmt.Sscanf(statusLine(s)[i:], "restarting in %ds (attempt %d", &secs, &attempt)
		return err == nil && secs >= 3
	})
	start := time.Now()
	tt.send("C-t")
	tt.waitStatus(fmt.Sprintf("attempt %d,", attempt+1))
	// Past the announced wait the attempt would have come without R.
	if d := time.Since(start); d > min(loadBound(t, 2500*time.Millisecond), time.Duration(secs)*time.Second) {
		t.Errorf("after R the next attempt came %v later (the wait announced was %d s)", d, secs)
	}
	tt.quit()
}

// shareFirstRow shares the first of two rows with server, a server
// rootpick can ask what it holds: ready before, verified after.
func (tt *tui) shareFirstRow(server string) {
	tt.t.Helper()
	tt.waitRows(2)
	tt.waitStatus("nothing shared", server+" ready")
	tt.send("Space", "Enter")
	tt.waitArmed(1, 0)
	tt.send("y")
	tt.waitStatus("1 root exposed", server+" verified")
}

// TestE2ERevokeAllOnServerFilesystem: unchecking everything and confirming
// really empties @modelcontextprotocol/server-filesystem, which ignores an
// empty roots list: rootpick restarts it and asks it what it allows.
func TestE2ERevokeAllOnServerFilesystem(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	js, err := filepath.Abs(filepath.Join("..", ".ci", "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(js); err != nil {
		testskip.Skip(t, "npm servers", "not installed: npm ci --prefix .ci, or bash .ci/run")
	}
	tree := makeRepos(t, t.TempDir(), "alpha", "beta")
	tt := startTUI(t, tuiOptions{width: 200, height: 24, args: []string{tree, "--", "node", js}})
	tt.shareFirstRow("server-filesystem")
	tt.send("C-d")
	tt.waitArmed(0, 1)
	tt.send("y")
	// ready means: nothing shared, and asked, list_allowed_directories lists nothing.
	tt.waitStatus("nothing shared", "server-filesystem ready")
	// Advisory, the revocation alone restarts it ("every root was
	// revoked"); enforced (Linux), every confirmed change does, so the
	// consent and the revocation make two restarts under a new ruleset.
	log := tt.log()
	advisory := strings.Contains(log, "every root was revoked")
	enforced := strings.Contains(log, `"roots set" count=0`) && strings.Count(log, "restarting it under the new ruleset") >= 2
	if !advisory && !enforced {
		t.Errorf("the log does not say the server was restarted for the revocation:\n%s", log)
	}
	tt.quit()
}

// uniqueMarker is a word for a server's command line that no other process
// on the machine holds, even one left by an earlier run.
func uniqueMarker(kind string) string {
	return fmt.Sprintf("%s-%d-%d", kind, os.Getpid(), time.Now().UnixNano())
}
