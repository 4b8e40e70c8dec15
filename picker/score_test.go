package picker

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/rootpick/rootpick/vcsdetect"
	"github.com/sahilm/fuzzy"
)

// TestScoreAgreesWithSahilmFuzzy: score gives the matches and the scores
// of github.com/sahilm/fuzzy, whose ranking the filter keeps, on paths
// with separators, camel case, repeats, non-ASCII letters and NULs.
func TestScoreAgreesWithSahilmFuzzy(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "e", "p", "A", "B", "P", "/", "-", "_", " ", ".", "\\", "é", "É", "ß", "K", "k", "\u212a", "x", "\x00", "1"}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rnd.IntN(len(alphabet))])
		}
		return b.String()
	}
	hay := []string{"", "a", "payments-service/legacy main", "PaymentsService", "The Black Knight", "app-0/assets-1 main"}
	for range 3000 {
		hay = append(hay, word(1+rnd.IntN(30)))
	}
	patterns := []string{"a", "p", "pay", "ps", "tk", "ab", "é", "É", "k", "aa", "pe/", "a-b", "ß"}
	for range 300 {
		p := strings.ReplaceAll(word(1+rnd.IntN(4)), "\x00", "")
		if p != "" {
			patterns = append(patterns, p)
		}
	}
	for _, p := range patterns {
		want := map[int]int{}
		for _, m := range fuzzy.FindNoSort(p, hay) {
			want[m.Index] = m.Score
		}
		pat := []rune(p)
		for i, h := range hay {
			sc, ok := score(pat, h)
			ws, wok := want[i]
			if ok != wok || ok && sc != ws {
				t.Fatalf("pattern %q in %q: score %d, matched %v; sahilm/fuzzy: %d, %v", p, h, sc, ok, ws, wok)
			}
		}
	}
}

// TestRowsRoundTrip: a repository comes back from its packed row as it
// went in, whatever its fields, and its haystack is Haystack's.
func TestRowsRoundTrip(t *testing.T) {
	repos := []vcsdetect.Repo{
		{Path: "/w", Name: "w", Kind: vcsdetect.KindGit, Branch: "main"},
		{Path: "/w/a", Name: "a", Kind: vcsdetect.KindProject, Marker: "go.mod", Depth: 1},
		{Path: "/w/b c", Name: "b c", Kind: vcsdetect.KindBroken, Reason: "why", Depth: 1},
		{Path: "/w/x/y", Name: "other", Kind: "future", Branch: "feature/x y", Depth: 2},
		{Path: "/elsewhere/z", Name: "z", Kind: vcsdetect.KindHg, Branch: "default"},
		{Path: "/w/", Name: "", Kind: vcsdetect.KindSvn},
	}
	for _, base := range []string{"/w", "/w/", "", "/elsewhere"} {
		var extras []extra
		for _, r := range repos {
			w := newRow(base, r, rowText(r), &extras)
			if got := w.repo(extras); got != r {
				t.Fatalf("base %q: %+v came back as %+v", base, r, got)
			}
			if got, want := w.hayOf(), Haystack(base, r); got != want {
				t.Fatalf("base %q: haystack of %s is %q, want %q", base, r.Path, got, want)
			}
		}
	}
}

// TestPackTexts: the packed strings are the rows' texts, in blocks.
func TestPackTexts(t *testing.T) {
	var repos []vcsdetect.Repo
	for i := range 5000 {
		r := vcsdetect.Repo{Path: "/w/" + strings.Repeat("x", i%200) + fmt.Sprint(i)}
		if i%3 != 0 {
			r.Branch = strings.Repeat("b", i%7+1)
		}
		if i == 77 {
			r.Path = "/w/" + strings.Repeat("long", textBlock/8)
		}
		repos = append(repos, r)
	}
	idx := []int{4, 2, 77, 9}
	for i := 10; i < len(repos); i += 2 {
		idx = append(idx, i)
	}
	out := make([]string, len(idx))
	packTexts(repos, idx, out)
	blocks := 0 // texts that do not follow the one before in memory
	for k, i := range idx {
		if out[k] != rowText(repos[i]) {
			t.Fatalf("text %d is %q, want %q", k, out[k], rowText(repos[i]))
		}
		if k == 0 || uintptr(unsafe.Pointer(unsafe.StringData(out[k]))) != uintptr(unsafe.Pointer(unsafe.StringData(out[k-1])))+uintptr(len(out[k-1])) {
			blocks++
		}
	}
	// About 300 KB of text: 64 KB blocks, and the long path alone.
	if blocks < 5 || blocks > 10 {
		t.Fatalf("%d blocks for %d texts", blocks, len(idx))
	}
}
