//go:build linux

package launch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The guard's second wall, beside Landlock: a seccomp filter on the
// thread that starts the server (so on the server and all it starts) for
// the doors Landlock leaves open on this kernel.
//
//   - Pathname unix sockets. Landlock holds connect(2) to a socket file
//     only from ABI 9 (RESOLVE_UNIX); below it a server could reach the
//     person's ssh-agent, a session bus or a Docker socket. So below ABI
//     9 the filter refuses socket(AF_UNIX, …) with EACCES, as sandbox
//     runtimes do; socketpair(2), which makes a connected pair and opens
//     nothing, stays allowed (node, Python and npm use it for their
//     children's pipes). From ABI 9 Landlock holds connect to the folders
//     the server may write, and the filter lets sockets be.
//     allow-socket below ABI 9 lifts the refusal for that server: the
//     filter cannot see which path a socket connects to, so every surface
//     says then that any socket is reachable.
//   - A file's mode and times (chmod, utimes and their *at, f* and l*
//     forms). Landlock does not restrict them at all: a server could make
//     ~/.ssh/id_ed25519 readable to every local user. The filter cannot
//     read a path, so these calls go to the guard (SECCOMP_RET_USER_NOTIF),
//     which opens the file the call names as the server would (from the
//     server's working folder or descriptor, through /proc), checks that
//     the file it got is under a folder the server may write, and then
//     makes the change itself on that open file. The server's memory is
//     read once, and the check and the change are made on the same open
//     file, so nothing the server does meanwhile changes what was checked
//     (SECCOMP_USER_NOTIF_FLAG_CONTINUE, which lets the kernel redo the
//     call, is never used: the kernel's documentation warns that it is
//     not safe for this). npm's bin links (chmod) and its lock file
//     (utimensat) in its cache work; the same outside is EPERM.
//   - A file's owner and extended attributes (chown, setxattr, removexattr
//     and their forms): refused everywhere, EPERM and EOPNOTSUPP (which
//     Python's shutil takes for a file system without attributes). No
//     server we know of changes them, and the guard would need the
//     attribute's value from the server's memory.
//   - io_uring, whose operations (a socket, setxattr) do not pass through
//     the filter: ENOSYS, and the runtimes fall back to plain calls.
//   - ptrace, process_vm_readv/writev and pidfd_getfd: EPERM. Landlock
//     lets a server trace processes of its own domain, which include the
//     guard's thread that started it; a server run as root could then
//     change the guard's memory, where the guard keeps what it checks
//     against.
//   - Any other architecture's calls (the 32-bit ones, through int 0x80,
//     and x32's): ENOSYS. A filter checks numbers of one architecture.
//
// Hand-written with golang.org/x/net/bpf (already in the module graph)
// rather than github.com/elastic/go-seccomp-bpf: that library sends the
// calls of another architecture to the filter's default action (allow,
// in a filter like this one) and its LoadFilter does not return the
// listener descriptor the guard answers on. Delete the socket part when
// every kernel we run on has Landlock ABI 9, and the rest when Landlock
// covers metadata (no plan for that upstream as of 6.18).

// System call numbers that golang.org/x/sys names only on some
// architectures or not yet; the same on x86-64 and arm64.
const (
	seccompFchmodat2       = 452
	seccompSetxattrat      = 463
	seccompRemovexattrat   = 466
	seccompIOUringSetup    = 425
	seccompIOUringEnter    = 426
	seccompIOUringRegister = 427
	seccompPidfdGetfd      = 438
)

// timesKind says how a times call passes its two times.
type timesKind uint8

const (
	timesTimespec timesKind = iota // struct timespec[2] (utimensat)
	timesTimeval                   // struct timeval[2] (utimes, futimesat)
	timesUtimbuf                   // struct utimbuf (utime)
)

// seccompCall says which argument of a mode or times call holds what:
// its index, or -1 when the call has no such argument.
type seccompCall struct {
	fd, dirfd, path, mode, times, flags int
	timeKind                            timesKind
}

// seccompRules are what a server's filter is made from.
type seccompRules struct {
	// unixSockets lets the server make AF_UNIX sockets: Landlock holds
	// connect (ABI 9), or allow-socket below ABI 9.
	unixSockets bool
	// noNetwork refuses IP sockets (AF_INET, AF_INET6): network = off.
	noNetwork bool
	// listener sends mode and time changes to the guard; without it they
	// are refused everywhere (EPERM): the fallback where a filter with a
	// listener is installed already (the kernel allows one per thread).
	listener bool
}

