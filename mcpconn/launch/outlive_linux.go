//go:build linux

package launch

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// outliveParent lets cmd (a server's guard, or the server where there is
// no guard) outlive rootpick for bound at most: no signal when rootpick
// dies. For a launcher's first start only (proxy_install.go): hosts built
// on the TypeScript SDK end a server that misses their timeout by closing
// its input, SIGTERM 2 s later and SIGKILL 2 s after that, and npx killed
// in the middle of its install leaves its cache broken for every later
// start. Outliving, the install finishes; then the server reads the end
// of its input (rootpick's end of the pipe is gone) and exits, and its
// guard ends what is left of its tree and exits too. It still runs under
// its ruleset, and nothing can talk to it. A server that ignores the end
// of its input is not left running: the guard, told the bound
// (guardOrphanFlag), ends its tree once its parent has been gone that
// long (watchParent). Without a guard (only where guards are off) the
// server itself outlives rootpick, unbounded: rootpick never starts a
// server without one.
func outliveParent(cmd *exec.Cmd, bound time.Duration) {
	if cmd.SysProcAttr != nil {
		cmd.SysProcAttr.Pdeathsig = 0
	}
	if len(cmd.Args) > 0 && cmd.Args[0] == guardName {
		// This process's pid goes with the bound: the guard may start
		// after it died, and would then take init for its parent.
		cmd.Args = slices.Insert(cmd.Args, 1, guardOrphanFlag+bound.String()+","+strconv.Itoa(os.Getpid()))
	}
}

// guardOrphanFlag, as a guard's first argument with "DURATION,PID" after
// it, is how long the guard's tree may run once process PID, which
// started the guard, is gone (outliveParent).
const guardOrphanFlag = "--orphan-bound="

// guardOrphanBound takes the guard's orphan flag off args, if it is first:
// the bound (0 without the flag), the parent's pid and the rest.
func guardOrphanBound(args []string) (time.Duration, int, []string) {
	if len(args) == 0 || !strings.HasPrefix(args[0], guardOrphanFlag) {
		return 0, 0, args
	}
	bound, pid, _ := strings.Cut(strings.TrimPrefix(args[0], guardOrphanFlag), ",")
	d, err := time.ParseDuration(bound)
	if err != nil || d <= 0 {
		d = time.Nanosecond // unreadable: as if no time were given at all
	}
	ppid, err := strconv.Atoi(pid)
	if err != nil {
		ppid = os.Getppid()
	}
	return d, ppid, args[1:]
}

// watchParent sends on stop once the guard's parent (ppid, the process
// that started it) has been gone for bound: the guard then ends its tree
// as on SIGTERM. It looks twice a second.
func watchParent(ppid int, bound time.Duration, stop chan<- os.Signal) {
	var gone time.Time
	for {
		if os.Getppid() == ppid {
			time.Sleep(500 * time.Millisecond)
			continue
		}
		if gone.IsZero() {
			gone = time.Now()
		}
		if time.Since(gone) >= bound {
			select {
			case stop <- os.Interrupt:
			default:
			}
			return
		}
		time.Sleep(min(500*time.Millisecond, bound))
	}
}
