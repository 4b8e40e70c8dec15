package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EKeysActOnTheQueryOnScreen: on a list of 50,000 projects, where a
// query is matched off the loop, a query and tab sent in one write check
// the one row that query shows, never a row of the result still on
// screen when tab arrived. (Typed growth-sdk-1 and tab at once: the
// header said 1 checked and nothing visible was; tab 50 ms after the
// last letter checked a row of the previous query.) Each round types a
// new name and tab in one send-keys, then looks: the one row shown is
// that name, checked, and the header counts one check more.
func TestE2EKeysActOnTheQueryOnScreen(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	const n, rounds = 50000, 40
	root := t.TempDir()
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("g%02d", i/1000), fmt.Sprintf("svc-%05d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tt := startTUI(t, tuiOptions{width: 120, height: 40, args: []string{root}})
	tt.waitFor(fmt.Sprintf("%d repos, scan done", n), func(s string) bool {
		return strings.Contains(s, fmt.Sprintf("%d repos", n)) && !strings.Contains(s, "scanning")
	})
	rng := rand.New(rand.NewPCG(27, 1))
	seen := map[int]bool{}
	for round := range rounds {
		k := rng.IntN(n)
		for seen[k] {
			k = rng.IntN(n)
		}
		seen[k] = true
		name := fmt.Sprintf("svc-%05d", k)
		tt.send("C-u") // clear the last query: the whole list again
		tt.send(name, "Tab")
		want := fmt.Sprintf("%d checked", round+1)
		s := tt.waitDrawn(fmt.Sprintf("round %d: %s shown and checked", round, name), func(s string) bool {
			return strings.Contains(s, "/ "+name) && strings.Contains(s, "1/"+fmt.Sprint(n)+" repos") && strings.Contains(s, want)
		})
		rows := listRows(s)
		if len(rows) != 1 || !rows[0].checked || !strings.Contains(rows[0].text, name) {
			t.Fatalf("round %d: the query %s shows %s: tab acted on another row", round, name, describeRows(rows))
		}
	}
	tt.send("C-u")
	tt.quitDiscarding()
}
