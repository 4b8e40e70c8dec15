package launch

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// TestEndTreeFollowsDescendants: ending a running server ends a
// grandchild that left the server's process group (setsid) and carries no
// tag (its environment was cleared), while its parent still lives: only
// the walk from the server down its children finds it. (In
// TestCloseEndsSetsidGrandchild the tag finds the grandchild too, so that
// test passes without the walk.)
func TestEndTreeFollowsDescendants(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	tag := mustTag(t)
	server := exec.Command(os.Args[0])
	server.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=setsid-untagged", "ROOTPICK_TEST_PIDFILE="+pidfile, tag)
	setProcAttr(server)
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = server.Wait() }()
	grandchild := faultserver.WaitPids(t, pidfile, 1)[0]
	t.Cleanup(func() { _ = syscall.Kill(grandchild, syscall.SIGKILL) })
	if g, _ := readProc(grandchild); g.ppid != server.Process.Pid || g.pgid == server.Process.Pid || hasTag(grandchild, tag) {
		t.Fatalf("grandchild %+v: want a child of the server %d, out of its group, untagged", g, server.Process.Pid)
	}
	endTree(server.Process.Pid, startStamp(server.Process.Pid), tag, 200*time.Millisecond, time.Second)
	if faultserver.Running(grandchild) {
		t.Fatalf("the server's untagged grandchild %d, out of its group, still runs after endTree", grandchild)
	}
}

// taggedRunning lists the running processes whose environment holds tag.
func taggedRunning(tag string) []int {
	var pids []int
	for _, p := range readProcs() {
		if !p.dead() && hasTag(p.pid, tag) {
			pids = append(pids, p.pid)
		}
	}
	return pids
}

// TestEndTreeKillsPastTheDeadline: when looking for the server's
// processes takes longer than killGrace (a loaded machine), what was found
// is still killed: ending a server never stops at SIGTERM.
func TestEndTreeKillsPastTheDeadline(t *testing.T) {
	cmd := exec.Command("sh", "-c", `trap "" TERM; sleep 30`)
	setProcAttr(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	endTree(cmd.Process.Pid, startStamp(cmd.Process.Pid), "", 50*time.Millisecond, 0)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a server that ignores SIGTERM still runs 5 s after endTree with a deadline already past")
	}
}

// TestEndTreeCatchesLateForks: a server that keeps starting processes
// which leave its group (setsid) and ignore SIGTERM, even while it is being
// ended, leaves none of them running.
func TestEndTreeCatchesLateForks(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		testskip.Skip(t, "setsid", "setsid not installed: apt-get install util-linux")
	}
	for range 5 {
		tag := mustTag(t)
		cmd := exec.Command("sh", "-c", `trap "" TERM; while :; do setsid sh -c 'trap "" TERM; sleep 30' & sleep 0.002; done`)
		cmd.Env = append(os.Environ(), tag)
		setProcAttr(cmd)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { _ = cmd.Wait() }()
		waitFor(t, "a few forks", func() bool { return len(taggedRunning(tag)) > 10 })
		endTree(cmd.Process.Pid, startStamp(cmd.Process.Pid), tag, 200*time.Millisecond, time.Second)
		// A process killed may take a moment to die on a loaded machine;
		// one missed sleeps for 30 s.
		deadline := time.Now().Add(5 * time.Second)
		for len(taggedRunning(tag)) > 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if left := taggedRunning(tag); len(left) > 0 {
			for _, p := range left {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("%d processes started while the server was ended are still running: %v", len(left), left)
		}
	}
}

// TestReapingPassesAreSpaced: children that os/exec waits for (the
// picker's git status runs, many a second while a key is held) each send
// SIGCHLD; a pass over the process table that finds no orphan is followed
// by a pause, so 30 such children in quick succession cost a handful of
// passes, not 30.
func TestReapingPassesAreSpaced(t *testing.T) {
	if err := BecomeSubreaper(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * reapEvery) // passes left over from earlier tests
	before := reapPasses.Load()
	start := time.Now()
	for range 30 {
		if err := exec.Command("true").Run(); err != nil {
			t.Fatal(err)
		}
	}
	took := time.Since(start)
	time.Sleep(reapEvery / 2)
	passes := reapPasses.Load() - before
	if max := int64(took/reapEvery) + 3; passes > max {
		t.Fatalf("30 children in %v made %d reaping passes, want at most %d", took.Round(time.Millisecond), passes, max)
	}
	t.Logf("30 children in %v: %d reaping passes", took.Round(time.Millisecond), passes)
}

