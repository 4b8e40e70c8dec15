package hostcfg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

// jsoncCases are JSONC texts that standardJSON must read as hujson does.
var jsoncCases = []string{
	`{"a": 1}`,
	"{\"a\": [1, 2,], \"b\": {\"c\": null,},}",
	"{\n  // a comment with \"quotes\" and { braces [\n  \"a\": \"// not a comment\", /* block\n with a } */ \"b\": \"/* nor this */\"\n}",
	"{\"a\": \"esc \\\" // still a string\", \"b\": [ /* c */ ] }",
	"{\"a\": 1, // the end\n}\r\n",
	"{\"k\\u0022\": \"v\\\\\", \"x\": [[],[{},],],}",
	"{} // after\n",
	"/* before */ {}",
}

// TestHostsStandardJSON: standardJSON gives the JSON hujson.Standardize
// gives, keeps every offset (same length, line ends in place), and leaves
// text that is not JSONC for the decoder to refuse.
func TestHostsStandardJSON(t *testing.T) {
	for _, in := range jsoncCases {
		std := standardJSON([]byte(in))
		if len(std) != len(in) || bytes.Count(std, []byte("\n")) != strings.Count(in, "\n") {
			t.Errorf("%q: standard form %q moved bytes", in, std)
		}
		want, err := hujson.Standardize([]byte(in))
		if err != nil {
			t.Fatalf("%q: hujson: %v", in, err)
		}
		var got, exp any
		if err := json.Unmarshal(std, &got); err != nil {
			t.Errorf("%q: standard form %q: %v", in, std, err)
			continue
		}
		_ = json.Unmarshal(want, &exp)
		if !reflect.DeepEqual(got, exp) {
			t.Errorf("%q: decoded %v, hujson %v", in, got, exp)
		}
	}
	for _, bad := range []string{`{,}`, `{"a": 1,,}`, `{"a": 1} /* open`, `{"a": 1} /`, `[,1]`} {
		if json.Valid(standardJSON([]byte(bad))) {
			t.Errorf("%q: standard form %q is valid JSON", bad, standardJSON([]byte(bad)))
		}
	}
	plain := []byte(`{"a": [1, 2]}`)
	if std := standardJSON(plain); &std[0] != &plain[0] {
		t.Errorf("standard JSON was copied")
	}
}

// FuzzHostsStandardJSON: whatever hujson accepts, standardJSON turns into
// valid JSON of the same value; what it refuses never becomes valid JSON.
func FuzzHostsStandardJSON(f *testing.F) {
	for _, c := range jsoncCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !bytes.HasPrefix(bytes.TrimLeft(in, " \t\r\n"), []byte("{")) && !bytes.HasPrefix(bytes.TrimLeft(in, " \t\r\n"), []byte("[")) {
			return
		}
		std := standardJSON(in)
		if len(std) != len(in) {
			t.Fatalf("length %d, was %d", len(std), len(in))
		}
		want, err := hujson.Standardize(slices.Clone(in))
		if err != nil {
			return
		}
		var got, exp any
		if err := json.Unmarshal(std, &got); err != nil {
			t.Fatalf("hujson accepts %q, its standard form %q does not decode: %v", in, std, err)
		}
		_ = json.Unmarshal(want, &exp)
		if !reflect.DeepEqual(got, exp) {
			t.Fatalf("%q: decoded %v, hujson %v", in, got, exp)
		}
	})
}

// TestHostsJSONCommentedServers: servers written in a comment are not
// servers, and the real ones, after comments that hold braces, are
// rewritten at their own offsets.
func TestHostsJSONCommentedServers(t *testing.T) {
	in := "{\n  // \"mcpServers\": {\"fake\": {\"command\": \"evil\"}},\n  /* { [ */ \"other\": \"}\",\n" +
		"  \"mcpServers\": { /* { */ \"real\": {\"command\": \"x\", \"args\": [\"a\"]}, // }\n  }\n}\n"
	f, _ := FileFor(Claude, "project", "mcp.json")
	c, err := Parse(f, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Servers) != 1 || c.Servers[0].Name != "real" || c.Servers[0].Command != "x" {
		t.Fatalf("servers %+v, want real alone", c.Servers)
	}
	out, err := c.Wrap([]int{0}, Proxy{Exe: "/r"})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(in, `"command": "x", "args": ["a"]`, `"command": "rootpick", "args": ["proxy", "--host=claude-project", "--name=real", "--", "x", "a"]`, 1)
	if string(out) != want {
		t.Errorf("wrapped\n%s\nwant\n%s", out, want)
	}
}

