package ui

import (
	"fmt"
	"image/color"
	"math/rand/v2"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rootpick/rootpick/vcsdetect"
)

// The list keeps each drawn row (and each drawn set of branch marks) while
// nothing it is drawn from changes.
// After every step of a random session (keys, checks, a query typed and
// erased, facts arriving, a new theme, a new width) the list draws exactly
// what a list that keeps nothing draws.
func TestKeptRowsAreTheRowsDrawnAgain(t *testing.T) {
	var repos []vcsdetect.Repo
	for i := range 80 {
		repos = append(repos, repo(fmt.Sprintf("group-%d/service-%02d", i%7, i), []string{"main", "feature/x", ""}[i%3]))
	}
	m := fixture(t, repos...)
	rng := rand.New(rand.NewPCG(7, 27))
	keys := []string{"down", "down", "down", "up", "space", "tab", "s", "e", "1", "backspace", "pgdown", "pgup"}
	kept, moved := 0, 0
	for step := range 1500 {
		cursor := m.picker.Cursor()
		switch n := rng.IntN(20); {
		case n < 14:
			k := keys[rng.IntN(len(keys))]
			if len(m.filter.Value()) > 1 {
				k = "backspace" // a short query, that most rows match
			}
			cmd := send(m, k)
			if len(k) == 1 || k == "backspace" { // the query's result, as the program would deliver it
				for rs := filterResults(cmd); len(rs) > 0; {
					var next []filterResultMsg
					for _, r := range rs {
						_, c := m.Update(r)
						next = append(next, filterResults(c)...)
					}
					rs = next
				}
			}
		case n < 17:
			r := repos[rng.IntN(len(repos))]
			det := vcsdetect.Details{State: []string{vcsdetect.StateClean, vcsdetect.StateDirty, vcsdetect.StateUnknown}[rng.IntN(3)],
				Ahead: rng.IntN(3), Behind: rng.IntN(2)}
			m.Update(factsMsg{pool: m.facts.pool, results: []vcsdetect.Result[repoFacts]{{Repo: r, Value: repoFacts{det: det}}}})
		case n < 18:
			var bg color.Color = color.White
			if rng.IntN(2) == 0 {
				bg = color.Black
			}
			m.Update(tea.BackgroundColorMsg{Color: bg})
		default:
			m.Update(tea.WindowSizeMsg{Width: []int{60, 80, 120, 200}[rng.IntN(4)], Height: 24})
		}
		before := len(m.list.drawn)
		got := m.list.View(m.listFrame())
		fresh := m.list
		fresh.drawn, fresh.markCells = nil, nil
		if want := fresh.View(m.listFrame()); got != want {
			t.Fatalf("step %d: the kept rows differ from rows drawn again:\n%q\nwant\n%q", step, got, want)
		}
		if before > 0 {
			kept++
		}
		if m.picker.Cursor() != cursor {
			moved++
		}
	}
	if kept < 1000 || moved < 200 {
		t.Errorf("the list kept rows in only %d steps, and the cursor moved in %d: the session does not exercise the kept rows", kept, moved)
	}
}
