package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kong"
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

// modelCommand is a command of the kong model as the tests see it: its
// path ("rootpick hosts wrap"), its subcommands and the flags kong takes
// after its path (its own and its ancestors').
type modelCommand struct {
	path  string
	subs  []string
	flags []string
}

// modelCommands walks the kong model itself (not completionModel, which it
// checks) for every visible command at every depth.
func modelCommands(t *testing.T) []modelCommand {
	t.Helper()
	k, err := newParser(&cli{}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var out []modelCommand
	var walk func(n *kong.Node, path string, inherited []string)
	walk = func(n *kong.Node, path string, inherited []string) {
		c := modelCommand{path: path, flags: append([]string(nil), inherited...)}
		for _, f := range n.Flags {
			if !f.Hidden {
				c.flags = append(c.flags, f.Name)
			}
		}
		i := len(out)
		out = append(out, c)
		for _, sub := range n.Children {
			if sub.Type == kong.CommandNode && !sub.Hidden {
				out[i].subs = append(out[i].subs, sub.Name)
				walk(sub, path+" "+sub.Name, c.flags)
			}
		}
	}
	walk(k.Model.Node, "rootpick", nil)
	// A walk that stops early must not pass with what it found.
	seen := map[string]bool{}
	for _, c := range out {
		seen[c.path] = true
	}
	for _, p := range []string{"rootpick hosts wrap", "rootpick hosts unwrap", "rootpick config show", "rootpick completion"} {
		if !seen[p] {
			t.Fatalf("the model has no command %q", p)
		}
	}
	return out
}

// scriptBlock is the part of a bash or zsh script that __rootpick_node
// runs for path: from its case label to the ";;" that ends it.
func scriptBlock(t *testing.T, script, path string) string {
	t.Helper()
	label := "\t'" + path + "')\n"
	i := strings.Index(script, label)
	if i < 0 {
		t.Errorf("no block for %q", path)
		return ""
	}
	rest := script[i+len(label):]
	return rest[:strings.Index(rest, ";;")]
}

// zshItems are the words of the items of the zsh array name in block.
func zshItems(block, name string) []string {
	i := strings.Index(block, name+"=(")
	if i < 0 {
		return nil
	}
	body := block[i+len(name)+2:]
	body = body[:strings.Index(body, ")\n")]
	var out []string
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		if w, _, ok := strings.Cut(strings.TrimPrefix(line, "'"), ":"); ok {
			out = append(out, w)
		}
	}
	return out
}

// TestCompletionEveryCommand: for every command path of the kong model,
// each shell's block for that path offers exactly its subcommands and
// every flag kong takes there, its ancestors' included.
func TestCompletionEveryCommand(t *testing.T) {
	cmds := modelCommands(t)
	bash, zsh, fish := completionScript(t, "bash"), completionScript(t, "zsh"), completionScript(t, "fish")
	for _, c := range cmds {
		b := scriptBlock(t, bash, c.path)
		if want := "subs=" + shQuote(strings.Join(c.subs, " ")) + "\n"; !strings.Contains(b, want) {
			t.Errorf("bash %q: want %s in\n%s", c.path, want, b)
		}
		flagLine := ""
		for _, line := range strings.Split(b, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "flags=") {
				flagLine = strings.Trim(strings.TrimPrefix(strings.TrimSpace(line), "flags="), "'")
			}
		}
		z := scriptBlock(t, zsh, c.path)
		if got := zshItems(z, "subs"); strings.Join(got, " ") != strings.Join(c.subs, " ") {
			t.Errorf("zsh %q: subcommands %q, want %q", c.path, got, c.subs)
		}
		zflags := " " + strings.Join(zshItems(z, "flags"), " ") + " "
		for _, s := range c.subs {
			line := "complete -c rootpick -n " + fishQuote("__rootpick_bare "+c.path) + " -a " + s + " -d "
			if !strings.Contains(fish, line) {
				t.Errorf("fish %q: no %q", c.path, line)
			}
		}
		for _, f := range c.flags {
			if !strings.Contains(" "+flagLine+" ", " --"+f+" ") {
				t.Errorf("bash %q: flags %q lack --%s", c.path, flagLine, f)
			}
			if !strings.Contains(zflags, " --"+f+" ") {
				t.Errorf("zsh %q: flags%slack --%s", c.path, zflags, f)
			}
			if line := "complete -c rootpick -n " + fishQuote("__rootpick_at "+c.path) + " -l " + f + " "; !strings.Contains(fish, line) {
				t.Errorf("fish %q: no %q", c.path, line)
			}
		}
	}
	// fish offers a command's subcommands, and no others, with their help.
	for _, c := range cmds {
		prefix := "complete -c rootpick -n " + fishQuote("__rootpick_bare "+c.path) + " -a "
		var got []string
		for _, line := range strings.Split(fish, "\n") {
			if rest, ok := strings.CutPrefix(line, prefix); ok && strings.Contains(rest, " -d ") {
				got = append(got, strings.Fields(rest)[0])
			}
		}
		if strings.Join(got, " ") != strings.Join(c.subs, " ") {
			t.Errorf("fish %q: subcommands %q, want %q", c.path, got, c.subs)
		}
	}
}

