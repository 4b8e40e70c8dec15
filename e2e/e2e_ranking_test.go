package e2e

import (
	"strings"
	"testing"
)

// TestE2ERankingLikeFzf: in the built binary, on the demo's sample
// workspace, a query puts first the row fzf puts first (issue 27: the
// leftmost-greedy matcher ranked every services/* row alike). Each
// query is typed afresh (ctrl+u) and the first row is read off the
// screen.
func TestE2ERankingLikeFzf(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tt, _ := startDemo(t, nil)
	tt.waitFor("the sample workspace listed", func(s string) bool {
		return len(listRows(s)) > 20 && !strings.Contains(s, "scanning")
	})
	for q, first := range map[string]string{
		"sec":  "services/secrets-api",
		"secr": "services/secrets-api",
		"svc":  "services/auth-svc",
		"api":  "services/secrets-api",
		"ts":   "libs/ts-utils",
		"k8s":  "infra/k8s-manifests",
	} {
		tt.send("C-u")
		tt.send("-l", q)
		s := tt.waitFor("the result of "+q, func(s string) bool {
			lines := strings.Split(s, "\n")
			return len(lines) > 1 && strings.TrimSpace(lines[1]) == "/ "+q && len(listRows(s)) > 0 // matched: no "…"
		})
		if rows := listRows(s); rows[0].label() != first {
			t.Errorf("%q: first row %q, want %q (as fzf)\n%s", q, rows[0].label(), first, describeRows(rows))
		}
	}
	tt.send("C-u")
	tt.quit()
}
