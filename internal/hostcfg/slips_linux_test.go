package hostcfg

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestHostsWriteLooksAgainBeforeTheRename: a host that writes its file
// after Write has read it, while Write copies the backup, is not
// overwritten: Write looks at the file again just before the rename and
// returns ErrChanged, leaving the host's content in place.
//
// The window is opened without a sleep or a hook: a fanotify permission
// event holds Write's open of the older backup (which Write reads after
// its first look at the file and before the rename) until the test has
// written the file as the host would, through a handle it opened before
// the watch began.
func TestHostsWriteLooksAgainBeforeTheRename(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "mcp.json")
	older := name + BackupSuffix
	if err := os.WriteFile(name, []byte("as read"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(older, []byte("older content"), 0o600); err != nil {
		t.Fatal(err)
	}
	host, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()

	fd, err := unix.FanotifyInit(unix.FAN_CLASS_CONTENT|unix.FAN_CLOEXEC|unix.FAN_NONBLOCK, unix.O_RDONLY|unix.O_CLOEXEC)
	if err != nil {
		t.Skipf("needs fanotify permission events (CAP_SYS_ADMIN: run as root, on a kernel with CONFIG_FANOTIFY_ACCESS_PERMISSIONS): %v", err)
	}
	watch := os.NewFile(uintptr(fd), "fanotify") // in the poller: Close ends a Read
	if err := unix.FanotifyMark(fd, unix.FAN_MARK_ADD, unix.FAN_OPEN_PERM|unix.FAN_EVENT_ON_CHILD, unix.AT_FDCWD, dir); err != nil {
		watch.Close()
		t.Skipf("cannot watch opens in %s with fanotify: %v", dir, err)
	}
	hostWrote := make(chan error, 1)
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		buf := make([]byte, 4096)
		fired := false
		for {
			n, err := watch.Read(buf)
			if err != nil {
				return // closed: every pending open is allowed
			}
			for p := buf[:n]; len(p) >= int(unsafe.Sizeof(unix.FanotifyEventMetadata{})); {
				var ev unix.FanotifyEventMetadata
				if err := binary.Read(bytes.NewReader(p), binary.NativeEndian, &ev); err != nil || ev.Event_len == 0 || int(ev.Event_len) > len(p) {
					return
				}
				p = p[ev.Event_len:]
				if ev.Fd < 0 {
					continue
				}
				opened, _ := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(ev.Fd)))
				if opened == older && !fired {
					// Write has read the file and is copying the backup:
					// the host writes now.
					fired = true
					_, err := host.WriteAt([]byte("HOST!!!"), 0)
					hostWrote <- err
				}
				var resp bytes.Buffer
				_ = binary.Write(&resp, binary.NativeEndian, unix.FanotifyResponse{Fd: ev.Fd, Response: unix.FAN_ALLOW})
				_, _ = watch.Write(resp.Bytes())
				unix.Close(int(ev.Fd))
			}
		}
	}()
	_, werr := Write(name, []byte("as read"), []byte("rootpick's"), "")
	watch.Close()
	<-answered

	select {
	case err := <-hostWrote:
		if err != nil {
			t.Fatalf("the host's write: %v", err)
		}
	default:
		t.Fatal("Write never opened the older backup: the window this test opens is gone (see the test's comment)")
	}
	if got := readFile(t, name); got != "HOST!!!" {
		t.Errorf("the file holds %q after Write (error %v), want the host's %q: a change made after the first look was overwritten", got, werr, "HOST!!!")
	}
	if !errors.Is(werr, ErrChanged) {
		t.Errorf("Write: %v, want ErrChanged", werr)
	}
}
