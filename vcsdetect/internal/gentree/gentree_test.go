//go:build unix

package gentree

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// The benchmarks reuse trees generated earlier and compare runs across
// commits: a Spec without Short must keep giving the tree it gave before
// Short was added.
func TestTreeUnchanged(t *testing.T) {
	m, err := Generate(filepath.Join(t.TempDir(), "t"), Spec{Dirs: 2000, Repos: 300, Heavy: 0.3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	const want = "21fe068d0285236c8e208e65c420f2a9c1ca6df35aa17fd9b4484a9b9d8a9ee7"
	if got := fmt.Sprintf("%x", sha256.Sum256([]byte(fmt.Sprint(m)))); got != want {
		t.Errorf("the manifest of the same Spec changed: sha256 %s, was %s (%d folders, %d entries)", got, want, m.Dirs, len(m.Entries))
	}
}

// Short trees have relative paths of about 20 characters, long ones
// several times that.
func TestShortPaths(t *testing.T) {
	mean := func(short bool) float64 {
		m, err := Generate(filepath.Join(t.TempDir(), "t"), Spec{Dirs: 2000, Repos: 1000, Seed: 4, Short: short})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range m.Entries {
			n += utf8.RuneCountInString(e.Rel)
		}
		return float64(n) / float64(len(m.Entries))
	}
	short, long := mean(true), mean(false)
	t.Logf("mean relative path: short %.1f, long %.1f characters", short, long)
	if short < 12 || short > 26 {
		t.Errorf("short paths are %.1f characters on average, want about 20", short)
	}
	if long < 2*short {
		t.Errorf("long paths (%.1f) are not much longer than short ones (%.1f)", long, short)
	}
}
