package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/paths"
)

// TestPrintConfigEveryHost: the snippet of every host of hostcfg's table
// is what hostcfg reads, as that host's user file, as a server behind the
// proxy, with the profile.
func TestPrintConfigEveryHost(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/custom/state") // not where HOME alone finds it: passed on
	for _, host := range hostcfg.Hosts {
		var out bytes.Buffer
		o := proxyCmd{PrintConfig: hostName(host), Profile: "work", Protocol: "2025-11-25", Name: "fs.one"}
		if err := printHostConfig(&out, io.Discard, paths.FromEnv(), o, []string{"npx", "-y", "@modelcontextprotocol/server-filesystem"}); err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		f, ok := hostcfg.FileFor(host, "user", host+"-snippet")
		if !ok {
			t.Fatalf("%s: no user file", host)
		}
		// Under go test the snippet names rootpick by its PATH name
		// (the test binary is in go-build): that is this rootpick.
		f.Rootpick = []string{"rootpick"}
		c, err := hostcfg.Parse(f, out.Bytes())
		if err != nil || len(c.Servers) != 1 {
			t.Fatalf("%s snippet: %v\n%s", host, err, out.String())
		}
		s := c.Servers[0]
		if s.Name != "fs.one" || s.Kind != hostcfg.Proxied || s.Profile != "work" || !slices.Equal(s.Behind, []string{"npx", "-y", "@modelcontextprotocol/server-filesystem"}) {
			t.Errorf("%s snippet reads as %+v:\n%s", host, s, out.String())
		}
		if i := slices.Index(s.Args, "--state-dir"); i < 0 || i+1 >= len(s.Args) || s.Args[i+1] != "/custom/state/rootpick" {
			t.Errorf("%s snippet does not pass the state folder: args %q", host, s.Args)
		}
	}
}

// TestProxyPrintConfig: each host's snippet runs rootpick proxy with the
// profile and the server command, in that host's format.
func TestProxyPrintConfig(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/custom/state")
	for _, host := range []string{"claude", "cursor", "inspector", "vscode", "goose"} {
		var out, hint bytes.Buffer
		o := proxyCmd{PrintConfig: hostName(host), Profile: "work", Protocol: "2025-11-25"}
		if err := printHostConfig(&out, &hint, paths.FromEnv(), o, []string{"npx", "-y", "@modelcontextprotocol/server-filesystem"}); err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		text := out.String()
		for _, want := range []string{`"proxy"`, `"--profile"`, `"work"`, `"--"`, `"@modelcontextprotocol/server-filesystem"`, `"--state-dir"`, `"/custom/state/rootpick"`} {
			if !strings.Contains(text, want) {
				t.Errorf("%s snippet lacks %s:\n%s", host, want, text)
			}
		}
		if host == "goose" {
			if !strings.HasPrefix(text, "extensions:\n") || !strings.Contains(text, "type: stdio") {
				t.Errorf("goose snippet:\n%s", text)
			}
			continue
		}
		var v map[string]map[string]map[string]any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("%s snippet is not JSON: %v\n%s", host, err, text)
		}
		key := "mcpServers"
		if host == "vscode" {
			key = "servers"
		}
		srv := v[key]["server-filesystem"]
		if srv == nil || srv["args"] == nil || srv["command"] == nil {
			t.Errorf("%s snippet has no %s.server-filesystem with command and args:\n%s", host, key, text)
		}
	}
	// With the state folder where HOME alone finds it, none is passed.
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/someone")
	var out bytes.Buffer
	if err := printHostConfig(&out, io.Discard, paths.FromEnv(), proxyCmd{PrintConfig: "claude", Profile: "default", Protocol: "2025-11-25"}, []string{"x"}); err != nil || strings.Contains(out.String(), "--state-dir") {
		t.Errorf("the default state folder is passed: %v\n%s", err, out.String())
	}
	var ee exitError
	if err := run([]string{"proxy", "--print-config", "emacs", "--", "x"}, io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("an unknown host: %v, want exit 2", err)
	}
}

// TestProxyPrintConfigInspectorCLI: --print-config inspector says the
// command that runs the server of the file it printed with the
// Inspector's CLI (--cli; without it the Inspector opens its UI), with a
// name the shell must quote quoted (e2e's TestHostsE2EInspectorHint runs
// it).
func TestProxyPrintConfigInspectorCLI(t *testing.T) {
	for name, want := range map[string]string{
		"fs":       "# save this as config.json, then: npx -y @modelcontextprotocol/inspector --cli --config config.json --server fs --method tools/list\n",
		"my files": "# save this as config.json, then: npx -y @modelcontextprotocol/inspector --cli --config config.json --server 'my files' --method tools/list\n",
	} {
		var out, hint bytes.Buffer
		o := proxyCmd{PrintConfig: "inspector", Profile: "default", Protocol: "2025-11-25", Name: name}
		if err := printHostConfig(&out, &hint, paths.FromEnv(), o, []string{"srv"}); err != nil {
			t.Fatal(err)
		}
		if hint.String() != want {
			t.Errorf("%q: the hint is\n%q\nwant\n%q", name, hint.String(), want)
		}
		var v map[string]map[string]map[string]any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil || v["mcpServers"][name] == nil {
			t.Errorf("%q: the snippet %v:\n%s", name, err, out.String())
		}
	}
}
