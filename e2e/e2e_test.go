package e2e

// End-to-end tests: the real binary, built once, driven in tmux as a person
// would drive it (send-keys, capture-pane). Each test has its own tmux
// server (tmux -L), home and log. They skip with -short or without tmux.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// isolateConfig keeps the person's config file away from the program
// under test: it finds none.
func isolateConfig() {
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(os.TempDir(), "rootpick-e2e-no-config-"+strconv.Itoa(os.Getpid())))
	os.Unsetenv("ROOTPICK_CONFIG")
}

// raiseTimeoutUnderLoad scales go test's default 10-minute limit for this
// package (go test passes -test.timeout=10m0s) by the machine's load per
// core, up to 30 minutes: the end-to-end tests take 8 to 9 minutes at
// load 10 on 2 cores, where an idle run takes 4, and a limit hit there
// says nothing of the code. A limit given on purpose (any other value)
// stays.
func raiseTimeoutUnderLoad() {
	flag.Parse() // m.Run would; the limit is read when it starts
	f := flag.Lookup("test.timeout")
	if f == nil || f.Value.String() != (10*time.Minute).String() {
		return
	}
	if _, per := testproc.LoadFactor(); per > 1 {
		_ = f.Value.Set(min(time.Duration(per*float64(10*time.Minute)), 30*time.Minute).String())
	}
}

func TestMain(m *testing.M) {
	testproc.NoRaceExitSleep()
	// The test binary doubles as the fault servers (faultserver_test.go).
	if f := faultServers[os.Getenv("ROOTPICK_FAULT_SERVER")]; f != nil {
		f()
		os.Exit(0)
	}
	isolateConfig()
	raiseTimeoutUnderLoad()
	code := m.Run()
	if e2eBuildDir != "" {
		_ = os.RemoveAll(e2eBuildDir)
	}
	// Allowed to skip in CI: permission tests as root (rerun as nobody).
	testskip.Exit("rootpick/e2e", code, "as root")
}

// readPrinted parses --print's output: exactly one JSON array of roots.
func readPrinted(t *testing.T, file string) []printedRoot {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if i := bytes.IndexByte(b, 0x1b); i >= 0 {
		t.Fatalf("stdout holds an escape sequence at byte %d (the UI must draw on the tty):\n%q", i, b)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var roots []printedRoot
	if err := dec.Decode(&roots); err != nil {
		t.Fatalf("stdout is not a JSON array of roots: %v\n%q", err, b)
	}
	if roots == nil {
		t.Fatalf("stdout is %q, want a JSON array", b)
	}
	if rest, _ := bufio.NewReader(dec.Buffered()).ReadString(0); strings.TrimSpace(rest) != "" || dec.More() {
		t.Fatalf("stdout holds more than one JSON value:\n%q", b)
	}
	return roots
}

// isPlainPath reports whether p needs no percent-encoding at all.
func isPlainPath(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._/", c) >= 0) {
			return false
		}
	}
	return true
}

// checkRoot asserts that got is the root rootpick should serve for path.
func checkRoot(t *testing.T, got printedRoot, path string) {
	t.Helper()
	if got.Path != path || got.Name != filepath.Base(path) {
		t.Errorf("root = %+v, want path %q, name %q", got, path, filepath.Base(path))
	}
	if isPlainPath(path) && got.URI != "file://"+path {
		t.Errorf("root URI = %q, want %q", got.URI, "file://"+path)
	}
	checkURI(t, got.URI, path)
}

