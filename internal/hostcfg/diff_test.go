package hostcfg

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// secretConfigs are host configuration files holding secrets in every
// form a config file holds them, each next to a stdio server that wrap
// rewrites, so that they stand in the diff's changed or context lines:
// URL credentials, query tokens and fragments, env values of secret-named
// keys, --api-key/--token/--password arguments (on one line and one a
// line), token shapes. Every secret has "SEKRIT" in it.
var secretConfigs = []struct {
	host, scope, name, text string
	// shown are redacted forms the diff must hold.
	shown []string
}{
	{Claude, "project", ".mcp.json", `{
  "mcpServers": {
    "remote-a": {"type": "http", "url": "https://alice:PASSSEKRIT1@a.example/mcp?token=SEKRIT2#SEKRIT3"},
    "gh": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github", "--api-key", "sk-proj-SEKRIT4abcdefghijklmnop", "--dsn=postgres://u:SEKRIT7@db.example/x"],
      "env": {"GITHUB_TOKEN": "ghp_SEKRIT5abcdefghijklmnopqrstuvwxyz", "LOG": "debug"}
    },
    "remote-b": {"type": "http", "url": "https://alice:PASSSEKRIT1@b.example/mcp?token=SEKRIT2"},
    "db": {
      "command": "db-mcp",
      "args": [
        "--password",
        "SEKRIT6",
        "--header", "Authorization: Bearer SEKRIT8",
        "--verbose"
      ]
    }
  }
}
`, []string{
		`"url": "https://REDACTED@a.example/mcp?token=REDACTED#REDACTED"`,
		`"url": "https://REDACTED@b.example/mcp?token=REDACTED"`,
		`"--api-key", "sk-REDACTED"`,
		`"GITHUB_TOKEN": "ghp_REDACTED", "LOG": "debug"`,
		`"--password",`, `"REDACTED",`, `"--dsn=postgres://REDACTED@db.example/x"`, `"Authorization: Bearer REDACTED"`,
	}},
	{Codex, "user", "config.toml", `[mcp_servers.remote]
url = "http://u:SEKRIT13@127.0.0.1:9/mcp?api_key=SEKRIT14"
[mcp_servers.docs]
env = { API_KEY = "SEKRIT11", DB_PASSWORD = 'SEKRIT12', TZ = "Europe/Paris" }
command = "uvx"
args = [
  "--token", # the service's token
  "SEKRIT9",
  "--api-key=SEKRIT10",
]
`, []string{`url = "http://REDACTED@127.0.0.1:9/mcp?api_key=REDACTED"`, `env = { API_KEY = "REDACTED", DB_PASSWORD = 'REDACTED', TZ = "Europe/Paris" }`,
		`"--token", # the service's token`, `  "REDACTED",`, `"--api-key=REDACTED",`}},
	{Goose, "user", "config.yaml", `extensions:
  github:
    type: stdio
    cmd: npx
    args:
    - --api-key
    - SEKRIT15
    envs: {GITHUB_TOKEN: SEKRIT16, LOG: debug}
    env:
      SLACK_BOT_TOKEN: xoxb-SEKRIT17-abcdef
      password: two SEKRIT18 words # a comment
  other:
    cmd: srv
    type: stdio
`, []string{"- --api-key", "- REDACTED", "{GITHUB_TOKEN: REDACTED, LOG: debug}", "SLACK_BOT_TOKEN: xoxb-REDACTED", "password: REDACTED # a comment"}},
}

// wrappedDiff loads text as host's file at scope, wraps every server it
// can, and returns the diff and the unwrap's diff.
func wrappedDiff(t *testing.T, host, scope, name, text string) (wrap, unwrap string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	f, _ := FileFor(host, scope, path)
	c, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Wrap(wrappable(c), testProxy)
	if err != nil {
		t.Fatal(err)
	}
	return Diff(path, path+" (wrapped)", c.Data, out), Diff(path, path+" (unwrapped)", out, c.Data)
}

// TestDiffHidesSecrets: the wrap and unwrap diffs of files holding
// secrets show none of them, in context lines or changed lines, and show
// their redacted forms, which keep what tells entries apart (hosts,
// names, kinds). The hunks are those of the same files with the secrets
// replaced by plain words: redaction changes no line.
func TestDiffHidesSecrets(t *testing.T) {
	hunk := regexp.MustCompile(`(?m)^@@ .* @@$`)
	plain := regexp.MustCompile(`SEKRIT[0-9]*`)
	for _, tc := range secretConfigs {
		wrap, unwrap := wrappedDiff(t, tc.host, tc.scope, tc.name, tc.text)
		if wrap == "" || unwrap == "" {
			t.Fatalf("%s: nothing was wrapped", tc.name)
		}
		for _, d := range []string{wrap, unwrap} {
			if strings.Contains(d, "SEKRIT") {
				t.Errorf("%s: the diff shows a secret:\n%s", tc.name, d)
			}
			for _, s := range tc.shown {
				if !strings.Contains(d, s) {
					t.Errorf("%s: the diff lacks %q:\n%s", tc.name, s, d)
				}
			}
		}
		plainWrap, _ := wrappedDiff(t, tc.host, tc.scope, tc.name, plain.ReplaceAllString(tc.text, "word"))
		if got, want := hunk.FindAllString(wrap, -1), hunk.FindAllString(plainWrap, -1); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: hunks %q, without secrets %q", tc.name, got, want)
		}
		if strings.Count(wrap, "\n") != strings.Count(plainWrap, "\n") {
			t.Errorf("%s: the diff has %d lines, %d without secrets", tc.name, strings.Count(wrap, "\n"), strings.Count(plainWrap, "\n"))
		}
	}
}

