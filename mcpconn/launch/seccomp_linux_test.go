//go:build linux

package launch

import (
	"encoding/binary"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccompData is the part of struct seccomp_data the filter reads, as
// x/net/bpf's machine loads it (big-endian words, where the kernel loads
// native ones: the words are the same).
func seccompData(arch, nr, arg0 uint32) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[0:], nr)
	binary.BigEndian.PutUint32(b[4:], arch)
	binary.BigEndian.PutUint32(b[16:], arg0)
	return b
}

// TestSeccompProgram runs the guard's filter on the calls it decides:
// each refusal and each call sent to the guard, against the program
// itself (the enforcement tests try them on the kernel).
func TestSeccompProgram(t *testing.T) {
	if seccompArch == 0 {
		t.Skip("no seccomp table for this architecture")
	}
	errno := func(e unix.Errno) int { return int(secRetErrno | uint32(e)) }
	allow, notify := int(secRetAllow), int(secRetNotify)
	modeNr := slices.Sorted(maps.Keys(seccompMode))
	timesNr := slices.Sorted(maps.Keys(seccompTimes))
	type call struct {
		name     string
		arch, nr uint32
		arg0     uint32
		want     int // with a listener, AF_UNIX refused
		noListen int // without a listener
		sockets  int // with unixSockets
		noNet    int // with a listener and noNetwork
	}
	calls := []call{
		{"read", seccompArch, unix.SYS_READ, 0, allow, allow, allow, allow},
		{"openat", seccompArch, unix.SYS_OPENAT, 0, allow, allow, allow, allow},
		{"socket(AF_UNIX)", seccompArch, unix.SYS_SOCKET, unix.AF_UNIX, errno(unix.EACCES), errno(unix.EACCES), allow, errno(unix.EACCES)},
		{"socket(AF_INET)", seccompArch, unix.SYS_SOCKET, unix.AF_INET, allow, allow, allow, errno(unix.EACCES)},
		{"socket(AF_INET6)", seccompArch, unix.SYS_SOCKET, unix.AF_INET6, allow, allow, allow, errno(unix.EACCES)},
		{"socket(AF_NETLINK)", seccompArch, unix.SYS_SOCKET, unix.AF_NETLINK, allow, allow, allow, allow},
		{"socketpair(AF_UNIX)", seccompArch, unix.SYS_SOCKETPAIR, unix.AF_UNIX, allow, allow, allow, allow},
		{"connect", seccompArch, unix.SYS_CONNECT, 3, allow, allow, allow, allow},
		{"fchmodat2", seccompArch, seccompFchmodat2, 0, notify, errno(unix.EPERM), notify, notify},
		{"fchown", seccompArch, unix.SYS_FCHOWN, 0, errno(unix.EPERM), errno(unix.EPERM), errno(unix.EPERM), errno(unix.EPERM)},
		{"fchownat", seccompArch, unix.SYS_FCHOWNAT, 0, errno(unix.EPERM), errno(unix.EPERM), errno(unix.EPERM), errno(unix.EPERM)},
		{"fsetxattr", seccompArch, unix.SYS_FSETXATTR, 0, errno(unix.EOPNOTSUPP), errno(unix.EOPNOTSUPP), errno(unix.EOPNOTSUPP), errno(unix.EOPNOTSUPP)},
		{"setxattrat", seccompArch, seccompSetxattrat, 0, errno(unix.EOPNOTSUPP), errno(unix.EOPNOTSUPP), errno(unix.EOPNOTSUPP), errno(unix.EOPNOTSUPP)},
		{"removexattrat", seccompArch, seccompRemovexattrat, 0, errno(unix.EOPNOTSUPP), errno(unix.EOPNOTSUPP), errno(unix.EOPNOTSUPP), errno(unix.EOPNOTSUPP)},
		{"io_uring_setup", seccompArch, seccompIOUringSetup, 0, errno(unix.ENOSYS), errno(unix.ENOSYS), errno(unix.ENOSYS), errno(unix.ENOSYS)},
		{"ptrace", seccompArch, unix.SYS_PTRACE, 0, errno(unix.EPERM), errno(unix.EPERM), errno(unix.EPERM), errno(unix.EPERM)},
		{"process_vm_writev", seccompArch, unix.SYS_PROCESS_VM_WRITEV, 0, errno(unix.EPERM), errno(unix.EPERM), errno(unix.EPERM), errno(unix.EPERM)},
		{"another architecture's read", unix.AUDIT_ARCH_I386, 3, 0, errno(unix.ENOSYS), errno(unix.ENOSYS), errno(unix.ENOSYS), errno(unix.ENOSYS)},
	}
	for _, nr := range append(modeNr, timesNr...) {
		calls = append(calls, call{"mode or times call " + strconv.Itoa(int(nr)), seccompArch, nr, 0, notify, errno(unix.EPERM), notify, notify})
	}
	if seccompX32Bit != 0 {
		calls = append(calls, call{"x32 chmod", seccompArch, seccompX32Bit | 90, 0, errno(unix.ENOSYS), errno(unix.ENOSYS), errno(unix.ENOSYS), errno(unix.ENOSYS)})
	}
	for _, r := range []struct {
		name  string
		rules seccompRules
		pick  func(call) int
	}{
		{"listener", seccompRules{listener: true}, func(c call) int { return c.want }},
		{"no listener", seccompRules{}, func(c call) int { return c.noListen }},
		{"unix sockets", seccompRules{listener: true, unixSockets: true}, func(c call) int { return c.sockets }},
		{"network off", seccompRules{listener: true, noNetwork: true}, func(c call) int { return c.noNet }},
	} {
		vm, err := bpf.NewVM(seccompInstructions(r.rules))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := seccompProgram(r.rules); err != nil {
			t.Fatal(err)
		}
		for _, c := range calls {
			got, err := vm.Run(seccompData(c.arch, c.nr, c.arg0))
			if err != nil {
				t.Fatalf("%s, %s: %v", r.name, c.name, err)
			}
			if want := r.pick(c); got != want {
				t.Errorf("%s, %s: %#x, want %#x", r.name, c.name, got, want)
			}
		}
	}
}

