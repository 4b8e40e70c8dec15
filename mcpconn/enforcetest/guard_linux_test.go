package enforcetest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/mcpconn/proxy"
)

func init() {
	// host runs a "setsid-deaf" server the way rootpick does, through a Hub
	// (as the picker, a subreaper) or proxy.Run (as rootpick proxy) named
	// by ROOTPICK_TEST_HOST, under a guard unless ROOTPICK_TEST_NO_GUARD
	// is set. Once the server's deaf grandchild runs it prints its tree
	// ("pid:start ..."), the pid of its direct child and the server's
	// tag, then waits to be killed.
	faultModes["host"] = func() {
		pidfile := os.Getenv("ROOTPICK_TEST_PIDFILE")
		server := []string{"env", "ROOTPICK_TEST_SERVE=setsid-deaf", os.Args[0]}
		// With ROOTPICK_TEST_ENFORCE the server runs under Landlock: the
		// guard ends its tree from inside the ruleset. The pid file's
		// folder is allowed for writing.
		enforce, allow := launch.EnforceOff, []string(nil)
		if os.Getenv("ROOTPICK_TEST_ENFORCE") != "" {
			enforce, allow = launch.EnforceRequire, []string{filepath.Dir(pidfile)}
		}
		switch os.Getenv("ROOTPICK_TEST_HOST") {
		case "hub":
			if err := launch.BecomeSubreaper(); err != nil {
				fmt.Println("subreaper:", err)
				os.Exit(1)
			}
			if err := mcpconn.NewHub(mcpconn.Options{}).Connect(context.Background(), mcpconn.Spec{Command: server, Enforce: enforce, AllowWrite: allow}); err != nil {
				fmt.Println("connect:", err)
				os.Exit(1)
			}
		case "proxy":
			// The child starts before the host says anything.
			_, st := mcp.NewInMemoryTransports()
			go func() {
				_ = proxy.Run(context.Background(), st, proxy.Options{Command: server, Enforce: enforce, AllowWrite: allow})
			}()
		}
		for deadline := time.Now().Add(5 * time.Second); len(faultserver.ReadPids(pidfile)) == 0; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				fmt.Println("no grandchild")
				os.Exit(1)
			}
		}
		var tree []string
		child, tag := 0, ""
		for _, p := range faultserver.Tree(faultserver.Procs(), os.Getpid()) {
			tree = append(tree, fmt.Sprintf("%d:%d", p.PID, p.Start))
			if p.PPID == os.Getpid() {
				child = p.PID
				env, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/environ")
				for e := range bytes.SplitSeq(env, []byte{0}) {
					if strings.HasPrefix(string(e), "ROOTPICK_SERVER_") {
						tag = string(e) // the last one: an outer rootpick's may come first
					}
				}
			}
		}
		fmt.Println(strings.Join(tree, " "), child, tag)
		select {}
	}
}

// killedHost starts the "host" fault mode as host (hub or proxy), guarded
// or not, kills it with SIGKILL once its server's tree is up, and returns
// that tree (pid → start time), the pid of its direct child, the server's
// tag and the pid of the deaf grandchild. The test's end kills what is
// left.
func killedHost(t *testing.T, host string, guarded bool, env ...string) (tree map[int]uint64, child int, tag string, grandchild int) {
	t.Helper()
	pidfile := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ROOTPICK_TEST_SERVE=host", "ROOTPICK_TEST_HOST="+host, "ROOTPICK_TEST_PIDFILE="+pidfile)
	cmd.Env = append(cmd.Env, env...)
	if !guarded {
		cmd.Env = append(cmd.Env, "ROOTPICK_TEST_NO_GUARD=1")
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, p := range faultserver.ReadPids(pidfile) {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	})
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(out)
		s.Scan()
		line <- s.Text()
	}()
	var report string
	select {
	case report = <-line:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the host did not report its tree in 10 s")
	}
	f := strings.Fields(report)
	if len(f) < 3 {
		_ = cmd.Process.Kill()
		t.Fatalf("the host reported %q", report)
	}
	tree = map[int]uint64{}
	for _, ps := range f[:len(f)-2] {
		var pid int
		var start uint64
		if _, err := fmt.Sscanf(ps, "%d:%d", &pid, &start); err != nil {
			t.Fatalf("the host reported %q", report)
		}
		tree[pid] = start
	}
	child, _ = strconv.Atoi(f[len(f)-2])
	tag = f[len(f)-1]
	grandchild = faultserver.ReadPids(pidfile)[0]
	if _, ok := tree[grandchild]; !ok || !serverTag.MatchString(tag) || len(tree) != map[bool]int{true: 3, false: 2}[guarded] {
		_ = cmd.Process.Kill()
		t.Fatalf("want the guard (if any), the server and its grandchild %d, and a tag; the host reported %q", grandchild, report)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	return tree, child, tag, grandchild
}

// TestServersDieWithTheirHost: when the program that started a server
// (the picker through a Hub, or rootpick proxy) is killed with SIGKILL,
// the server's whole tree ends within a few seconds, including a
// grandchild that left the server's process group with setsid() and
// ignores SIGTERM and the end of its input: the guard ends it. Without a
// guard, PR_SET_PDEATHSIG ends the server, its direct child, but the
// grandchild escapes (the second run shows it). The server itself ignores
// SIGTERM and the end of its input too: nothing but the parent-death
// signal ends it.
func TestServersDieWithTheirHost(t *testing.T) {
	for _, host := range []string{"hub", "proxy"} {
		t.Run(host, func(t *testing.T) {
			tree, _, tag, _ := killedHost(t, host, true)
			waitTreeGone(t, host, tree, tag)
		})
		// TestGuardEndsTreeUnderLandlock: the guard of an enforced server
		// works inside the server's ruleset (it restricted the thread it
		// forks from and goes on on it): its /proc reads find the deaf
		// grandchild, and its signals reach it (same domain).
		t.Run(host+" enforced", func(t *testing.T) {
			needLandlock(t)
			tree, _, tag, _ := killedHost(t, host, true, "ROOTPICK_TEST_ENFORCE=1")
			waitTreeGone(t, host, tree, tag)
		})
		t.Run(host+" unguarded", func(t *testing.T) {
			_, child, _, grandchild := killedHost(t, host, false)
			waitFor(t, "the server to die with its host (PR_SET_PDEATHSIG)", func() bool { return !faultserver.Running(child) })
			if !faultserver.Running(grandchild) {
				t.Fatalf("without a guard the setsid grandchild %d was expected to escape", grandchild)
			}
		})
	}
}

// serverTag is the form of a server's environment tag, as ps shows it.
var serverTag = regexp.MustCompile(`^ROOTPICK_SERVER_[0-9a-f]{32}=1$`)

// waitTreeGone waits until no process of tree (pid: start) runs and none
// carries tag, as seen from outside, and says how long that took.
func waitTreeGone(t *testing.T, host string, tree map[int]uint64, tag string) {
	t.Helper()
	start := time.Now()
	waitFor(t, "the server's tree to end after its host was killed", func() bool {
		for pid, st := range tree {
			if faultserver.Alive(pid, st) {
				return false
			}
		}
		return len(faultserver.WithEnv(tag)) == 0
	})
	t.Logf("%s killed: the tree of %d processes ended in %v", host, len(tree), time.Since(start).Round(time.Millisecond))
}