// TestDiffShowsASecretChange: a file whose only change is a secret still
// shows that line as changed, without the secret.
func TestDiffShowsASecretChange(t *testing.T) {
	a := "X=1\nGITHUB_TOKEN=first-SEKRIT\nY=2\n"
	b := "X=1\nGITHUB_TOKEN=second-SEKRIT\nY=2\n"
	d := Diff("a", "b", []byte(a), []byte(b))
	want := "--- a\n+++ b\n@@ -1,3 +1,3 @@\n X=1\n-GITHUB_TOKEN=REDACTED\n+GITHUB_TOKEN=REDACTED\n Y=2\n"
	if d != want {
		t.Errorf("diff:\n%s\nwant:\n%s", d, want)
	}
}

// TestDiffContextFromOneSide: an unchanged line that is a flag's value
// only on one side (the flag was removed above it) is hidden in the
// context.
func TestDiffContextFromOneSide(t *testing.T) {
	a := "args:\n  - --token\n  - SEKRIT1\n  - x\n"
	b := "args:\n  - --other\n  - SEKRIT1\n  - x\n"
	for _, d := range []string{Diff("a", "b", []byte(a), []byte(b)), Diff("b", "a", []byte(b), []byte(a))} {
		if strings.Contains(d, "SEKRIT") || !strings.Contains(d, "\n   - REDACTED\n") {
			t.Errorf("the context shows the secret:\n%s", d)
		}
	}
	if got := bothShown("  - REDACTED x", "  - y REDACTED"); got != "  REDACTED" {
		t.Errorf("two different redactions of one line: %q, want the whole line hidden", got)
	}
}

// oracleLine is one line of oracleDiff.
type oracleLine struct {
	op   byte
	text string
	eol  bool
}

