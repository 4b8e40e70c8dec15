package e2e

// Fault servers for the end-to-end tests: the test binary, run with
// ROOTPICK_FAULT_SERVER=<name>, becomes that server (TestMain in
// e2e_test.go dispatches here). Other files register their own with
// func init() { faultServers["name"] = ... }.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn"
)

// faultServers maps a name to the main function of a fault server.
var faultServers = map[string]func(){
	// setsid serves MCP like serve-demo, after starting two processes
	// that ignore SIGTERM, SIGHUP, SIGINT and end of input, each in a new
	// session (out of the server's process group): a grandchild, and a
	// great-grandchild orphaned at once whose environment is cleared (as
	// by env -i), which only rootpick's subreaper can find. Both write
	// their pid to $ROOTPICK_FAULT_PIDFILE; the server writes its own to
	// $ROOTPICK_FAULT_PIDFILE.server.
	"setsid": func() {
		pidfile := os.Getenv("ROOTPICK_FAULT_PIDFILE")
		writePid(pidfile+".server", os.Getpid())
		startFault("deaf", true, nil)
		parent := exec.Command(os.Args[0])
		parent.Env = append(os.Environ(), "ROOTPICK_FAULT_SERVER=orphan-parent")
		if err := parent.Run(); err != nil {
			os.Exit(1)
		}
		serveDemoStdio()
	},
	"orphan-parent": func() {
		startFault("deaf", true, []string{"ROOTPICK_FAULT_PIDFILE=" + os.Getenv("ROOTPICK_FAULT_PIDFILE")})
	},
	// deaf writes its pid and sleeps, ignoring the polite signals.
	"deaf": func() {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		writePid(os.Getenv("ROOTPICK_FAULT_PIDFILE"), os.Getpid())
		time.Sleep(time.Hour)
	},
	// flood serves MCP while writing 128-byte stderr lines as fast as the
	// pipe takes them.
	"flood": func() {
		writePid(os.Getenv("ROOTPICK_FAULT_PIDFILE")+".server", os.Getpid())
		go func() {
			line := []byte(strings.Repeat("flooding stderr ", 8)[:127] + "\n")
			for {
				if _, err := os.Stderr.Write(line); err != nil {
					return
				}
			}
		}()
		serveDemoStdio()
	},
}

// startFault starts the test binary as fault server name, in a new session
// if setsid, and does not wait for it. A nil env inherits this one.
func startFault(name string, setsid bool, env []string) {
	cmd := exec.Command(os.Args[0])
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env, "ROOTPICK_FAULT_SERVER="+name)
	cmd.SysProcAttr = testproc.SessionAttr(setsid)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "starting", name, err)
		os.Exit(1)
	}
}

func serveDemoStdio() {
	if err := mcpconn.NewDemo(nil, nil).ServeStdio(context.Background()); err != nil {
		os.Exit(1)
	}
}

func writePid(file string, pid int) {
	f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		os.Exit(1)
	}
	fmt.Fprintln(f, pid)
	_ = f.Close()
}