func TestE2EPrintTwoRoots(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "alpha", "beta", "gamma")
	out := filepath.Join(t.TempDir(), "out.json")
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{"--print", tree}, stdout: out})

	rows := tt.waitRows(3)
	if !rows[0].cursor {
		t.Fatalf("cursor not on the first row:\n%s", describeRows(rows))
	}
	tt.send("Space", "Down", "Down", "Space")
	var screen string
	screen = tt.waitFor("rows 1 and 3 checked", func(s string) bool {
		r := listRows(s)
		return len(r) == 3 && r[0].checked && !r[1].checked && r[2].checked && r[2].cursor
	})
	rows = listRows(screen)
	if !strings.Contains(firstLine(screen), "2 checked") {
		t.Errorf("header does not say 2 checked: %q", firstLine(screen))
	}
	picked := []string{filepath.Join(tree, rows[0].label()), filepath.Join(tree, rows[2].label())}
	for _, p := range picked {
		if !slices.Contains([]string{"alpha", "beta", "gamma"}, filepath.Base(p)) {
			t.Fatalf("row label %q is not one of the repositories:\n%s", filepath.Base(p), screen)
		}
	}
	// Checking is not consenting: nothing is exposed yet.
	if st := statusLine(screen); !strings.Contains(st, "nothing shared") {
		t.Errorf("status before consent = %q, want nothing shared", st)
	}

	tt.send("Enter")
	screen = tt.waitArmed(2, 0)
	for _, p := range picked {
		// The dialog shows paths relative to DIR.
		if !strings.Contains(screen, "+ "+strings.TrimPrefix(p, tree+"/")) {
			t.Errorf("dialog does not list %q with +:\n%s", p, screen)
		}
	}
	if strings.Contains(screen, "+ "+rows[1].label()) {
		t.Errorf("dialog lists the unchecked %q:\n%s", rows[1].label(), screen)
	}
	tt.send("y")
	tt.waitStatus("2 roots exposed", "verified")
	tt.quit()

	roots := readPrinted(t, out)
	if len(roots) != 2 {
		t.Fatalf("printed %d roots, want 2: %+v", len(roots), roots)
	}
	slices.SortFunc(roots, func(a, b printedRoot) int { return strings.Compare(a.Path, b.Path) })
	slices.Sort(picked)
	for i, p := range picked {
		checkRoot(t, roots[i], p)
	}
}

// recLine is one line of serve-demo --record.
type recLine struct {
	Fetch int `json:"fetch"`
	Roots []struct {
		URI  string `json:"uri"`
		Name string `json:"name"`
	} `json:"roots"`
}

func (l recLine) uris() []string {
	u := make([]string, len(l.Roots))
	for i, r := range l.Roots {
		u[i] = r.URI
	}
	return u
}

func readRec(t *testing.T, file string) []recLine {
	t.Helper()
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var lines []recLine
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if !strings.HasSuffix(l, "\n") {
			break // being written
		}
		var r recLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("record line %q: %v", l, err)
		}
		if r.Roots == nil {
			t.Fatalf("record line %q has no roots array", l)
		}
		lines = append(lines, r)
	}
	return lines
}

