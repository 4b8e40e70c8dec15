//go:build linux

package launch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/rootpick/rootpick/internal/procinfo"
	"golang.org/x/sys/unix"
)

// Landlock, by its raw system calls (golang.org/x/sys/unix), not the
// go-landlock module: the guard restricts only the OS thread that then
// forks the server (the server inherits that thread's domain), which
// needs no cgo and no all-threads system call. go-landlock restricts every
// thread of the process, which a program built with cgo (the race
// detector's test binaries) can only do through libpsx; the numbers
// are in the commit that brought this file.
//
// The ruleset handles every file-system right the kernel's ABI knows
// (best effort: an older ABI handles fewer, a newer one's rights are not
// asked for), grants each path of the Policy its Access, and from ABI 6
// scopes signals and abstract unix sockets to the server's own domain.
// Network (TCP bind and connect) is not handled: servers may use it.
// From ABI 9 connecting to a pathname unix socket is a right too
// (RESOLVE_UNIX): granted with write (a socket the server made, or that
// another process made in a folder it may write) and on each socket the
// person allowed (allow-socket); below 9 the guard's seccomp filter
// refuses unix sockets instead (seccomp_linux.go).
//
// On ABI 1 (Linux 5.13 to 5.18) REFER is not a right the ruleset can
// grant, and the kernel then refuses every rename and link that moves a
// file to another folder (EXDEV), inside a consented folder too: a
// server renaming src/a.go to lib/a.go fails there, while a rename
// within one folder works. A program that falls back to copy and delete
// on EXDEV (mv does) gets by; one that does not fails. docs/servers.md
// says so.
//
// When to delete the raw calls: when go-landlock can restrict the one OS
// thread that forks (or the guard is built without cgo everywhere it
// runs, the race detector's test binaries included), use it: the per-ABI
// table test (TestLandlockRightsPerABI) already holds these rights
// against go-landlock's.

// rulesetAttr is struct landlock_ruleset_attr up to ABI 7's fields: our
// own, since golang.org/x/sys renames and extends its copy (v0.49 added
// the quiet fields of ABI 10); the kernel takes a shorter struct.
type rulesetAttr struct {
	handledFS, handledNet, scoped uint64
}

// pathBeneathAttr is struct landlock_path_beneath_attr (packed in C: the
// kernel reads its first 12 bytes).
type pathBeneathAttr struct {
	allowed  uint64
	parentFD int32
}

// landlockProbe asks the kernel once for its Landlock ABI.
var landlockProbe = sync.OnceValues(func() (int, error) {
	abi, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0, errno
	}
	return int(abi), nil
})

// landlockABI returns the Landlock ABI the kernel offers, or 0 and why
// there is none.
func landlockABI() (int, string) {
	abi, err := landlockProbe()
	switch {
	case err == nil && abi >= 1:
		return abi, ""
	case errors.Is(err, unix.ENOSYS):
		return 0, "the kernel has no Landlock (it is older than Linux 5.13 or built without it)"
	case errors.Is(err, unix.EOPNOTSUPP):
		return 0, "Landlock is turned off in this kernel (boot parameter lsm=)"
	case err != nil:
		return 0, "the kernel refused the Landlock probe: " + err.Error()
	}
	return 0, fmt.Sprintf("the kernel reports Landlock ABI %d", abi)
}

// landlockMaxABI is the newest ABI whose rights this file knows: a newer
// kernel is asked for these only (its new rights stay unhandled, so
// allowed).
const landlockMaxABI = 9

// llResolveUnix is LANDLOCK_ACCESS_FS_RESOLVE_UNIX (ABI 9), which
// golang.org/x/sys v0.47 does not name yet.
const llResolveUnix = 1 << 16

