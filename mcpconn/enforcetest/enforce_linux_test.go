package enforcetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/mcpconn/proxy"
	"golang.org/x/sys/unix"
)

// The enforcement tests: a server that ignores roots altogether (snoop)
// tries to open what it was not given, launched by the Hub as the picker
// does and behind proxy.Run as rootpick proxy does, and the kernel must
// refuse it.

func init() { faultModes["snoop"] = serveSnoop }

// probeArgs are the attempts a snoop's probe tool makes.
type probeArgs struct {
	Read    []string `json:"read,omitempty"`    // read a file whole
	List    []string `json:"list,omitempty"`    // list a folder
	Write   []string `json:"write,omitempty"`   // create or append to a file
	Signal  []int    `json:"signal,omitempty"`  // kill(pid, 0)
	Connect []string `json:"connect,omitempty"` // connect to an abstract unix socket (name without the @)
	Dial    []string `json:"dial,omitempty"`    // connect to a pathname unix socket
	Chmod   []string `json:"chmod,omitempty"`   // chmod 0644 (the path form)
	Fchmod  []string `json:"fchmod,omitempty"`  // open it (O_RDONLY) and fchmod 0640
	Utime   []string `json:"utime,omitempty"`   // utimensat to 2001
	Chown   []string `json:"chown,omitempty"`   // chown to its own uid and gid
	Xattr   []string `json:"xattr,omitempty"`   // setxattr user.rootpick
	Pair    bool     `json:"pair,omitempty"`    // socketpair(AF_UNIX): "pair"
	TCP     []string `json:"tcp,omitempty"`     // connect to a TCP address (host:port)
	UDP     []string `json:"udp,omitempty"`     // dial UDP (makes the socket) to host:port
	// The changes a folder shared read-only refuses (probeChanges).
	Truncate []string `json:"truncate,omitempty"` // truncate(2) to 0
	Mkdir    []string `json:"mkdir,omitempty"`    // make a folder
	Rename   []string `json:"rename,omitempty"`   // rename to PATH.moved, in the same folder
	Remove   []string `json:"remove,omitempty"`   // unlink
	Exec     []string `json:"exec,omitempty"`     // run it (a #!/bin/sh script that exits 0)
}