// bashComplete runs the bash completion function on the words of line (the
// last word is the one being completed) and returns what it offers.
func bashComplete(t *testing.T, script, line string) []string {
	t.Helper()
	words := strings.Fields(strings.ReplaceAll(line, "=", " = ")) // as COMP_WORDBREAKS splits
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
		// Every depth: a subcommand's own flags and the global ones.
		{"rootpick hosts wrap --", []string{"--yes", "--project", "--profile", "--except", "--keep-args", "--help", "--config"}, []string{"--print", "--json"}},
		{"rootpick hosts wrap -", []string{"-y", "-h", "--yes"}, nil},
		{"rootpick hosts wrap ", []string{"claude", "vscode"}, []string{"list", "wrap", "unwrap"}},
		{"rootpick hosts wrap claude ", nil, []string{"list", "wrap", "unwrap", "claude"}},
		{"rootpick hosts unwrap --", []string{"--yes", "--project", "--help"}, []string{"--keep-args", "--except", "--profile"}},
		{"rootpick hosts ", []string{"list", "wrap", "unwrap", "claude"}, []string{"hosts", "demo"}},
		{"rootpick hosts --", []string{"--project", "--help"}, []string{"--yes", "--print"}},
		{"rootpick hosts list ", []string{"claude"}, []string{"list", "wrap"}},
		{"rootpick config ", []string{"path", "show"}, []string{"list", "config", "demo"}},
		{"rootpick config show ", nil, []string{"path", "show"}},
		{"rootpick config show --", []string{"--help", "--config"}, []string{"--print"}},
		{"rootpick completion ", []string{"bash", "zsh", "fish"}, []string{"list", "completion"}},
		{"rootpick completion --", []string{"--help"}, []string{"--print"}},
		// A flag's value is skipped, not taken for a command.
		{"rootpick --config hosts hosts wrap --", []string{"--yes"}, nil},
		{"rootpick --config=hosts list --", []string{"--json"}, []string{"--yes"}},
		{"rootpick --print-format ", []string{"json", "lines", "null"}, []string{"list"}},
		{"rootpick --print-format=", []string{"json", "lines", "null"}, nil},
		{"rootpick --print-format=l", []string{"lines"}, []string{"json"}},
		{"rootpick proxy --print-config=cl", []string{"claude", "claude-desktop", "cline"}, []string{"vscode"}},
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

// bashCompletionPackage is the bash-completion package's script, where
// Debian, Ubuntu and Fedora put it.
const bashCompletionPackage = "/usr/share/bash-completion/bash_completion"

// TestCompletionBashPackage: as README says, bash-completion loads the
// script from ~/.local/share/bash-completion/completions the first time
// rootpick is completed, and then completes the server command after "--"
// as a command line of its own.
func TestCompletionBashPackage(t *testing.T) {
	if _, err := os.Stat(bashCompletionPackage); err != nil {
		testskip.Skip(t, "bash-completion", "bash-completion not installed (apt-get install bash-completion)")
	}
	home := t.TempDir()
	dir := filepath.Join(home, ".local", "share", "bash-completion", "completions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rootpick"), []byte(completionScript(t, "bash")), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := "source " + bashCompletionPackage + `
if declare -F _comp_load >/dev/null; then _comp_load rootpick; else __load_completion rootpick; fi
complete -p rootpick || exit 1
COMP_WORDS=(rootpick hosts wrap --); COMP_CWORD=3
_rootpick; echo "wrap: ${COMPREPLY[*]}"
COMP_WORDS=(rootpick --profile x -- ech); COMP_CWORD=4; COMP_LINE="rootpick --profile x -- ech"; COMP_POINT=${#COMP_LINE}
_rootpick 2>/dev/null; echo "server: ${COMPREPLY[*]}"
`
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", prog)
	cmd.Dir = home
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash-completion did not load the script: %v\n%s", err, out)
	}
	for _, want := range []string{"-F _rootpick rootpick", "wrap: ", " --yes ", "server: echo"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}

// completionCase is a command line (its last word the one being
// completed), words it must offer and words it must not.
type completionCase struct {
	line      string
	want, not []string
}

// checkOffers reports where got misses a wanted word or has an unwanted one.
func checkOffers(t *testing.T, shell string, tc completionCase, got []string) {
	t.Helper()
	all := " " + strings.Join(got, " ") + " "
	for _, w := range tc.want {
		if !strings.Contains(all, " "+w+" ") {
			t.Errorf("%s %q: offers %q, lacks %q", shell, tc.line, got, w)
		}
	}
	for _, w := range tc.not {
		if strings.Contains(all, " "+w+" ") {
			t.Errorf("%s %q: offers %q, should not offer %q", shell, tc.line, got, w)
		}
	}
}

// deepCases hold at every depth in each shell.
var deepCases = []completionCase{
	{"rootpick ", []string{"demo", "list", "hosts", "config", "completion"}, nil},
	{"rootpick hosts ", []string{"list", "wrap", "unwrap"}, []string{"hosts", "demo"}},
	{"rootpick hosts wrap --", []string{"--yes", "--project", "--profile", "--except", "--keep-args", "--help", "--config"}, []string{"--print", "--json"}},
	{"rootpick hosts wrap ", []string{"claude"}, []string{"list", "wrap", "unwrap"}},
	{"rootpick hosts unwrap --", []string{"--yes", "--project"}, []string{"--keep-args", "--print"}},
	{"rootpick config ", []string{"path", "show"}, []string{"list", "demo"}},
	{"rootpick config show ", nil, []string{"path", "show"}},
	{"rootpick completion ", []string{"bash", "zsh", "fish"}, []string{"list"}},
	{"rootpick --config hosts hosts wrap --", []string{"--yes"}, []string{"--print"}},
	{"rootpick --print-format ", []string{"json", "lines", "null"}, []string{"list"}},
	{"rootpick proxy --print-config ", []string{"claude", "inspector"}, []string{"list"}},
}

// TestCompletionFish: fish loads the script and its own completer
// (complete -C) offers each depth's subcommands, flags and values.
func TestCompletionFish(t *testing.T) {
	if _, err := exec.LookPath("fish"); err != nil {
		testskip.Skip(t, "fish", "fish not installed (apt-get install fish)")
	}
	script := filepath.Join(t.TempDir(), "rootpick.fish")
	if err := os.WriteFile(script, []byte(completionScript(t, "fish")), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := append(append([]completionCase(nil), deepCases...),
		completionCase{"rootpick hosts wrap -", []string{"-y", "--yes"}, nil},
		completionCase{"rootpick --print-format=l", []string{"--print-format=lines"}, []string{"--print-format=json"}},
		completionCase{"rootpick -- ech", []string{"echo"}, []string{"--print", "demo"}},
	)
	for _, tc := range cases {
		cmd := exec.Command("fish", "--no-config", "-c", "source "+shellWord(script)+"; complete -C "+shellWord(tc.line))
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("fish %q: %v\n%s", tc.line, err, out)
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if w, _, _ := strings.Cut(line, "\t"); w != "" {
				got = append(got, w)
			}
		}
		checkOffers(t, "fish", tc, got)
	}
}

// zshDriver types a line and tab into an interactive zsh (zsh/zpty) with
// compinit and the script on fpath, and prints each word the completion
// system is given (compadd wrapped, as Valodim/zsh-capture-completion
// does). Usage: zsh -f driver DIR LINE, with the script in DIR/_rootpick.
const zshDriver = `zmodload zsh/zpty || exit 3
local init=${1}/init.zsh
cat > $init <<'INIT'
PS1= PROMPT= RPROMPT=
fpath=(${RP_FPATH:?} $fpath)
autoload -Uz compinit; compinit -u -C -d $RP_FPATH/zcompdump # the dump made once, then reused
null-line() { echo -E - $'\0' }
compprefuncs=(null-line); comppostfuncs=(null-line exit)
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
zstyle ':completion:*' list-separator ''
compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits
  builtin compadd -A __hits "$@"
  local r=$?
  (( $#__hits )) && print -rl -- HIT:${^__hits}
  builtin compadd "$@"
  return r
}
bindkey '^M' undefined; bindkey '^J' undefined; bindkey '^I' complete-word
INIT
export RP_FPATH=$1; zpty z zsh -f -i
zpty -w z "source ${(q)init}"
zpty -w -n z "$2"$'\t'
integer n=0
local line
while zpty -r z line; do
  if [[ $line == *$'\0'* ]]; then (( ++n == 2 )) && break; continue; fi
  (( n == 1 )) && [[ $line == HIT:* ]] && print -r -- ${${line#HIT:}%$'\r'}
done
zpty -d z
`

// TestCompletionZsh: a real zsh, completion system and all, offers each
// depth's subcommands, flags and values from the script.
func TestCompletionZsh(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err != nil {
		testskip.Skip(t, "zsh", "zsh not installed (apt-get install zsh)")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "_rootpick"), []byte(completionScript(t, "zsh")), 0o644); err != nil {
		t.Fatal(err)
	}
	driver := filepath.Join(dir, "driver.zsh")
	if err := os.WriteFile(driver, []byte(zshDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	if err := os.Mkdir(filepath.Join(cwd, "somedir"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := append(append([]completionCase(nil), deepCases...),
		completionCase{"rootpick hosts wrap -", []string{"-y", "--yes"}, nil},
		completionCase{"rootpick --print-format=l", []string{"lines"}, []string{"json", "--print"}},
		completionCase{"rootpick hosts wrap --profile ", []string{"somedir"}, []string{"--yes", "claude"}},
		completionCase{"rootpick list ", []string{"somedir"}, []string{"list"}},
		completionCase{"rootpick -- ech", []string{"echo"}, []string{"--print", "demo"}},
	)
	for _, tc := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, "zsh", "-f", driver, dir, tc.line)
		cmd.Dir = cwd
		cmd.Env = append(os.Environ(), "HOME="+cwd, "ZDOTDIR="+cwd)
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("zsh %q: %v\n%s", tc.line, err, out)
		}
		checkOffers(t, "zsh", tc, strings.Fields(string(out)))
	}
}
