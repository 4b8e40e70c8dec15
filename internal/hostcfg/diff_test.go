package hostcfg

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