// waitRec waits until the record's last line holds exactly uris.
func waitRec(t *testing.T, file string, uris ...string) []recLine {
	t.Helper()
	slices.Sort(uris)
	deadline := time.Now().Add(e2eWait)
	for {
		lines := readRec(t, file)
		if len(lines) > 0 {
			got := lines[len(lines)-1].uris()
			slices.Sort(got)
			if slices.Equal(got, uris) {
				return lines
			}
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(file)
			t.Fatalf("timed out waiting for the server to hold %q; record:\n%s", uris, b)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// serveDemoPids returns the processes running `BIN serve-demo ... --record
// REC`. Only argv is looked at, so the tmux server (whose argv holds the
// whole command line) and rootpick itself do not count.
func serveDemoPids(bin, rec string) []string {
	return faultserver.Find(func(argv []string) bool {
		return len(argv) >= 2 && argv[0] == bin && argv[1] == "serve-demo" && slices.Contains(argv, rec)
	})
}

// TestE2EServeDemoChild: the whole flow against serve-demo started as a
// child, as a person starts it on Linux, where the server runs enforced
// (Landlock): every confirmed change starts a new server under the new
// ruleset, which fetches its roots once. Its record folder is granted with
// --allow-write, as the person would have to.
func TestE2EServeDemoChild(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("needs /proc to find the server process")
	}
	bin := rootpickBin(t)
	tree := makeRepos(t, t.TempDir(), "alpha", "beta", "gamma")
	rec := filepath.Join(t.TempDir(), "roots.jsonl")
	tt := startTUI(t, tuiOptions{width: 100, height: 24,
		args: []string{tree, "--allow-write", filepath.Dir(rec), "--", bin, "serve-demo", "--record", rec}})

	rows := tt.waitRows(3)
	first, second := filepath.Join(tree, rows[0].label()), filepath.Join(tree, rows[1].label())
	third := filepath.Join(tree, rows[2].label())

	// The server asks roots/list right after initialized; nothing has been
	// consented, so it gets an empty list.
	tt.waitStatus("nothing shared", "ready")
	lines := waitRec(t, rec)
	if len(lines) != 1 || lines[0].Fetch != 1 || len(lines[0].Roots) != 0 {
		t.Fatalf("record before any consent = %+v, want one fetch with zero roots", lines)
	}

	// Consent to the first repository.
	tt.send("Space", "Enter")
	tt.waitArmed(1, 0)
	tt.send("y")
	tt.waitStatus("1 root exposed", "verified")
	lines = readRec(t, rec)
	if got := lines[len(lines)-1]; len(got.Roots) != 1 || got.Roots[0].Name != filepath.Base(first) {
		t.Fatalf("after consenting to %q the server holds %+v", first, got)
	}
	checkURI(t, lines[len(lines)-1].Roots[0].URI, first)
	settled := len(lines)

	// Swap it for the second. Toggling alone changes nothing on the wire.
	tt.send("Space", "Down", "Space")
	tt.waitFor("second row checked alone", func(s string) bool {
		r := listRows(s)
		return len(r) == 3 && !r[0].checked && r[1].checked && !r[2].checked
	})
	tt.send("Enter")
	screen := tt.waitArmed(1, 1)
	if !strings.Contains(screen, "+ "+rows[1].label()) || !strings.Contains(screen, "− "+rows[0].label()) {
		t.Errorf("dialog should add %q and remove %q:\n%s", second, first, screen)
	}
	if n := len(readRec(t, rec)); n != settled {
		t.Errorf("toggling without consent made the server fetch roots (%d → %d lines)", settled, n)
	}
	tt.send("y")
	waitRec(t, rec, "file://"+second)
	tt.waitStatus("1 root exposed", "verified")
	lines = readRec(t, rec)
	last := lines[len(lines)-1]
	if len(last.Roots) != 1 || last.Roots[0].Name != filepath.Base(second) {
		t.Fatalf("after the swap the server holds %+v, want only %q", last, second)
	}
	checkURI(t, last.Roots[0].URI, second)

	// Uncheck all and confirm: revoking is real, so the server is
	// restarted with none (some servers ignore an empty list).
	pidsBefore := serveDemoPids(bin, rec)
	tt.send("C-x")
	tt.waitFor("no row checked", func(s string) bool {
		r := listRows(s)
		return len(r) == 3 && !r[0].checked && !r[1].checked && !r[2].checked
	})
	tt.send("Enter")
	tt.waitArmed(0, 1)
	tt.send("y")
	waitRec(t, rec)
	tt.waitStatus("nothing shared", "ready")
	lines = readRec(t, rec)
	if last := lines[len(lines)-1]; last.Fetch != 1 || len(last.Roots) != 0 {
		t.Errorf("after revoking all, the last record line is %+v; want the first fetch of a new server, with no roots", last)
	}
	if pids := serveDemoPids(bin, rec); len(pids) != 1 || slices.Equal(pids, pidsBefore) {
		t.Errorf("serve-demo pids %v before revoking all, %v after: want one new process", pidsBefore, pids)
	}

	// Over the whole run: the first line came before any consent, the
	// never-checked repository was never served, and a revoked root was
	// never served together with its replacement.
	if lines[0].Fetch != 1 || len(lines[0].Roots) != 0 {
		t.Errorf("first record line = %+v, want zero roots", lines[0])
	}
	for i, l := range lines {
		// Enforced, a change is a new process: each line is its first fetch.
		if l.Fetch != 1 {
			t.Errorf("record line %d has fetch %d; want every change served by a new server's first fetch", i+1, l.Fetch)
		}
		names := []string{}
		for _, r := range l.Roots {
			names = append(names, r.Name)
		}
		if slices.Contains(names, filepath.Base(third)) {
			t.Errorf("fetch %d served %q, which was never consented", l.Fetch, third)
		}
		if len(l.Roots) > 1 {
			t.Errorf("fetch %d served %v: never more than one root was consented", l.Fetch, names)
		}
	}

	if pids := serveDemoPids(bin, rec); len(pids) != 1 {
		t.Fatalf("want exactly one serve-demo child running before quitting, found %v", pids)
	}
	tt.quit()
	deadline := time.Now().Add(e2eWait)
	for {
		pids := serveDemoPids(bin, rec)
		if len(pids) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve-demo child still running %v after quitting: pids %v", e2eWait, pids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestE2ECancel(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "alpha", "beta")
	out := filepath.Join(t.TempDir(), "out.json")
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{"--print", tree}, stdout: out})

	tt.waitRows(2)
	tt.send("Space", "Enter")
	tt.waitArmed(1, 0)
	tt.send("n")
	screen := tt.waitFor("the list back", func(s string) bool {
		return len(listRows(s)) == 2 && !strings.Contains(s, "added, ")
	})
	st := statusLine(screen)
	if !strings.Contains(st, "nothing shared") {
		t.Errorf("status after cancelling = %q, want nothing shared", st)
	}
	if r := listRows(screen); !r[0].checked {
		t.Errorf("cancelling the dialog should keep the checkbox:\n%s", describeRows(r))
	}
	// The kept checkbox is an unconfirmed change: q asks before dropping it.
	tt.send("C-q")
	tt.waitText("Discard 1 unconfirmed change?")
	tt.quit() // q again answers yes
	if roots := readPrinted(t, out); len(roots) != 0 {
		t.Fatalf("printed %+v after cancelling, want []", roots)
	}
	if b, _ := os.ReadFile(out); strings.TrimSpace(string(b)) != "[]" {
		t.Errorf("stdout = %q, want []", b)
	}
}

func TestE2EListJSON(t *testing.T) {
	t.Parallel()
	bin := rootpickBin(t)
	odd := "we ird #1 %41 ünï?x"
	rels := []string{"outer", filepath.Join("outer", "sub", "inner"), odd}
	tree := makeRepos(t, t.TempDir(), rels...)
	if err := os.MkdirAll(filepath.Join(tree, "not a repo", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(bin, "list", "--json", tree)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rootpick list --json: %v\n%s", err, stderr.Bytes())
	}
	want := map[string]bool{}
	for _, r := range rels {
		want[filepath.Join(tree, r)] = true
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var got map[string]any
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		path, _ := got["path"].(string)
		name, _ := got["name"].(string)
		kind, _ := got["kind"].(string)
		uri, _ := got["uri"].(string)
		if !want[path] {
			t.Errorf("unexpected repository %q in %s", path, sc.Text())
			continue
		}
		if seen[path] {
			t.Errorf("%q listed twice", path)
		}
		seen[path] = true
		if name != filepath.Base(path) {
			t.Errorf("%q: name %q, want %q", path, name, filepath.Base(path))
		}
		if kind != "git" {
			t.Errorf("%q: kind %q, want git", path, kind)
		}
		checkURI(t, uri, path)
	}
	for p := range want {
		if !seen[p] {
			t.Errorf("repository %q missing from:\n%s", p, out)
		}
	}
	// The odd name, spelled out: every special byte is encoded.
	oddURI := "file://" + filepath.Join(tree, "we%20ird%20%231%20%2541%20%C3%BCn%C3%AF%3Fx")
	if !bytes.Contains(bytes.ToUpper(out), bytes.ToUpper([]byte(`"uri":"`+oddURI+`"`))) {
		t.Errorf("want URI %s in:\n%s", oddURI, out)
	}
}

func TestE2EOddNames(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	oddName := "esc\x1b[31mred\nnl"
	tree := makeRepos(t, t.TempDir(), oddName, "plain")
	oddPath := filepath.Join(tree, oddName)
	out := filepath.Join(t.TempDir(), "out.json")
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{"--print", tree}, stdout: out})

	escaped := `esc\x1b[31mred\nnl`
	rows := tt.waitRows(2)
	screen := tt.capture()
	i := rowIndex(rows, escaped)
	if i < 0 || rowIndex(rows, "plain") < 0 {
		t.Fatalf("want rows %q and \"plain\", got:\n%s\nscreen:\n%s", escaped, describeRows(rows), screen)
	}
	if !strings.Contains(firstLine(screen), "2 repos") {
		t.Errorf("header = %q, want 2 repos", firstLine(screen))
	}
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "nl") || strings.HasPrefix(l, "red") {
			t.Errorf("the folder name broke a row in two:\n%s", screen)
		}
	}
	for range i {
		tt.send("Down")
	}
	tt.send("Space")
	tt.waitFor("the odd row checked", func(s string) bool {
		r := listRows(s)
		j := rowIndex(r, escaped)
		return len(r) == 2 && j >= 0 && r[j].checked && r[j].cursor && !r[1-j].checked
	})
	tt.send("Enter")
	screen = tt.waitArmed(1, 0)
	if !strings.Contains(screen, "+ "+escaped) {
		t.Errorf("dialog does not show the escaped path:\n%s", screen)
	}
	tt.send("y")
	tt.waitStatus("1 root exposed", "verified")
	tt.quit()
	roots := readPrinted(t, out)
	if len(roots) != 1 {
		t.Fatalf("printed %+v, want one root", roots)
	}
	checkRoot(t, roots[0], oddPath)
	if !strings.Contains(roots[0].URI, "%1B") || !strings.Contains(roots[0].URI, "%0A") {
		t.Errorf("URI %q: want ESC as %%1B and newline as %%0A", roots[0].URI)
	}
}

