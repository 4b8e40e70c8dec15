package main

// Tests that no secret of a host's configuration reaches the screen:
// rootpick hosts' list, and the diff, messages and errors of hosts wrap and
// unwrap (internal/redact does the hiding; internal/hostcfg/diff_test.go
// tests the diff itself).

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretHostFiles are configuration files whose secrets all hold
// "SEKRIT": URL credentials, query tokens and fragments, env values,
// --api-key/--token/--password arguments, token shapes; remote-a and
// remote-b differ only in their host, gh and gh2 only in a secret.
var secretHostFiles = map[string]string{
	"project/.mcp.json": `{
  "mcpServers": {
    "remote-a": {"type": "http", "url": "https://alice:PASSSEKRIT1@a.example/mcp?token=SEKRIT2#SEKRIT3"},
    "gh": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github", "--api-key", "sk-proj-SEKRIT4abcdefghijklmnop"],
      "env": {"GITHUB_TOKEN": "ghp_SEKRIT5abcdefghijklmnopqrstuvwxyz", "LOG": "debug"}
    },
    "gh2": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github", "--api-key", "sk-proj-SEKRIT6abcdefghijklmnop"]
    },
    "remote-b": {"type": "http", "url": "https://alice:PASSSEKRIT1@b.example/mcp?token=SEKRIT2#SEKRIT3"},
    "db": {"command": "db-mcp", "args": ["--password", "SEKRIT7", "--token=SEKRIT8", "postgres://u:SEKRIT9@db.example/x", "http://a b@h.example/%zz?k=SEKRIT10"]}
  }
}
`,
	"home/.codex/config.toml": `[mcp_servers.remote]
url = "http://u:SEKRIT11@127.0.0.1:9/mcp?api_key=SEKRIT12"
[mcp_servers.docs]
env = { API_KEY = "SEKRIT13", TZ = "Europe/Paris" }
command = "uvx"
args = [
  "--token",
  "SEKRIT14",
]
`,
	"home/.config/goose/config.yaml": `extensions:
  github:
    type: stdio
    cmd: npx
    args:
    - --api-key
    - SEKRIT15
    envs: {GITHUB_TOKEN: SEKRIT16, LOG: debug}
`,
}

// secretSandbox is hostsSandbox with secretHostFiles written over the
// fixtures.
func secretSandbox(t *testing.T) (home, project string) {
	t.Helper()
	home, project = hostsSandbox(t)
	root := filepath.Dir(home)
	for name, text := range secretHostFiles {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home, project
}

// TestHostsListHidesSecrets: rootpick hosts shows no secret, and entries
// that differ in what is no secret (the host of a URL) still differ.
func TestHostsListHidesSecrets(t *testing.T) {
	_, project := secretSandbox(t)
	var out, errb bytes.Buffer
	if err := run([]string{"hosts", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	text := out.String() + errb.String()
	if strings.Contains(text, "SEKRIT") {
		t.Errorf("the list shows a secret:\n%s", text)
	}
	for _, want := range []string{
		"remote-a  remote    https://REDACTED@a.example/mcp?token=REDACTED#REDACTED (type http;",
		"remote-b  remote    https://REDACTED@b.example/mcp?token=REDACTED#REDACTED (type http;",
		"gh        direct    npx -y @modelcontextprotocol/server-github --api-key sk-REDACTED",
		"db        direct    db-mcp --password REDACTED --token=REDACTED postgres://REDACTED@db.example/x http://REDACTED@h.example/%zz?k=REDACTED",
		"remote  remote    http://REDACTED@127.0.0.1:9/mcp?api_key=REDACTED",
		"docs    direct    uvx --token REDACTED",
		"github  direct    npx --api-key REDACTED",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the list lacks %q:\n%s", want, text)
		}
	}
}

// TestHostsWrapDiffHidesSecrets: hosts wrap's diff (context and changed
// lines) and messages, and unwrap's after a wrap, show no secret.
func TestHostsWrapDiffHidesSecrets(t *testing.T) {
	home, project := secretSandbox(t)
	var out, errb bytes.Buffer
	err := run([]string{"hosts", "wrap", "--project", project}, &out, &errb) // no terminal, no --yes: shows, writes nothing
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("wrap without --yes: %v\n%s", err, errb.String())
	}
	text := out.String() + errb.String() + ee.msg
	if strings.Contains(text, "SEKRIT") {
		t.Errorf("wrap shows a secret:\n%s", text)
	}
	for _, want := range []string{
		`"--", "npx", "-y", "@modelcontextprotocol/server-github", "--api-key", "sk-REDACTED"],`,
		"\n     \"remote-a\": {\"type\": \"http\", \"url\": \"https://REDACTED@a.example/mcp?token=REDACTED#REDACTED\"},\n", // context
		`       "env": {"GITHUB_TOKEN": "ghp_REDACTED", "LOG": "debug"}`,
		` url = "http://REDACTED@127.0.0.1:9/mcp?api_key=REDACTED"`,
		` env = { API_KEY = "REDACTED", TZ = "Europe/Paris" }`,
		"   \"--token\",\n   \"REDACTED\",\n",
		"     - --api-key\n     - REDACTED\n     envs: {GITHUB_TOKEN: REDACTED, LOG: debug}\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("wrap's diff lacks %q:\n%s", want, text)
		}
	}

	if err := run([]string{"hosts", "wrap", "--yes", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("wrap --yes: %v\n%s", err, errb.String())
	}
	out.Reset()
	errb.Reset()
	if err := run([]string{"hosts", "unwrap", "--yes", "--project", project}, &out, &errb); err != nil {
		t.Fatalf("unwrap --yes: %v\n%s", err, errb.String())
	}
	if text := out.String() + errb.String(); strings.Contains(text, "SEKRIT") || !strings.Contains(text, "sk-REDACTED") {
		t.Errorf("unwrap shows a secret, or no diff:\n%s", text)
	}
	_ = home
}

// TestHostsErrorsHideSecrets: a configuration file that does not parse is
// named with its parser's error, which may quote the file: its secrets
// are hidden.
func TestHostsErrorsHideSecrets(t *testing.T) {
	home, project := hostsSandbox(t)
	bad := "extensions:\n  github:\n    cmd: npx\n    envs: {GITHUB_TOKEN: SEKRIT1, API_KEY: SEKRIT2\n    args: [--token, SEKRIT3\n  : :\n"
	if err := os.WriteFile(filepath.Join(home, ".config", "goose", "config.yaml"), []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	err := run([]string{"hosts", "--project", project}, &out, &errb)
	text := out.String() + errb.String()
	if err != nil {
		text += err.Error()
	}
	if !strings.Contains(text, "config.yaml") {
		t.Fatalf("the bad file is not named:\n%s", text)
	}
	if strings.Contains(text, "SEKRIT") {
		t.Errorf("the error shows a secret:\n%s", text)
	}
}