// seccomp's return values.
const (
	secRetAllow  = unix.SECCOMP_RET_ALLOW
	secRetNotify = unix.SECCOMP_RET_USER_NOTIF
	secRetErrno  = unix.SECCOMP_RET_ERRNO
)

// seccompProgram is the filter for r: the architecture first, then one
// test per refused or supervised call number, socket(AF_UNIX) last, and
// everything else allowed.
func seccompProgram(r seccompRules) ([]bpf.RawInstruction, error) {
	return bpf.Assemble(seccompInstructions(r))
}

// seccompInstructions is seccompProgram before it is assembled.
func seccompInstructions(r seccompRules) []bpf.Instruction {
	errno := func(e unix.Errno) uint32 { return secRetErrno | uint32(e) }
	p := []bpf.Instruction{
		bpf.LoadAbsolute{Off: 4, Size: 4}, // seccomp_data.arch
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: seccompArch, SkipTrue: 1},
		bpf.RetConstant{Val: errno(unix.ENOSYS)},
		bpf.LoadAbsolute{Off: 0, Size: 4}, // seccomp_data.nr
	}
	if seccompX32Bit != 0 {
		p = append(p, bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: seccompX32Bit, SkipFalse: 1},
			bpf.RetConstant{Val: errno(unix.ENOSYS)})
	}
	rule := func(nr, ret uint32) {
		p = append(p, bpf.JumpIf{Cond: bpf.JumpEqual, Val: nr, SkipFalse: 1}, bpf.RetConstant{Val: ret})
	}
	supervised := uint32(secRetNotify)
	if !r.listener {
		supervised = errno(unix.EPERM)
	}
	for _, calls := range []map[uint32]seccompCall{seccompMode, seccompTimes} {
		for _, nr := range slices.Sorted(maps.Keys(calls)) { // the same program each time
			rule(nr, supervised)
		}
	}
	for _, nr := range seccompOwner {
		rule(nr, errno(unix.EPERM))
	}
	for _, nr := range seccompXattr {
		rule(nr, errno(unix.EOPNOTSUPP))
	}
	for _, nr := range []uint32{seccompIOUringSetup, seccompIOUringEnter, seccompIOUringRegister} {
		rule(nr, errno(unix.ENOSYS))
	}
	for _, nr := range []uint32{unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, seccompPidfdGetfd} {
		rule(nr, errno(unix.EPERM))
	}
	// socket(2): its domain decides. Last, since it loads args[0].
	var domains []uint32
	if !r.unixSockets {
		domains = append(domains, unix.AF_UNIX)
	}
	if r.noNetwork {
		domains = append(domains, unix.AF_INET, unix.AF_INET6)
	}
	if len(domains) > 0 {
		// socket? then the low half of args[0], the domain
		// (little-endian), against each refused one.
		p = append(p, bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.SYS_SOCKET, SkipFalse: uint8(1 + 2*len(domains))},
			bpf.LoadAbsolute{Off: 16, Size: 4})
		for _, d := range domains {
			p = append(p, bpf.JumpIf{Cond: bpf.JumpEqual, Val: d, SkipFalse: 1}, bpf.RetConstant{Val: errno(unix.EACCES)})
		}
	}
	return append(p, bpf.RetConstant{Val: secRetAllow})
}