// checkNoPanic fails if the screen shows a Go panic or a stack trace.
func checkNoPanic(t *testing.T, screen string) {
	t.Helper()
	for _, bad := range []string{"panic", "goroutine ", "runtime error", ".go:"} {
		if strings.Contains(screen, bad) {
			t.Fatalf("screen shows %q:\n%s", bad, screen)
		}
	}
}

func TestE2ETinyTerminal(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tt := newTUI(t)
	// Under HOME, so the header ("rootpick  3 repos · 0 checked  ~/tree") fits.
	tree := makeRepos(t, tt.home, filepath.Join("tree", "alpha"), filepath.Join("tree", "beta"), filepath.Join("tree", "gamma"))
	tree = filepath.Join(tree, "tree")
	tt.start(tuiOptions{width: 20, height: 5, args: []string{tree}})

	// A small split shows rows to pick (the key help gives way), and the
	// status line.
	tt.waitFor("two rows and the status line at 20x5", func(s string) bool {
		return strings.HasPrefix(s, "rootpick") && len(listRows(s)) == 2 && strings.Contains(s, "shared")
	})
	// Let the scan finish and the server connect at this size.
	time.Sleep(300 * time.Millisecond)
	for _, size := range [][2]string{{"10", "3"}, {"1", "1"}, {"3", "2"}, {"10", "3"}} {
		if _, err := tt.tmux("resize-window", "-t", tt.session, "-x", size[0], "-y", size[1]); err != nil {
			t.Fatal(err)
		}
		time.Sleep(150 * time.Millisecond)
		if tt.exited() {
			t.Fatalf("rootpick ended at %sx%s; screen:\n%s", size[0], size[1], tt.capture())
		}
		checkNoPanic(t, tt.capture())
	}
	// Keys still work at 10x3: move down (nothing to see), then grow back.
	tt.send("Down")
	if _, err := tt.tmux("resize-window", "-t", tt.session, "-x", "80", "-y", "12"); err != nil {
		t.Fatal(err)
	}
	screen := tt.waitFor("the full UI again", func(s string) bool {
		r := listRows(s)
		return strings.HasPrefix(s, "rootpick  3 repos · 0 checked  ~/tree") && len(r) == 3 && statusLine(s) != ""
	})
	if r := listRows(screen); !r[1].cursor {
		t.Errorf("j at 10x3 should have moved the cursor to row 2:\n%s", describeRows(r))
	}
	tt.quit()
	checkNoPanic(t, tt.capture())
}

