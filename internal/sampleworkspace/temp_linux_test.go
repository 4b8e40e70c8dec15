//go:build linux

package sampleworkspace

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/rootpick/rootpick/internal/procinfo"
)

// TestSweepTemp: the next demo removes the folders of demos that are gone
// (killed before their clean-up) and nothing else: not a live demo's, not
// one whose pid was reused by a later process, not a kept one (no owner),
// not a link named like a demo folder, not another user's, not a folder
// named otherwise.
func TestSweepTemp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	// A process that has ended: its pid names no process (pids are not
	// reused this soon).
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := gone.ProcessState.Pid()
	self := os.Getpid()
	plant := func(name, owner string) string {
		t.Helper()
		dir := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Join(dir, "src", "repo"), 0o700); err != nil {
			t.Fatal(err)
		}
		if owner != "" {
			if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	orphan := plant(tempPrefix+"dead", fmt.Sprintf("%d %s\n", dead, "12345"))
	orphanNoStart := plant(tempPrefix+"dead-nostart", strconv.Itoa(dead)+"\n")
	reused := plant(tempPrefix+"reused", fmt.Sprintf("%d 1\n", self)) // self started later than tick 1
	live := plant(tempPrefix+"live", fmt.Sprintf("%d %s\n", self, procinfo.StartTime(self)))
	kept := plant(tempPrefix+"kept", "")
	// A demo in another PID namespace sharing /tmp: its pid means
	// nothing here, so its folder stays.
	elsewhere := plant(tempPrefix+"elsewhere", fmt.Sprintf("%d 1 %s9\n", dead, procinfo.PIDNamespace()))
	other := plant("not-a-demo", fmt.Sprintf("%d 1\n", dead))
	garbage := plant(tempPrefix+"garbage", "not a pid\n")
	target := plant("target", fmt.Sprintf("%d 1\n", dead))
	link := filepath.Join(tmp, tempPrefix+"link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	var foreign string
	if os.Geteuid() == 0 {
		foreign = plant(tempPrefix+"foreign", fmt.Sprintf("%d 1\n", dead))
		if err := os.Chown(foreign, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}

	removed, err := SweepTemp()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(removed)
	if want := []string{orphan, orphanNoStart, reused}; !slices.Equal(removed, want) {
		t.Errorf("swept %q, want %q", removed, want)
	}
	for _, d := range []string{orphan, orphanNoStart, reused} {
		if _, err := os.Lstat(d); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", d, err)
		}
	}
	for _, d := range []string{live, kept, elsewhere, other, garbage, target, link, foreign} {
		if d == "" {
			continue
		}
		if _, err := os.Lstat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
	if _, err := os.Stat(filepath.Join(target, "src", "repo")); err != nil {
		t.Errorf("the folder behind the link lost its content: %v", err)
	}
}

// TestMakeTempOwner: a demo's folder is private and names this process,
// alive, so the sweep leaves it; a kept one names no owner.
func TestMakeTempOwner(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir, err := MakeTemp(false)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the folder is %v (%v), want 0700", st.Mode(), err)
	}
	if orphaned(dir) {
		t.Error("this process's folder is taken for an orphan")
	}
	if removed, _ := SweepTemp(); len(removed) != 0 {
		t.Errorf("a live demo's folder was swept: %q", removed)
	}
	keptDir, err := MakeTemp(true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(keptDir, ownerFile)); !os.IsNotExist(err) {
		t.Errorf("a kept folder has an owner file (%v): it could be swept", err)
	}
}
