package consent

import (
	"os/user"
	"path/filepath"
	"testing"
)

// TestRiskHomeIgnoresRelativeHome: a relative HOME never makes the current
// folder the home folder that risks are judged against; the user
// database's home folder stands in (the rule itself: internal/paths).
func TestRiskHomeIgnoresRelativeHome(t *testing.T) {
	u, err := user.Current()
	if err != nil || !filepath.IsAbs(u.HomeDir) {
		t.Skipf("the user database names no home folder: %v", err)
	}
	for _, home := range []string{"rel", "./x", "", "."} {
		t.Setenv("HOME", home)
		if env := DefaultEnv("/x"); env.Home != canonical(u.HomeDir) {
			t.Errorf("HOME=%q: risk is judged against home %q", home, env.Home)
		}
	}
}
