//go:build unix

package logfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rootpick/rootpick/internal/paths"
)

// TestOpenKeepsANamedStateFolder: the log in a state folder --state-dir
// named never changes that folder: one open to others is refused and left
// as it is (the default state folder is tightened: TestOpenLogTightensModes).
func TestOpenKeepsANamedStateFolder(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Open("", paths.State{Dir: state, Named: true}, false); err == nil {
		t.Error("the log was opened in a named state folder open to others")
	}
	if st, _ := os.Stat(state); st.Mode().Perm() != 0o755 {
		t.Errorf("the named state folder was changed to %v", st.Mode())
	}
}
