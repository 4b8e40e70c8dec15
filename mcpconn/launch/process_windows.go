//go:build windows

package launch

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows each server is put in its own job object as soon as it has
// started; the job is made to kill every process in it when its last
// handle closes. Ending a server terminates the job, and with it every
// process the server started (they join the job when created). If rootpick
// dies without ending its servers, Windows closes the handle and the job
// kills them.
//
// What is not covered: a process the server starts in the instant between
// its own start and its assignment to the job, and a process started with
// CREATE_BREAKAWAY_FROM_JOB where the job allows it (ours does not).

var (
	jobsMu sync.Mutex
	jobs   = map[uint64]windows.Handle{} // by stamp
	jobSeq uint64
)

// BecomeSubreaper returns an error wrapping errors.ErrUnsupported: Windows
// has no child subreapers; job objects do that work here.
func BecomeSubreaper() error {
	return fmt.Errorf("child subreaper: %w", errors.ErrUnsupported)
}

// setProcAttr leaves the command as it is: the job is made after start.
func setProcAttr(*exec.Cmd) {}

// startStamp puts the process pid, just started, in a new job object that
// kills its processes when closed, and returns a stamp that names the job
// (0 if it could not be made: the server is then ended by its process
// only, as on systems without jobs).
func startStamp(pid int) uint64 {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return 0
	}
	proc, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		_ = windows.CloseHandle(job)
		return 0
	}
	defer func() { _ = windows.CloseHandle(proc) }()
	if err := windows.AssignProcessToJobObject(job, proc); err != nil {
		_ = windows.CloseHandle(job)
		return 0
	}
	jobsMu.Lock()
	defer jobsMu.Unlock()
	jobSeq++
	jobs[jobSeq] = job
	return jobSeq
}

// endTree terminates the server's job, and with it every process in it;
// without a job it kills the server process. Windows has no gentler signal
// to send (the SDK has already closed the server's stdin).
func endTree(pid int, stamp uint64, _ string, _, killGrace time.Duration) {
	jobsMu.Lock()
	job, ok := jobs[stamp]
	delete(jobs, stamp)
	jobsMu.Unlock()
	if ok {
		_ = windows.TerminateJobObject(job, 1)
		_ = windows.CloseHandle(job)
		return
	}
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
	_ = killGrace
}

// EndDescendants does nothing and returns 0: every server's job is ended
// with it, and the jobs die with rootpick.
func EndDescendants(time.Duration) int { return 0 }