func init() { faultModes["chmodloop"] = chmodLoop }

// chmodLoop changes the mode and the times of a file in its TMPDIR
// chmodLoopN times each and prints the nanoseconds each kind took.
func chmodLoop() {
	f := filepath.Join(os.Getenv("TMPDIR"), "f")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		fmt.Println("write:", err)
		os.Exit(1)
	}
	start := time.Now()
	for i := range chmodLoopN {
		if err := unix.Chmod(f, uint32(0o600|i&0o44)); err != nil {
			fmt.Println("chmod:", err)
			os.Exit(1)
		}
	}
	chmod := time.Since(start)
	start = time.Now()
	for range chmodLoopN {
		if err := unix.UtimesNano(f, nil); err != nil {
			fmt.Println("utimes:", err)
			os.Exit(1)
		}
	}
	fmt.Println(chmod.Nanoseconds(), time.Since(start).Nanoseconds())
}

const chmodLoopN = 2000

// TestSeccompCost measures what the guard's answer costs a server: a
// chmod and a utimes of a file it may write, answered by the guard, and
// the same with no filter (the server started without a policy). It
// fails only if a change is refused; the figures are logged for
// docs/performance.md (go test ./mcpconn/launch -run TestSeccompCost -v).
func TestSeccompCost(t *testing.T) {
	needLandlock(t)
	exe, err := os.Executable()
	must(t, err)
	run := func(enforced bool) (chmod, utimes time.Duration) {
		tmp := tempDir(t)
		cmd := exec.Command(exe, "chmodloop")
		cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=chmodloop", "TMPDIR="+tmp)
		setProcAttr(cmd)
		var policy *Policy
		if enforced {
			p := BuildPolicy(PolicyInput{Command: []string{exe}, Env: cmd.Env, TmpDir: tmp})
			policy = &p
		}
		report, err := guard(cmd, policy)
		must(t, err)
		out, err := cmd.Output()
		report.afterStart(true)
		if err != nil {
			t.Fatalf("enforced=%v: %v: %s", enforced, err, out)
		}
		var c, u int64
		if _, err := fmt.Sscan(string(out), &c, &u); err != nil {
			t.Fatalf("enforced=%v: %q", enforced, out)
		}
		return time.Duration(c) / chmodLoopN, time.Duration(u) / chmodLoopN
	}
	plainC, plainU := run(false)
	c, u := run(true)
	t.Logf("per call, %d calls: chmod %v answered by the guard (%v without a filter), utimes %v (%v)", chmodLoopN, c, plainC, u, plainU)
}
