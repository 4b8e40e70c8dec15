package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// TestE2ECompletionLoads: docs/cli.md's line works with the built program.
func TestE2ECompletionLoads(t *testing.T) {
	bin := rootpickBin(t)
	for _, sh := range []string{"bash", "zsh"} {
		if _, err := exec.LookPath(sh); err != nil {
			t.Logf("%s not installed: not checked", sh)
			continue
		}
		line := "source <(" + shQuote(bin) + " completion bash) && complete -p rootpick"
		if sh == "zsh" {
			line = "autoload -Uz compinit && compinit -u && source <(" + shQuote(bin) + " completion zsh) && whence -w _rootpick"
		}
		out, err := exec.Command(sh, "-c", line).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "_rootpick") {
			t.Errorf("%s: %v\n%s", sh, err, out)
		}
	}
}
