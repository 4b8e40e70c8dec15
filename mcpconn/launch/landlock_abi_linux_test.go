//go:build linux

package launch

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// TestLandlockRightsPerABI holds the raw Landlock calls of
// landlock_linux.go against go-landlock, the library they replace (a
// test-only import: the release binary does not link it). For each ABI,
// and the ones past landlockMaxABI (asked for as landlockMaxABI), the
// rights handled and the scopes are go-landlock's for that ABI, and each
// Access grants go-landlock's rights of the same name (RODirs, RWDirs,
// ROFiles, RWFiles), within what is handled.
func TestLandlockRightsPerABI(t *testing.T) {
	versions := []landlock.Config{landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5, landlock.V6,
		landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11}
	if len(versions) <= landlockMaxABI {
		t.Fatalf("go-landlock knows %d ABIs; landlockMaxABI is %d", len(versions), landlockMaxABI)
	}
	// go-landlock's own groups: RODirs grants READ_FILE|READ_DIR|EXECUTE,
	// RWDirs everything but IOCTL_DEV and RESOLVE_UNIX (which it leaves
	// to WithIoctlDev and WithResolveUnix); ours grant those two with
	// write on purpose (a server's own devices in its folders; sockets
	// in the folders it may write).
	roDirs := uint64(llsys.AccessFSExecute | llsys.AccessFSReadFile | llsys.AccessFSReadDir)
	rwDirs := uint64(1<<14-1) | uint64(llsys.AccessFSTruncate) | uint64(llsys.AccessFSIoctlDev) | uint64(llsys.AccessFSResolveUnix)
	roFiles := uint64(llsys.AccessFSExecute | llsys.AccessFSReadFile)
	rwFiles := roFiles | uint64(llsys.AccessFSWriteFile|llsys.AccessFSTruncate|llsys.AccessFSIoctlDev|llsys.AccessFSResolveUnix)
	makeNodes := uint64(llsys.AccessFSMakeChar | llsys.AccessFSMakeBlock)
	for i, v := range versions {
		abi := i + 1
		use := min(abi, landlockMaxABI)
		want := versions[use-1]
		if got := handledFS(use); got != uint64(want.HandledAccessFS) {
			t.Errorf("ABI %d: handledFS %#x, go-landlock's V%d handles %#x", abi, got, use, uint64(want.HandledAccessFS))
		}
		// Network off handles what go-landlock calls TCP at that ABI
		// (UDP, from ABI 10, is past landlockMaxABI: seccomp refuses it).
		if got, tcp := handledNet(use, true), uint64(want.HandledAccessNet)&(uint64(llsys.AccessNetBindTCP)|uint64(llsys.AccessNetConnectTCP)); got != tcp {
			t.Errorf("ABI %d: handledNet off %#x, go-landlock's V%d TCP %#x", abi, got, use, tcp)
		}
		if got := handledNet(use, false); got != 0 {
			t.Errorf("ABI %d: handledNet on %#x, want none", abi, got)
		}
		if got := scopes(use); got != uint64(want.Scoped) {
			t.Errorf("ABI %d: scopes %#x, go-landlock's V%d %#x", abi, got, use, uint64(want.Scoped))
		}
		if abi <= landlockMaxABI && uint64(v.HandledAccessFS) != handledFS(abi) {
			t.Errorf("ABI %d: go-landlock's V%d handles %#x, ours %#x", abi, abi, uint64(v.HandledAccessFS), handledFS(abi))
		}
		h := handledFS(use)
		for _, c := range []struct {
			a    Access
			dir  bool
			want uint64
		}{
			{accessRX, true, roDirs},
			{accessRWX, true, rwDirs &^ makeNodes},
			{AccessRead, true, roDirs &^ uint64(llsys.AccessFSExecute)}, // a folder shared read-only
			{AccessRead, false, uint64(llsys.AccessFSReadFile)},
			{accessRX, false, roFiles},
			{accessRWX, false, rwFiles},
			{AccessConnect, false, uint64(llsys.AccessFSResolveUnix)},
		} {
			if got := fsRights(c.a, c.dir, h); got != c.want&h {
				t.Errorf("ABI %d: %s on a folder=%v: %#x, want %#x", abi, c.a, c.dir, got, c.want&h)
			}
		}
	}
}

// TestReadOnlyRuleEveryABI: the rights a folder or a file shared
// read-only gets are reading and listing only, on every ABI (1 to
// landlockMaxABI and the ones past it), and the kernel takes the rule on
// each ABI it offers: a ruleset handling that ABI's rights accepts it.
func TestReadOnlyRuleEveryABI(t *testing.T) {
	for abi := 1; abi <= landlockMaxABI+2; abi++ {
		h := handledFS(min(abi, landlockMaxABI))
		if got := fsRights(AccessRead, true, h); got != unix.LANDLOCK_ACCESS_FS_READ_FILE|unix.LANDLOCK_ACCESS_FS_READ_DIR {
			t.Errorf("ABI %d: a read-only folder gets %#x", abi, got)
		}
		if got := fsRights(AccessRead, false, h); got != unix.LANDLOCK_ACCESS_FS_READ_FILE {
			t.Errorf("ABI %d: a read-only file gets %#x", abi, got)
		}
	}
	kernel := needLandlock(t)
	dir := tempDir(t)
	file := filepath.Join(dir, "f")
	must(t, os.WriteFile(file, nil, 0o600))
	for abi := 1; abi <= min(kernel, landlockMaxABI); abi++ {
		handled := handledFS(abi)
		attr := rulesetAttr{handledFS: handled}
		fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
		if errno != 0 {
			t.Fatalf("ABI %d: landlock_create_ruleset: %v", abi, errno)
		}
		for _, p := range []struct {
			path string
			dir  bool
		}{{dir, true}, {file, false}} {
			pfd, err := unix.Open(p.path, unix.O_PATH|unix.O_CLOEXEC, 0)
			must(t, err)
			rule := pathBeneathAttr{allowed: fsRights(AccessRead, p.dir, handled), parentFD: int32(pfd)}
			_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
			unix.Close(pfd)
			if errno != 0 {
				t.Errorf("ABI %d: the read-only rule on %s is refused: %v", abi, p.path, errno)
			}
		}
		unix.Close(int(fd))
	}
}
