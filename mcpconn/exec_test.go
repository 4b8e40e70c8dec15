package mcpconn

import (
	"os/exec"
	"testing"
)

func execShell(t *testing.T, script string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = groupAttr()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}
