package faultserver

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
)

// Proc is one process as /proc/PID/stat shows it. Tests watch processes
// with this reader of their own, not with mcpconn/launch's: a slip in the
// reader under test cannot hide itself from its tests.
type Proc struct {
	PID, PPID int
	// Start is when the process started, in clock ticks since boot: it
	// tells a process from a later one that reuses its pid.
	Start uint64
	State string // R, S, D, Z, X, …
}

// Dead reports whether p has exited (a zombie or being reaped).
func (p Proc) Dead() bool { return p.State == "Z" || p.State == "X" }

// ReadProc reads pid's /proc/PID/stat; false if there is no such process.
func ReadProc(pid int) (Proc, bool) {
	f := stat(pid)
	if len(f) < 20 {
		return Proc{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	start, _ := strconv.ParseUint(f[19], 10, 64)
	return Proc{PID: pid, PPID: ppid, Start: start, State: f[0]}, true
}

// Procs lists every process /proc shows.
func Procs() []Proc {
	entries, _ := os.ReadDir("/proc")
	var out []Proc
	for _, e := range entries {
		if n, err := strconv.Atoi(e.Name()); err == nil {
			if p, ok := ReadProc(n); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// Tree lists root's descendants among procs, parents before children.
func Tree(procs []Proc, root int) []Proc {
	children := map[int][]Proc{}
	for _, p := range procs {
		children[p.PPID] = append(children[p.PPID], p)
	}
	var out []Proc
	var walk func(int)
	walk = func(pid int) {
		for _, c := range children[pid] {
			out = append(out, c)
			walk(c.PID)
		}
	}
	walk(root)
	return out
}

// Alive reports whether the process that had pid and start still runs.
func Alive(pid int, start uint64) bool {
	p, ok := ReadProc(pid)
	return ok && p.Start == start && !p.Dead()
}

// Env returns pid's environment entries (nil if it cannot be read).
func Env(pid int) [][]byte {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return nil
	}
	return bytes.Split(b, []byte{0})
}

// WithEnv lists the live processes whose environment holds entry
// ("NAME=value") exactly.
func WithEnv(entry string) []int {
	var pids []int
	for _, p := range Procs() {
		if p.Dead() {
			continue
		}
		for _, e := range Env(p.PID) {
			if string(e) == entry {
				pids = append(pids, p.PID)
				break
			}
		}
	}
	return pids
}

// Argv0 is pid's argv[0] ("" if it cannot be read).
func Argv0(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	argv0, _, _ := bytes.Cut(b, []byte{0})
	return string(argv0)
}

// GuardArgv0 is the argv[0] a server's guard shows in ps (mcpconn/launch
// names its guard so; the tests look for it from outside).
const GuardArgv0 = "rootpick-guard"

// Process modes: not MCP servers, the processes a server leaves behind
// (a test binary becomes one when ROOTPICK_TEST_SERVE names it; see Run).
func init() {
	// sleeper writes its pid to $ROOTPICK_TEST_PIDFILE and sleeps, deaf
	// to the polite signals.
	servers["sleeper"] = func() {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		AppendPid(os.Getenv("ROOTPICK_TEST_PIDFILE"))
		time.Sleep(time.Hour)
	}
	// brief writes its pid to $ROOTPICK_TEST_PIDFILE and exits 200 ms
	// later.
	servers["brief"] = func() {
		AppendPid(os.Getenv("ROOTPICK_TEST_PIDFILE"))
		time.Sleep(200 * time.Millisecond)
	}
	// setsid-untagged starts, with a cleared environment (as by env -i,
	// so no server tag), a sleeper in a new session, then sleeps: only
	// the server's children in /proc lead to it.
	servers["setsid-untagged"] = func() {
		if err := untaggedSleeper().Start(); err != nil {
			os.Exit(1)
		}
		time.Sleep(time.Hour)
	}
	// orphan-parent-untagged starts such a sleeper and exits: the sleeper
	// is an orphan only a subreaper can find.
	servers["orphan-parent-untagged"] = func() {
		if err := untaggedSleeper().Start(); err != nil {
			os.Exit(1)
		}
	}
	// orphan-brief-parent starts a brief process in a new session and
	// exits.
	servers["orphan-brief-parent"] = func() {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=brief")
		cmd.SysProcAttr = testproc.SessionAttr(true)
		if err := cmd.Start(); err != nil {
			os.Exit(1)
		}
	}
}

// SpawnSleeper starts the sleeper (this binary as the "sleeper" server)
// in a new session, with this process's environment, and does not wait
// for it.
func SpawnSleeper() {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=sleeper")
	cmd.SysProcAttr = testproc.SessionAttr(true)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "spawning the sleeper:", err)
		os.Exit(1)
	}
}

// untaggedSleeper is the sleeper with a cleared environment, in a new
// session.
func untaggedSleeper() *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = []string{"ROOTPICK_TEST_SERVE=sleeper", "ROOTPICK_TEST_PIDFILE=" + os.Getenv("ROOTPICK_TEST_PIDFILE")}
	cmd.SysProcAttr = testproc.SessionAttr(true)
	return cmd
}

// AppendPid adds this process's pid to file, one a line (ReadPids).
func AppendPid(file string) {
	f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		os.Exit(1)
	}
	_, _ = f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	_ = f.Close()
}

// WaitPids waits until want processes have written their pid to pidfile
// (AppendPid) and are running, and returns their pids; t fails after 30 s.
func WaitPids(t testing.TB, pidfile string, want int) []int {
	t.Helper()
	var pids []int
	testproc.WaitFor(t, "the processes' pids", func() bool {
		pids = ReadPids(pidfile)
		if len(pids) != want {
			return false
		}
		for _, p := range pids {
			if !Running(p) {
				return false
			}
		}
		return true
	})
	return pids
}

// ServerPids lists the live processes whose command line holds s, less
// the guards (argv[0] GuardArgv0), whose command line holds their
// server's.
func ServerPids(s string) []string {
	return slices.DeleteFunc(PidsWith(s), func(pid string) bool {
		n, _ := strconv.Atoi(pid)
		return Argv0(n) == GuardArgv0
	})
}

// KillServer kills, with SIGKILL, the one server process whose command
// line holds marker, and returns its pid; t fails unless there is exactly
// one.
func KillServer(t testing.TB, marker string) string {
	t.Helper()
	pids := ServerPids(marker)
	if len(pids) != 1 {
		t.Fatalf("want one server process, have %v", pids)
	}
	pid, err := strconv.Atoi(pids[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := testproc.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	return pids[0]
}
