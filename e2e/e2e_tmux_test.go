package e2e

// Helpers for the end-to-end tests in e2e_test.go: building the real binary
// once, driving it in a private tmux server, and making repository trees.

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/rootpick/rootpick/internal/testskip"

	"github.com/rootpick/rootpick/internal/testproc"
)

// loadBound is d, a time the product promises on an idle machine, scaled
// by how many runnable tasks each core had over the last minute (at
// least 1): two go test -race runs at once on 2 cores reach a load of
// 10, where every step takes several times longer. A bound that holds
// only on an idle machine fails for reasons that have nothing to do with
// the change; a broken promise (a kill that never comes, a wait that R
// does not cut short) still fails it.
func loadBound(t *testing.T, d time.Duration) time.Duration {
	t.Helper()
	if load, f := testproc.LoadFactor(); f > 1 {
		t.Logf("load %.1f on %d cores: bound %v scaled to %v", load, runtime.NumCPU(), d, time.Duration(f*float64(d)))
		return time.Duration(f * float64(d))
	}
	return d
}

// e2eWait bounds every wait for the screen, a file or an exit: generous,
// for a loaded machine (go test -race -count=5 twice at once); only a
// broken wait ever reaches it.
const e2eWait = 30 * time.Second

var (
	e2eBuildOnce sync.Once
	e2eBuildDir  string // removed by TestMain
	e2eBin       string
	e2eBuildErr  error
	e2eSeq       atomic.Int64
)

// requireE2E skips the test when end-to-end tests cannot or should not run.
func requireE2E(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test: skipped with -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		testskip.Skip(t, "tmux", "tmux not installed: apt-get install tmux, or bash .ci/run")
	}
}

// rootpickBin builds the program once per test run and returns its path.
func rootpickBin(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test: skipped with -short")
	}
	e2eBuildOnce.Do(func() {
		// .ci/run's rerun as nobody, who cannot build, passes one in.
		if bin := os.Getenv("ROOTPICK_TEST_BIN"); bin != "" {
			e2eBin = bin
			return
		}
		dir, err := os.MkdirTemp("", "rootpick-e2e-bin-")
		if err != nil {
			e2eBuildErr = err
			return
		}
		e2eBuildDir = dir
		bin := filepath.Join(dir, "rootpick")
		// rootpick_e2e: the panic keys (F12, F11) the tests press
		// (testpanic_e2e.go); a release binary has none.
		cmd := exec.Command("go", "build", "-tags", "rootpick_e2e", "-o", bin, "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			e2eBuildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		e2eBin = bin
	})
	if e2eBuildErr != nil {
		t.Fatalf("building rootpick: %v", e2eBuildErr)
	}
	return e2eBin
}

// shQuote quotes s for a POSIX shell.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shQuote(a)
	}
	return strings.Join(q, " ")
}

// tuiOptions says how to start rootpick in tmux.
type tuiOptions struct {
	width, height int
	// command, if set, is the command that comes before "--log LOG" (such
	// as "demo"), for another command than pick.
	command []string
	// args follow "rootpick [COMMAND] --log LOG".
	args []string
	// stdout, if set, is the file the program's stdout is redirected to (as
	// in `rootpick --print > out.json`); otherwise stdout is the terminal.
	stdout string
}

// tui is one rootpick process running in its own tmux server.
type tui struct {
	t        *testing.T
	sock     string // tmux -L name: a private server
	session  string
	conf     string
	env      []string
	dir      string // private temp folder
	home     string // $HOME of the program
	logFile  string
	exitFile string
}

