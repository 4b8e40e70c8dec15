package redact

import (
	"strings"
	"testing"
)

// TestText: each secret form, as it appears in messages, command lines and
// the host configuration files (JSON, JSONC, TOML, YAML) the wrap diff
// shows.
func TestText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"no secret", "no url here: 127.0.0.1 v=1", "no url here: 127.0.0.1 v=1"},
		{"URL in an error", `Post "http://u:p@127.0.0.1:1/mcp?v=1": dial tcp 127.0.0.1:1: connect: connection refused`,
			`Post "http://REDACTED@127.0.0.1:1/mcp?v=REDACTED": dial tcp 127.0.0.1:1: connect: connection refused`},
		{"masked password", `Post "http://u:***@127.0.0.1:1/mcp?k=TOKEN123#f": EOF`, `Post "http://REDACTED@127.0.0.1:1/mcp?k=REDACTED#REDACTED": EOF`},
		{"two URLs", "two: https://a@x/?q=1 and http://y/#z.", "two: https://REDACTED@x/?q=REDACTED and http://y/#REDACTED."},
		{"no scheme", "bare :// and http:// end", "bare :// and http:// end"},
		{"punctuation after", "connecting to http://h/mcp?t=1: EOF", "connecting to http://h/mcp?t=REDACTED: EOF"},
		{"parenthesis", "(see http://h/a?k=v)", "(see http://h/a?k=REDACTED)"},
		{"space in user", `got "http://a b@127.0.0.1:47310/%zz?token=SEKRITTOKEN42"`, `got "http://REDACTED@127.0.0.1:47310/%zz?token=REDACTED"`},
		{"user:pass@host", "dial alice:hunter2PASS@db.example:5432 failed", "dial REDACTED@db.example:5432 failed"},
		{"query without scheme", "127.0.0.1:47310/mcp?token=SEKRIT#frag here", "127.0.0.1:47310/mcp?token=REDACTED#REDACTED here"},
		{"env value with #", "DB_PASSWORD=ab#cd x", "DB_PASSWORD=REDACTED x"},
		{"fragment without scheme", "127.0.0.1:47310/mcp?v=1#frag.", "127.0.0.1:47310/mcp?v=REDACTED#REDACTED."},
		{"env", "env GITHUB_TOKEN=abc123 DB_PASS=x LOG=debug npx s", "env GITHUB_TOKEN=REDACTED DB_PASS=REDACTED LOG=debug npx s"},
		{"env set empty", "API_KEY= --port 3", "API_KEY= --port 3"},
		{"flag and value", "srv --api-key abc123 --port 3 --token=xyz --password 'two words' --secret s3", "srv --api-key REDACTED --port 3 --token=REDACTED --password 'REDACTED' --secret REDACTED"},
		{"flag then flag", "srv --token --verbose", "srv --token --verbose"},
		{"-p is no secret", "srv -p 8080", "srv -p 8080"},
		{"quoted setting", "'--api-key=my secret' 'API_KEY=a b'", "'--api-key=REDACTED' 'API_KEY=REDACTED'"},
		{"bearer header", "Authorization: Bearer abc.def-123", "Authorization: Bearer REDACTED"},
		{"basic header", "  Authorization: Basic dXNlcjpwYXNz", "  Authorization: Basic REDACTED"},
		{"bearer alone", "sent Bearer eyJhbGciOi.x.y", "sent Bearer REDACTED"},
		{"token shapes", "sk-proj-abcdefghijklmnopqrstuv ghp_abcdefghijklmnopqrstuvwxyz012345 github_pat_11ABCDEFG0123456789_abcdefghij xoxb-1234567890-abcdefghij xoxp-1234567890-x AKIAIOSFODNN7EXAMPLE",
			"sk-REDACTED ghp_REDACTED github_pat_REDACTED xoxb-REDACTED xoxp-REDACTED AKIAREDACTED"},
		{"token after a flag keeps its kind", "--api-key sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "--api-key sk-REDACTED"},
		{"JSON env", `"env": {"GITHUB_TOKEN": "ghx", "TZ": "Europe/Paris", "apiKey": "a\"b"},`, `"env": {"GITHUB_TOKEN": "REDACTED", "TZ": "Europe/Paris", "apiKey": "REDACTED"},`},
		{"JSON number", `{"password": 123456, "port": 80}`, `{"password": REDACTED, "port": 80}`},
		{"JSON args one a line", "\"args\": [\n  \"--api-key\", // the key\n  \"abc123\",\n  \"x\"\n]", "\"args\": [\n  \"--api-key\", // the key\n  \"REDACTED\",\n  \"x\"\n]"},
		{"JSON args one line", `"args": ["-y", "srv", "--token", "abc123", "--port", "1"]`, `"args": ["-y", "srv", "--token", "REDACTED", "--port", "1"]`},
		{"JSON arg with =", `"args": ["--api-key=sk-abcdefghijklmnopqrstuv", "--x"]`, `"args": ["--api-key=sk-REDACTED", "--x"]`},
		{"quoted words before a colon", `profile name "x --api-key SEKRIT": use letters; "API Key": "v"`, `profile name "x --api-key REDACTED": use letters; "API Key": "REDACTED"`},
		{"JSON literal", `{"id": "token", "password": true, "token": null}`, `{"id": "token", "password": true, "token": null}`},
		{"variable reference", `"env": {"TOKEN": "${input:token}", "KEY": "${env:GH}"}`, `"env": {"TOKEN": "${input:token}", "KEY": "${env:GH}"}`},
		{"TOML", "[mcp_servers.docs.env]\nAPI_KEY = \"value\"\nSECRET='lit'\nbearer_token_env_var = \"FIGMA_OAUTH_TOKEN\"\nmax_tokens = 4096",
			"[mcp_servers.docs.env]\nAPI_KEY = \"REDACTED\"\nSECRET='REDACTED'\nbearer_token_env_var = \"FIGMA_OAUTH_TOKEN\"\nmax_tokens = 4096"},
		{"TOML inline table", `env = { TZ = "Europe/Paris", GITHUB_TOKEN = "ghx" }`, `env = { TZ = "Europe/Paris", GITHUB_TOKEN = "REDACTED" }`},
		{"TOML args", `args = ["--token", "abc", "--x"]`, `args = ["--token", "REDACTED", "--x"]`},
		{"YAML", "envs:\n  GITHUB_TOKEN: ghx\n  password: two words # a comment\n  LOG: debug\n", "envs:\n  GITHUB_TOKEN: REDACTED\n  password: REDACTED # a comment\n  LOG: debug\n"},
		{"YAML flow", "envs: {API_KEY: abc, LOG: debug}", "envs: {API_KEY: REDACTED, LOG: debug}"},
		{"YAML list item", "- token: abc\n- name: x", "- token: REDACTED\n- name: x"},
		{"YAML args", "args:\n  - --token\n  - abc123\n  - --x\n", "args:\n  - --token\n  - REDACTED\n  - --x\n"},
		{"YAML quoted", "  api_key: 'abc'\n", "  api_key: 'REDACTED'\n"},
		{"parser gutter", "   3 | password: hunter2\n>  4 | x", "   3 | password: REDACTED\n>  4 | x"},
		{"CRLF", "TOKEN=abc\r\nX=1\r\n", "TOKEN=REDACTED\r\nX=1\r\n"},
		// Prose is left alone.
		{"prose", "reading token: no such file; the bearer of bad news; max_tokens = 4096",
			"reading token: no such file; the bearer of bad news; max_tokens = 4096"},
		{"words", "desk-top ask-for mask-abcdefghijklmnopqrstu npm_config_cache hf_x sk-learn", "desk-top ask-for mask-abcdefghijklmnopqrstu npm_config_cache hf_x sk-learn"},
		{"git and images", "git@github.com:o/r.git alpine:3.19@sha256:abcd @scope/pkg@1.2.3 user@example.com", "git@github.com:o/r.git alpine:3.19@sha256:abcd @scope/pkg@1.2.3 user@example.com"},
		{"IPv6", "listening on [::1]:8080 and http://[::1]:9/mcp", "listening on [::1]:8080 and http://[::1]:9/mcp"},
	} {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("%s: Text(%q)\n = %q\nwant %q", tc.name, tc.in, got, tc.want)
		}
		if got := Text(Text(tc.in)); got != Text(tc.in) {
			t.Errorf("%s: Text is not idempotent: %q then %q", tc.name, Text(tc.in), got)
		}
	}
}

