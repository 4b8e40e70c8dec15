package e2e

import (
	"strings"
	"testing"
)

// TestE2EPickAll: a repository inside node_modules is skipped by default
// and listed with --all.
func TestE2EPickAll(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := makeRepos(t, t.TempDir(), "app", "app/node_modules/dep")
	tt := startTUI(t, tuiOptions{width: 100, height: 20, args: []string{tree}})
	tt.waitRows(1)
	tt.quit()
	tt = startTUI(t, tuiOptions{width: 100, height: 20, args: []string{"--all", tree}})
	rows := tt.waitRows(2)
	if rows[1].label() != "app/node_modules/dep" && !strings.Contains(rows[1].text, "dep") {
		t.Fatalf("with --all the second row is %q", rows[1].text)
	}
	tt.quit()
}
