package e2e

// End-to-end test of fzf-style picking, with the helpers of
// e2e_tmux_test.go: the real binary in tmux, the built-in demo server.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestE2EFilterPicking picks two repositories as in fzf — type a fuzzy
// query, tab, type another, tab — then reviews (one enter) and confirms
// (y); the demo server must report exactly those two
// roots (verified) and --print must write them.
func TestE2EFilterPicking(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "payments-service", "payments-legacy", "web-frontend", "api", "tools/cli")
	out := filepath.Join(t.TempDir(), "out.json")
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{"--print", tree}, stdout: out})
	tt.waitRows(5)

	// paysvc is not a substring of anything: only a fuzzy match finds it.
	tt.send("-l", "paysvc") // typing in the list filters
	tt.waitFor("paysvc showing payments-service alone", func(s string) bool {
		r := listRows(s)
		return len(r) == 1 && r[0].label() == "payments-service" && r[0].cursor
	})
	tt.send("Tab")
	tt.waitFor("payments-service checked while typing", func(s string) bool {
		r := listRows(s)
		return len(r) == 1 && r[0].checked && strings.Contains(firstLine(s), "1 checked")
	})
	// A new query: ctrl+u clears the old one, as in a shell.
	tt.send("C-u")
	tt.send("-l", "wbfr")
	tt.waitFor("wbfr showing web-frontend alone", func(s string) bool {
		r := listRows(s)
		return len(r) == 1 && r[0].label() == "web-frontend" && !r[0].checked
	})
	tt.send("Tab")
	screen := tt.waitFor("web-frontend checked", func(s string) bool {
		r := listRows(s)
		return len(r) == 1 && r[0].checked && strings.Contains(firstLine(s), "2 checked")
	})
	if !strings.Contains(screen, "/ wbfr") {
		t.Errorf("the query is not shown while typing:\n%s", screen)
	}

	tt.send("Enter") // one enter from the query reviews
	screen = tt.waitArmed(2, 0)
	for _, want := range []string{"+ payments-service", "+ web-frontend"} {
		if !strings.Contains(screen, want) {
			t.Errorf("dialog lacks %q:\n%s", want, screen)
		}
	}
	tt.send("y")
	tt.waitStatus("2 roots exposed", "verified")
	tt.quit()

	roots := readPrinted(t, out)
	slices.SortFunc(roots, func(a, b printedRoot) int { return strings.Compare(a.Path, b.Path) })
	want := []string{filepath.Join(tree, "payments-service"), filepath.Join(tree, "web-frontend")}
	if len(roots) != len(want) {
		t.Fatalf("printed %+v, want %v", roots, want)
	}
	for i, p := range want {
		checkRoot(t, roots[i], p)
	}
}

// fakeRepos makes n folders that rootpick recognises as git repositories
// (a .git folder with a HEAD), far faster than git init, spread over 30
// team folders; it returns the tree's canonical path.
func fakeRepos(t *testing.T, n int) string {
	t.Helper()
	tree, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		git := filepath.Join(tree, fmt.Sprintf("team%d/proj-%d", i%30, i), ".git")
		if err := os.MkdirAll(filepath.Join(git, "refs", "heads"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(git, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tree
}

// TestE2EFilterLargeList picks from 3,000 repositories, a list on which
// each query is matched off the UI's update loop: the result of the last
// query must be the one shown, and what tab checks must be what is shared.
func TestE2EFilterLargeList(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := fakeRepos(t, 3000)
	out := filepath.Join(t.TempDir(), "out.json")
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{"--print", tree}, stdout: out})
	tt.waitFor("3000 repos, scan done", func(s string) bool {
		return strings.Contains(firstLine(s), "3000 repos") && !strings.Contains(s, "scanning") // the scan line goes when it is done
	})
	tt.send("-l", "proj-1234")
	tt.waitFor("team4/proj-1234 first", func(s string) bool {
		r := listRows(s)
		return len(r) > 0 && r[0].label() == "team4/proj-1234" && r[0].cursor && !strings.Contains(filterLineOf(s), "…")
	})
	tt.send("Tab")
	tt.send("C-u")
	tt.send("-l", "t7 p2227")
	tt.waitFor("team7/proj-2227 first, 1 checked", func(s string) bool {
		r := listRows(s)
		return len(r) > 0 && r[0].label() == "team7/proj-2227" && strings.Contains(firstLine(s), "1 checked")
	})
	tt.send("Tab", "Enter")
	tt.waitArmed(2, 0)
	tt.send("y")
	tt.waitStatus("2 roots exposed", "verified")
	tt.quit()
	roots := readPrinted(t, out)
	slices.SortFunc(roots, func(a, b printedRoot) int { return strings.Compare(a.Path, b.Path) })
	want := []string{filepath.Join(tree, "team4/proj-1234"), filepath.Join(tree, "team7/proj-2227")}
	if len(roots) != len(want) {
		t.Fatalf("printed %+v, want %v", roots, want)
	}
	for i, p := range want {
		checkRoot(t, roots[i], p)
	}
}

// filterLineOf is the screen's second line, where the filter's query and
// its "…" (a result still pending) are drawn.
func filterLineOf(screen string) string {
	lines := strings.Split(screen, "\n")
	if len(lines) < 2 {
		return ""
	}
	return lines[1]
}
