package faultserver

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

// forkerEnv makes the test binary a process that starts /bin/true over
// and over: each child wears its parent's command line until it execs.
const forkerEnv = "FAULTSERVER_TEST_FORKER"

func TestMain(m *testing.M) {
	if os.Getenv(forkerEnv) != "" {
		for {
			_ = exec.Command("true").Run()
		}
	}
	os.Exit(m.Run())
}

// TestPidsSkipForkingChildren: a search by command line finds the process,
// never for a moment one of the children it is starting, which share its
// command line between fork and exec.
func TestPidsSkipForkingChildren(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	if _, err := exec.LookPath("true"); err != nil {
		t.Skip("needs true")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	marker := "forker-" + strconv.Itoa(os.Getpid())
	cmd := exec.Command(exe, "-test.run=^$", marker)
	cmd.Env = append(os.Environ(), forkerEnv+"=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	want := []string{strconv.Itoa(cmd.Process.Pid)}
	// Idle, a child is caught between fork and exec a few times a second
	// (8 looks in 3 s on a 2-core machine without WithoutForks).
	looks := 0
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); looks++ {
		if got := PidsOf(exe, marker); len(got) > 0 && !slices.Equal(got, want) {
			t.Fatalf("look %d: found %v, want only the forking process %v", looks, got, want)
		}
	}
	if got := PidsOf(exe, marker); !slices.Equal(got, want) {
		t.Fatalf("found %v, want %v", got, want)
	}
	t.Logf("%d looks, each found only the forking process", looks)
}