// newTUI prepares a private tmux server and a home for the program; nothing
// runs yet.
func newTUI(t *testing.T) *tui {
	t.Helper()
	requireE2E(t)
	dir := t.TempDir()
	n := e2eSeq.Add(1)
	tt := &tui{
		t:        t,
		sock:     fmt.Sprintf("rootpick-e2e-%d-%d", os.Getpid(), n),
		session:  fmt.Sprintf("e2e%d", n),
		conf:     filepath.Join(dir, "tmux.conf"),
		dir:      dir,
		home:     filepath.Join(dir, "home"),
		logFile:  filepath.Join(dir, "rootpick.log"),
		exitFile: filepath.Join(dir, "exit"),
	}
	for _, d := range []string{tt.home, filepath.Join(dir, "state"), filepath.Join(dir, "config")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// The pane stays after the program exits, so that what it left on the
	// terminal (a panic, say) can still be read.
	// default-shell is pinned: without SHELL in the environment tmux runs
	// the pane through the user's login shell, which for nobody (.ci/run's
	// permission rerun) is nologin — the pane died at once with status 1.
	conf := "set -g remain-on-exit on\nset -g status off\nset -s escape-time 0\nset -g default-shell /bin/sh\n"
	if err := os.WriteFile(tt.conf, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TMUX", "TMUX_PANE", "TMUX_TMPDIR", "HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "NO_COLOR":
			continue
		}
		tt.env = append(tt.env, kv)
	}
	tt.env = append(tt.env,
		// The -L socket lives in this test's folder: no litter in
		// /tmp/tmux-UID, and no way to reach a user's own tmux server.
		"TMUX_TMPDIR="+dir,
		"HOME="+tt.home,
		"XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
	)
	return tt
}

// startTUI starts rootpick in a new tmux session of the given size.
func startTUI(t *testing.T, o tuiOptions) *tui {
	t.Helper()
	tt := newTUI(t)
	tt.start(o)
	return tt
}

func (tt *tui) start(o tuiOptions) {
	t := tt.t
	t.Helper()
	bin := rootpickBin(t)
	argv := append(append([]string{bin}, o.command...), "--log", tt.logFile)
	prog := shJoin(append(argv, o.args...))
	if o.stdout != "" {
		prog += " > " + shQuote(o.stdout)
	}
	// As a person would run it, with the exit code kept in a file.
	script := prog + "; echo EXIT=$? > " + shQuote(tt.exitFile)
	command := "sh -c " + shQuote(script)

	t.Cleanup(func() {
		// Kills the program too (SIGHUP) if it is still running.
		_, _ = tt.tmux("kill-server")
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", tt.captureNoFail())
			t.Logf("rootpick log:\n%s", tt.log())
		}
	})
	if _, err := tt.tmux("-f", tt.conf, "new-session", "-d", "-s", tt.session,
		"-x", strconv.Itoa(o.width), "-y", strconv.Itoa(o.height), command); err != nil {
		t.Fatalf("starting tmux: %v", err)
	}
}

// tmux runs one tmux command against this test's private server.
func (tt *tui) tmux(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-L", tt.sock}, args...)...)
	cmd.Env = tt.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// send types keys (tmux key names: "Space", "Enter", "C-c", "j", ...).
func (tt *tui) send(keys ...string) {
	tt.t.Helper()
	if _, err := tt.tmux(append([]string{"send-keys", "-t", tt.session}, keys...)...); err != nil {
		tt.t.Fatal(err)
	}
}

func (tt *tui) captureNoFail() string {
	out, err := tt.tmux("capture-pane", "-p", "-t", tt.session)
	if err != nil {
		return "(capture failed: " + err.Error() + ")"
	}
	return out
}

// capture returns the pane's text, one line per row, no attributes.
func (tt *tui) capture() string {
	tt.t.Helper()
	out, err := tt.tmux("capture-pane", "-p", "-t", tt.session)
	if err != nil {
		tt.t.Fatal(err)
	}
	return out
}

// waitFor polls the screen until ok accepts it, and returns that screen.
func (tt *tui) waitFor(what string, ok func(screen string) bool) string {
	tt.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		s := tt.capture()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			tt.t.Fatalf("timed out after %v waiting for %s; screen:\n%s", e2eWait, what, s)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// waitDrawn is waitFor for a condition that a frame half read could fake:
// tmux answers a capture between two reads of one large frame, showing
// its first rows new and the rest old. It looks again a moment after the
// condition first held, and returns that screen once it holds there too.
func (tt *tui) waitDrawn(what string, ok func(screen string) bool) string {
	tt.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		s := tt.waitFor(what, ok)
		time.Sleep(40 * time.Millisecond)
		if again := tt.capture(); ok(again) {
			return again
		}
		if time.Now().After(deadline) {
			tt.t.Fatalf("timed out after %v waiting for %s to hold twice 40 ms apart; screen:\n%s", e2eWait, what, s)
		}
	}
}

// waitText waits until every one of subs is on the screen.
func (tt *tui) waitText(subs ...string) string {
	tt.t.Helper()
	return tt.waitFor(fmt.Sprintf("%q", subs), func(s string) bool {
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				return false
			}
		}
		return true
	})
}

