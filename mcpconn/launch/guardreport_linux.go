//go:build linux

package launch

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A guard runs between rootpick and the server, so the exit status rootpick
// sees is the guard's, and a program the guard cannot start looks like a
// server that exits with status 127. So the guard reports both on a pipe
// of its own, its fd 3 (guardReportFD), one line each:
//
//	landlock ABI          the guard restricted itself to the ruleset (with a policy)
//	landlock-error TEXT   it could not: the program is not started
//	started               the program was started
//	start-error ERRNO     it could not be (ENOENT, EACCES, ENOEXEC…)
//	exit STATUS           the server ended on its own, with this raw wait status
//
// The pipe is closed on exec in the server, so it ends when the guard does.

// guardReportFD is the guard's descriptor of its report pipe.
const guardReportFD = 3

// guardReport is rootpick's end of a guard's report pipe.
type guardReport struct {
	r, w    *os.File      // w is the guard's end, closed here once it is started
	policy  *os.File      // the guard's policy (fd 4), nil without; closed here once it is started
	started chan struct{} // closed once the guard has said whether it started the program, or ended
	done    chan struct{} // closed when the pipe has ended
	after   sync.Once     // afterStart runs once

	mu          sync.Mutex
	landlockErr string              // why the guard could not enforce the ruleset
	startErr    error               // why the program could not be started
	status      *syscall.WaitStatus // how the server ended, if on its own
	// onExit, if set, is called with how the server ended as soon as the
	// guard says it ended on its own: before the guard has ended the
	// rest of the tree, which takes a second when a descendant ignores
	// SIGTERM.
	onExit func(end string)
}

// newGuardReport makes the pipe a guard reports on; w goes to the guard.
func newGuardReport() (*guardReport, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	return &guardReport{r: r, w: w, started: make(chan struct{}), done: make(chan struct{})}, nil
}

// afterStart is called once the guard's process was started, or failed to
// be or never will be (ok false): rootpick lets go of the guard's end, and
// reads its own. Only the first call counts.
func (g *guardReport) afterStart(ok bool) {
	if g == nil {
		return
	}
	g.after.Do(func() {
		_ = g.w.Close()
		if g.policy != nil {
			_ = g.policy.Close()
		}
		if !ok {
			_ = g.r.Close()
			close(g.started)
			close(g.done)
			return
		}
		go g.read()
	})
}

func (g *guardReport) read() {
	defer close(g.done)
	defer g.r.Close()
	var once sync.Once
	said := func() { once.Do(func() { close(g.started) }) }
	defer said()
	sc := bufio.NewScanner(g.r)
	for sc.Scan() {
		word, arg, _ := strings.Cut(sc.Text(), " ")
		n, _ := strconv.ParseUint(arg, 10, 32)
		g.mu.Lock()
		switch word {
		case "start-error":
			g.startErr = syscall.Errno(n)
		case "landlock-error":
			g.landlockErr = arg
		case "exit":
			ws := syscall.WaitStatus(n)
			g.status = &ws
		}
		onExit := g.onExit
		g.mu.Unlock()
		if word == "exit" && onExit != nil {
			onExit(waitStatusEnd(syscall.WaitStatus(n)))
		}
		if word == "started" || word == "start-error" || word == "landlock-error" {
			said()
		}
	}
}

// whenServerEnds has f called with how the server ended (in words), if
// the guard reports that it ended on its own. Call it before afterStart.
func (g *guardReport) whenServerEnds(f func(end string)) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.onExit = f
}

// startError waits up to d until the guard has said whether it started
// the program, and returns why it could not (nil when it could, or has
// not said).
func (g *guardReport) startError(d time.Duration) error {
	if g == nil {
		return nil
	}
	select {
	case <-g.started:
	case <-time.After(d):
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.landlockErr != "" {
		return landlockError(g.landlockErr)
	}
	return g.startErr
}

// serverEnd says how the server ended, if the guard reported it ended on
// its own. It is called once the guard has exited, and waits at most d
// for the rest of the report.
func (g *guardReport) serverEnd(d time.Duration) string {
	if g == nil {
		return ""
	}
	select {
	case <-g.done:
	case <-time.After(d):
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.status == nil {
		return ""
	}
	return waitStatusEnd(*g.status)
}

// guardReporter is the guard's end of the report pipe.
type guardReporter struct{ f *os.File }

// openGuardReporter takes fd 3 as the report pipe, closed on exec so that
// the server does not inherit it.
func openGuardReporter() guardReporter {
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, guardReportFD, syscall.F_GETFD, 0); errno != 0 {
		return guardReporter{} // started without one
	}
	syscall.CloseOnExec(guardReportFD)
	return guardReporter{f: os.NewFile(guardReportFD, "guard report")}
}

// say writes one line of the report, if there is one to write to: a
// report that cannot be written changes nothing the guard does.
func (r guardReporter) say(format string, args ...any) {
	if r.f == nil {
		return
	}
	_, _ = fmt.Fprintf(r.f, format+"\n", args...)
}
