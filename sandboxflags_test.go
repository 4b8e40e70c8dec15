package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// TestSandboxFlagsAndConfig: --enforce, --allow-read and --allow-write
// reach every stdio server's spec (the config file's too: a flag given
// replaces the file's value, lists included, as every flag does); a
// config server's enforce, allow-read and allow-write reach its spec,
// with ~/ expanded; URLs take none.
func TestSandboxFlagsAndConfig(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	path := writeConfig(t, `
[servers.fs]
command = ["srv-fs"]
enforce = "require"
allow-read = ["~/data", "/srv/ro"]
allow-write = ["/dev/shm"]
allow-socket = ["~/agent.sock"]
network = "off"

[servers.plain]
command = "srv-plain"

[servers.remote]
url = "http://127.0.0.1:1/mcp"
`)
	specs := func(args ...string) map[string]mcpconn.Spec {
		t.Helper()
		c, e := parseWith(t, append([]string{"--config", path}, args...)...)
		list, err := c.Pick.serverSpecs(e.command, e.config)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]mcpconn.Spec{}
		for _, s := range list {
			out[s.Label()] = s
		}
		return out
	}
	got := specs()
	fs := got["fs"]
	if fs.Network != launch.NetworkOff {
		t.Errorf("fs's network from the config file: %q", fs.Network)
	}
	if !slices.Equal(fs.AllowSocket, []string{filepath.Join(home, "agent.sock")}) {
		t.Errorf("fs's allow-socket from the config file: %q", fs.AllowSocket)
	}
	if fs.Enforce != launch.EnforceRequire || !slices.Equal(fs.AllowRead, []string{filepath.Join(home, "data"), "/srv/ro"}) || !slices.Equal(fs.AllowWrite, []string{"/dev/shm"}) {
		t.Errorf("fs from the config file: %q %q %q", fs.Enforce, fs.AllowRead, fs.AllowWrite)
	}
	if p := got["plain"]; p.Enforce != launch.EnforceDefault || len(p.AllowRead)+len(p.AllowWrite) != 0 {
		t.Errorf("plain: %q %q %q", p.Enforce, p.AllowRead, p.AllowWrite)
	}

	wd, _ := os.Getwd()
	got = specs("--enforce", "off", "--allow-read", "rel", "--allow-write=/w", "--use", "fs", "--use", "remote", "--server", "other", "--", "cmd")
	fs = got["fs"]
	if fs.Enforce != launch.EnforceOff || !slices.Equal(fs.AllowRead, []string{filepath.Join(wd, "rel")}) || !slices.Equal(fs.AllowWrite, []string{"/w"}) {
		t.Errorf("fs with the flags: %q %q %q", fs.Enforce, fs.AllowRead, fs.AllowWrite)
	}
	// A flag not given leaves the file's value.
	fs = specs("--allow-read", "/only", "--use", "fs")["fs"]
	if fs.Enforce != launch.EnforceRequire || !slices.Equal(fs.AllowRead, []string{"/only"}) || !slices.Equal(fs.AllowWrite, []string{"/dev/shm"}) {
		t.Errorf("fs with --allow-read only: %q %q %q", fs.Enforce, fs.AllowRead, fs.AllowWrite)
	}
	for _, name := range []string{"cmd", "other"} {
		if s := got[name]; s.Enforce != launch.EnforceOff || !slices.Equal(s.AllowRead, []string{filepath.Join(wd, "rel")}) || !slices.Equal(s.AllowWrite, []string{"/w"}) {
			t.Errorf("%s with the flags: %q %q %q", name, s.Enforce, s.AllowRead, s.AllowWrite)
		}
	}
	if r := got["remote"]; r.Enforce != "" || r.AllowRead != nil || r.AllowWrite != nil {
		t.Errorf("a URL server took the flags: %+v", r)
	}
	// rootpick proxy takes them too, and prints them into a host's
	// configuration.
	c, _ := parseWith(t, "proxy", "--enforce", "require", "--allow-read", "/r", "--allow-write", "/w", "--allow-socket", "/s.sock", "--network", "off", "--read-only", "--", "srv")
	if c.Proxy.Network != "off" || !c.Proxy.ReadOnly {
		t.Errorf("proxy --network: %q", c.Proxy.Network)
	}
	if !slices.Equal(c.Proxy.AllowSocket, []string{"/s.sock"}) {
		t.Errorf("proxy --allow-socket: %q", c.Proxy.AllowSocket)
	}
	if c.Proxy.Enforce != "require" || !slices.Equal(c.Proxy.AllowRead, []string{"/r"}) || !slices.Equal(c.Proxy.AllowWrite, []string{"/w"}) {
		t.Errorf("proxy: %q %q %q", c.Proxy.Enforce, c.Proxy.AllowRead, c.Proxy.AllowWrite)
	}
	var out bytes.Buffer
	o := c.Proxy
	o.PrintConfig = "claude"
	if err := printHostConfig(&out, &bytes.Buffer{}, paths.FromEnv(), o, []string{"srv"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"--enforce=require", "--allow-read=/r", "--allow-write=/w", "--allow-socket=/s.sock", "--network=off", "--read-only", "--", "srv"`) &&
		!strings.Contains(strings.Join(strings.Fields(out.String()), " "), `"--enforce=require", "--allow-read=/r", "--allow-write=/w", "--allow-socket=/s.sock", "--network=off", "--read-only", "--", "srv"`) {
		t.Errorf("the printed configuration lacks the flags:\n%s", out.String())
	}
}

// TestSandboxFlagsRefused: a bad --enforce names the flag; a bad enforce,
// allow-read or allow-write in the config file is placed at its line; a
// URL server cannot have them.
func TestSandboxFlagsRefused(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run([]string{"--enforce", "maybe"}, &out, &errOut)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(ee.msg, "--enforce") || !strings.Contains(ee.msg, "on, off or require") {
		t.Errorf("--enforce maybe: %v", err)
	}
	out.Reset()
	errOut.Reset()
	err = run([]string{"--network", "maybe"}, &out, &errOut)
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(ee.msg, "--network") || !strings.Contains(ee.msg, "on or off") {
		t.Errorf("--network maybe: %v", err)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"bad network", "[servers.fs]\ncommand = \"srv\"\nnetwork = \"none\"\n", ":3:11:"},
		{"url with network", "[servers.r]\nurl = \"http://h/mcp\"\nnetwork = \"off\"\n", "not a url"},
		{"bad enforce", "[servers.fs]\ncommand = \"srv\"\nenforce = \"yes\"\n", ":3:11:"},
		{"enforce not a string", "[servers.fs]\ncommand = \"srv\"\nenforce = true\n", "want a string"},
		{"relative allow-read", "[servers.fs]\ncommand = \"srv\"\nallow-read = [\"data\"]\n", "absolute"},
		{"allow-write not an array", "[servers.fs]\ncommand = \"srv\"\nallow-write = \"/x\"\n", "want an array of strings"},
		{"url with enforce", "[servers.r]\nurl = \"http://h/mcp\"\nenforce = \"on\"\n", "not a url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.text)
			err := run([]string{"--config", path, "list"}, &bytes.Buffer{}, &bytes.Buffer{})
			var ee exitError
			if !errors.As(err, &ee) || ee.code != 2 || !strings.HasPrefix(ee.msg, path+":") || !strings.Contains(ee.msg, tc.want) {
				t.Errorf("%v; want exit 2 at %s with %q", err, path, tc.want)
			}
		})
	}
}
