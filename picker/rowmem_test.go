package picker

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/rootpick/rootpick/vcsdetect"
)

// rowBytesMax is what a listed row may keep on the heap: 50,000 rows of
// ~/src-like paths (/home/me/src/org12/repo4711, branch main), fed in
// the scan's batches and sorted. Measured 6 Dec 2026: 86 bytes a row
// (the packed path and branch, the row, its two order entries, and the
// slices' headroom). docs/performance.md, "Bytes per row".
const rowBytesMax = 95

// The rows cost what they must: a row added to the list keeps no more
// than rowBytesMax bytes of heap (the heap after a collection, not a
// time).
func TestRowBytes(t *testing.T) {
	const n = 50000
	repos := make([]vcsdetect.Repo, n)
	for i := range repos {
		repos[i] = vcsdetect.Repo{Path: fmt.Sprintf("/home/me/src/org%d/repo%d", i%40, i), Kind: vcsdetect.KindGit, Branch: "main"}
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	s := new(State)
	s.SetBase("/home/me/src")
	for i := 0; i < n; i += 512 {
		s.AddAll(repos[i:min(i+512, n)])
	}
	after := heap()
	runtime.KeepAlive(s)
	runtime.KeepAlive(repos) // the input is not the rows' cost
	per := float64(after-before) / n
	t.Logf("%.0f bytes a row kept (%d rows)", per, n)
	if per > rowBytesMax {
		t.Errorf("a row keeps %.0f bytes of heap, more than %d: the row grew (docs/performance.md, Bytes per row)", per, rowBytesMax)
	}
}
