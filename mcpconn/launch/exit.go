package launch

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// Why a stdio server failed is best said by the process, not by the
// transport: a server that exits at once makes the handshake fail with
// `calling "initialize": EOF`, which says nothing of the exit status 1 (or
// the SIGKILL) behind it. And a program that cannot be started at all (not
// on PATH, not executable) will not start on the next attempt either.

// FinalError is a failure to start a program that trying again cannot fix
// until something outside rootpick changes: the program is installed, made
// executable, or the command is corrected. The supervisor does not
// restart such a server until it is asked to (Hub.Retry).
type FinalError struct {
	msg    string // whole: "nosuch: not found on PATH"
	Reason string // short: "not found on PATH"
	err    error
}

func (e *FinalError) Error() string { return e.msg }
func (e *FinalError) Unwrap() error { return e.err }

// IsFinal reports whether err says that restarting cannot help.
func IsFinal(err error) bool {
	var fe *FinalError
	return errors.As(err, &fe)
}

// startFailure classifies err, returned by starting program (as written in
// the command; path is where it was looked for): a program that is missing
// or not executable is a finalError in plain words; any other error is
// returned as is.
func startFailure(program, path string, err error) error {
	final := func(reason string) error {
		return &FinalError{msg: program + ": " + reason, Reason: reason, err: err}
	}
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return final("not found on PATH")
	case errors.Is(err, exec.ErrDot):
		return final("found only in the current folder through PATH, which is not run (give its path, ./" + program + ")")
	case errors.Is(err, fs.ErrNotExist):
		if _, serr := os.Stat(path); serr == nil {
			// The file is there: what is missing is the interpreter its
			// first line (#!) names.
			return final("its interpreter (the #! line) was not found")
		}
		return final("no such file")
	case errors.Is(err, fs.ErrPermission):
		if fi, serr := os.Stat(path); serr == nil && fi.IsDir() {
			return final("is a folder, not a program")
		}
		return final("not executable (permission denied)")
	case errors.Is(err, syscall.ENOEXEC):
		return final("not a program this system can run (exec format error)")
	}
	return err
}

// ExitedError is why a server failed or ended when its process exited on
// its own: the exit status or the signal says more than the transport's
// error, which is kept for the log.
type ExitedError struct {
	Reason string // "exited with status 1", "killed by signal 9 (SIGKILL)"
	While  string // "before it answered initialize", or ""
	Cause  error  // what the transport said
}

func (e *ExitedError) Error() string {
	if e.While == "" {
		return e.Reason
	}
	return e.Reason + " " + e.While
}

func (e *ExitedError) Unwrap() error { return e.Cause }

// exitReason says how a process ended, from the error of its Wait: nil is
// exit status 0, an *exec.ExitError carries the status or signal. It
// returns "" when err says nothing of the process's end.
func exitReason(err error) string {
	if err == nil {
		return "exited with status 0"
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return ""
	}
	return processEnd(ee.ProcessState)
}

// processEnd says how the process ps describes ended, in words.
func processEnd(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
		return waitStatusEnd(ws)
	}
	return exitStatus(ps.ExitCode())
}

// waitStatusEnd says how a process that ended with ws ended, in words.
func waitStatusEnd(ws syscall.WaitStatus) string {
	if ws.Signaled() {
		return signalEnd(ws.Signal(), ws.CoreDump())
	}
	return exitStatus(ws.ExitStatus())
}

// exitStatus says an exit status, with the meaning the shell and env(1)
// give 126 and 127.
func exitStatus(code int) string {
	s := "exited with status " + strconv.Itoa(code)
	switch code {
	case 126:
		s += " (a command it ran is not executable)"
	case 127:
		s += " (a command it ran was not found)"
	}
	return s
}

// signalEnd says which signal ended a process: "terminated by SIGTERM
// (signal 15)", "killed by signal 9 (SIGKILL)".
func signalEnd(sig syscall.Signal, core bool) string {
	n := strconv.Itoa(int(sig))
	name := signalName(sig)
	var s string
	switch {
	case sig == syscall.SIGTERM:
		s = "terminated by SIGTERM (signal " + n + ")"
	case name != "":
		s = "killed by signal " + n + " (" + name + ")"
	default:
		s = "killed by signal " + n
	}
	if core {
		s += ", core dumped"
	}
	return s
}

// processExit records how a stdio server's process ended. It is filled
// in once (processTransport.noteExit).
type processExit struct {
	reason string // "" when its end says nothing
	// self is false when rootpick had begun to end the process: its end
	// was then rootpick's doing, not the server's.
	self bool
}