// waitStatus waits until the status line (the one saying how many roots
// are exposed), with the note that follows it on lines of its own when it
// does not fit beside it, holds every one of subs, and returns them.
func (tt *tui) waitStatus(subs ...string) string {
	tt.t.Helper()
	var line string
	tt.waitFor(fmt.Sprintf("status line with %q", subs), func(s string) bool {
		line = statusWithNote(s)
		for _, sub := range subs {
			if !strings.Contains(line, sub) {
				return false
			}
		}
		return line != ""
	})
	return line
}

// waitRows waits until the scan has finished and the list shows n rows.
func (tt *tui) waitRows(n int) []listRow {
	tt.t.Helper()
	var rows []listRow
	tt.waitFor(fmt.Sprintf("%d rows, scan done", n), func(s string) bool {
		rows = listRows(s)
		return len(rows) == n && !strings.Contains(s, "scanning") // the scan line goes when it is done
	})
	return rows
}

// waitArmed waits until the consent dialog accepts keys: its summary line
// "y confirm  n/esc cancel   (A added, R removed)" replaces "…" once the
// type-ahead guard has passed. (The help line under the status says
// "y confirm" from the start, so it cannot be used for this.)
func (tt *tui) waitArmed(added, removed int) string {
	tt.t.Helper()
	return tt.waitText(fmt.Sprintf("(%d added, %d removed)", added, removed))
}

