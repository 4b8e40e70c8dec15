package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/testskip"
)

// completionScript runs rootpick completion shell.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var out bytes.Buffer
	if err := run([]string{"completion", shell}, &out, os.Stderr); err != nil {
		t.Fatalf("completion %s: %v", shell, err)
	}
	return out.String()
}

// TestCompletionMentionsEverything: each script names every command and
// every flag of the model.
func TestCompletionMentionsEverything(t *testing.T) {
	want, flags := modelWords(t)
	for _, f := range flags {
		want = append(want, "--"+f)
	}
	want = append(want, "show", "path") // config's subcommands
	for _, sh := range []string{"bash", "zsh", "fish"} {
		s := completionScript(t, sh)
		for _, w := range want {
			if sh == "fish" && strings.HasPrefix(w, "--") {
				w = "-l " + strings.TrimPrefix(w, "--")
			}
			if !strings.Contains(s, w) {
				t.Errorf("%s script lacks %q", sh, w)
			}
		}
	}
}

// bashComplete runs the bash completion function on the words of line (the
// last word is the one being completed) and returns what it offers.
func bashComplete(t *testing.T, script, line string) []string {
	t.Helper()
	words := strings.Fields(line)
	if strings.HasSuffix(line, " ") {
		words = append(words, "")
	}
	var quoted []string
	for _, w := range words {
		quoted = append(quoted, shellWord(w))
	}
	prog := "source " + shellWord(script) + "\nCOMP_WORDS=(" + strings.Join(quoted, " ") + ")\nCOMP_CWORD=" +
		strconv.Itoa(len(words)-1) + "\n_rootpick\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
	cmd := exec.Command("bash", "-c", prog)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}

// TestCompletionBash: the script loads in bash and completes commands,
// flags of the command being typed, fixed values and folders.
func TestCompletionBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		testskip.Skip(t, "bash", "bash not installed")
	}
	script := filepath.Join(t.TempDir(), "rootpick.bash")
	if err := os.WriteFile(script, []byte(completionScript(t, "bash")), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("bash", "-c", "source "+shellWord(script)+" && complete -p rootpick").CombinedOutput(); err != nil || !strings.Contains(string(out), "_rootpick") {
		t.Fatalf("the script does not load: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		line string
		want []string
		not  []string
	}{
		{"rootpick li", []string{"list"}, nil},
		{"rootpick ", []string{"demo", "list", "proxy", "serve-demo", "completion"}, nil},
		{"rootpick demo --", []string{"--keep", "--log"}, []string{"--print"}},
		{"rootpick --pr", []string{"--print", "--profile", "--protocol"}, []string{"--json"}},
		{"rootpick list --", []string{"--json", "--details", "--max-depth"}, []string{"--print", "--url"}},
		{"rootpick proxy --print-config ", []string{"claude", "vscode", "cursor", "goose", "inspector"}, nil},
		{"rootpick completion ", []string{"bash", "zsh", "fish"}, nil},
		{"rootpick help ", []string{"list", "proxy", "config"}, nil},
		{"rootpick config ", []string{"path", "show"}, nil},
		{"rootpick -- npx --", nil, []string{"--print"}},
	} {
		got := bashComplete(t, script, tc.line)
		for _, w := range tc.want {
			if !strings.Contains(" "+strings.Join(got, " ")+" ", " "+w+" ") {
				t.Errorf("%q: offers %q, lacks %q", tc.line, got, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(" "+strings.Join(got, " ")+" ", " "+w+" ") {
				t.Errorf("%q: offers %q, should not offer %q", tc.line, got, w)
			}
		}
	}
}