func TestE2ECrashingServer(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "alpha", "beta")
	// A second server writes to stderr only after the UI is drawn, so that
	// stderr reaching the terminal would visibly break the screen instead
	// of being painted over by the first frame.
	late := filepath.Join(t.TempDir(), "late.sh")
	if err := os.WriteFile(late, []byte("sleep 0.5; echo late-boom >&2; exit 4\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tt := startTUI(t, tuiOptions{width: 220, height: 24,
		args: []string{tree, "--server", "sh " + late, "--", "sh", "-c", "echo boom >&2; exit 3"}})

	tt.waitRows(2)
	st := tt.waitFor("both servers to fail and wait to restart", func(s string) bool {
		l := statusLine(s)
		return strings.Count(l, "restarting in") == 2 && strings.Contains(l, "boom") ||
			strings.Count(l, " restarting") == 2 || strings.Contains(l, "2 servers: 2 restarting")
	})
	// The UI is still up and answers keys.
	tt.send("Down")
	screen := tt.waitFor("the cursor on row 2", func(s string) bool {
		r := listRows(s)
		return len(r) == 2 && r[1].cursor
	})
	for _, s := range []string{st, screen} {
		if !strings.HasPrefix(s, "rootpick") {
			t.Errorf("first line is not the header (something wrote to the terminal):\n%s", s)
		}
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "boom") || strings.HasPrefix(l, "late-boom") {
				t.Errorf("a server's stderr was drawn raw on the screen:\n%s", s)
			}
		}
		var labels []string
		for _, r := range listRows(s) {
			labels = append(labels, r.label())
		}
		if !slices.Equal(labels, []string{"alpha", "beta"}) {
			t.Errorf("rows are %q, want [alpha beta] (was the screen written over?):\n%s", labels, s)
		}
	}
	tt.quit()
	if log := tt.log(); !strings.Contains(log, "boom") || !strings.Contains(log, "late-boom") {
		t.Errorf("the servers' stderr is not in the log:\n%s", log)
	}
}

func TestE2EInterrupt(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "alpha")
	tt := startTUI(t, tuiOptions{width: 80, height: 24, args: []string{tree}})
	tt.waitRows(1)
	tt.waitStatus("nothing shared", "ready")
	tt.send("C-c")
	if code := tt.waitExit(); code != 130 {
		t.Fatalf("exit code %d after ctrl+c, want 130", code)
	}
	checkNoPanic(t, tt.capture())
}