// TestHostsRewriteCheckRefuses: a splice that changes anything but the
// rewritten entries' command lines is caught by the check after the
// rewrite, whatever the file's size.
func TestHostsRewriteCheckRefuses(t *testing.T) {
	in := `{"numStartups": 4, "mcpServers": {"a": {"command": "x", "env": {"K": "v"}}, "b": {"command": "y"}}}`
	f, _ := FileFor(Claude, "user", ".claude.json")
	c, err := Parse(f, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) int { return strings.Index(in, s) }
	wrapA := []edit{{at(`"x"`), at(`"x"`) + 3, `"/r"`}, {at(`"x"`) + 3, at(`"x"`) + 3, `, "args": ["proxy", "--", "x"]`}}
	want := map[int][]string{0: {"/r", "proxy", "--", "x"}}
	if _, err := c.rewrite(wrapA, want); err != nil {
		t.Fatalf("the plain wrap is refused: %v", err)
	}
	for name, extra := range map[string]edit{
		"another value":         {at("4"), at("4") + 1, "5"},
		"the entry's env":       {at(`"v"`), at(`"v"`) + 3, `"w"`},
		"a member added":        {at(`"numStartups"`), at(`"numStartups"`), `"new": 1, `},
		"another server's name": {at(`"b"`), at(`"b"`) + 3, `"c"`},
	} {
		if _, err := c.rewrite(append(slices.Clone(wrapA), extra), want); err == nil {
			t.Errorf("%s changed: not refused", name)
		}
	}
}

// bigClaudeJSON is a ~/.claude.json as Claude Code writes it (two-space
// indentation), with n projects, each with two servers and a history.
func bigClaudeJSON(n int) []byte {
	type server struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
	}
	projects := map[string]any{}
	for i := range n {
		dir := fmt.Sprintf("/home/u/src/project-%d", i)
		var history []any
		for j := range 20 {
			history = append(history, map[string]any{"display": strings.Repeat(fmt.Sprintf("prompt %d of %d, ", j, i), 12), "pastedContents": map[string]any{}})
		}
		projects[dir] = map[string]any{
			"allowedTools": []string{}, "history": history, "mcpContextUris": []string{},
			"mcpServers": map[string]server{
				fmt.Sprintf("fs%d", i):  {"stdio", "npx", []string{"-y", "@modelcontextprotocol/server-filesystem", dir}, map[string]string{}},
				fmt.Sprintf("git%d", i): {"stdio", "uvx", []string{"mcp-server-git", "--repository", dir}, map[string]string{"GIT_TERMINAL_PROMPT": "0"}},
			},
			"enabledMcpjsonServers": []string{}, "hasTrustDialogAccepted": true, "lastCost": 0.12, "lastSessionId": fmt.Sprintf("%032x", i),
		}
	}
	b, _ := json.MarshalIndent(map[string]any{
		"numStartups": 412, "mcpServers": map[string]server{"everything": {"stdio", "npx", []string{"-y", "@modelcontextprotocol/server-everything"}, map[string]string{}}},
		"projects": projects, "userID": strings.Repeat("0", 64),
	}, "", "  ")
	return b
}

