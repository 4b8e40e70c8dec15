package consent

import (
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// TestRelativeHomeIsIgnored: a relative HOME or XDG_STATE_HOME never makes
// rootpick read its state from the current folder; the user database's
// home folder stands in.
func TestRelativeHomeIsIgnored(t *testing.T) {
	u, err := user.Current()
	if err != nil || !filepath.IsAbs(u.HomeDir) {
		t.Skipf("the user database names no home folder: %v", err)
	}
	for _, home := range []string{"rel", "./x", "", "."} {
		t.Setenv("HOME", home)
		t.Setenv("XDG_STATE_HOME", "state")
		got, err := HomeDir()
		if err != nil || got != filepath.Clean(u.HomeDir) {
			t.Errorf("HOME=%q: HomeDir = %q, %v; want %q", home, got, err, u.HomeDir)
		}
		state, err := StateDir()
		if err != nil || !filepath.IsAbs(state) || !strings.HasPrefix(state, filepath.Clean(u.HomeDir)) {
			t.Errorf("HOME=%q XDG_STATE_HOME=state: StateDir = %q, %v", home, state, err)
		}
		if env := DefaultEnv("/x"); env.Home != canonical(u.HomeDir) {
			t.Errorf("HOME=%q: risk is judged against home %q", home, env.Home)
		}
	}
	t.Setenv("HOME", "/abs/home")
	if got, _ := HomeDir(); got != "/abs/home" {
		t.Errorf("an absolute HOME is not used: %q", got)
	}
	t.Setenv("XDG_STATE_HOME", "/abs/state")
	if got, _ := StateDir(); got != "/abs/state/rootpick" {
		t.Errorf("an absolute XDG_STATE_HOME is not used: %q", got)
	}
}
