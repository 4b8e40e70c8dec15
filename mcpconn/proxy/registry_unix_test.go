//go:build unix

package proxy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rootpick/rootpick/internal/paths"
)

// TestRegisterProxyKeepsANamedStateFolder: a proxy registers in the state
// folder --state-dir named without ever changing it: one that has become
// open to others is refused and left as it is, while rootpick's default
// state folder, found loose, is tightened to 0700.
func TestRegisterProxyKeepsANamedStateFolder(t *testing.T) {
	for _, named := range []bool{true, false} {
		state := filepath.Join(tempDir(t), "state")
		if err := os.Mkdir(state, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(state, 0o755); err != nil {
			t.Fatal(err)
		}
		err := Register(paths.State{Dir: state, Named: named}, Entry{PID: os.Getpid(), Profile: "default"})
		st, _ := os.Stat(state)
		switch {
		case named && (err == nil || st.Mode().Perm() != 0o755):
			t.Errorf("named: Register = %v and the folder is %v; want a refusal and 0755 kept", err, st.Mode())
		case !named && (err != nil || st.Mode().Perm() != 0o700):
			t.Errorf("default: Register = %v and the folder is %v; want it tightened to 0700", err, st.Mode())
		}
	}
}
