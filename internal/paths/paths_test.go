package paths

import (
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// TestRelativeHomeIsIgnored: a relative HOME or XDG_STATE_HOME never makes
// rootpick read its state or its config from the current folder; the user
// database's home folder stands in.
func TestRelativeHomeIsIgnored(t *testing.T) {
	u, err := user.Current()
	if err != nil || !filepath.IsAbs(u.HomeDir) {
		t.Skipf("the user database names no home folder: %v", err)
	}
	for _, home := range []string{"rel", "./x", "", "."} {
		t.Setenv("HOME", home)
		t.Setenv("XDG_STATE_HOME", "state")
		t.Setenv("XDG_CONFIG_HOME", "config")
		got, err := Home()
		if err != nil || got != filepath.Clean(u.HomeDir) {
			t.Errorf("HOME=%q: Home = %q, %v; want %q", home, got, err, u.HomeDir)
		}
		d := FromEnv()
		state, err := d.State()
		if err != nil || !filepath.IsAbs(state.Dir) || !strings.HasPrefix(state.Dir, filepath.Clean(u.HomeDir)) || state.Named {
			t.Errorf("HOME=%q XDG_STATE_HOME=state: State = %+v, %v", home, state, err)
		}
		config, err := d.ConfigFile()
		if err != nil || !strings.HasPrefix(config, filepath.Clean(u.HomeDir)+string(filepath.Separator)) {
			t.Errorf("HOME=%q XDG_CONFIG_HOME=config: ConfigFile = %q, %v", home, config, err)
		}
	}
	t.Setenv("HOME", "/abs/home")
	if got, _ := Home(); got != "/abs/home" {
		t.Errorf("an absolute HOME is not used: %q", got)
	}
	t.Setenv("XDG_STATE_HOME", "/abs/state")
	if got, _ := FromEnv().State(); got.Dir != "/abs/state/rootpick" {
		t.Errorf("an absolute XDG_STATE_HOME is not used: %q", got.Dir)
	}
}

// TestPolicyFromTheTrustedHomeOnly: New believes the policy's folders only
// when it started from the home folder rootpick trusts; else the defaults
// below that home folder stand.
func TestPolicyFromTheTrustedHomeOnly(t *testing.T) {
	t.Setenv("HOME", "/h")
	d := New(XDG{Home: "/h", ConfigHome: "/c", StateHome: "/s"})
	if c, _ := d.ConfigFile(); c != "/c/rootpick/config.toml" {
		t.Errorf("ConfigFile = %q", c)
	}
	if s, _ := d.State(); s.Dir != "/s/rootpick" {
		t.Errorf("State = %q", s.Dir)
	}
	if got := d.NonDefaultState(); got != "/s/rootpick" {
		t.Errorf("NonDefaultState = %q, want the moved folder", got)
	}
	for _, x := range []XDG{
		{Home: "/", ConfigHome: "/.config", StateHome: "/.local/state"}, // $HOME unset
		{Home: "rel", ConfigHome: "rel/c", StateHome: "rel/s"},
		{Home: "/h", ConfigHome: "c", StateHome: "s"},
	} {
		d := New(x)
		if c, _ := d.ConfigFile(); c != "/h/.config/rootpick/config.toml" {
			t.Errorf("%+v: ConfigFile = %q", x, c)
		}
		if s, _ := d.State(); s.Dir != "/h/.local/state/rootpick" {
			t.Errorf("%+v: State = %q", x, s.Dir)
		}
		if got := d.NonDefaultState(); got != "" {
			t.Errorf("%+v: NonDefaultState = %q, want none", x, got)
		}
	}
}

// TestWithStateDir: --state-dir must be absolute and pass the trust check
// passed in; it is then the state folder, marked as named, and the default
// is unchanged on a refusal.
func TestWithStateDir(t *testing.T) {
	t.Setenv("HOME", "/h")
	d := New(XDG{Home: "/h"})
	var checked []string
	check := func(dir string) error {
		checked = append(checked, dir)
		if strings.Contains(dir, "bad") {
			return &testRefusal{}
		}
		return nil
	}
	for _, dir := range []string{"rel", "./x", "", "/x/bad"} {
		got, err := d.WithStateDir(dir, check)
		if err == nil {
			t.Errorf("%q: taken", dir)
		}
		if s, _ := got.State(); s.Named || s.Dir != "/h/.local/state/rootpick" {
			t.Errorf("%q: refused, yet the state folder is %+v", dir, s)
		}
	}
	if len(checked) != 1 {
		t.Errorf("the check saw %q; a relative folder must be refused before it", checked)
	}
	got, err := d.WithStateDir("/x/../state/", check)
	if s, _ := got.State(); err != nil || s != (State{Dir: "/state", Named: true}) {
		t.Errorf("WithStateDir = %+v, %v", s, err)
	}
	if got.NonDefaultState() != "/state" {
		t.Errorf("NonDefaultState = %q", got.NonDefaultState())
	}
}

type testRefusal struct{}

func (*testRefusal) Error() string { return "refused" }