// installSeccomp loads r's filter on the calling thread (no TSYNC: the
// guard's other threads, the supervisor among them, stay free), which
// has no_new_privs set already (restrictThread). It returns the listener
// descriptor when r.listener, else -1.
func installSeccomp(r seccompRules) (int, error) {
	if seccompArch == 0 {
		return -1, errors.New("no seccomp table for this architecture (" + runtime.GOARCH + ")")
	}
	raw, err := seccompProgram(r)
	if err != nil {
		return -1, err
	}
	filter := make([]unix.SockFilter, len(raw))
	for i, ins := range raw {
		filter[i] = unix.SockFilter{Code: ins.Op, Jt: ins.Jt, Jf: ins.Jf, K: ins.K}
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	var flags uintptr
	if r.listener {
		flags = unix.SECCOMP_FILTER_FLAG_NEW_LISTENER
	}
	fd, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(filter)
	if errno != 0 {
		return -1, os.NewSyscallError("seccomp", errno)
	}
	if !r.listener {
		return -1, nil
	}
	return int(fd), nil
}

// applySeccomp installs the filter for a server under policy, restricted
// at Landlock ABI abi, and starts the guard's supervisor of mode and time
// changes. It falls back to refusing those changes everywhere where the
// kernel has a filter with a listener on this thread already (a guard
// started by a server of another guard); fellBack says so.
func applySeccomp(policy Policy, abi int) (fellBack bool, err error) {
	r := seccompRules{unixSockets: abi >= landlockResolveUnixABI || len(policy.sockets()) > 0, noNetwork: policy.NoNetwork, listener: true}
	listener, err := installSeccomp(r)
	if errors.Is(err, unix.EBUSY) {
		r.listener = false
		_, err = installSeccomp(r)
		return true, err
	}
	if err != nil {
		return false, err
	}
	go superviseSeccomp(listener, policy.writable())
	return false, nil
}

// writable returns the folders of the policy the server may write (its
// consented folders shared read and write, allow-write, its TMPDIR, its
// launcher's cache): where the guard lets it change a file's mode and
// times. By Access, not by why: a folder shared read-only is not one
// (chmod +x there is EPERM), unless a wider grant reaches it and Landlock
// lets the server write it anyway (PolicyPath.Widened).
func (p Policy) writable() []string {
	var out []string
	for _, pp := range p.Paths {
		if pp.Access&AccessWrite != 0 && pp.Why != WhyDevice {
			out = append(out, pp.Path)
		}
	}
	return out
}

// seccompNotif is struct seccomp_notif; seccompResp is struct
// seccomp_notif_resp.
type seccompNotif struct {
	id    uint64
	pid   uint32
	flags uint32
	nr    int32
	arch  uint32
	ip    uint64
	args  [6]uint64
}

type seccompResp struct {
	id    uint64
	val   int64
	error int32
	flags uint32
}

func seccompIoctl(fd int, req uint, arg unsafe.Pointer) error {
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), uintptr(arg))
	if errno != 0 {
		return errno
	}
	return nil
}

// superviseSeccomp answers the server's mode and time changes, one at a
// time, until the listener has no process left to listen to (the guard's
// own thread keeps it while the guard runs).
func superviseSeccomp(listener int, writable []string) {
	for {
		var n seccompNotif // zeroed: the kernel wants it so
		if err := seccompIoctl(listener, unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(&n)); err != nil {
			if err == unix.EINTR || err == unix.ENOENT {
				continue
			}
			return
		}
		resp := seccompResp{id: n.id}
		if e := answerMetadata(listener, n, writable); e != 0 {
			resp.error = -int32(e)
		}
		// ENOENT: the call was interrupted (the thread got a signal, or
		// died) meanwhile; nothing waits for the answer.
		_ = seccompIoctl(listener, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&resp))
	}
}

// answerMetadata makes the mode or time change notification n asks for,
// if the file it names is under a folder of writable, and returns the
// errno the server's call returns (0 for success).
func answerMetadata(listener int, n seccompNotif, writable []string) unix.Errno {
	call, isMode := seccompMode[uint32(n.nr)]
	if !isMode {
		var ok bool
		if call, ok = seccompTimes[uint32(n.nr)]; !ok {
			return unix.ENOSYS
		}
	}
	mem, err := os.Open("/proc/" + strconv.Itoa(int(n.pid)) + "/mem")
	if err != nil {
		return unix.EPERM
	}
	defer mem.Close()
	a := n.args
	flags := 0
	if call.flags >= 0 {
		flags = int(int32(a[call.flags]))
	}
	var path *string
	if call.path >= 0 && a[call.path] != 0 {
		s, e := readString(mem, a[call.path])
		if e != 0 {
			return e
		}
		path = &s
	}
	var times *[4]int64
	if call.times >= 0 && a[call.times] != 0 {
		t, e := readTimes(mem, a[call.times], call.timeKind)
		if e != 0 {
			return e
		}
		times = &t
	}
	// What was read is the server's only if the call still waits: else
	// the pid may be another process's by now.
	id := n.id
	if seccompIoctl(listener, unix.SECCOMP_IOCTL_NOTIF_ID_VALID, unsafe.Pointer(&id)) != nil {
		return unix.ENOENT
	}
	fd, e := openCallTarget(int(n.pid), call, a, path, flags)
	if e != 0 {
		return e
	}
	defer unix.Close(fd)
	if !fdUnder(fd, writable) {
		return unix.EPERM
	}
	if isMode {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return errnoOf(err)
		}
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			return unix.EOPNOTSUPP // Linux has no mode for a link
		}
		return errnoOf(unix.Fchmodat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), uint32(a[call.mode])&0o7777, 0))
	}
	empty := [1]byte{}
	var tp unsafe.Pointer
	if times != nil {
		tp = unsafe.Pointer(&times[0])
	}
	_, _, errno := unix.Syscall6(unix.SYS_UTIMENSAT, uintptr(fd), uintptr(unsafe.Pointer(&empty[0])), uintptr(tp),
		uintptr(unix.AT_EMPTY_PATH|flags&unix.AT_SYMLINK_NOFOLLOW), 0, 0)
	runtime.KeepAlive(times)
	return errno
}