// mustTag returns a new server tag.
func mustTag(t *testing.T) string {
	t.Helper()
	tag, err := serverTag()
	if err != nil {
		t.Fatal(err)
	}
	return tag
}

// TestServerTag: tags are long, random, and ours; a short or foreign one
// is refused.
func TestServerTag(t *testing.T) {
	a, b := mustTag(t), mustTag(t)
	if a == b {
		t.Fatalf("two servers got the same tag %q", a)
	}
	name, _, _ := strings.Cut(a, "=")
	if len(a) < minTagLen || !strings.HasPrefix(a, tagPrefix) || len(name)-len(tagPrefix) != 2*tagRandomBytes {
		t.Fatalf("tag %q: want %s and %d hex digits", a, tagPrefix, 2*tagRandomBytes)
	}
	for _, tag := range []string{"", "A=1", tagPrefix + "1=1", a[:minTagLen-1], "PATH=" + strings.Repeat("/usr/bin:", 10)} {
		if validTag(tag) {
			t.Errorf("validTag(%q) = true", tag)
		}
	}
}

// sleeper starts sleep(1) with environment env (os.Environ() if nil),
// as user cred if not nil, in a process group of its own when group is
// set (a server, as setProcAttr makes it), and returns it; the test's end
// kills it.
func sleeper(t *testing.T, env []string, cred *syscall.Credential, group bool) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	cmd.Env = env
	if group {
		setProcAttr(cmd)
	}
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	return cmd
}

// endServer ends server as processTransport.stop does, with tag, and
// checks that it is gone.
func endServer(t *testing.T, server *exec.Cmd, stamp uint64, tag string) {
	t.Helper()
	pid := server.Process.Pid
	endTree(pid, stamp, tag, time.Second, time.Second)
	if faultserver.Running(pid) {
		t.Fatalf("the server %d still runs after endTree", pid)
	}
}

