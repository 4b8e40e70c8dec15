package mcpconn

import (
	"errors"
	"strings"
	"testing"
)

func TestSpecLabelNamesTheRealCommand(t *testing.T) {
	for _, tc := range []struct {
		command []string
		want    string
	}{
		{[]string{"env", "X=1", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, "server-filesystem"},
		{[]string{"/usr/bin/env", "-i", "PATH=/bin", "my-server", "--port", "1"}, "my-server"},
		{[]string{"env", "-u", "HOME", "-C", "/tmp", "TOKEN=s3cret", "python3", "server.py"}, "server.py"},
		{[]string{"env", "-S", "node server.js --x", "--y"}, "server.js"},
		{[]string{"env", "--unset=A", "--", "mcp-git"}, "mcp-git"},
		{[]string{"env", "-", "A=B", "tool"}, "tool"},
		{[]string{"sh", "-c", "exec npx -y @modelcontextprotocol/server-filesystem /src"}, "server-filesystem"},
		{[]string{"/bin/bash", "-lc", `source ~/.nvm/nvm.sh && cd /srv && node ~/src/memory/dist/index.js`}, "memory"},
		{[]string{"sh", "-c", `exec "$SERVER"`}, "sh"},
		{[]string{"sh", "run.sh"}, "sh"},
		{[]string{"env"}, "env"},
		{[]string{"env", "A=1"}, "env"},
		{[]string{"envoy", "serve"}, "envoy"},
		// A script in a package: the package, not index.js.
		{[]string{"node", "/home/u/work/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", "/tmp"}, "server-filesystem"},
		{[]string{"node", "/w/.ci/node_modules/some-pkg/build/cli.js"}, "some-pkg"},
		{[]string{"node", `C:\w\node_modules\@s\tool\dist\index.js`}, "tool"},
		{[]string{"node", "/home/u/mcp servers/memory/dist/index.js"}, "memory"},
		{[]string{"node", "--enable-source-maps", "/srv/notes/index.mjs"}, "notes"},
		{[]string{"node", "index.js"}, "node"},
		{[]string{"node", "../index.js"}, "node"},
		{[]string{"python3", "/srv/tools/weather.py"}, "python3"},
	} {
		if got := (Spec{Command: tc.command}).Label(); got != tc.want {
			t.Errorf("Label(%q) = %q, want %q", tc.command, got, tc.want)
		}
		if got := (Spec{Command: tc.command}).Label(); strings.Contains(got, "s3cret") {
			t.Errorf("Label(%q) = %q shows an environment value", tc.command, got)
		}
	}
}

// TestSpecLabelHidesURLSecrets: a URL server's label keeps its host and
// path, so that two servers still look different, and shows no secret.
func TestSpecLabelHidesURLSecrets(t *testing.T) {
	a := Spec{URL: "https://alice:SEKRIT1@a.example/mcp?token=SEKRIT2#SEKRIT3"}.Label()
	b := Spec{URL: "https://alice:SEKRIT1@b.example/mcp?token=SEKRIT2#SEKRIT3"}.Label()
	if a != "https://REDACTED@a.example/mcp?token=REDACTED#REDACTED" || b == a {
		t.Errorf("labels %q and %q", a, b)
	}
}

// TestSpecRedactError: an error about a URL server loses the URL's
// secrets, in the URL it quotes and where it repeats one on its own; an
// error about a command loses what any text would (--api-key X); both
// still unwrap to the cause.
func TestSpecRedactError(t *testing.T) {
	cause := errors.New(`Post "http://u:***@127.0.0.1:1/mcp?api_key=SEKRIT123": the server said SEKRIT123 is revoked`)
	err := Spec{URL: "http://u:pw@127.0.0.1:1/mcp?api_key=SEKRIT123"}.redactError(cause)
	if want := `Post "http://REDACTED@127.0.0.1:1/mcp?api_key=REDACTED": the server said REDACTED is revoked`; err.Error() != want {
		t.Errorf("got %q\nwant %q", err, want)
	}
	if !errors.Is(err, cause) {
		t.Error("the redacted error does not unwrap to its cause")
	}
	cause = errors.New("exec srv --api-key SEKRIT456: not found")
	if err := (Spec{Command: []string{"srv", "--api-key", "SEKRIT456"}}).redactError(cause); strings.Contains(err.Error(), "SEKRIT") || !errors.Is(err, cause) {
		t.Errorf("a command's error: %v", err)
	}
	plain := errors.New("EOF")
	if err := (Spec{URL: "http://h/"}).redactError(plain); err != plain {
		t.Error("an error with nothing to hide is not returned as it is")
	}
}
