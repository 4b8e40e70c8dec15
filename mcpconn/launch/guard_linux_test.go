package launch

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// guarded returns sh -c script started as rootpick starts a server: in its
// own group, under a guard.
func guarded(t *testing.T, script string) *exec.Cmd {
	t.Helper()
	if !guardEnabled.Load() {
		t.Fatal("guards are not enabled (GuardMain in TestMain)")
	}
	cmd := exec.Command("sh", "-c", script)
	setProcAttr(cmd)
	if _, err := guard(cmd, nil); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// TestGuardPassesThrough: a guarded server reads and writes rootpick's own
// pipes (the guard relays nothing), and rootpick sees the server's exit
// status, or the signal that killed it, as if there were no guard.
func TestGuardPassesThrough(t *testing.T) {
	cmd := guarded(t, `echo out; echo err >&2; read line; echo "got $line"; exit 3`)
	stdin, _ := cmd.StdinPipe()
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The command line is empty for a moment after exec has begun.
	var argv0 []byte
	waitFor(t, "the command line of the process rootpick started", func() bool {
		argv0, _ = os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/cmdline")
		return len(argv0) > 0
	})
	if !strings.HasPrefix(string(argv0), guardName+"\x00") {
		t.Errorf("the process rootpick started runs %q, not a guard", argv0)
	}
	_, _ = stdin.Write([]byte("hi\n"))
	_ = stdin.Close()
	err := cmd.Wait()
	if stdout.String() != "out\ngot hi\n" || stderr.String() != "err\n" || cmd.ProcessState.ExitCode() != 3 {
		t.Errorf("stdout %q, stderr %q, %v; want \"out\\ngot hi\\n\", \"err\\n\", exit status 3", stdout.String(), stderr.String(), err)
	}

	cmd = guarded(t, `kill -KILL $$`)
	err = cmd.Run()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("a server killed by SIGKILL: %v, want signal: killed", err)
	}
}

// TestGuardLetsGoOfThePipes: when a server closes its output, rootpick
// reads the end of it though the server (and so its guard) still runs.
func TestGuardLetsGoOfThePipes(t *testing.T) {
	cmd := guarded(t, `exec >&- 2>&-; sleep 30`)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		endTree(cmd.Process.Pid, startStamp(cmd.Process.Pid), "", time.Second, time.Second)
		_ = cmd.Wait()
	}()
	eof := make(chan struct{})
	go func() {
		_, _ = out.Read(make([]byte, 1))
		close(eof)
	}()
	select {
	case <-eof:
	case <-time.After(5 * time.Second):
		t.Fatal("no end of output 5 s after the server closed it: the guard holds the pipe")
	}
	if !faultserver.Running(cmd.Process.Pid) {
		t.Fatal("the guard ended: the test proves nothing")
	}
}
