package consent

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/testskip"
	"golang.org/x/sys/unix"
)

// TestReadFileRefusesAFileThatGrowsWhileRead: the size fstat gives is not
// what bounds what ReadFile believes, since a file may grow between the
// stat and the read (another process appends to it). The read itself must
// stop one byte past MaxStateFile and refuse the file.
//
// No test can time an append into that window, but the kernel offers a
// file that is, to ReadFile, exactly such a file: /proc/self/fdinfo/<an
// epoll descriptor> is a regular file of the process's own, not writable
// by others, whose size at fstat is 0 and whose read lists every
// descriptor the epoll instance watches — past MaxStateFile once it
// watches enough of them.
func TestReadFileRefusesAFileThatGrowsWhileRead(t *testing.T) {
	const fdinfo = "/proc/self/fdinfo"
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	must(t, err)
	fds := []int{ep}
	t.Cleanup(func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	})
	var p [2]int
	must(t, unix.Pipe2(p[:], unix.O_CLOEXEC))
	fds = append(fds, p[0], p[1])
	name := strconv.Itoa(ep)
	watched := 0
	for {
		b, err := os.ReadFile(fdinfo + "/" + name)
		if err != nil {
			testskip.Skip(t, "procfs", fmt.Sprintf("mount /proc (reading %s/%s: %v)", fdinfo, name, err))
		}
		if len(b) > MaxStateFile {
			break
		}
		for range 1024 {
			fd, err := unix.FcntlInt(uintptr(p[0]), unix.F_DUPFD_CLOEXEC, 0)
			if errors.Is(err, unix.EMFILE) {
				var lim unix.Rlimit
				_ = unix.Getrlimit(unix.RLIMIT_NOFILE, &lim)
				need := len(fds) + 1024
				if watched > 0 {
					need = len(fds) - watched + MaxStateFile/(len(b)/watched) + 1024
				}
				testskip.Skip(t, "open files", fmt.Sprintf("raise the open-file limit (ulimit -n) from %d to about %d", lim.Cur, need))
			}
			must(t, err)
			fds = append(fds, fd)
			must(t, unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN}))
		}
		watched += 1024
	}
	if st, err := os.Stat(fdinfo + "/" + name); err != nil || st.Size() > MaxStateFile {
		t.Fatalf("%s/%s reports a size past MaxStateFile at stat (%v, %v): it no longer stands for a file that grows after the stat; find another", fdinfo, name, st, err)
	}

	// procfs makes the folder 0555 on recent kernels, which OpenOwnDir
	// rightly refuses; the checks under test are ReadFile's own, of the
	// file, so the test wraps the folder's descriptor itself.
	dirfd, err := unix.Open(fdinfo, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	must(t, err)
	d := &OwnDir{path: fdinfo, impl: ownDirImpl{fd: dirfd}}
	defer d.Close()
	b, err := d.ReadFile(name)
	var u *UntrustedError
	if want := "grew past 1048576 bytes while read"; !errors.As(err, &u) || !strings.Contains(err.Error(), want) {
		t.Errorf("ReadFile of a file of size 0 at fstat whose read goes past MaxStateFile = %d bytes, %v; want it refused: %q", len(b), err, want)
	}
}