// The file-system rights, by what Access grants.
const (
	llRead  = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	llExec  = unix.LANDLOCK_ACCESS_FS_EXECUTE
	llWrite = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_SYM |
		unix.LANDLOCK_ACCESS_FS_REFER | unix.LANDLOCK_ACCESS_FS_TRUNCATE |
		unix.LANDLOCK_ACCESS_FS_IOCTL_DEV | llResolveUnix
	// llConnect is what AccessConnect grants: connecting to the socket.
	llConnect = llResolveUnix
	// llFile are the rights that apply to a file (the others only to
	// a folder's entries).
	llFile = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE |
		unix.LANDLOCK_ACCESS_FS_IOCTL_DEV | llResolveUnix
)

// handledFS returns the file-system rights ABI abi handles: all of them,
// so that what no rule grants is denied (making device nodes included).
func handledFS(abi int) uint64 {
	h := uint64(unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM)
	if abi >= 2 {
		h |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		h |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		h |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	if abi >= landlockResolveUnixABI {
		h |= llResolveUnix
	}
	return h
}

// handledNet returns the network rights the ruleset handles: none with
// the network on; with it off (no rule grants a port), TCP bind and
// connect from ABI 4. UDP comes at ABI 10, past landlockMaxABI: the
// guard's seccomp filter refuses IP sockets altogether instead
// (seccomp_linux.go), on every ABI.
func handledNet(abi int, noNetwork bool) uint64 {
	if !noNetwork || abi < 4 {
		return 0
	}
	return unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
}

// scopes returns the IPC scopes ABI abi offers: from 6, signals and
// abstract unix sockets reach only the server's own domain (its guard,
// itself and what it starts), not rootpick nor any other process.
func scopes(abi int) uint64 {
	if abi >= 6 {
		return unix.LANDLOCK_SCOPE_SIGNAL | unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
	}
	return 0
}

// fsRights returns the Landlock rights a, on a folder or a file, stands
// for, within handled.
func fsRights(a Access, dir bool, handled uint64) uint64 {
	var r uint64
	if a&AccessRead != 0 {
		r |= llRead
	}
	if a&AccessExec != 0 {
		r |= llExec
	}
	if a&AccessWrite != 0 {
		r |= llWrite
	}
	if a&AccessConnect != 0 {
		r |= llConnect
	}
	if !dir {
		r &= llFile
	}
	return r & handled
}

// restrictThread applies policy to the calling OS thread, which the caller
// has locked (runtime.LockOSThread) and forks the server from: it sets
// no_new_privs, which Landlock needs (and which keeps the server from
// gaining privileges through a set-user-ID program), then restricts the
// thread to a ruleset made of the policy's paths. A path that cannot be
// opened any more (removed since the policy was made) is skipped and
// named in skipped. It returns the ABI used.
func restrictThread(policy Policy) (abi int, skipped []string, err error) {
	abi, why := landlockABI()
	if abi == 0 {
		return 0, nil, errors.New(why)
	}
	use := min(abi, landlockMaxABI)
	handled := handledFS(use)
	attr := rulesetAttr{handledFS: handled, handledNet: handledNet(use, policy.NoNetwork), scoped: scopes(use)}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return 0, nil, os.NewSyscallError("landlock_create_ruleset", errno)
	}
	ruleset := int(fd)
	defer unix.Close(ruleset)
	for _, p := range policy.Paths {
		pfd, err := unix.Open(p.Path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			skipped = append(skipped, p.Path)
			continue
		}
		var st unix.Stat_t
		if err := unix.Fstat(pfd, &st); err != nil {
			unix.Close(pfd)
			skipped = append(skipped, p.Path)
			continue
		}
		rights := fsRights(p.Access, st.Mode&unix.S_IFMT == unix.S_IFDIR, handled)
		if rights != 0 {
			rule := pathBeneathAttr{allowed: rights, parentFD: int32(pfd)}
			_, _, errno = unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
		}
		unix.Close(pfd)
		if errno != 0 {
			return 0, nil, fmt.Errorf("landlock_add_rule %s: %w", p.Path, errno)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return 0, nil, os.NewSyscallError("prctl(PR_SET_NO_NEW_PRIVS)", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); errno != 0 {
		return 0, nil, os.NewSyscallError("landlock_restrict_self", errno)
	}
	return use, skipped, nil
}

// guardPolicyFD is the guard's descriptor of its policy (after the report
// pipe, guardReportFD): a memfd rootpick wrote the Policy to as JSON.
// A descriptor, not an environment variable, so that the server never
// sees it: the guard closes it before it starts the server, and it is
// not in /proc/PID/environ of the guard, which the server could read.
const guardPolicyFD = guardReportFD + 1

// guardPolicyFlag, as the guard's first argument, says that fd
// guardPolicyFD holds a policy to enforce.
const guardPolicyFlag = "--landlock"

// policyFile returns a file holding policy as JSON, read from its start,
// for the guard's fd guardPolicyFD.
func policyFile(policy Policy) (*os.File, error) {
	b, err := json.Marshal(policy)
	if err != nil {
		return nil, err
	}
	fd, err := unix.MemfdCreate("rootpick-guard-policy", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("memfd_create", err)
	}
	f := os.NewFile(uintptr(fd), "guard policy")
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// readGuardPolicy reads the policy on fd guardPolicyFD and closes it.
func readGuardPolicy() (Policy, error) {
	f := os.NewFile(guardPolicyFD, "guard policy")
	if f == nil {
		return Policy{}, errors.New("no policy descriptor")
	}
	defer f.Close()
	var p Policy
	if err := json.NewDecoder(io.LimitReader(f, 64<<20)).Decode(&p); err != nil {
		return Policy{}, fmt.Errorf("reading the policy: %w", err)
	}
	return p, nil
}

// tmpPrefix starts the name of a server's private temporary folder:
// rootpick-server-NS-PID-STAMP-RANDOM, PID and STAMP (its start time) being
// those of the rootpick that made it, so that one left behind by a
// rootpick killed with SIGKILL (its server then dies with it, and nothing
// removes the folder) is known and swept by the next one. NS is the PID
// namespace they are numbered in (/proc/self/ns/pid): a rootpick in
// another namespace that shares /tmp (a container, unshare -p) has pids
// this one cannot look up, so its folders are never taken for orphans.
const tmpPrefix = "rootpick-server-"

// pidNamespace is this process's PID namespace (procinfo.PIDNamespace),
// or "0" when it cannot be read: folders named so are never swept.
func pidNamespace() string {
	if ns := procinfo.PIDNamespace(); ns != "" {
		return ns
	}
	return "0"
}

var sweepOnce sync.Once

// newServerTmp makes a server's private temporary folder (0700), after
// sweeping, once per process, those of rootpicks that are gone.
func newServerTmp() (string, error) {
	sweepOnce.Do(func() { sweepServerTmps(os.TempDir()) })
	self := os.Getpid()
	return os.MkdirTemp("", fmt.Sprintf("%s%s-%d-%d-", tmpPrefix, pidNamespace(), self, startStamp(self)))
}

// sweepServerTmps removes, in dir, the servers' temporary folders whose
// rootpick no longer runs: only real folders (not links) of this user
// named as newServerTmp names them. It returns how many it removed.
func sweepServerTmps(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	ns := pidNamespace()
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), tmpPrefix)
		if !ok || !e.IsDir() { // IsDir is the entry's own type: a link is not one
			continue
		}
		f := strings.Split(rest, "-")
		if len(f) != 4 || f[0] != ns || ns == "0" {
			continue // another PID namespace's (or an older name): not ours to judge
		}
		pid, err1 := strconv.Atoi(f[1])
		stamp, err2 := strconv.ParseUint(f[2], 10, 64)
		if err1 != nil || err2 != nil || pid <= 0 {
			continue
		}
		if p, ok := readProc(pid); ok && p.start == stamp && !p.dead() {
			continue // its rootpick still runs
		}
		path := filepath.Join(dir, e.Name())
		var st unix.Stat_t
		if unix.Lstat(path, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || int(st.Uid) != os.Getuid() {
			continue
		}
		removeTmp(path)
		n++
	}
	return n
}
