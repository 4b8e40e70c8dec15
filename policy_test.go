package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
)

// TestPolicyCommand: rootpick policy prints, for a command it does not
// start, each path it may open with its access and why (the profile's
// consented folder included), its network and sockets, and what its
// environment asked for and will not get.
func TestPolicyCommand(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("npm_config_cache", filepath.Join(home, ".ssh"))
	src := filepath.Join(home, "src", "api")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := consent.NewRoot(src)
	if err != nil {
		t.Fatal(err)
	}
	store, err := consent.OpenStoreIn(filepath.Join(home, ".local", "state", "rootpick"), "work")
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Save(consent.Record{Dir: filepath.Dir(src), Roots: []consent.Root{root}, Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := run([]string{"policy", "--profile", "work", "--network", "off", "--", "sh", "-c", "exec npx -y some-server"}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	text := out.String()
	for _, want := range []string{
		"profile work: 1 consented folders",
		"read+write+exec  ~/src/api  (consented)",
		"read+exec        /usr  (system)",
		"network   off (no TCP or UDP: IP sockets refused)",
		"sockets   none (unix sockets refused)",
		"not granted: env npm_config_cache=~/.ssh: not a cache folder",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("rootpick policy lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "(npm cache)") {
		t.Errorf("the refused cache is granted:\n%s", text)
	}
	if err := run([]string{"policy"}, &out, &errb); err == nil {
		t.Error("policy with no command: no error")
	}
}

// TestPolicyCommandReadOnly: rootpick policy shows each folder with the
// access the profile's record gives it: a folder shared read-only is
// "read" and says read-only; one nested in a folder shared read and write
// is what Landlock makes it in fact, and says through which folder.
func TestPolicyCommandReadOnly(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	var roots []consent.Root
	for _, c := range []struct {
		dir      string
		readOnly bool
	}{{"api", true}, {"web", false}, {filepath.Join("web", "docs"), true}} {
		dir := filepath.Join(home, "src", c.dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		root, err := consent.NewRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		root.ReadOnly = c.readOnly
		roots = append(roots, root)
	}
	store, err := consent.OpenStoreIn(filepath.Join(home, ".local", "state", "rootpick"), "work")
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Save(consent.Record{Dir: filepath.Join(home, "src"), Roots: roots, Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := run([]string{"policy", "--profile", "work", "--", "sh"}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	text := out.String()
	for _, want := range []string{
		"profile work: 3 consented folders, 2 of them read-only",
		"  read             ~/src/api  (consented; read-only)\n",
		"  read+write+exec  ~/src/web  (consented)\n",
		"  read+write+exec  ~/src/web/docs  (consented; read-only consent; read+write+exec in fact, inside ~/src/web (read+write+exec, consented))\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("rootpick policy lacks %q:\n%s", want, text)
		}
	}
}