// call is the probe tool's arguments.
func (a probeArgs) call() map[string]any {
	b, _ := json.Marshal(a)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// serveSnoop is a go-sdk stdio server that never asks for roots. Its tool
// probe makes each attempt of probeArgs and answers a JSON object:
// "read /path": "ok" or the errno's name, likewise for the others, and
// "ppid" and "tmpdir".
func serveSnoop() {
	s := mcp.NewServer(&mcp.Implementation{Name: "snoop", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "probe", Description: "try to open paths"}, func(_ context.Context, _ *mcp.CallToolRequest, a probeArgs) (*mcp.CallToolResult, any, error) {
		out := map[string]string{"ppid": strconv.Itoa(os.Getppid()), "tmpdir": os.Getenv("TMPDIR")}
		for _, p := range a.Read {
			_, err := os.ReadFile(p)
			out["read "+p] = errName(err)
		}
		for _, p := range a.List {
			_, err := os.ReadDir(p)
			out["list "+p] = errName(err)
		}
		for _, p := range a.Write {
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
			if err == nil {
				_, err = f.WriteString("snooped\n")
				f.Close()
			}
			out["write "+p] = errName(err)
		}
		for _, pid := range a.Signal {
			out["signal "+strconv.Itoa(pid)] = errName(syscall.Kill(pid, 0))
		}
		for _, name := range a.Connect {
			c, err := net.Dial("unix", "@"+name)
			if err == nil {
				c.Close()
			}
			out["connect "+name] = errName(err)
		}
		probeMetadata(a, out)
		probeChanges(a, out)
		b, _ := json.Marshal(out)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
	})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}

// probeMetadata makes the socket and metadata attempts of a (see
// probeArgs), each answered in out as the others are.
func probeMetadata(a probeArgs, out map[string]string) {
	for _, p := range a.Dial {
		c, err := net.Dial("unix", p)
		if err == nil {
			c.Close()
		}
		out["dial "+p] = errName(err)
	}
	for _, p := range a.Chmod {
		out["chmod "+p] = errName(unix.Chmod(p, 0o644))
	}
	for _, p := range a.Fchmod {
		f, err := os.Open(p)
		if err == nil {
			err = unix.Fchmod(int(f.Fd()), 0o640)
			f.Close()
		}
		out["fchmod "+p] = errName(err)
	}
	for _, p := range a.Utime {
		t := unix.NsecToTimespec(time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
		out["utime "+p] = errName(unix.UtimesNanoAt(unix.AT_FDCWD, p, []unix.Timespec{t, t}, 0))
	}
	for _, p := range a.Chown {
		out["chown "+p] = errName(unix.Chown(p, os.Getuid(), os.Getgid()))
	}
	for _, p := range a.Xattr {
		out["xattr "+p] = errName(unix.Setxattr(p, "user.rootpick", []byte("1"), 0))
	}
	for _, addr := range a.TCP {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err == nil {
			c.Close()
		}
		out["tcp "+addr] = errName(err)
	}
	for _, addr := range a.UDP {
		c, err := net.Dial("udp", addr)
		if err == nil {
			c.Close()
		}
		out["udp "+addr] = errName(err)
	}
	if a.Pair {
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		if err == nil {
			unix.Close(fds[0])
			unix.Close(fds[1])
		}
		out["pair"] = errName(err)
	}
}

// errName is "ok", or the name of err's errno (EACCES), or its text.
func errName(err error) string {
	if err == nil {
		return "ok"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return unix.ErrnoName(errno)
	}
	return err.Error()
}

// needLandlock skips t where the kernel offers no Landlock (a failure
// under ROOTPICK_TEST_STRICT, as in CI).
func needLandlock(t *testing.T) int {
	t.Helper()
	e := launch.WouldEnforce(launch.EnforceOn)
	if !e.Enforced {
		testskip.Skip(t, "landlock", e.Advisory+": run the enforcement tests on Linux 5.13 or later with Landlock on")
	}
	return e.ABI
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// resolveUnixABI is the Landlock ABI that holds unix sockets to their
// paths (LANDLOCK_ACCESS_FS_RESOLVE_UNIX): below it, allow-socket lets a
// server make any unix socket (mcpconn/launch's policy_sockets.go).
const resolveUnixABI = 9

// snoopHome is a home for the person, with what a server must not open.
type snoopHome struct {
	home, a, b, arg, key, secret string
	outside                      string // a file in /tmp, outside the server's own TMPDIR
}

// plantHome makes a home (HOME is set to it for the test) with two
// repositories, a folder given to the server as its argument, a key in
// .ssh and a file in home itself, each holding a file.
func plantHome(t *testing.T) snoopHome {
	t.Helper()
	home := filepath.Join(tempDir(t), "home")
	h := snoopHome{home: home, a: filepath.Join(home, "src", "a"), b: filepath.Join(home, "src", "b"),
		arg: filepath.Join(home, "src", "arg"), key: filepath.Join(home, ".ssh", "id_test"), secret: filepath.Join(home, "secret.txt")}
	for _, d := range []string{h.a, h.b, h.arg, filepath.Dir(h.key)} {
		must(t, os.MkdirAll(d, 0o755))
	}
	for _, f := range []string{filepath.Join(h.a, "f"), filepath.Join(h.b, "f"), filepath.Join(h.arg, "f"), h.key, h.secret} {
		must(t, os.WriteFile(f, []byte("private"), 0o600))
	}
	h.outside = filepath.Join(os.TempDir(), testproc.UniqueMarker("rootpick-snoop"))
	t.Cleanup(func() { os.Remove(h.outside) })
	t.Setenv("HOME", home)
	return h
}

// attempts are the probes every step makes.
func (h snoopHome) attempts(outsiders ...int) probeArgs {
	return probeArgs{
		Read:   []string{filepath.Join(h.a, "f"), filepath.Join(h.b, "f"), filepath.Join(h.arg, "f"), h.key, h.secret},
		List:   []string{h.home, h.a, h.b, h.arg},
		Write:  []string{filepath.Join(h.a, "w"), filepath.Join(h.b, "w"), filepath.Join(h.home, "w"), h.outside},
		Signal: outsiders,
	}
}

type probeFunc func(ctx context.Context, args probeArgs) (map[string]string, error)

func decodeProbe(out string, err error) (map[string]string, error) {
	if err != nil {
		return nil, err
	}
	var m map[string]string
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		return nil, fmt.Errorf("probe answered %q: %w", out, err)
	}
	return m, nil
}

// probeUntil probes until ok holds of the answer (a restarted server is
// answered "retry" or not connected for a moment), and returns it.
func probeUntil(t *testing.T, what string, probe probeFunc, args probeArgs, ok func(map[string]string) bool) map[string]string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var last map[string]string
	var lastErr error
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		got, err := probe(ctx, args)
		cancel()
		if err == nil && ok(got) {
			return got
		}
		last, lastErr = got, err
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s: last probe %v, %v", what, last, lastErr)
	return nil
}

// expect checks each attempt's outcome: want maps a key of the answer to
// "ok" or an errno's name.
func expect(t *testing.T, step string, got, want map[string]string) {
	t.Helper()
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s: %s, want %s", step, k, got[k], w)
		}
	}
}