// TestTextKeepsWhatTellsApart: two command lines that differ only in a
// secret look alike; that differ in what is no secret, still differ.
func TestTextKeepsWhatTellsApart(t *testing.T) {
	same := [][2]string{
		{"srv --api-key sk-aaaaaaaaaaaaaaaaaaaaaaaa", "srv --api-key sk-bbbbbbbbbbbbbbbbbbbbbbbb"},
		{"GITHUB_TOKEN=one", "GITHUB_TOKEN=two"},
		{"http://u:a@h/", "http://v:b@h/"},
	}
	for _, p := range same {
		if Text(p[0]) != Text(p[1]) {
			t.Errorf("%q and %q differ once redacted: %q, %q (the secret shows)", p[0], p[1], Text(p[0]), Text(p[1]))
		}
	}
	differ := [][2]string{
		{"srv --api-key X --port 1", "srv --api-key X --port 2"},
		{"GITHUB_TOKEN=x", "GITLAB_TOKEN=x"},
		{"http://u:a@h1/", "http://u:a@h2/"},
		{"--api-key sk-abcdefghijklmnopqrstuvwx", "--api-key ghp_abcdefghijklmnopqrstuvwxyz"},
		{"https://h/mcp?token=1", "https://h/mcp?key=1"},
	}
	for _, p := range differ {
		if Text(p[0]) == Text(p[1]) {
			t.Errorf("%q and %q look alike once redacted: %q", p[0], p[1], Text(p[0]))
		}
	}
}

// TestTextKeepsLines: a secret value running over several lines (a JSON
// string with a line end in it, a YAML value) is hidden line by line,
// and the number of lines stays.
func TestTextKeepsLines(t *testing.T) {
	in := "\"--token\"\n\n\"abc\ndef\"\nhttp://u:p@h/?t=a\nb\r\nend"
	got := Text(in)
	if strings.Count(got, "\n") != strings.Count(in, "\n") || strings.Count(got, "\r") != strings.Count(in, "\r") {
		t.Errorf("Text(%q) = %q: the lines changed", in, got)
	}
	for _, secret := range []string{"abc", "u:p", "t=a"} {
		if strings.Contains(got, secret) {
			t.Errorf("Text(%q) = %q shows %q", in, got, secret)
		}
	}
}
