package mcpconn

import (
	"os/exec"
	"testing"

	"github.com/rootpick/rootpick/internal/testproc"
)

func execShell(t *testing.T, script string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = testproc.GroupAttr()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}
