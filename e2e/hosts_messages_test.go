package e2e

// What `rootpick hosts` and `rootpick proxy --print-config` tell a person
// to do next, done with the built binary as the person would do it
// (issue 39 item 10): the picker command wrap's closing line names, the
// Inspector command --print-config inspector names; and the notes under
// wrap's and unwrap's diffs.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
)

// pickCommand is the picker command in wrap's closing line ("… choose
// their folders with 'rootpick --profile work ~/src' (…)."), as the
// arguments after "rootpick", ~ expanded to home.
func pickCommand(t *testing.T, out, home string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(out, "folders with 'rootpick ")
	line, _, ok2 := strings.Cut(rest, "'")
	if !ok || !ok2 {
		t.Fatalf("no picker command in the closing line:\n%s", out)
	}
	args := strings.Fields(line)
	for i, a := range args {
		if a == "~" || strings.HasPrefix(a, "~/") {
			args[i] = home + a[1:]
		}
	}
	return args
}

// TestHostsE2EClosingHintOpensThePicker: the command wrap's closing line
// names opens the picker on the repositories to choose among: run in a
// repository with no consent yet, on the folder that holds it (its rows
// are the repositories, not one ". whole folder" row); with a consent of
// the profile, on the folder it was given for (where it applies, not
// "not applied here").
func TestHostsE2EClosingHintOpensThePicker(t *testing.T) {
	bin := rootpickBin(t)
	repos := func(tt *tui) string {
		t.Helper()
		src := filepath.Join(tt.home, "src")
		if err := os.MkdirAll(src, 0o755); err != nil {
			t.Fatal(err)
		}
		return makeRepos(t, src, "alpha", "beta")
	}
	wrap := func(tt *tui, dir string) string {
		t.Helper()
		writeFile(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"fs": {"command": "srv"}}}`+"\n")
		return runIn(t, dir, tt.env, bin, "hosts", "wrap", "claude", "--yes", "--no-prefetch", "--profile", "work")
	}
	t.Run("in a repository", func(t *testing.T) {
		tt := newTUI(t)
		src := repos(tt)
		out := wrap(tt, filepath.Join(src, "alpha"))
		if !strings.Contains(out, "'rootpick --profile work ~/src' (the folder that holds this repository).") {
			t.Errorf("the closing line does not name ~/src:\n%s", out)
		}
		tt.start(tuiOptions{width: 100, height: 24, args: pickCommand(t, out, tt.home)})
		rows := tt.waitRows(2)
		if rowIndex(rows, "alpha") < 0 || rowIndex(rows, "beta") < 0 {
			t.Errorf("the picker it names lists %s; want alpha and beta", describeRows(rows))
		}
		if s := tt.capture(); strings.Contains(s, "whole folder") {
			t.Errorf("the picker it names opens on a whole-folder row:\n%s", s)
		}
		tt.quit()
	})
	t.Run("with a consent", func(t *testing.T) {
		tt := newTUI(t)
		src := repos(tt)
		alpha, err := consent.NewRoot(filepath.Join(src, "alpha"))
		if err != nil {
			t.Fatal(err)
		}
		store, err := consent.OpenStoreIn(filepath.Join(tt.dir, "state", "rootpick"), "work")
		if err != nil {
			t.Fatal(err)
		}
		if err := store.Save(consent.Record{Dir: src, Roots: []consent.Root{alpha}, Time: time.Now()}); err != nil {
			t.Fatal(err)
		}
		notes := filepath.Join(tt.home, "notes")
		out := wrap(tt, notes)
		if !strings.Contains(out, "'rootpick --profile work ~/src' (where work's consent was given).") {
			t.Errorf("the closing line does not name ~/src:\n%s", out)
		}
		tt.start(tuiOptions{width: 100, height: 24, args: pickCommand(t, out, tt.home)})
		tt.waitRows(2)
		if s := tt.capture(); strings.Contains(s, "not applied here") {
			t.Errorf("the picker it names does not apply the remembered consent:\n%s", s)
		}
		tt.quit()
	})
}

// TestHostsE2EInspectorHint: the command --print-config inspector names,
// run on the file it printed (the Inspector from .ci's node_modules for
// npx's), lists the tools of the server behind the proxy: the
// Inspector's CLI, not its UI.
func TestHostsE2EInspectorHint(t *testing.T) {
	inspector := ciNodeModule(t, filepath.Join(".bin", "mcp-inspector"), "npm servers", "the Inspector")
	bin := rootpickBin(t)
	dir := t.TempDir()
	environ := append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "state"), "HOME="+dir)
	cmd := exec.Command(bin, "proxy", "--print-config", "inspector", "--name", "my demo", "--", bin, "serve-demo")
	cmd.Env = environ
	var out, hint bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &hint
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, hint.String())
	}
	writeFile(t, filepath.Join(dir, "config.json"), out.String())
	_, command, ok := strings.Cut(strings.TrimSpace(hint.String()), "then: ")
	const npx = "npx -y @modelcontextprotocol/inspector "
	if !ok || !strings.HasPrefix(command, npx) || !strings.Contains(command, " --cli ") {
		t.Fatalf("the hint names no Inspector CLI command: %q", hint.String())
	}
	run := exec.Command("sh", "-c", shQuote(inspector)+" "+strings.TrimPrefix(command, npx))
	run.Dir, run.Env = dir, environ
	got, err := run.Output()
	if err != nil || !strings.Contains(string(got), `"tools"`) || !strings.Contains(string(got), `"list_roots"`) {
		t.Errorf("%s: %v\n%s", command, err, got)
	}
}

// TestHostsE2ENotes: the built binary's notes: Gemini CLI's untrusted
// folder in rootpick hosts, a disabled entry not fetched ahead and
// mcp-server-git's --repository kept under wrap's diff, and unwrap's note
// naming only the folders it puts back (not node's server.js); rootpick
// list of the home folder does not list npx's installs. Nothing here is
// fetched: the one npx entry is the disabled one.
func TestHostsE2ENotes(t *testing.T) {
	bin := rootpickBin(t)
	home, project, environ := hostCLISandbox(t)
	repo := filepath.Join(home, "src", "app")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(home, ".npm", "_npx", "a3241bba59c344f5")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(home, ".npm", "_npx", "a3241bba59c344f5", "package.json"), `{"_npx": {}}`)
	writeFile(t, filepath.Join(home, ".gemini", "trustedFolders.json"), `{`+strconv.Quote(project)+`: "DO_NOT_TRUST"}`)
	writeFile(t, filepath.Join(project, ".gemini", "settings.json"), `{"mcpServers": {"g": {"command": "srv"}}}`)
	writeFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers": {
  "off": {"command": "npx", "args": ["-y", "@scope/off-server"], "disabled": true},
  "git": {"command": "mcp-server-git", "args": ["--repository", `+strconv.Quote(repo)+`]},
  "fs": {"command": "node", "args": ["server.js", `+strconv.Quote(repo)+`]}
}}
`)
	if out := runIn(t, project, environ, bin, "hosts"); !strings.Contains(out, "note: Gemini CLI's trusted folders mark "+project+" untrusted") {
		t.Errorf("rootpick hosts does not say Gemini CLI does not trust the folder:\n%s", out)
	}
	out := runIn(t, project, environ, bin, "hosts", "wrap", "claude", "--yes")
	for _, want := range []string{
		`off: not fetched ahead: the entry is disabled ("disabled": true): its host does not start it`,
		"warning: git keeps --repository " + repo + ": --repository takes exactly one folder",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("wrap does not say %q:\n%s", want, out)
		}
	}
	if out := runIn(t, project, environ, bin, "hosts", "unwrap", "claude", "--yes"); !strings.Contains(out, "fs: {roots} → "+repo+": it sees those folders again") {
		t.Errorf("unwrap's note:\n%s", out)
	}
	if out := runIn(t, project, environ, bin, "list", home); strings.Contains(out, "_npx") || !strings.Contains(out, "src/app") {
		t.Errorf("rootpick list of the home folder:\n%s", out)
	}
}
