package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/mcpconn"
)

// TestAddAllowRead: the pane's allow key keeps the path in the server's
// allow-read, editing the file's text: comments, layout and the other
// servers stay as they were; the path is written under ~/ in the home
// folder; what cannot be edited safely is refused with what to add.
func TestAddAllowRead(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	settings := filepath.Join(home, ".config", "x", "settings.json")
	for _, tc := range []struct {
		name, before, after, err string
	}{
		{"no allow-read yet",
			"# my servers\n[servers.fs] # the files\ncommand = \"srv\"\n\n[servers.git]\ncommand = \"git-srv\"\n",
			"# my servers\n[servers.fs] # the files\nallow-read = [\"~/.config/x/settings.json\"]\ncommand = \"srv\"\n\n[servers.git]\ncommand = \"git-srv\"\n", ""},
		{"one allow-read on a line",
			"[servers.fs]\ncommand = \"srv\"\nallow-read = [\"/opt/data\"] # data\n",
			"[servers.fs]\ncommand = \"srv\"\nallow-read = [\"/opt/data\", \"~/.config/x/settings.json\"] # data\n", ""},
		{"an empty allow-read",
			"[servers.fs]\ncommand = \"srv\"\nallow-read = []\n",
			"[servers.fs]\ncommand = \"srv\"\nallow-read = [\"~/.config/x/settings.json\"]\n", ""},
		{"the last line without its newline",
			"[servers.fs]\ncommand = \"srv\"",
			"[servers.fs]\nallow-read = [\"~/.config/x/settings.json\"]\ncommand = \"srv\"", ""},
		{"a file that does not read is left alone",
			"[servers.fs]\ncommand = \"srv\"\ncolour = \"red\"\n",
			"", "would break"},
		{"an allow-read on several lines",
			"[servers.fs]\ncommand = \"srv\"\nallow-read = [\n  \"/opt/data\",\n]\n",
			"", "spans lines"},
		{"a table without its header",
			"servers.fs.command = \"srv\"\n",
			"", "no [servers.fs] header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "config.toml")
			if err := os.WriteFile(file, []byte(tc.before), 0o640); err != nil {
				t.Fatal(err)
			}
			err := addAllowRead(file, "fs", settings)
			b, _ := os.ReadFile(file)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || string(b) != tc.before {
					t.Errorf("err %v, file:\n%s", err, b)
				}
				return
			}
			if err != nil || string(b) != tc.after {
				t.Fatalf("err %v, file:\n%s\nwant:\n%s", err, b, tc.after)
			}
			if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o640 {
				t.Errorf("the file's mode became %v", fi.Mode().Perm())
			}
			cfg, err := loadConfig(file, true)
			if err != nil {
				t.Fatal(err)
			}
			if s, _ := cfg.server("fs"); !slices.Contains(s.AllowRead, settings) {
				t.Errorf("read back, fs may read %q", s.AllowRead)
			}
		})
	}
}

// TestRememberAllowOnlyForTheConfigsServers: a path allowed to a server
// of the config file is kept in it; one allowed to a server given on the
// command line (even one named like a config server) is not, and the
// error says how to allow it again.
func TestRememberAllowOnlyForTheConfigsServers(t *testing.T) {
	file := writeConfig(t, "[servers.fs]\ncommand = \"srv\"\n")
	cfg, err := loadConfig(file, true)
	if err != nil {
		t.Fatal(err)
	}
	fromFile := []mcpconn.Spec{{Name: "fs", Command: []string{"srv"}}}
	if where, err := rememberAllow(cfg, fromFile)("fs", "/opt/x"); err != nil || !strings.Contains(where, file) {
		t.Errorf("a config server: %q, %v", where, err)
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), `allow-read = ["/opt/x"]`) {
		t.Errorf("the file:\n%s", b)
	}
	onTheLine := []mcpconn.Spec{{Command: []string{"fs"}}}
	if _, err := rememberAllow(cfg, onTheLine)("fs", "/opt/y"); err == nil || !strings.Contains(err.Error(), "--allow-read '/opt/y'") {
		t.Errorf("a command-line server: %v", err)
	}
	if b, _ := os.ReadFile(file); strings.Contains(string(b), "/opt/y") {
		t.Errorf("a command-line server's path was written:\n%s", b)
	}
}