// TestHostsLargeClaudeJSON: reading and wrapping every server of a large
// ~/.claude.json allocates a few times the file's size (about 12 times,
// most of it short-lived), not the file's size once per server (each
// splice used to copy the whole file: 2.4 GB here) nor a tree of the whole
// file per reading (hujson's is seven times its size, and it was built
// four times).
func TestHostsLargeClaudeJSON(t *testing.T) {
	data := bigClaudeJSON(300)
	f, _ := FileFor(Claude, "user", ".claude.json")
	f.Rootpick = []string{testProxy.Exe}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c, err := Parse(f, data)
	if err != nil {
		t.Fatal(err)
	}
	which := wrappable(c)
	out, err := c.Wrap(which, testProxy)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if len(which) != 601 {
		t.Fatalf("%d servers to wrap, want 601", len(which))
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes, %d servers wrapped: %d bytes allocated", len(data), len(which), allocated)
	if limit := 16 * uint64(len(data)); allocated > limit {
		t.Errorf("reading and wrapping %d bytes allocated %d bytes, more than %d", len(data), allocated, limit)
	}
	// The result is what it should be: every server runs the proxy.
	back, err := Parse(f, out)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range back.Servers {
		if s.Kind != Proxied {
			t.Fatalf("%s is %v after the wrap", s.Name, s.Kind)
		}
	}
}

// TestHostsDuplicateKeysOnTheWay: a file that gives the servers' key, or
// a key on the way to them, twice is read as the host reads it (the last
// one), and none of its servers is rewritten, for a reason in words: the
// host reads one of the two, and a rewrite could not be checked.
func TestHostsDuplicateKeysOnTheWay(t *testing.T) {
	for _, tc := range []struct {
		host, scope, text, twice string
	}{
		{Claude, "project", `{"mcpServers": {"a": {"command": "x"}}, "mcpServers": {"a": {"command": "y", "args": ["z"]}}}`, `"mcpServers"`},
		{VSCode, "project", `{"servers": {"a": {"command": "x"}}, "servers": {"a": {"command": "y"}}}`, `"servers"`},
		{Claude, "user", `{"projects": {"/p": {"mcpServers": {"a": {"command": "x"}}}}, "projects": {"/p": {"mcpServers": {"a": {"command": "y"}}}}}`, `"projects"`},
		{Claude, "user", `{"projects": {"/p": {"mcpServers": {"a": {"command": "x"}}}, "/p": {"mcpServers": {"a": {"command": "y"}}}}}`, `the project "/p"`},
		{Claude, "user", `{"projects": {"/p": {"mcpServers": {"a": {"command": "x"}}, "mcpServers": {"a": {"command": "y"}}}}}`, `"mcpServers"`},
	} {
		f, _ := FileFor(tc.host, tc.scope, "x.json")
		c, err := Parse(f, []byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		var a *Server
		for i := range c.Servers {
			if c.Servers[i].Name == "a" {
				a = &c.Servers[i]
			}
		}
		if a == nil || a.Command != "y" {
			t.Fatalf("%s: the servers %+v, want a running y (the last)", tc.text, c.Servers)
		}
		ok, why := a.CanWrap()
		if want := "the file gives " + tc.twice + " twice (the host reads only the last one)"; ok || !strings.Contains(why, want) {
			t.Errorf("%s: CanWrap %v %q, want %q", tc.text, ok, why, want)
		}
	}
}

// TestHostsLargeClaudeJSONDiff: the diff of a wrap of every server of a
// large ~/.claude.json is written a hunk at a time and allocates in
// proportion to what changed, not to the file: with 10 MB more of history
// it allocates no more (the whole-file diff it replaced ran go-diff over
// every line and redacted both files whole, and took 478–540 MB for a
// 22 MB file).
func TestHostsLargeClaudeJSONDiff(t *testing.T) {
	small := bigClaudeJSON(300)
	// The history goes between the servers (after the user's, before the
	// projects'), where no trimming of common lines can leave it out.
	var history strings.Builder
	history.WriteString("\n  \"history\": [\n")
	for i := range 40000 {
		fmt.Fprintf(&history, "    %q,\n", strings.Repeat(fmt.Sprintf("an old prompt %d, ", i), 12))
	}
	history.WriteString("    \"last\"\n  ],\n  \"numStartups\"")
	large := bytes.Replace(small, []byte("\n  \"numStartups\""), []byte(history.String()), 1)
	var allocs []uint64
	for _, data := range [][]byte{small, large} {
		f, _ := FileFor(Claude, "user", ".claude.json")
		f.Rootpick = []string{testProxy.Exe}
		c, err := Parse(f, data)
		if err != nil {
			t.Fatal(err)
		}
		rw, err := c.PlanWrap(wrappable(c), testProxy)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var n countingWriter
		if err := rw.WriteDiff(&n, "a", "b"); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		allocated := after.TotalAlloc - before.TotalAlloc
		allocs = append(allocs, allocated)
		t.Logf("%d bytes, a diff of %d bytes in %d writes: %d bytes allocated", len(data), n.bytes, n.writes, allocated)
		if n.writes != 601 {
			t.Errorf("%d writes, want one per hunk: 601", n.writes)
		}
	}
	if allocs[1] > allocs[0]+allocs[0]/4 {
		t.Errorf("with %d bytes more of history the diff allocated %d bytes, not about %d", len(large)-len(small), allocs[1], allocs[0])
	}
}

// countingWriter counts what is written to it.
type countingWriter struct{ bytes, writes int }

func (w *countingWriter) Write(b []byte) (int, error) {
	w.bytes += len(b)
	w.writes++
	return len(b), nil
}

// TestHostsWriteLargeClaudeJSON writes a large ~/.claude.json, for
// measuring rootpick hosts wrap on it (docs/performance.md), to the file
// ROOTPICK_LARGE_CLAUDE_JSON names; skipped without it.
func TestHostsWriteLargeClaudeJSON(t *testing.T) {
	path := os.Getenv("ROOTPICK_LARGE_CLAUDE_JSON")
	if path == "" {
		t.Skip("ROOTPICK_LARGE_CLAUDE_JSON=FILE writes the file")
	}
	data := bigClaudeJSON(3765)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes, 3765 projects, 7531 servers", path, len(data))
}