// oracleDiff is Diff as it was before it diffed only changed regions: the
// whole of both files through go-diff's line mode, and both redacted
// whole. TestDiffMatchesTheOracle holds the new Diff and Rewrite.WriteDiff
// to its output.
func oracleDiff(oldName, newName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	shownA, shownB := redactedLines(string(a)), redactedLines(string(b))
	dmp := diffmatchpatch.New()
	ra, rb, table := dmp.DiffLinesToRunes(string(a), string(b))
	var lines []oracleLine
	// oldLine and newLine count the lines of a and b taken so far.
	oldLine, newLine := 0, 0
	for _, d := range dmp.DiffCharsToLines(dmp.DiffMainRunes(ra, rb, false), table) {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = '-'
		case diffmatchpatch.DiffInsert:
			op = '+'
		case diffmatchpatch.DiffEqual:
			// context: ' '
		}
		text := d.Text
		for text != "" {
			_, rest, eol := strings.Cut(text, "\n")
			var line string
			switch op {
			case '-':
				line = shownA[oldLine]
				oldLine++
			case '+':
				line = shownB[newLine]
				newLine++
			default:
				line = bothShown(shownA[oldLine], shownB[newLine])
				oldLine++
				newLine++
			}
			lines = append(lines, oracleLine{op, line, eol})
			text = rest
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	// oldAt and newAt count the lines before lines[i] on each side.
	oldAt, newAt := make([]int, len(lines)+1), make([]int, len(lines)+1)
	for i, l := range lines {
		oldAt[i+1], newAt[i+1] = oldAt[i], newAt[i]
		if l.op != '+' {
			oldAt[i+1]++
		}
		if l.op != '-' {
			newAt[i+1]++
		}
	}
	for i := 0; i < len(lines); {
		if lines[i].op == ' ' {
			i++
			continue
		}
		// A hunk: from diffContext lines before this change to
		// diffContext lines after the last change that is at most
		// 2*diffContext unchanged lines from the one before.
		start := max(0, i-diffContext)
		end := i
		for j := i; j < len(lines); j++ {
			if lines[j].op != ' ' {
				end = j + 1
			} else if j-end >= 2*diffContext {
				break
			}
		}
		end = min(len(lines), end+diffContext)
		oldN, newN := oldAt[end]-oldAt[start], newAt[end]-newAt[start]
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(oldAt[start], oldN), hunkRange(newAt[start], newN))
		for _, l := range lines[start:end] {
			out.WriteByte(l.op)
			out.WriteString(l.text)
			out.WriteByte('\n')
			if !l.eol {
				out.WriteString("\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
}

// TestDiffMatchesTheOracle: Diff (common lines trimmed first) and
// Rewrite.WriteDiff (only the lines the splices touched) write what the
// whole-file diff wrote, for every fixture and secret file wrapped and
// unwrapped; for random splices of random files, where lines repeat so
// much that two diffs may align them differently, both are diffs that
// turn the old file into the new one.
func TestDiffMatchesTheOracle(t *testing.T) {
	check := func(name string, r *Rewrite) {
		t.Helper()
		want := oracleDiff("a", "b", r.Old, r.New)
		if got := Diff("a", "b", r.Old, r.New); got != want {
			t.Errorf("%s: Diff differs from the oracle:\n%s\nwant:\n%s", name, got, want)
		}
		var got strings.Builder
		if err := r.WriteDiff(&got, "a", "b"); err != nil || got.String() != want {
			t.Errorf("%s: WriteDiff differs from the oracle (%v):\n%s\nwant:\n%s", name, err, got.String(), want)
		}
	}
	var configs []*Config
	for _, fx := range fixtures {
		configs = append(configs, fx.load(t))
	}
	for _, sc := range secretConfigs {
		f, _ := FileFor(sc.host, sc.scope, sc.name)
		c, err := Parse(f, []byte(sc.text))
		if err != nil {
			t.Fatal(err)
		}
		configs = append(configs, c)
	}
	for _, c := range configs {
		w, err := c.PlanWrap(wrappable(c), testProxy)
		if err != nil {
			t.Fatal(err)
		}
		check(c.File.Path+" wrapped", w)
		c2, err := Parse(c.File, w.New)
		if err != nil {
			t.Fatal(err)
		}
		var proxied []int
		for i, s := range c2.Servers {
			if ok, _ := s.CanUnwrap(); ok {
				proxied = append(proxied, i)
			}
		}
		u, err := c2.PlanUnwrap(proxied)
		if err != nil {
			t.Fatal(err)
		}
		check(c.File.Path+" unwrapped", u)
	}
	// Random files and splices: lines from a few words (so that many
	// repeat, and none that redaction hides), splices anywhere, line ends
	// added and removed.
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "{", "}", "  x 1,", ""}
	for n := range 2000 {
		var old []byte
		for range rng.IntN(30) {
			old = append(old, words[rng.IntN(len(words))]...)
			if rng.IntN(8) > 0 {
				old = append(old, '\n')
			}
		}
		var edits []edit
		at := 0
		for at < len(old) && rng.IntN(4) > 0 {
			start := at + rng.IntN(len(old)-at+1)
			end := start + rng.IntN(min(6, len(old)-start)+1)
			edits = append(edits, edit{start, end, words[rng.IntN(len(words))] + []string{"", "\n"}[rng.IntN(2)]})
			at = end
			if rng.IntN(3) == 0 {
				at++ // not always right after
			}
		}
		var out []byte
		at = 0
		for _, e := range edits {
			out = append(append(out, old[at:e.start]...), e.text...)
			at = e.end
		}
		out = append(out, old[min(at, len(old)):]...)
		r := &Rewrite{Old: old, New: out, edits: edits}
		var got strings.Builder
		if err := r.WriteDiff(&got, "a", "b"); err != nil {
			t.Fatal(err)
		}
		for name, d := range map[string]string{"Diff": Diff("a", "b", old, out), "WriteDiff": got.String()} {
			if back, err := applyDiff(old, d); err != nil || back != string(out) {
				t.Fatalf("random %d: %s of %q → %q gives %q (%v):\n%s", n, name, old, out, back, err, d)
			}
		}
	}
}

// applyDiff applies the unified diff d to old (the diff's context lines
// must match).
func applyDiff(old []byte, d string) (string, error) {
	if d == "" {
		return string(old), nil
	}
	lines := strings.SplitAfter(string(old), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	at := 0 // lines of old taken
	dl := strings.Split(strings.TrimSuffix(d, "\n"), "\n")[2:]
	header := regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)
	for i := 0; i < len(dl); i++ {
		m := header.FindStringSubmatch(dl[i])
		if m == nil {
			return "", fmt.Errorf("line %d: %q is no hunk header", i, dl[i])
		}
		var start, n int
		_, _ = fmt.Sscan(m[1], &start)
		n = 1
		if m[2] != "" {
			_, _ = fmt.Sscan(m[2], &n)
		}
		if n > 0 {
			start--
		}
		if start < at {
			return "", fmt.Errorf("hunk %q overlaps", dl[i])
		}
		out = append(out, lines[at:start]...)
		at = start
		for i+1 < len(dl) && !strings.HasPrefix(dl[i+1], "@@") {
			i++
			l := dl[i]
			noEOL := i+1 < len(dl) && dl[i+1] == `\ No newline at end of file`
			text := l[1:]
			if !noEOL {
				text += "\n"
			}
			switch l[0] {
			case ' ', '-':
				if at >= len(lines) || lines[at] != text {
					return "", fmt.Errorf("%q does not match line %d %q", l, at, lines[min(at, len(lines)-1)])
				}
				at++
				if l[0] == ' ' {
					out = append(out, text)
				}
			case '+':
				out = append(out, text)
			}
			if noEOL {
				i++
			}
		}
	}
	out = append(out, lines[at:]...)
	return strings.Join(out, ""), nil
}