// denyAll is every attempt of h refused: nothing of home opens.
func (h snoopHome) denyAll() map[string]string {
	want := map[string]string{}
	a := h.attempts()
	for _, p := range a.Read {
		want["read "+p] = "EACCES"
	}
	for _, p := range a.List {
		want["list "+p] = "EACCES"
	}
	for _, p := range a.Write {
		want["write "+p] = "EACCES"
	}
	return want
}

// checkSnoop runs the consent story against a snoop: before any consent
// it opens nothing of home; consented a, it reads and writes a and
// nothing else (not b, the key, the file in home, its argument folder,
// /tmp), and writes its own TMPDIR; moved to b, the same the other way
// round; revoked, nothing. It cannot signal rootpick (this test process)
// or an unrelated process, nor reach an abstract socket outside.
func checkSnoop(t *testing.T, h snoopHome, probe probeFunc, set func([]consent.Root)) {
	t.Helper()
	sleeper := exec.Command("sleep", "60")
	must(t, sleeper.Start())
	t.Cleanup(func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() })
	abstract := testproc.UniqueMarker("rootpick-abstract")
	testproc.ListenAndDrop(t, "unix", "@"+abstract)
	args := h.attempts(os.Getpid(), sleeper.Process.Pid)
	args.Connect = []string{abstract}
	w := openWalls(t, h)
	w.attempts(&args, h)
	anyAnswer := func(map[string]string) bool { return true }

	got := probeUntil(t, "the first probe", probe, args, anyAnswer)
	expect(t, "before consent", got, h.denyAll())
	expect(t, "before consent", got, w.refused(h, false))
	expect(t, "before consent", got, map[string]string{
		"signal " + strconv.Itoa(os.Getpid()):         "EPERM",
		"signal " + strconv.Itoa(sleeper.Process.Pid): "EPERM",
		"connect " + abstract:                         abstractRefusal(),
	})
	checkTmp(t, probe, got["tmpdir"])
	// Its parent is its guard, in the same Landlock domain: the one
	// process outside itself it may signal (killing it only ends the
	// server: PR_SET_PDEATHSIG).
	if cmdline, _ := os.ReadFile("/proc/" + got["ppid"] + "/cmdline"); !strings.HasPrefix(string(cmdline), faultserver.GuardArgv0+"\x00") {
		t.Errorf("the server's parent %s is %q, not its guard", got["ppid"], cmdline)
	}

	a, b := testproc.Root(t, h.a), testproc.Root(t, h.b)
	set([]consent.Root{a})
	got = probeUntil(t, "the server to read a", probe, args, func(m map[string]string) bool { return m["read "+filepath.Join(h.a, "f")] == "ok" })
	want := h.denyAll()
	want["read "+filepath.Join(h.a, "f")], want["list "+h.a], want["write "+filepath.Join(h.a, "w")] = "ok", "ok", "ok"
	expect(t, "consented a", got, want)
	expect(t, "consented a", got, w.refused(h, true))
	w.unchanged(t, h)
	checkTmp(t, probe, got["tmpdir"])

	set([]consent.Root{b})
	got = probeUntil(t, "the server to read b", probe, args, func(m map[string]string) bool { return m["read "+filepath.Join(h.b, "f")] == "ok" })
	want = h.denyAll()
	want["read "+filepath.Join(h.b, "f")], want["list "+h.b], want["write "+filepath.Join(h.b, "w")] = "ok", "ok", "ok"
	expect(t, "consented b instead", got, want)

	set(nil)
	got = probeUntil(t, "the server to read b no more", probe, args, func(m map[string]string) bool { return m["read "+filepath.Join(h.b, "f")] != "ok" })
	expect(t, "after revoking all", got, h.denyAll())
}

// abstractRefusal is how an abstract socket outside is refused: below
// Landlock ABI 9 the seccomp filter refuses the socket itself (EACCES),
// from 9 Landlock's scope refuses the connect (EPERM).
func abstractRefusal() string {
	if abi := launch.WouldEnforce(launch.EnforceOn).ABI; abi < resolveUnixABI {
		return "EACCES"
	}
	return "EPERM"
}

// walls are the doors beside the files: pathname unix sockets (a
// listener outside, an ssh-agent when the machine has one, a listener
// inside the consented folder a), and a file's mode, times, owner and
// extended attributes.
type walls struct {
	outside, agent, inside string
	keyMode                os.FileMode
	keyTime                time.Time
}

