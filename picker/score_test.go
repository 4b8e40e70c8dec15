package picker

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unsafe"

	"github.com/rootpick/rootpick/vcsdetect"
)

// TestMatcherAgreesWithItsPositions: on paths with separators, camel
// case, repeats, non-ASCII letters, NULs and invalid UTF-8, a term matches exactly when
// its letters appear in order ignoring case; then the highlighted
// offsets are ascending byte offsets of those letters, one a letter, and
// lie in the name when the score says the name holds the best alignment,
// which it says exactly when the name alone scores as well.
func TestMatcherAgreesWithItsPositions(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "e", "p", "A", "B", "P", "/", "-", "_", " ", ".", "\\", "é", "É", "ß", "K", "k", "\u212a", "x", "\x00", "1", "\xff"}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rnd.IntN(len(alphabet))])
		}
		return b.String()
	}
	hay := []string{"", "a", "payments-service/legacy main", "PaymentsService", "The Black Knight", "app-0/assets-1 main"}
	for range 2000 {
		hay = append(hay, word(1+rnd.IntN(30)))
	}
	// Past fzf's slab (length × pattern over 102,400), its greedy matcher
	// scores one alignment, not the best.
	// A prefix of x and - leaves the other letters to the name.
	long := strings.Repeat("x-", 30000) + "/"
	hay = append(hay, long+"p-a-y_pay", long+"a_b-ab")
	for range 4 {
		hay = append(hay, long+word(4+rnd.IntN(12)))
	}
	patterns := []string{"a", "p", "pay", "ps", "tk", "ab", "é", "É", "k", "aa", "pe/", "a-b", "ß"}
	for range 200 {
		// A query holds neither spaces (they split terms) nor control
		// characters (the UI keeps them out).
		if p := strings.NewReplacer(" ", "", "\x00", "").Replace(word(1 + rnd.IntN(4))); p != "" {
			patterns = append(patterns, p)
		}
	}
	m := newMatcher()
	defer m.done()
	for _, p := range patterns {
		pat := pattern(p)
		for _, h := range hay {
			lo, hi := lastSegment(h), len(h)
			if i := strings.LastIndexByte(h, ' '); i > lo {
				hi = i // as if the rest were the branch
			}
			sc, ok := m.score(pat, h, lo, hi)
			if want := inOrderFold(pat, h); ok != want {
				t.Fatalf("%q in %q: matched %v, letters in order %v", p, h, ok, want)
			}
			pos := m.positions(pat, h, lo, hi)
			if !ok {
				if pos != nil {
					t.Fatalf("%q in %q: no match, offsets %v", p, h, pos)
				}
				continue
			}
			if len(pos) != len(pat) {
				t.Fatalf("%q in %q: offsets %v", p, h, pos)
			}
			for k, o := range pos {
				c, at := runeAt(h, o)
				if !at || k > 0 && o <= pos[k-1] || unicode.ToLower(c) != pat[k] {
					t.Fatalf("%q in %q: offsets %v (letter %d is %q)", p, h, pos, k, c)
				}
			}
			inName := sc%nameWeight == 1
			if inName && (pos[0] < lo || pos[len(pos)-1] >= hi) {
				t.Fatalf("%q in %q: scored in the name %q, highlighted %v", p, h, h[lo:hi], pos)
			}
			// In the name exactly when the name alone scores as well.
			full, _, _, _ := m.match(pat, h)
			name, _, _, nok := m.match(pat, h[lo:hi])
			if want := nok && name == full; inName != want {
				t.Fatalf("%q in %q: in the name %q %v, want %v (scores %d, %d)", p, h, h[lo:hi], inName, want, full, name)
			}
		}
	}
}

// inOrderFold reports that the runes of pat (lower case) appear in s in
// order, ignoring case.
func inOrderFold(pat []rune, s string) bool {
	k := 0
	for _, c := range s {
		if k < len(pat) && unicode.ToLower(c) == pat[k] {
			k++
		}
	}
	return k == len(pat)
}

// runeAt is the rune that starts at byte i of s, if one does.
func runeAt(s string, i int) (rune, bool) {
	for j, c := range s {
		if j == i {
			return c, true
		}
	}
	return 0, false
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
