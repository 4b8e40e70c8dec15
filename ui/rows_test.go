package ui

import (
	"math/rand"
	"testing"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/vcsdetect"
)

// TestCountsKeptByToggleEqualRecount: the header's tally, updated by the
// difference on each toggle, equals a count from scratch, over random
// toggles of nested folders with some of them shared.
func TestCountsKeptByToggleEqualRecount(t *testing.T) {
	rels := []string{"a", "a/b", "a/b/c", "a/b/c/d", "a/x", "a-b", "b", "b/c", "b/c/d", "c"}
	var repos []vcsdetect.Repo
	for _, r := range rels {
		repos = append(repos, repo(r, "main"))
	}
	rng := rand.New(rand.NewSource(1))
	for round := range 20 {
		m := fixture(t, repos...)
		var exposed []consent.Root
		for _, r := range rels {
			if rng.Intn(4) == 0 {
				exposed = append(exposed, mkRoot("/work/demo/"+r))
			}
		}
		m.sh.served = exposed
		m.sh.remembered, m.sh.withdrawn = map[string]bool{}, map[string]string{}
		for _, r := range rels {
			switch rng.Intn(5) {
			case 0:
				m.sh.remembered["/work/demo/"+r] = true
			case 1:
				m.sh.withdrawn["/work/demo/"+r] = "gone"
			}
		}
		_ = m.pendingCounts() // the cache is current: toggles update it
		for step := range 40 {
			m.picker.MoveTo(rng.Intn(len(rels)))
			send(m, "space")
			got := m.counts()
			want := m.tally(m.sharedSet())
			want.key = got.key
			if got != want {
				t.Fatalf("round %d step %d: kept %+v, recounted %+v (checked %v, shared %d)",
					round, step, got, want, m.picker.Checked(), len(exposed))
			}
		}
	}
}
