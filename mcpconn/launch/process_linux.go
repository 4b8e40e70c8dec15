//go:build linux

package launch

import (
	"bytes"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/rootpick/rootpick/internal/panics"
)

// On Linux a server's whole tree is ended, not only its process group: a
// grandchild that called setsid() has left the group, but /proc still shows
// it as a descendant (or, once its parent has died and rootpick is a child
// subreaper, as rootpick's own child).

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from <linux/prctl.h>.
const prSetChildSubreaper = 36

// BecomeSubreaper makes this process a child subreaper: a descendant whose
// parent dies (a server's grandchild that called setsid(), say) is
// re-parented to this process instead of to init, so that EndDescendants and
// the ending of a server can still find and end it. Call it once, early, in
// a program that launches servers; it is not done on import because it
// changes how the whole process's orphans are handled.
//
// On systems without subreapers it returns an error wrapping
// errors.ErrUnsupported and changes nothing.
//
// Orphans adopted this way are reaped as they exit (see reapAdopted), so
// they do not pile up as zombies during a long session.
func BecomeSubreaper() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return os.NewSyscallError("prctl(PR_SET_CHILD_SUBREAPER)", errno)
	}
	reaperOnce.Do(func() {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGCHLD)
		go func() {
			defer panics.Guard()
			for range ch {
				reapPasses.Add(1)
				if reapAdopted() == 0 {
					// The child was one os/exec waits for (the picker's
					// git status children end many a second while a key
					// is held), and reading the process table costs
					// about 1 ms: signals that come meanwhile wait for
					// the next pass. While orphans are being reaped (a
					// quit ending a server's tree) passes follow at once.
					time.Sleep(reapEvery)
				}
			}
		}()
	})
	return nil
}

var reaperOnce sync.Once

// reapPasses counts the reaping passes, for the tests.
var reapPasses atomic.Int64

// reapEvery is the least time between two reaping passes that found no
// orphan.
const reapEvery = 200 * time.Millisecond

// reapAdopted collects the exit status of this process's exited children
// that it adopted as a subreaper, leaving alone the ones os/exec started
// (os/exec waits for those itself, and would fail if their status were
// taken). An adopted orphan is told apart by what a zombie still shows: it
// is in another session (it called setsid()), or in a process group that
// is neither its own nor ours (it belonged to a server's group). A child
// started by os/exec is in our session and in our group or its own (the
// servers: Setpgid) — unless it was started with Setsid, which nothing in
// rootpick does: such a child would be taken for an orphan. An orphan that
// made itself a group leader in our session stays a zombie until
// EndDescendants. It returns how many it reaped.
func reapAdopted() (reaped int) {
	self, ok := readProc(os.Getpid())
	if !ok {
		return 0
	}
	for _, p := range childrenOf(self.pid) {
		if p.ppid != self.pid || !p.dead() {
			continue
		}
		if p.sid != self.sid || (p.pgid != p.pid && p.pgid != self.pgid) {
			var ws syscall.WaitStatus
			if pid, _ := syscall.Wait4(p.pid, &ws, syscall.WNOHANG, nil); pid > 0 {
				reaped++
			}
		}
	}
	return reaped
}

// setProcAttr puts a server in its own process group, so that the
// terminal's signals (ctrl+c) do not reach it, and asks the kernel to
// SIGKILL it should rootpick die without ending it (a crash, SIGKILL). The
// parent-death signal fires when the forking thread exits; Go never ends an
// unlocked thread, and the fork runs on one.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// proc is one line of the process table.
type proc struct {
	pid, ppid, pgid int
	sid             int
	state           byte   // R, S, D, Z, X, ...
	start           uint64 // start time in clock ticks since boot: tells a reused pid apart
}

func (p proc) dead() bool { return p.state == 'Z' || p.state == 'X' }

// readProc reads /proc/PID/stat.
func readProc(pid int) (proc, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
	// majflt cmajflt utime stime cutime cstime priority nice threads
	// itrealvalue starttime ...; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return proc{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || len(f[0]) != 1 {
		return proc{}, false
	}
	p := proc{pid: pid, state: f[0][0]}
	p.ppid, _ = strconv.Atoi(f[1])
	p.pgid, _ = strconv.Atoi(f[2])
	p.sid, _ = strconv.Atoi(f[3])
	p.start, _ = strconv.ParseUint(f[19], 10, 64)
	return p, true
}

