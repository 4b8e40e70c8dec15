package e2e

// End-to-end tests of rootpick demo: the built binary in tmux, on the
// sample workspace it makes in a temporary folder, from the first screen
// to a root served, and the folder gone however the program ends.

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/vcsdetect"
)

// startDemo starts rootpick demo in tmux with args after its own; its
// TMPDIR is a folder of the test's, returned, so that the sample
// workspace can be found there and seen to be gone.
func startDemo(t *testing.T, env []string, args ...string) (*tui, string) {
	t.Helper()
	tt := newTUI(t)
	tmp := filepath.Join(tt.dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	tt.env = append(append(tt.env, "TMPDIR="+tmp), env...)
	tt.start(tuiOptions{width: 160, height: 50, command: []string{"demo"}, args: args})
	return tt, tmp
}

// demoWorkspace returns the sample workspace the demo made under tmp,
// canonical, and the repositories a scan finds in it.
func demoWorkspace(t *testing.T, tmp string) (string, []vcsdetect.Repo) {
	t.Helper()
	made, err := filepath.Glob(filepath.Join(tmp, "rootpick-demo-*", "src"))
	if err != nil || len(made) != 1 {
		t.Fatalf("want one sample workspace in %s, found %q (%v)", tmp, made, err)
	}
	ws, err := filepath.EvalSymlinks(made[0])
	if err != nil {
		t.Fatal(err)
	}
	var repos []vcsdetect.Repo
	if _, err := vcsdetect.Scan(context.Background(), ws, vcsdetect.Options{}, func(r vcsdetect.Repo) { repos = append(repos, r) }); err != nil {
		t.Fatal(err)
	}
	return ws, repos
}

// checkRemoved fails unless tmp is empty: the demo took its workspace,
// consent and log away with it.
func checkRemoved(t *testing.T, tmp string) {
	t.Helper()
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("the demo left %d entries in its TMPDIR (%s, …)", len(left), left[0].Name())
	}
}

// checkPrinted fails unless what rootpick printed after it ended holds
// line. (It is in the pane's history: the screen is cleared as the pane
// dies.)
func checkPrinted(t *testing.T, tt *tui, line string) {
	t.Helper()
	s, err := tt.tmux("capture-pane", "-p", "-S", "-", "-t", tt.session)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s, line) {
		t.Errorf("rootpick did not print %q; the pane's history:\n%s", line, strings.TrimSpace(s))
	}
}

// TestE2EDemo: rootpick demo from start to y. The sample workspace's rows
// stream in, space checks the highlighted one, enter opens the dialog, y
// serves it, and the server holds exactly that root; quitting removes the
// workspace and says so.
func TestE2EDemo(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	bin := rootpickBin(t)
	for _, server := range []string{"built-in", "serve-demo"} {
		t.Run(server, func(t *testing.T) {
			t.Parallel()
			var args []string
			rec := filepath.Join(t.TempDir(), "roots.jsonl")
			if server == "serve-demo" {
				// The same demo server in a process of its own, which can
				// record what it is given.
				args = []string{"--allow-write", filepath.Dir(rec), "--", bin, "serve-demo", "--record", rec}
			}
			tt, tmp := startDemo(t, nil, args...)
			tt.waitText("rootpick")
			ws, repos := demoWorkspace(t, tmp)
			rows := tt.waitRows(len(repos))
			if !rows[0].cursor || strings.Contains(rows[0].text, "…") {
				t.Fatalf("the highlight is not on the first row, or its name is cut:\n%s", describeRows(rows))
			}
			picked := filepath.Join(ws, filepath.FromSlash(rows[0].label()))
			if st, err := os.Stat(picked); err != nil || !st.IsDir() {
				t.Fatalf("row %q is no folder of the workspace: %v", rows[0].label(), err)
			}

			if server == "built-in" {
				// Its own process now: the dialog names what it can open
				// once it has connected.
				tt.waitText("rootpick-demo ready")
			}
			tt.send("Space", "Enter")
			tt.waitArmed(1, 0)
			if server == "built-in" && landlockHere() {
				// The demo's own server runs under the guard like any
				// other: the first dialog a newcomer sees is the boundary.
				tt.waitText("Enforced: the kernel lets the server open only these folders")
			}
			tt.send("y")
			if server == "built-in" && landlockHere() {
				// And it says what it could list and what not.
				tt.send("C-o")
				tt.waitText("(not consented): ✗ refused by the kernel")
				tt.send("q") // back to the list (esc would run into the next key)
			}
			if server == "serve-demo" {
				lines := waitRec(t, rec, "file://"+picked)
				checkURI(t, lines[len(lines)-1].Roots[0].URI, picked)
			}
			// verified: the server, asked, says it holds exactly the
			// consented set.
			tt.waitStatus("1 root exposed", "verified")

			tt.quit()
			checkPrinted(t, tt, "The sample workspace "+ws+" was removed.")
			checkRemoved(t, tmp)
			if pids := serveDemoPids(bin, rec); len(pids) > 0 {
				t.Errorf("serve-demo %v outlived rootpick demo", pids)
			}
		})
	}
}

// TestE2EDemoRemoved: however rootpick demo ends — ctrl+c, a signal, a
// panic in the UI or on another goroutine — the sample workspace goes with
// it; with --keep it stays, and its path is printed.
func TestE2EDemoRemoved(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc to find rootpick's process")
	}
	for _, tc := range []struct {
		name string
		args []string
		quit func(tt *tui)
		code int
	}{
		{"ctrl+c", nil, func(tt *tui) { tt.send("C-c") }, 130},
		{"SIGTERM", nil, func(tt *tui) { _ = testproc.Kill(tt.rootpickPid(), syscall.SIGTERM) }, 128 + 15},
		{"SIGHUP", nil, func(tt *tui) { _ = testproc.Kill(tt.rootpickPid(), syscall.SIGHUP) }, 128 + 1},
		{"panic", nil, func(tt *tui) { tt.send("F12") }, 2},
		{"goroutine panic", nil, func(tt *tui) { tt.send("F11") }, 2},
		{"keep", []string{"--keep"}, (*tui).quit, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var env []string
			if strings.HasSuffix(tc.name, "panic") {
				env = append(env, "ROOTPICK_TEST_PANIC=1")
			}
			tt, tmp := startDemo(t, env, tc.args...)
			tt.waitText("rootpick")
			ws, repos := demoWorkspace(t, tmp)
			tt.waitRows(len(repos))
			tc.quit(tt)
			if code := tt.waitExit(); code != tc.code {
				t.Errorf("exit code %d after %s, want %d", code, tc.name, tc.code)
			}
			if tc.name == "keep" {
				checkPrinted(t, tt, "The sample workspace is kept at "+ws)
				if _, err := os.Stat(filepath.Join(ws, "services", "payments", ".git")); err != nil {
					t.Errorf("--keep: %v", err)
				}
				return
			}
			checkRemoved(t, tmp)
		})
	}
}