// TestSweepSparesOthers: ending a server with an empty, short, foreign or
// unrelated tag signals nothing outside the server's tree: not processes
// of this user started after the server whose environment holds the tag
// given, the server's own tag, or entries much like it. (endTree waits for
// every process it signalled to be gone, so a bystander it reached is dead
// when it returns.)
func TestSweepSparesOthers(t *testing.T) {
	pathEntry := "PATH=" + os.Getenv("PATH")
	for _, tc := range []struct {
		name string
		// tag is the tag endTree is given and env the environment
		// entries of the bystanders (one each), from the server's tag
		// and another valid one.
		tag func(server, other string) string
		env func(server, other string) []string
	}{
		{"empty", func(_, _ string) string { return "" }, func(_, _ string) []string { return []string{"A=1"} }},
		{"short", func(_, _ string) string { return "A=1" }, func(_, _ string) []string { return []string{"A=1"} }},
		{"foreign", func(_, _ string) string { return pathEntry }, func(_, _ string) []string { return []string{pathEntry} }},
		{"unrelated", func(_, other string) string { return other }, func(server, other string) []string {
			return []string{server, other + "0", "X" + other}
		}},
		{"similar", func(server, _ string) string { return server }, func(server, _ string) []string {
			digit := server[len(server)-3]
			flipped := "0"
			if digit == '0' {
				flipped = "1"
			}
			return []string{
				server + "0",                            // the tag starts the entry
				"X" + server,                            // the tag ends the entry
				server[:len(server)-3] + flipped + "=1", // one digit differs
				strings.TrimSuffix(server, "=1") + "=2", // another value
				"OTHER=" + server,                       // inside a value
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tag, other := mustTag(t), mustTag(t)
			server := sleeper(t, append(os.Environ(), tag), nil, true)
			stamp := startStamp(server.Process.Pid)
			bystanders := map[string]*exec.Cmd{"(the test's)": sleeper(t, nil, nil, false)}
			for _, entry := range tc.env(tag, other) {
				bystanders[entry] = sleeper(t, append(os.Environ(), entry), nil, false)
			}
			endServer(t, server, stamp, tc.tag(tag, other))
			for entry, b := range bystanders {
				if !faultserver.Running(b.Process.Pid) {
					t.Errorf("bystander %d with environment entry %q was ended", b.Process.Pid, entry)
				}
			}
		})
	}
}

// TestSweepSparesEarlierProcesses: a process of this user whose
// environment holds the server's tag but that started before the server
// did is not the server's; one that started after it is ended.
func TestSweepSparesEarlierProcesses(t *testing.T) {
	tag := mustTag(t)
	env := append(os.Environ(), tag)
	earlier := sleeper(t, env, nil, false)
	// Start times count clock ticks: retry until the server's is later.
	var server *exec.Cmd
	var stamp uint64
	waitFor(t, "a server started a clock tick after the earlier process", func() bool {
		if server != nil {
			_ = server.Process.Kill()
		}
		server = sleeper(t, env, nil, true)
		stamp = startStamp(server.Process.Pid)
		return stamp > startStamp(earlier.Process.Pid)
	})
	later := sleeper(t, env, nil, false)
	endServer(t, server, stamp, tag)
	if !faultserver.Running(earlier.Process.Pid) {
		t.Errorf("the tagged process %d started before the server was ended", earlier.Process.Pid)
	}
	if faultserver.Running(later.Process.Pid) {
		t.Errorf("the tagged process %d started after the server still runs: the tag matches nothing", later.Process.Pid)
	}
}

// TestSweepSparesOtherUsers: a process of another user whose environment
// holds the server's tag, started after the server, is not ended, even by
// root, who can read its environment and signal it.
func TestSweepSparesOtherUsers(t *testing.T) {
	if os.Getuid() != 0 {
		testskip.Skip(t, "not root", "starting a process as another user needs root (.ci/run runs as root)")
	}
	tag := mustTag(t)
	env := append(os.Environ(), tag)
	server := sleeper(t, env, nil, true)
	stamp := startStamp(server.Process.Pid)
	nobody := sleeper(t, env, &syscall.Credential{Uid: 65534, Gid: 65534}, false)
	// Start returns once exec is under way, but the new program's
	// environment shows in /proc only when exec has set it up: under load
	// the first read can come before and find none.
	waitFor(t, "the other user's process to show the tag (without it the test proves nothing)", func() bool {
		return hasTag(nobody.Process.Pid, tag)
	})
	mine := sleeper(t, env, nil, false)
	endServer(t, server, stamp, tag)
	if !faultserver.Running(nobody.Process.Pid) {
		t.Errorf("the tagged process %d of user 65534 was ended", nobody.Process.Pid)
	}
	if faultserver.Running(mine.Process.Pid) {
		t.Errorf("the tagged process %d of this user still runs: the tag matches nothing", mine.Process.Pid)
	}
}

// TestSweepSparesAReusedPid: once a server is gone its pid may be given to
// a new process, which may lead a process group of its own; ending the
// server then (its stamp no longer matches the pid) leaves that process
// and its group alone.
func TestSweepSparesAReusedPid(t *testing.T) {
	leader := sleeper(t, nil, nil, true) // a group leader holding the "server's" pid
	member := exec.Command("sleep", "60")
	member.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: leader.Process.Pid}
	if err := member.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = member.Process.Kill()
		_ = member.Wait()
	})
	stamp := startStamp(leader.Process.Pid) + 1 // the server that had the pid before
	endTree(leader.Process.Pid, stamp, "", 200*time.Millisecond, 200*time.Millisecond)
	for _, p := range []*exec.Cmd{leader, member} {
		if !faultserver.Running(p.Process.Pid) {
			t.Errorf("process %d of the group that reuses the pid was ended", p.Process.Pid)
		}
	}
}

