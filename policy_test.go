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