// openWalls starts the listeners of walls, which accept until the test
// ends.
func openWalls(t *testing.T, h snoopHome) walls {
	t.Helper()
	w := walls{outside: filepath.Join(tempDir(t), "s.sock"), inside: filepath.Join(h.a, "s.sock")}
	for _, p := range []string{w.outside, w.inside} {
		testproc.ListenAndDrop(t, "unix", p)
	}
	if agent, err := exec.LookPath("ssh-agent"); err == nil {
		w.agent = filepath.Join(tempDir(t), "agent.sock")
		cmd := exec.Command(agent, "-D", "-a", w.agent)
		must(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		waitFor(t, "ssh-agent's socket", func() bool { _, err := os.Stat(w.agent); return err == nil })
	}
	fi, err := os.Stat(h.key)
	must(t, err)
	w.keyMode, w.keyTime = fi.Mode(), fi.ModTime()
	return w
}

// attempts adds the walls' attempts to args: each socket, and each
// metadata change of the key and of a file in a.
func (w walls) attempts(args *probeArgs, h snoopHome) {
	args.Dial = []string{w.outside, w.inside}
	if w.agent != "" {
		args.Dial = append(args.Dial, w.agent)
	}
	af := filepath.Join(h.a, "f")
	args.Chmod = []string{h.key, af}
	args.Fchmod = []string{af}
	args.Utime = []string{h.key, af}
	args.Chown = []string{h.key, af}
	args.Xattr = []string{h.key, af}
	args.Pair = true
}

// refused is what the walls answer: no socket outside (below ABI 9 none
// at all), no mode or time change outside, no owner or attribute change
// anywhere; socketpair works; with a consented, its file's mode and
// times change.
func (w walls) refused(h snoopHome, consentedA bool) map[string]string {
	af := filepath.Join(h.a, "f")
	want := map[string]string{
		"dial " + w.outside: "EACCES",
		"chmod " + h.key:    "EPERM",
		"utime " + h.key:    "EPERM",
		"chown " + h.key:    "EPERM",
		"xattr " + h.key:    "ENOTSUP",
		"chown " + af:       "EPERM",
		"xattr " + af:       "ENOTSUP",
		"pair":              "ok",
	}
	if w.agent != "" {
		want["dial "+w.agent] = "EACCES"
	}
	if abi := launch.WouldEnforce(launch.EnforceOn).ABI; abi < resolveUnixABI || !consentedA {
		want["dial "+w.inside] = "EACCES"
	} else {
		want["dial "+w.inside] = "ok"
	}
	if consentedA {
		want["chmod "+af], want["fchmod "+af], want["utime "+af] = "ok", "ok", "ok"
	} else {
		want["chmod "+af], want["utime "+af] = "EPERM", "EPERM"
	}
	return want
}

// unchanged checks from outside that the key kept its mode and time, and
// that a's file took the changes the server made (chmod 0644, then
// fchmod 0640; the year 2001).
func (w walls) unchanged(t *testing.T, h snoopHome) {
	t.Helper()
	if fi, err := os.Stat(h.key); err != nil || fi.Mode() != w.keyMode || !fi.ModTime().Equal(w.keyTime) {
		t.Errorf("the key changed: %v, %v (was %v, %v)", fi.Mode(), fi.ModTime(), w.keyMode, w.keyTime)
	}
	if fi, err := os.Stat(filepath.Join(h.a, "f")); err != nil || fi.Mode().Perm() != 0o640 || fi.ModTime().Year() != 2001 {
		t.Errorf("a's file: %v, %v; want 0640 from 2001", fi.Mode(), fi.ModTime())
	}
}

// checkTmp: the server writes its TMPDIR, a private folder of its own.
func checkTmp(t *testing.T, probe probeFunc, tmp string) {
	t.Helper()
	if tmp == "" || !strings.HasPrefix(filepath.Base(tmp), "rootpick-server-") {
		t.Fatalf("the server's TMPDIR is %q", tmp)
	}
	if fi, err := os.Stat(tmp); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("TMPDIR %s: %v, %v (want a 0700 folder)", tmp, fi, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got, err := probe(ctx, probeArgs{Write: []string{filepath.Join(tmp, "t")}})
	if err == nil && got["tmpdir"] == tmp && got["write "+filepath.Join(tmp, "t")] != "ok" {
		t.Errorf("writing its own TMPDIR: %v", got)
	}
}

// TestEnforcedHubServer: a server the picker launches (Hub) opens only
// what is consented, from its first start on, and its Connected event
// says it is enforced, with what else it can open.
func TestEnforcedHubServer(t *testing.T) {
	abi := needLandlock(t)
	h := plantHome(t)
	hub := mcpconn.NewHub(mcpconn.Options{Timing: testTiming})
	events := collect(hub)
	defer hub.Close()
	cmd := testproc.SelfServer(t, "snoop", testproc.UniqueMarker("snoop-hub"), h.arg)
	if err := hub.Connect(context.Background(), mcpconn.Spec{Name: "snoop", Command: cmd, Enforce: launch.EnforceRequire}); err != nil {
		t.Fatal(err)
	}
	probe := func(ctx context.Context, args probeArgs) (map[string]string, error) {
		return decodeProbe(hub.CallTool(ctx, "snoop", "probe", args.call()))
	}
	var tmps []string
	checkSnoop(t, h, probe, func(roots []consent.Root) {
		// The server now running is the one the last Connected event
		// was of: the change retires it and its TMPDIR.
		evs := events()
		for i := len(evs) - 1; i >= 0; i-- {
			if e := evs[i]; e.Kind == mcpconn.Connected && e.Server == "snoop" {
				if e.Enforcement != nil && e.Enforcement.Policy != nil {
					tmps = append(tmps, policyTmp(*e.Enforcement.Policy))
				}
				break
			}
		}
		hub.SetRoots(roots)
	})
	var connected []mcpconn.Event
	for _, e := range events() {
		if e.Kind == mcpconn.Connected && e.Server == "snoop" {
			connected = append(connected, e)
		}
	}
	if len(connected) < 4 {
		t.Fatalf("%d Connected events; want one per consent (4)", len(connected))
	}
	for _, e := range connected {
		if e.Enforcement == nil || !e.Enforcement.Enforced || e.Enforcement.ABI != abi || e.Enforcement.Policy == nil {
			t.Errorf("Connected says %+v; want enforced with ABI %d", e.Enforcement, abi)
		}
	}
	// The first start had nothing consented; the second had a.
	if p := connected[0].Enforcement.Policy; slices.ContainsFunc(p.Paths, func(pp launch.PolicyPath) bool { return pp.Why == launch.WhyConsented }) {
		t.Errorf("the first start's policy has consented paths: %+v", p.Paths)
	}
	if p := connected[1].Enforcement.Policy; !slices.ContainsFunc(p.Paths, func(pp launch.PolicyPath) bool { return pp.Why == launch.WhyConsented && pp.Path == h.a }) {
		t.Errorf("the start after consenting a does not grant a: %+v", p.Paths)
	}
	// Each retired server's TMPDIR is removed once it has ended: one a
	// change after the first start (the last one's server still runs).
	if len(tmps) < 3 {
		t.Fatalf("%d retired TMPDIRs seen (%v); want one a change", len(tmps), tmps)
	}
	for _, tmp := range tmps {
		waitFor(t, "the retired server's TMPDIR "+tmp+" to be removed", func() bool {
			_, err := os.Stat(tmp)
			return errors.Is(err, os.ErrNotExist)
		})
	}
}

// policyTmp is the private temporary folder a policy grants.
func policyTmp(p launch.Policy) string {
	for _, pp := range p.Paths {
		if pp.Why == launch.WhyTmp {
			return pp.Path
		}
	}
	return ""
}

// enforcedHost is a test host in front of proxy.Run with opts.
type enforcedHost struct {
	session *mcp.ClientSession
	mu      sync.Mutex
	status  []proxy.Status
}

func (e *enforcedHost) statuses() []proxy.Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.status)
}