// TestTargetKnowsAProcessByItsStart: a process being ended is known by
// its pid and its start time; a process that holds the pid with another
// start time (the pid was reused meanwhile) is not running as far as the
// target knows, and is never signalled.
func TestTargetKnowsAProcessByItsStart(t *testing.T) {
	p := sleeper(t, nil, nil, false)
	pid := p.Process.Pid
	stamp := startStamp(pid)
	if stamp == 0 {
		t.Fatalf("no start time for %d", pid)
	}
	if live := (target{pid: stamp}).live(); !slices.Equal(live, []int{pid}) {
		t.Fatalf("a target of %d at its start time sees %v running", pid, live)
	}
	reused := target{pid: stamp + 1} // the process that had the pid before
	if live := reused.live(); len(live) > 0 {
		t.Errorf("a target of an earlier process with pid %d sees %v running", pid, live)
	}
	reused.signal(syscall.SIGKILL)
	time.Sleep(50 * time.Millisecond) // a kill would have taken effect
	if !faultserver.Running(pid) {
		t.Errorf("process %d, which reuses the pid of one being ended, was killed", pid)
	}
}

// TestOwnTaggedNeedsTheUser: a process that carries the server's tag and
// started after it is ended as the server's only when its user can be
// read and is this one's.
func TestOwnTaggedNeedsTheUser(t *testing.T) {
	tag := mustTag(t)
	server := sleeper(t, append(os.Environ(), tag), nil, true)
	stamp := startStamp(server.Process.Pid)
	q := sleeper(t, append(os.Environ(), tag), nil, false)
	// Its environment shows in /proc once exec has set it up.
	waitFor(t, "the tagged process to show its tag", func() bool { return hasTag(q.Process.Pid, tag) })
	p, ok := readProc(q.Process.Pid)
	if !ok || p.start < stamp {
		t.Fatalf("the tagged process %+v did not start after the server (%d)", p, stamp)
	}
	uid := os.Getuid()
	for _, tc := range []struct {
		name  string
		uidOf func(int) (int, bool)
		want  bool
	}{
		{"this user's", func(int) (int, bool) { return uid, true }, true},
		{"another user's", func(int) (int, bool) { return uid + 1, true }, false},
		{"a user that cannot be read", func(int) (int, bool) { return uid, false }, false},
	} {
		if got := ownTaggedBy(p, tag, stamp, uid, tc.uidOf); got != tc.want {
			t.Errorf("%s: ownTagged = %v, want %v", tc.name, got, tc.want)
		}
	}
	if !ownTagged(p, tag, stamp, uid) {
		t.Errorf("ownTagged of this user's tagged process %d, reading its user from /proc, is false", p.pid)
	}
}

// TestChildrenOfReadsOnlyOwnChildren: a reaping pass reads this process's
// children from its threads' children files (a dozen reads), not the whole
// process table, and still sees an exited child and a running one.
func TestChildrenOfReadsOnlyOwnChildren(t *testing.T) {
	if _, err := os.Stat("/proc/self/task/" + strconv.Itoa(os.Getpid()) + "/children"); err != nil {
		testskip.Skip(t, "proc children", "this kernel has no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN)")
	}
	exited := exec.Command("true")
	running := exec.Command("sleep", "30")
	for _, c := range []*exec.Cmd{exited, running} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		_ = running.Process.Kill()
		_ = running.Wait()
		_ = exited.Wait()
	})
	self := os.Getpid()
	var got []proc
	waitFor(t, "the exited child to be a zombie", func() bool {
		got = childrenOf(self)
		for _, p := range got {
			if p.pid == exited.Process.Pid {
				return p.dead()
			}
		}
		return false
	})
	seen := map[int]bool{}
	for _, p := range got {
		if p.ppid != self {
			t.Fatalf("childrenOf read process %d, whose parent is %d, not this process %d", p.pid, p.ppid, self)
		}
		seen[p.pid] = true
	}
	if !seen[running.Process.Pid] {
		t.Fatalf("childrenOf missed the running child %d: %v", running.Process.Pid, got)
	}
}