// childrenOf returns the processes whose parent is pid, this process: the
// ones its threads' /proc/self/task/TID/children files name (an orphan is
// re-parented to one of the threads of its subreaper), or, on a kernel
// without those files (CONFIG_PROC_CHILDREN), the whole process table's.
// Reading a dozen small files instead of every process's stat is what
// keeps a reaping pass cheap on a machine running hundreds of processes:
// the picker's git status children end many a second while a key is held.
func childrenOf(pid int) []proc {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil || len(tasks) == 0 {
		return readProcs()
	}
	var out []proc
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			if os.IsNotExist(err) {
				return readProcs()
			}
			continue // the thread ended meanwhile
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				if p, ok := readProc(c); ok {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// readProcs returns every process /proc shows. The lines are read one by
// one after the listing, so a process whose parent was not found (it was
// reaped meanwhile: the line said a parent that had died since, and the
// process has been re-parented) is read again, once, for its parent now.
func readProcs() []proc {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	procs := make([]proc, 0, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			procs = append(procs, p)
		}
	}
	found := make(map[int]bool, len(procs))
	for _, p := range procs {
		found[p.pid] = true
	}
	for i, p := range procs {
		if p.ppid > 0 && !found[p.ppid] {
			if q, ok := readProc(p.pid); ok && q.start == p.start {
				procs[i] = q
			}
		}
	}
	return procs
}

// treeOf returns the processes below root, root excluded.
func treeOf(procs []proc, root int) []proc {
	children := map[int][]proc{}
	for _, p := range procs {
		children[p.ppid] = append(children[p.ppid], p)
	}
	var out []proc
	seen := map[int]bool{root: true}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			if !seen[c.pid] {
				seen[c.pid] = true
				queue = append(queue, c.pid)
				out = append(out, c)
			}
		}
	}
	return out
}

// target is a set of processes being ended, each known by pid and start
// time, so that a pid reused meanwhile is never signalled. It holds the
// processes seen dead too: a look at /proc that finds none it had not
// seen, begun once every process it had seen was dead, is what ends the
// ending (see settledLook).
type target map[int]uint64

// add records the processes of ps, dead or alive, and returns how many it
// had not seen (a pid now held by another process counts as new, unless
// its entry is 0: a process of that pid could not be signalled).
func (t target) add(ps []proc) (added int) {
	for _, p := range ps {
		if s, ok := t[p.pid]; !ok || (s != p.start && s != 0) {
			t[p.pid] = p.start
			added++
		}
	}
	return added
}

// live returns the processes of t that still run (zombies are not running).
func (t target) live() []int {
	var pids []int
	for pid, start := range t {
		if p, ok := readProc(pid); ok && p.start == start && !p.dead() {
			pids = append(pids, pid)
		}
	}
	return pids
}

// signal sends sig to the processes of t that still run. One that this
// process may not signal (it changed its user: sudo) cannot be ended from
// here and is no longer waited for: its stamp becomes 0, which matches no
// process.
func (t target) signal(sig syscall.Signal) { t.signalLast(sig, 0) }

// signalLast is signal, with process last (if it is one of t's) signalled
// after all the others.
func (t target) signalLast(sig syscall.Signal, last int) {
	live := t.live()
	kill := func(pid int) {
		if syscall.Kill(pid, sig) == syscall.EPERM {
			t[pid] = 0
		}
	}
	for _, pid := range live {
		if pid != last {
			kill(pid)
		}
	}
	if last != 0 && slices.Contains(live, last) {
		kill(last)
	}
}

// groupLive reports whether a running process of t is in process group
// pgid.
func (t target) groupLive(pgid int) bool {
	for _, pid := range t.live() {
		if p, ok := readProc(pid); ok && p.pgid == pgid {
			return true
		}
	}
	return false
}

// waitGone polls until no process of t runs or d has passed.
func (t target) waitGone(d time.Duration) {
	for deadline := time.Now().Add(d); len(t.live()) > 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
}

