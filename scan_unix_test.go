//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rootpick/rootpick/internal/testskip"
)

// TestUnreadableFolderIsOneLine: a folder that cannot be listed fails
// before anything opens, in one line that names it and says why (no
// package's name), as a missing one does: exit 1 for the picker and list.
func TestUnreadableFolderIsOneLine(t *testing.T) {
	testskip.SkipAsRoot(t)
	dir := filepath.Join(t.TempDir(), "locked")
	if err := os.Mkdir(dir, 0o000); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o700) })
	_, err := dirArg([]string{dir})
	if err == nil || err.Error() != `cannot scan "`+dir+`": permission denied` {
		t.Errorf("an unreadable folder: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "vcsdetect") {
		t.Errorf("the message names a package: %v", err)
	}
}