func startEnforcedHost(t *testing.T, opts proxy.Options) *enforcedHost {
	t.Helper()
	e := &enforcedHost{}
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	opts.Timing, opts.Logger = testTiming, testproc.Logger(t)
	opts.Status = func(s proxy.Status) {
		e.mu.Lock()
		e.status = append(e.status, s)
		e.mu.Unlock()
	}
	go func() { done <- proxy.Run(ctx, st, opts) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	e.session = cs
	t.Cleanup(func() { testproc.EndRun(t, cs, cancel, done) })
	return e
}

func (e *enforcedHost) call(ctx context.Context, tool string, args map[string]any) (string, error) {
	return mcpconn.CallTool(ctx, e.session, tool, args)
}

// TestEnforcedProxyChild: the server behind rootpick proxy opens only what
// is consented; every change restarts it under the new ruleset; its
// status says enforced, with the ABI and what it may open.
func TestEnforcedProxyChild(t *testing.T) {
	abi := needLandlock(t)
	h := plantHome(t)
	src := testproc.NewSource()
	cmd := testproc.SelfServer(t, "snoop", testproc.UniqueMarker("snoop-proxy"), h.arg)
	host := startEnforcedHost(t, proxy.Options{Command: cmd, Source: src, Enforce: launch.EnforceRequire})
	probe := func(ctx context.Context, args probeArgs) (map[string]string, error) {
		return decodeProbe(host.call(ctx, "probe", args.call()))
	}
	checkSnoop(t, h, probe, func(roots []consent.Root) { src.Set(roots, nil) })
	sts := host.statuses()
	last := sts[len(sts)-1]
	if last.Enforcement != "enforced" || last.LandlockABI != abi || last.Advisory != "" || len(last.Access) == 0 {
		t.Errorf("last status: enforcement %q, ABI %d, advisory %q, %d paths", last.Enforcement, last.LandlockABI, last.Advisory, len(last.Access))
	}
	if slices.ContainsFunc(last.Access, func(pp launch.PolicyPath) bool { return pp.Why == launch.WhyConsented }) {
		t.Errorf("after revoking all the status still grants a consented folder: %+v", last.Access)
	}
	starts, prev := 0, ""
	for _, s := range sts {
		if s.State == "starting" && prev != "starting" {
			starts++
		}
		prev = s.State
	}
	if starts < 4 {
		t.Errorf("%d starts reported; want the first and one per change (4)", starts)
	}
	if !slices.ContainsFunc(sts, func(s proxy.Status) bool { return s.Error == mcpconn.RestartEnforced }) {
		t.Errorf("no status says why the server was restarted (%q)", mcpconn.RestartEnforced)
	}
}

// TestEnforceOffAndRequire: off runs the server advisory (it reads what
// it likes) and says why; require refuses to start a server it cannot
// enforce, finally, saying why.
func TestEnforceOffAndRequire(t *testing.T) {
	needLandlock(t)
	h := plantHome(t)
	hub := mcpconn.NewHub(mcpconn.Options{Timing: testTiming})
	events := collect(hub)
	defer hub.Close()
	cmd := testproc.SelfServer(t, "snoop", testproc.UniqueMarker("snoop-off"))
	if err := hub.Connect(context.Background(), mcpconn.Spec{Name: "off", Command: cmd, Enforce: launch.EnforceOff}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := decodeProbe(hub.CallTool(ctx, "off", "probe", map[string]any{"read": []string{h.key}}))
	if err != nil || got["read "+h.key] != "ok" {
		t.Errorf("an advisory server reading the key: %v, %v (want ok: nothing stops it)", got, err)
	}
	if e := connectedEvent(t, events, "off").Enforcement; e == nil || e.Enforced || e.Advisory != "enforce is off for this server" || e.String() != "advisory: enforce is off for this server" {
		t.Errorf("Connected says %+v", e)
	}

}

// connectedEvent waits for server's first Connected event and returns it.
func connectedEvent(t *testing.T, events func() []mcpconn.Event, server string) mcpconn.Event {
	t.Helper()
	var found mcpconn.Event
	waitFor(t, server+"'s Connected event", func() bool {
		evs := events()
		i := slices.IndexFunc(evs, func(e mcpconn.Event) bool { return e.Kind == mcpconn.Connected && e.Server == server })
		if i >= 0 {
			found = evs[i]
		}
		return i >= 0
	})
	return found
}

// TestEnforceWithoutAGuard: in a program that did not call GuardMain
// there is nothing to apply a ruleset: require refuses, on fails open and
// says so. The test runs itself again in a test binary started without
// the guard (ROOTPICK_TEST_NO_GUARD: TestMain skips GuardMain).
func TestEnforceWithoutAGuard(t *testing.T) {
	if os.Getenv("ROOTPICK_TEST_NO_GUARD") == "" {
		needLandlock(t)
		cmd := exec.Command(os.Args[0], "-test.run=^TestEnforceWithoutAGuard$", "-test.v")
		cmd.Env = append(os.Environ(), "ROOTPICK_TEST_NO_GUARD=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestEnforceWithoutAGuard") {
			t.Fatalf("without a guard: %v\n%s", err, out)
		}
		return
	}
	hub := mcpconn.NewHub(mcpconn.Options{Timing: testTiming})
	events := collect(hub)
	defer hub.Close()
	ctx := context.Background()
	cmd := testproc.SelfServer(t, "snoop", testproc.UniqueMarker("snoop-noguard"))
	err := hub.Connect(ctx, mcpconn.Spec{Name: "req", Command: cmd, Enforce: launch.EnforceRequire})
	if !launch.IsFinal(err) || !strings.Contains(err.Error(), "enforce = require") {
		t.Errorf("require without a guard: %v; want a final error that names require", err)
	}
	if err := hub.Connect(ctx, mcpconn.Spec{Name: "on", Command: cmd, Enforce: launch.EnforceOn}); err != nil {
		t.Fatal(err)
	}
	// rootpick proxy with require and no way to enforce exits at once,
	// saying why, rather than serve the host an unenforced server.
	_, st := mcp.NewInMemoryTransports()
	perr := proxy.Run(ctx, st, proxy.Options{Command: cmd, Enforce: launch.EnforceRequire, Logger: testproc.Logger(t)})
	if !launch.IsFinal(perr) || !strings.Contains(perr.Error(), "enforce = require") {
		t.Errorf("proxy with require without a guard: %v; want a final error that names require", perr)
	}
	if e := connectedEvent(t, events, "on").Enforcement; e == nil || e.Enforced || !strings.Contains(e.Advisory, "no guard") {
		t.Errorf("on without a guard: %+v; want advisory, saying there is no guard", e)
	}
}

// TestEnforcedAllowSocket: a socket the person allowed (allow-socket) is
// reachable, and the policy and UnixSockets say so; below Landlock ABI 9
// the filter cannot hold the server to that one socket, and UnixSockets
// says that any is reachable.
func TestEnforcedAllowSocket(t *testing.T) {
	abi := needLandlock(t)
	h := plantHome(t)
	w := openWalls(t, h)
	hub := mcpconn.NewHub(mcpconn.Options{Timing: testTiming})
	events := collect(hub)
	defer hub.Close()
	cmd := testproc.SelfServer(t, "snoop", testproc.UniqueMarker("snoop-socket"))
	if err := hub.Connect(context.Background(), mcpconn.Spec{Name: "snoop", Command: cmd, Enforce: launch.EnforceRequire, AllowSocket: []string{w.outside}}); err != nil {
		t.Fatal(err)
	}
	probe := func(ctx context.Context, args probeArgs) (map[string]string, error) {
		return decodeProbe(hub.CallTool(ctx, "snoop", "probe", args.call()))
	}
	got := probeUntil(t, "a probe", probe, probeArgs{Dial: []string{w.outside}}, func(map[string]string) bool { return true })
	expect(t, "allow-socket", got, map[string]string{"dial " + w.outside: "ok"})
	e := connectedEvent(t, events, "snoop")
	if e.Enforcement == nil || e.Enforcement.Policy == nil ||
		!slices.ContainsFunc(e.Enforcement.Policy.Paths, func(pp launch.PolicyPath) bool {
			return pp.Path == w.outside && pp.Access == launch.AccessConnect && pp.Why == launch.WhyAllowSocket
		}) {
		t.Fatalf("the policy does not grant the socket: %+v", e.Enforcement)
	}
	says := e.Enforcement.Policy.UnixSockets(abi)
	if abi < resolveUnixABI && !strings.HasPrefix(says, "any: allow-socket "+w.outside) {
		t.Errorf("UnixSockets says %q; want that any socket is reachable below ABI 9", says)
	}
}

func init() {
	// cachewriter writes a marker in its npm cache (npm_config_cache),
	// as npx does, then serves the demo: run as "npx", through a link.
	faultModes["cachewriter"] = func() {
		if err := os.WriteFile(filepath.Join(os.Getenv("npm_config_cache"), "marker"), []byte("x"), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "cache:", err)
			os.Exit(1)
		}
		if err := mcpconn.NewDemo(nil, os.Stderr).ServeStdio(context.Background()); err != nil {
			os.Exit(1)
		}
	}
}

// TestEnforcedLauncherCacheIsMade: an npx whose cache does not exist yet
// gets it made before the ruleset (the launcher would make it, but cannot
// make a folder its ruleset does not grant), and writes it.
func TestEnforcedLauncherCacheIsMade(t *testing.T) {
	needLandlock(t)
	exe, err := os.Executable()
	must(t, err)
	bin := tempDir(t)
	npx := filepath.Join(bin, "npx")
	must(t, os.Symlink(exe, npx))
	cache := filepath.Join(tempDir(t), "not-yet", "npm-cache")
	t.Setenv("npm_config_cache", cache)
	hub := mcpconn.NewHub(mcpconn.Options{Timing: testTiming})
	defer hub.Close()
	if err := hub.Connect(context.Background(), mcpconn.Spec{Name: "npx", Command: []string{"env", "ROOTPICK_TEST_SERVE=cachewriter", npx}, Enforce: launch.EnforceRequire}); err != nil {
		t.Fatalf("an npx with no cache yet: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(cache, "marker")); err != nil || string(b) != "x" {
		t.Errorf("the server's write in its cache: %q, %v", b, err)
	}
	if fi, err := os.Stat(cache); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the cache made: %v, %v; want a 0700 folder", fi, err)
	}
}

// TestEnforcedEnvCannotWiden: the escapes of a project file's env, tried
// by a server that ignores roots behind the proxy: started as npx with
// npm_config_cache=~/.ssh (what a cloned .mcp.json can set), it cannot
// read the key its "cache" would have granted, and the proxy's status
// names what was refused.
func TestEnforcedEnvCannotWiden(t *testing.T) {
	needLandlock(t)
	h := plantHome(t)
	exe, err := os.Executable()
	must(t, err)
	npx := filepath.Join(tempDir(t), "npx")
	must(t, os.Symlink(exe, npx))
	t.Setenv("npm_config_cache", filepath.Join(h.home, ".ssh"))
	t.Setenv("UV_CACHE_DIR", filepath.Join(h.home, ".gnupg"))
	src := testproc.NewSource()
	host := startEnforcedHost(t, proxy.Options{Command: []string{"env", "ROOTPICK_TEST_SERVE=snoop", npx, testproc.UniqueMarker("snoop-env")}, Source: src, Enforce: launch.EnforceRequire})
	probe := func(ctx context.Context, args probeArgs) (map[string]string, error) {
		return decodeProbe(host.call(ctx, "probe", args.call()))
	}
	got := probeUntil(t, "a probe", probe, probeArgs{Read: []string{h.key}, List: []string{filepath.Dir(h.key)}}, func(map[string]string) bool { return true })
	expect(t, "npm_config_cache=~/.ssh", got, map[string]string{"read " + h.key: "EACCES", "list " + filepath.Dir(h.key): "EACCES"})
	sts := host.statuses()
	last := sts[len(sts)-1]
	if slices.ContainsFunc(last.Access, func(pp launch.PolicyPath) bool { return within(pp.Path, filepath.Join(h.home, ".ssh")) }) {
		t.Errorf("the status grants ~/.ssh: %+v", last.Access)
	}
}

// TestEnforcedNetworkOff: network = off refuses the server every IP
// socket, TCP and UDP, loopback included; on, the same connects; the
// policy and its words say which.
func TestEnforcedNetworkOff(t *testing.T) {
	needLandlock(t)
	addr := testproc.ListenAndDrop(t, "tcp", "127.0.0.1:0")
	hub := mcpconn.NewHub(mcpconn.Options{Timing: testTiming})
	events := collect(hub)
	defer hub.Close()
	for _, c := range []struct {
		network launch.Network
		want    string
		words   string
	}{{launch.NetworkOff, "EACCES", "off"}, {launch.NetworkOn, "ok", "on"}, {launch.NetworkDefault, "ok", "on"}} {
		name := "net-" + string(c.network)
		if err := hub.Connect(context.Background(), mcpconn.Spec{Name: name, Command: testproc.SelfServer(t, "snoop", testproc.UniqueMarker(name)), Enforce: launch.EnforceRequire, Network: c.network}); err != nil {
			t.Fatal(err)
		}
		probe := func(ctx context.Context, args probeArgs) (map[string]string, error) {
			return decodeProbe(hub.CallTool(ctx, name, "probe", args.call()))
		}
		got := probeUntil(t, "a probe", probe, probeArgs{TCP: []string{addr}, UDP: []string{addr}}, func(map[string]string) bool { return true })
		expect(t, "network "+string(c.network), got, map[string]string{"tcp " + addr: c.want, "udp " + addr: c.want})
		e := connectedEvent(t, events, name)
		if e.Enforcement == nil || e.Enforcement.Policy == nil || !strings.HasPrefix(e.Enforcement.Policy.NetworkWords(), c.words) {
			t.Errorf("network %q: the policy says %+v", c.network, e.Enforcement)
		}
	}
}

// TestEnforcedShellServer: a server started through sh -c (as host
// configurations often write it) runs enforced: the policy reads the
// command string and grants the program it execs, and the server holds
// the consent like any other.
func TestEnforcedShellServer(t *testing.T) {
	needLandlock(t)
	h := plantHome(t)
	exe, err := os.Executable()
	must(t, err)
	hub := mcpconn.NewHub(mcpconn.Options{Timing: testTiming})
	defer hub.Close()
	script := "exec env ROOTPICK_TEST_SERVE=snoop '" + exe + "' " + testproc.UniqueMarker("snoop-sh")
	if err := hub.Connect(context.Background(), mcpconn.Spec{Name: "sh", Command: []string{"sh", "-c", script}, Enforce: launch.EnforceRequire}); err != nil {
		t.Fatalf("sh -c %q, enforced: %v", script, err)
	}
	probe := func(ctx context.Context, args probeArgs) (map[string]string, error) {
		return decodeProbe(hub.CallTool(ctx, "sh", "probe", args.call()))
	}
	hub.SetRoots([]consent.Root{testproc.Root(t, h.a)})
	got := probeUntil(t, "the server to read a", probe, probeArgs{Read: []string{filepath.Join(h.a, "f"), h.key}}, func(m map[string]string) bool { return m["read "+filepath.Join(h.a, "f")] == "ok" })
	expect(t, "sh -c, a consented", got, map[string]string{"read " + h.key: "EACCES"})
}