// waitExit waits for the program to end and returns its exit code.
func (tt *tui) waitExit() int {
	tt.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		b, err := os.ReadFile(tt.exitFile)
		if err == nil && bytes.HasSuffix(b, []byte("\n")) {
			s := strings.TrimSpace(string(b))
			code, err := strconv.Atoi(strings.TrimPrefix(s, "EXIT="))
			if err != nil || !strings.HasPrefix(s, "EXIT=") {
				tt.t.Fatalf("exit file holds %q", s)
			}
			return code
		}
		if time.Now().After(deadline) {
			tt.t.Fatalf("timed out after %v waiting for rootpick to exit; screen:\n%s", e2eWait, tt.capture())
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// exited reports whether the program has ended.
// quit presses q and requires a clean exit (code 0).
func (tt *tui) quit() {
	tt.t.Helper()
	tt.send("C-q")
	if code := tt.waitExit(); code != 0 {
		tt.t.Fatalf("exit code %d after q, want 0", code)
	}
}

func (tt *tui) exited() bool {
	_, err := os.Stat(tt.exitFile)
	return err == nil
}

func (tt *tui) log() string {
	b, err := os.ReadFile(tt.logFile)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	return string(b)
}

func firstLine(screen string) string {
	line, _, _ := strings.Cut(screen, "\n")
	return line
}

// statusWithNote is the status line and the lines of its note below it,
// up to the key help, joined by spaces (a wrapped note reads whole).
func statusWithNote(screen string) string {
	line := statusLine(screen)
	if line == "" {
		return ""
	}
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		if l != line {
			continue
		}
		// The key help is the last line(s), its items joined by " • ".
		for _, next := range lines[i+1:] {
			if strings.Contains(next, " • ") || strings.TrimSpace(next) == "" {
				break
			}
			line += " " + strings.TrimSpace(next)
		}
		break
	}
	return line
}

// statusLine returns the status line: the one saying how many roots are
// exposed, or else (when a long server error cut that off) the one that
// starts with a server's "● ". It returns "" when there is none.
func statusLine(screen string) string {
	lines := strings.Split(screen, "\n")
	for _, l := range lines {
		if strings.Contains(l, "roots exposed") || strings.Contains(l, "root exposed") ||
			strings.HasPrefix(l, "nothing shared  ") || strings.HasPrefix(l, "0 shared  ") ||
			strings.Contains(l, " served by ") && strings.Contains(l, "prox") ||
			strings.Contains(l, "consented, served when a server connects") {
			return l
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "● ") {
			return l
		}
	}
	return ""
}

// listRow is one repository row as drawn: "› [x] label   branch".
type listRow struct {
	cursor, checked bool
	text            string // label and what follows, trimmed
}

var rowRE = regexp.MustCompile(`^(› |  )\[([ x])\] (.*)$`)

func listRows(screen string) []listRow {
	var rows []listRow
	for _, l := range strings.Split(screen, "\n") {
		m := rowRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		rows = append(rows, listRow{cursor: m[1] == "› ", checked: m[2] == "x", text: strings.TrimSpace(m[3])})
	}
	return rows
}

// label is the row's first column (the folder relative to DIR), assuming
// it holds no run of two spaces.
func (r listRow) label() string {
	l, _, _ := strings.Cut(r.text, "  ")
	return l
}

func rowIndex(rows []listRow, label string) int {
	for i, r := range rows {
		if r.label() == label {
			return i
		}
	}
	return -1
}

func describeRows(rows []listRow) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "cursor=%v checked=%v %q\n", r.cursor, r.checked, r.label())
	}
	return b.String()
}

// makeRepos creates an empty git repository (go-git PlainInit) at each
// path under root; root itself is returned with its symlinks resolved, as
// rootpick reports canonical paths.
func makeRepos(t *testing.T, root string, rels ...string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range rels {
		p := filepath.Join(real, rel)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := git.PlainInit(p, false); err != nil {
			t.Fatalf("git init %q: %v", p, err)
		}
	}
	return real
}

// printedRoot is one element of --print's output.
type printedRoot struct {
	URI      string `json:"uri"`
	Name     string `json:"name"`
	Path     string `json:"path"`
	ReadOnly bool   `json:"read_only"`
}

// checkURI asserts that uri is the file:// URI of path: percent-encoded
// where RFC 3986 requires it, and decoding back to exactly path.
func checkURI(t *testing.T, uri, path string) {
	t.Helper()
	rest, ok := strings.CutPrefix(uri, "file://")
	if !ok || !strings.HasPrefix(rest, "/") {
		t.Errorf("URI %q: want file:///...", uri)
		return
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c == '%':
			if i+2 >= len(rest) || !isHex(rest[i+1]) || !isHex(rest[i+2]) {
				t.Errorf("URI %q: bad escape at %d", uri, i)
			}
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte("-._~/!$&'()*+,;=:@", c) >= 0:
		default:
			t.Errorf("URI %q: byte %q at %d is not percent-encoded", uri, c, i)
		}
	}
	got, err := url.PathUnescape(rest)
	if err != nil || got != path {
		t.Errorf("URI %q decodes to %q (err %v), want %q", uri, got, err, path)
	}
	if u, err := url.Parse(uri); err != nil || u.Scheme != "file" || u.Host != "" || u.Path != path || u.RawQuery != "" || u.Fragment != "" {
		t.Errorf("url.Parse(%q) = %+v, %v; want a file URI of %q", uri, u, err, path)
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