// reap collects the exit status of the processes of t that became this
// process's children (orphans re-parented to a subreaper) and have exited,
// except skip: os/exec waits for the processes it started itself.
func (t target) reap(skip int) {
	self := os.Getpid()
	for pid, start := range t {
		if pid == skip {
			continue
		}
		if p, ok := readProc(pid); ok && p.start == start && p.ppid == self && p.dead() {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
	}
}

// startStamp returns what tells process pid apart from a later process
// that reuses its pid (its start time), or 0 if it cannot be read.
func startStamp(pid int) uint64 {
	p, _ := readProc(pid)
	return p.start
}

// endTree ends the server pid (started at stamp, see startStamp) and
// everything it started: its process group, every descendant found by
// parent pid before anything is signalled and followed wherever it is
// re-parented (a descendant whose parent dies moves to the nearest
// subreaper), and every process of this user started since the server
// whose environment holds tag (see serverTag and ownTagged): that finds a
// descendant orphaned before the server was ended, even one re-parented to
// init. It sends SIGTERM, gives the processes termGrace to exit, then
// SIGKILLs the rest, looking again for descendants started meanwhile, and
// waits up to killGrace. Zombies of re-parented descendants are reaped; pid
// itself is left to os/exec, which started it.
func endTree(pid int, stamp uint64, tag string, termGrace, killGrace time.Duration) {
	t := target{}
	uid := os.Getuid()
	// collect looks at /proc and returns how many processes it found
	// that it had not seen.
	collect := func() int {
		procs := readProcs()
		// While a process group exists its id is not given to a new
		// process, so the group needs no stamp of its own; but once the
		// server and its group are gone the id may be reused, and a
		// process holding pid with another start time says so: a group
		// of that id is then someone else's.
		reused := false
		for _, p := range procs {
			if p.pid == pid && stamp != 0 && p.start != stamp {
				reused = true
			}
		}
		var roots []proc
		for _, p := range procs {
			if (p.pid == pid && (stamp == 0 || p.start == stamp)) || (p.pgid == pid && !reused) {
				roots = append(roots, p)
			} else if _, ok := t[p.pid]; !ok && !p.dead() && ownTagged(p, tag, stamp, uid) {
				roots = append(roots, p)
			}
		}
		added := t.add(roots)
		for _, q := range t.live() {
			added += t.add(treeOf(procs, q))
		}
		return added
	}
	// signal sends sig to every process collected and to the group as a
	// whole: a fork racing a group-wide signal is signalled too. The
	// server's descendants come first, the server and its group last: a
	// guard (which is what the server is when there is one) that did not
	// exit within guardGrace still holds its tree, and killed first it
	// would leave its orphans to this process, and to init were this
	// process killed before the next signal.
	signal := func(sig syscall.Signal) {
		t.signalLast(sig, pid)
		if t.groupLive(pid) { // else the id may have been given to a new group
			_ = syscall.Kill(-pid, sig)
		}
	}
	collect()
	if len(t) == 0 {
		return
	}
	signal(syscall.SIGTERM)
	t.waitGone(termGrace)
	// Whatever is still running, or was started meanwhile (a process
	// forked between the collection and the signal escapes it), is
	// killed, until a settled look (see settledLook) finds nothing new;
	// that look waits 20 ms first (a process caught inside exec shows no
	// environment, so no tag, for a moment). Past killGrace it goes on
	// for a few more rounds only: a killed process forks no more, so each
	// round leaves only what was forked just before the last kill, and on
	// a loaded machine one look alone can take longer than killGrace.
	for deadline, late := time.Now().Add(killGrace), 0; ; {
		if settledLook(t, 20*time.Millisecond, collect) {
			break
		}
		signal(syscall.SIGKILL)
		if time.Now().After(deadline) {
			late++
			t.waitGone(100 * time.Millisecond)
			if late == 5 {
				break
			}
			continue
		}
		t.waitGone(min(100*time.Millisecond, time.Until(deadline)))
	}
	t.reap(pid)
}

// settledLook looks (look adds to t what it finds and returns how many
// it had not seen) and reports whether the ending of t is done: every
// process of t had ended before the look began, pause before it, and the
// look found none new. Only a look begun after every process seen so far
// was dead tells that nothing escaped: a look at /proc lists the
// processes first and reads their lines after, so a process alive in the
// listing that forks and dies before its line is read leaves a child the
// listing did not have, and which a look that merely finds nothing
// running would miss. A process forks nothing once it is dead, so a look
// begun after that finds all it forked, running or re-parented.
func settledLook(t target, pause time.Duration, look func() int) bool {
	quiet := len(t.live()) == 0
	if quiet && pause > 0 {
		time.Sleep(pause)
	}
	return look() == 0 && quiet
}

// ownTagged reports whether p may be ended as a descendant of the server
// started at stamp because it carries the server's tag: the tag is one
// serverTag could have made and p's environment holds it, p belongs to
// this process's user (real uid uid) and p started no earlier than the
// server did. Each check alone keeps a slip in the others (a tag shared
// by chance, an environment copied from the server's) from reaching
// another user's processes or ones that ran before the server; without a
// stamp nothing is matched.
func ownTagged(p proc, tag string, stamp uint64, uid int) bool {
	return ownTaggedBy(p, tag, stamp, uid, realUID)
}

// ownTaggedBy is ownTagged with p's real user id read by uidOf: a process
// whose user cannot be read is not taken for this user's.
func ownTaggedBy(p proc, tag string, stamp uint64, uid int, uidOf func(pid int) (int, bool)) bool {
	if stamp == 0 || p.start < stamp {
		return false
	}
	if u, ok := uidOf(p.pid); !ok || u != uid {
		return false
	}
	return hasTag(p.pid, tag)
}

// hasTag reports whether process pid was started with tag, whole, among
// the entries of its environment. A tag that is not valid (see validTag:
// empty, short, not rootpick's) matches nothing; processes of other users
// cannot be read unless this one is root, and then do not match.
func hasTag(pid int, tag string) bool {
	if !validTag(tag) {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for entry := range bytes.SplitSeq(b, []byte{0}) {
		if string(entry) == tag {
			return true
		}
	}
	return false
}

// realUID returns the real user id of process pid, from /proc/PID/status.
func realUID(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	for line := range bytes.Lines(b) {
		if rest, ok := bytes.CutPrefix(line, []byte("Uid:")); ok {
			// Uid: real effective saved filesystem
			f := strings.Fields(string(rest))
			if len(f) == 0 {
				return 0, false
			}
			u, err := strconv.Atoi(f[0])
			return u, err == nil
		}
	}
	return 0, false
}

// EndDescendants ends every process still running below this one — what
// is left after the servers were stopped, such as a crashed server's
// grandchild that escaped with setsid() and was re-parented here — with
// SIGTERM, then SIGKILL after grace, and reaps them; it gives up on a
// process that has not died 2×grace after it began. Call it last, after
// Hub.Close: it would also end servers a live Hub still serves. It returns
// how many processes it found.
func EndDescendants(grace time.Duration) int { return endDescendants(grace, 2*grace, 0) }

// endDescendants is EndDescendants with its own bound: it returns once no
// process runs below this one (see settledLook), or bound after it began.
// The exit status of child skip (if not 0) is left to its own waiter.
func endDescendants(grace, bound time.Duration, skip int) int {
	self := os.Getpid()
	t := target{}
	running := map[int]bool{} // what was found running: what is counted
	look := func() int {
		tree := treeOf(readProcs(), self)
		for _, p := range tree {
			if !p.dead() {
				running[p.pid] = true
			}
		}
		return t.add(tree)
	}
	look()
	if len(t) > 0 {
		deadline := time.Now().Add(bound)
		t.signal(syscall.SIGTERM)
		t.waitGone(min(grace, bound))
		// As in endTree: kill what runs, including what was started
		// meanwhile (a process forked just before its parent was killed
		// shows up, re-parented here, in the next look), until a look
		// begun once all it had seen was dead finds nothing new.
		for !settledLook(t, 0, look) && time.Now().Before(deadline) {
			t.signal(syscall.SIGKILL)
			t.waitGone(min(100*time.Millisecond, max(time.Until(deadline), 0)))
		}
		t.reap(skip)
	}
	// Children that were already zombies when collected, or that the
	// reaping above did not take.
	for _, p := range readProcs() {
		if p.ppid == self && p.dead() && p.pid != skip {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(p.pid, &ws, syscall.WNOHANG, nil)
		}
	}
	return len(running)
}