// openCallTarget opens (O_PATH) the file a call of process pid names, as
// the kernel would have for it: a descriptor of its own (call.fd), or a
// path from its working folder or a descriptor (dirfd), the path's last
// link followed unless AT_SYMLINK_NOFOLLOW; with no path (utimensat's
// NULL) or an empty one with AT_EMPTY_PATH, the dirfd itself.
func openCallTarget(pid int, call seccompCall, a [6]uint64, path *string, flags int) (int, unix.Errno) {
	proc := "/proc/" + strconv.Itoa(pid)
	fdPath := func(fd int32) string { return proc + "/fd/" + strconv.Itoa(int(fd)) }
	open := func(p string) (int, unix.Errno) {
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return -1, errnoOf(err)
		}
		return fd, 0
	}
	if call.fd >= 0 {
		return open(fdPath(int32(a[call.fd])))
	}
	dirfd := int32(unix.AT_FDCWD)
	if call.dirfd >= 0 {
		dirfd = int32(a[call.dirfd])
	}
	if path == nil || (*path == "" && flags&unix.AT_EMPTY_PATH != 0) {
		if path == nil && call.path >= 0 && call.dirfd < 0 {
			return -1, unix.EFAULT
		}
		if dirfd == unix.AT_FDCWD {
			return -1, unix.EFAULT
		}
		return open(fdPath(dirfd))
	}
	if *path == "" {
		return -1, unix.ENOENT
	}
	base := unix.AT_FDCWD
	if !filepath.IsAbs(*path) {
		from := proc + "/cwd"
		if dirfd != unix.AT_FDCWD {
			from = fdPath(dirfd)
		}
		b, e := open(from)
		if e != 0 {
			return -1, e
		}
		defer unix.Close(b)
		base = b
	}
	oflags := unix.O_PATH | unix.O_CLOEXEC
	if flags&unix.AT_SYMLINK_NOFOLLOW != 0 {
		oflags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Openat(base, *path, oflags, 0)
	if err != nil {
		return -1, errnoOf(err)
	}
	return fd, 0
}

// fdUnder reports whether the file open on fd is under one of dirs, by
// the path the kernel gives for it now (a file removed since, " (deleted)",
// is under none).
func fdUnder(fd int, dirs []string) bool {
	p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil || !filepath.IsAbs(p) {
		return false
	}
	for _, d := range dirs {
		if within(p, d) {
			return true
		}
	}
	return false
}

// readString reads a NUL-terminated path at addr of a process's memory,
// at most PATH_MAX bytes. A read stops short at the end of a mapping; the
// next one, from there, reads nothing: EFAULT, as the kernel answers.
func readString(mem *os.File, addr uint64) (string, unix.Errno) {
	var out []byte
	buf := make([]byte, 256)
	for len(out) < unix.PathMax {
		n, _ := mem.ReadAt(buf, int64(addr)+int64(len(out)))
		if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
			return string(append(out, buf[:i]...)), 0
		}
		if n == 0 {
			return "", unix.EFAULT
		}
		out = append(out, buf[:n]...)
	}
	return "", unix.ENAMETOOLONG
}

// readTimes reads a times call's two times at addr, as utimensat takes
// them: struct timespec[2], which is four 64-bit words on both
// architectures with a table (little-endian, both).
func readTimes(mem *os.File, addr uint64, kind timesKind) ([4]int64, unix.Errno) {
	var ts [4]int64
	size := 32
	if kind == timesUtimbuf {
		size = 16
	}
	b := make([]byte, size)
	if n, _ := mem.ReadAt(b, int64(addr)); n != size {
		return ts, unix.EFAULT
	}
	word := func(i int) int64 { return int64(binary.LittleEndian.Uint64(b[i*8:])) }
	switch kind {
	case timesTimespec:
		ts = [4]int64{word(0), word(1), word(2), word(3)}
	case timesTimeval:
		ts = [4]int64{word(0), word(1) * 1000, word(2), word(3) * 1000}
	case timesUtimbuf:
		ts = [4]int64{word(0), 0, word(1), 0}
	}
	return ts, 0
}

// errnoOf is err's errno, EPERM for an error without one.
func errnoOf(err error) unix.Errno {
	if err == nil {
		return 0
	}
	var e unix.Errno
	if errors.As(err, &e) {
		return e
	}
	return unix.EPERM
}
