package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestUsageErrorsExit2(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{dir, dir},
		{"list", dir, dir},
		{"--server", " ", dir},
		{"--no-such-flag"},
		{"serve-demo", "extra"},
	} {
		var ee exitError
		err := run(args, io.Discard, io.Discard)
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("%q: %v, want exit 2", args, err)
		}
	}
	var ee exitError
	if err := run([]string{"--help"}, io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 0 {
		t.Errorf("--help: %v, want exit 0", err)
	}
}

// TestPickScanFlags: the picker takes the walk's flags, as list does.
func TestPickScanFlags(t *testing.T) {
	c, _, err := parse([]string{"--all", "--skip", "build", "--skip", "out", "--follow", "--one-file-system", "dir"}, &env{stdout: io.Discard, stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	o := c.Pick
	if !o.All || !o.Follow || !o.OneFileSystem || strings.Join(o.Skip, ",") != "build,out" || o.Dir != "dir" {
		t.Fatalf("options %+v", o)
	}
}

// TestStateDirRefusals: --state-dir must name an absolute folder that is
// absent or already private; a relative one, or a folder open to others,
// ends the command with exit 2 and the reason, and the folder keeps its
// mode (rootpick changes no folder it did not make).
func TestStateDirRefusals(t *testing.T) {
	// Each is refused before the process-wide state folder is set, so
	// nothing leaks into the other tests.
	loose := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(loose, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(loose, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ dir, want string }{
		{"state", `"state" is a relative path`},
		{"./x/../state", "is a relative path"},
		{loose, "chmod 700"},
	} {
		var ee exitError
		err := run([]string{"proxy", "--state-dir", tc.dir, "--", "true"}, io.Discard, io.Discard)
		if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(ee.msg, tc.want) {
			t.Errorf("--state-dir %s: %v %q, want exit 2 saying %q", tc.dir, err, ee.msg, tc.want)
		}
	}
	if runtime.GOOS != "windows" {
		if st, err := os.Stat(loose); err != nil || st.Mode().Perm() != 0o755 {
			t.Errorf("the loose folder is now %v (%v), want it left 0755", st.Mode(), err)
		}
	}
}

// TestTopHelpHasNoRepeats: 'rootpick --help' shows the default command's
// arguments and flags after the commands, but says nothing twice: one
// Examples block, the global flags once, the pick summary once (it was
// 125 lines with the global flags and the examples twice).
func TestTopHelpHasNoRepeats(t *testing.T) {
	var out bytes.Buffer
	var ee exitError
	if err := run([]string{"--help"}, &out, io.Discard); err != nil && (!errors.As(err, &ee) || ee.code != 0) {
		t.Fatal(err)
	}
	h := out.String()
	for _, once := range []string{"Examples:", "-h, --help", "--config=FILE", "Pick repositories, ask for consent", "--print-format=FORMAT", "--state-dir=DIR"} {
		if n := strings.Count(h, once); n != 1 {
			t.Errorf("--help has %q %d times, want once", once, n)
		}
	}
	if !strings.Contains(h, "The default command, pick") || !strings.Contains(h, "[<dir>]") {
		t.Errorf("--help lacks the default command's arguments:\n%s", h)
	}
}
