package mcpconn

// Fault servers: the test binary, run with ROOTPICK_TEST_SERVE=<mode>, acts
// as a misbehaving stdio server (TestMain in hub_test.go dispatches here).
// Every one that serves MCP answers it normally, as the demo server, so the
// tests do not depend on how a blocked session is closed.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

var faultModes = map[string]func(){
	// demo is the demo server, with a coloured line on stderr first.
	"demo": func() {
		fmt.Fprintln(os.Stderr, "demo server starting\x1b[31m")
		if err := NewDemo(nil, os.Stderr).ServeStdio(context.Background()); err != nil {
			os.Exit(1)
		}
	},
	// crash says so on stderr and exits 3.
	"crash": func() {
		fmt.Fprintln(os.Stderr, "about to crash")
		os.Exit(3)
	},
	// flood serves MCP while writing stderr lines as fast as it can.
	"flood": func() {
		go func() {
			line := []byte(strings.Repeat("flood ", 20) + "\n")
			for {
				if _, err := os.Stderr.Write(line); err != nil {
					return
				}
			}
		}()
		serveDemo()
	},
	// longline writes a 2 MiB stderr line, then normal lines, then serves
	// MCP.
	"longline": func() {
		os.Stderr.WriteString(strings.Repeat("x", 2<<20) + "\n")
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(os.Stderr, "after-%d\n", i)
		}
		serveDemo()
	},
	// setsid starts a grandchild in a new session (out of the server's
	// process group) that ignores SIGTERM, SIGHUP, SIGINT and end of input,
	// then serves MCP.
	"setsid": func() {
		faultserver.SpawnSleeper()
		serveDemo()
	},
	// setsid-then-term starts a sleeper and, once the sleeper is deaf to
	// SIGTERM, dies of SIGTERM itself, before it has answered
	// initialize: its guard then takes termGrace to end the sleeper, and
	// exits only after that.
	"setsid-then-term": func() {
		faultserver.SpawnSleeper()
		pidfile := os.Getenv("ROOTPICK_TEST_PIDFILE")
		for deadline := time.Now().Add(10 * time.Second); len(faultserver.ReadPids(pidfile)) == 0 && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		_ = testproc.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(time.Hour)
	},
	// orphan starts a child that starts such a grandchild and exits at
	// once, so that the grandchild is orphaned before anything ends the
	// server: it is re-parented to the nearest subreaper, or to init.
	"orphan":        func() { spawnOrphan("orphan-parent") },
	"orphan-parent": faultserver.SpawnSleeper,
	// orphan-untagged is orphan with a grandchild started with a cleared
	// environment (as by env -i): only the subreaper can find it.
	"orphan-untagged": func() { spawnOrphan("orphan-parent-untagged") },
	// orphan-brief serves MCP after orphaning a grandchild that exits
	// 200 ms later: a zombie for the subreaper to reap.
	"orphan-brief": func() { spawnOrphan("orphan-brief-parent") },
	// reap becomes a subreaper, serves an orphan-brief server and prints
	// "reaped" once the orphan's zombie is gone, or "zombie" after 3 s.
	// Meanwhile its own children started by os/exec must keep their exit
	// status: it prints "stolen" if one does not. Run it with
	// ROOTPICK_TEST_NO_GUARD: a guard would adopt and reap the orphan.
	"reap": func() {
		if err := launch.BecomeSubreaper(); err != nil {
			fmt.Println("subreaper:", err)
			os.Exit(1)
		}
		hub := NewHub(Options{})
		defer hub.Close()
		server := []string{"env", "ROOTPICK_TEST_SERVE=orphan-brief", os.Args[0]}
		if err := hub.Connect(context.Background(), Spec{Command: server}); err != nil {
			fmt.Println("connect:", err)
			os.Exit(1)
		}
		for i := range 10 {
			cmd := exec.Command("sh", "-c", "exit 7")
			if i%2 == 0 {
				cmd.SysProcAttr = testproc.GroupAttr() // as a server is started
			}
			if err := cmd.Start(); err != nil {
				fmt.Println("start:", err)
				continue
			}
			// A zombie before Wait: the reaper must not take it.
			time.Sleep(50 * time.Millisecond)
			if err := cmd.Wait(); cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 7 {
				fmt.Println("stolen:", err)
			}
		}
		pidfile := os.Getenv("ROOTPICK_TEST_PIDFILE")
		for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			pids := faultserver.ReadPids(pidfile)
			if len(pids) == 1 {
				if _, err := os.Stat("/proc/" + strconv.Itoa(pids[0])); err != nil {
					fmt.Println("reaped")
					return
				}
			}
			if time.Now().After(deadline) {
				fmt.Println("zombie", pids)
				return
			}
		}
	},
	// sweep is rootpick's quit path in miniature: become a subreaper, serve
	// an "orphan" server, close the hub, end what is left. It prints how
	// many processes EndDescendants found. This is about rootpick's own
	// subreaper: run it with ROOTPICK_TEST_NO_GUARD, since a guard would
	// adopt and end the orphan first.
	"sweep": func() {
		if os.Getenv("ROOTPICK_TEST_NO_SUBREAPER") == "" {
			if err := launch.BecomeSubreaper(); err != nil {
				fmt.Println("subreaper:", err)
				os.Exit(1)
			}
		}
		hub := NewHub(Options{})
		cmd := []string{"env", "ROOTPICK_TEST_SERVE=orphan-untagged", os.Args[0]}
		if err := hub.Connect(context.Background(), Spec{Command: cmd}); err != nil {
			fmt.Println("connect:", err)
			os.Exit(1)
		}
		pidfile := os.Getenv("ROOTPICK_TEST_PIDFILE")
		for deadline := time.Now().Add(5 * time.Second); len(faultserver.ReadPids(pidfile)) == 0; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				fmt.Println("no grandchild")
				os.Exit(1)
			}
		}
		hub.Close()
		fmt.Println("ended", launch.EndDescendants(500*time.Millisecond))
	},
}

// spawnOrphan runs the test binary in mode parent, which starts a sleeper
// and exits, then serves MCP.
func spawnOrphan(parent string) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE="+parent)
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "orphan:", err)
		os.Exit(1)
	}
	serveDemo()
}

func serveDemo() {
	if err := NewDemo(nil, nil).ServeStdio(context.Background()); err != nil {
		os.Exit(1)
	}
}
