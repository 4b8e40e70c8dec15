package launch

import (
	"errors"
	"os/exec"
	"syscall"
	"testing"
)

// TestExitReasonWords: how an ended process is put in words.
func TestExitReasonWords(t *testing.T) {
	if got := exitReason(nil); got != "exited with status 0" {
		t.Errorf("nil: %q", got)
	}
	if got := exitReason(errors.New("closing stdin: bad")); got != "" {
		t.Errorf("an error that is no exit: %q", got)
	}
	err := exec.Command("sh", "-c", "exit 4").Run()
	if got := exitReason(err); got != "exited with status 4" {
		t.Errorf("exit 4: %q", got)
	}
	if got := signalEnd(syscall.SIGABRT, true); got != "killed by signal 6 (SIGABRT), core dumped" {
		t.Errorf("SIGABRT with core: %q", got)
	}
}
