package e2e

// End-to-end tests of the fzf habits of issue 17, each with the key
// sequence that changed what was consented before: the real binary in
// tmux, the built-in demo server recording what it was served.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// habitsTree is a small workspace with the names the issue was found on.
func habitsTree(t *testing.T) string {
	t.Helper()
	tree := makeRepos(t, t.TempDir(),
		"archive/2021/old-payments", "services/payouts", "services/payments-svc", "services/secrets-api",
		"web/web-frontend", "infra/terraform",
		"libs/a-library-with-an-exceptionally-long-name-that-nobody-would-type-twice-v2-final")
	if err := os.WriteFile(filepath.Join(tree, "services/secrets-api/.env"), []byte("TOKEN=x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return tree
}

// habitsTUI starts rootpick on habitsTree at width×30 with serve-demo
// recording what it is served, and waits for the rows.
func habitsTUI(t *testing.T, width int) (tt *tui, tree, rec string) {
	t.Helper()
	bin := rootpickBin(t)
	tree = habitsTree(t)
	rec = filepath.Join(t.TempDir(), "roots.jsonl")
	tt = startTUI(t, tuiOptions{width: width, height: 30, args: []string{tree, "--allow-write", filepath.Dir(rec), "--", bin, "serve-demo", "--record", rec}})
	tt.waitRows(7)
	return tt, tree, rec
}

// query types q into the list and waits until it shows n rows.
func (tt *tui) query(q string, n int) {
	tt.t.Helper()
	tt.send("-l", q)
	tt.waitFor(fmt.Sprintf("%s showing %d rows", q, n), func(s string) bool { return len(listRows(s)) == n })
}

// served is the last roots list the demo server recorded, as paths.
func served(t *testing.T, rec string) []string {
	t.Helper()
	var out []string
	all := readRec(t, rec)
	if len(all) == 0 {
		return nil
	}
	for _, uri := range all[len(all)-1].uris() {
		out = append(out, strings.TrimPrefix(uri, "file://"))
	}
	slices.Sort(out)
	return out
}

// TestE2EHabitsQueryTakesBestMatch: "pay ⇥" checks the best match, and
// "paysvc ⇥ ^U webfr ⇥ ^U terra ⇥" checks exactly those three (issue 17,
// 1: the highlight stayed on the old row; 8: one enter from the query
// reviews).
func TestE2EHabitsQueryTakesBestMatch(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tt, tree, rec := habitsTUI(t, 120)
	tt.send("Down") // the highlight on archive/2021/old-payments…
	tt.send("-l", "pay")
	tt.waitFor("pay matched, its best match highlighted", func(s string) bool {
		r := listRows(s)
		return len(r) >= 2 && r[0].cursor && !strings.Contains(filterLineOf(s), "…")
	})
	tt.send("Tab", "C-u")
	tt.send("-l", "paysvc")
	tt.waitFor("paysvc", func(s string) bool { r := listRows(s); return len(r) >= 1 && r[0].cursor })
	tt.send("Tab", "C-u")
	tt.send("-l", "web-front")
	tt.waitFor("web-front", func(s string) bool { r := listRows(s); return len(r) == 1 && r[0].cursor })
	tt.send("Tab", "C-u")
	tt.send("-l", "terra")
	tt.waitFor("terra", func(s string) bool { r := listRows(s); return len(r) == 1 && r[0].cursor })
	tt.send("Tab", "Enter")
	tt.waitArmed(4, 0)
	tt.send("y")
	tt.waitStatus("4 roots exposed", "verified")
	want := []string{"infra/terraform", "services/payments-svc", "services/payouts", "web/web-frontend"}
	for i := range want {
		want[i] = filepath.Join(tree, want[i])
	}
	if got := served(t, rec); !slices.Equal(got, want) {
		t.Errorf("the server was served %v, want %v", got, want)
	}
	tt.quit()
}

// TestE2EHabitsTypingOnlyFilters: whole words typed in the list check
// nothing, sort nothing and rescan nothing (issue 17, 2).
func TestE2EHabitsTypingOnlyFilters(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := habitsTree(t)
	tt := startTUI(t, tuiOptions{width: 100, height: 24, args: []string{tree}})
	order := tt.waitRows(7)
	for _, word := range []string{"payments", "terraform", "quit", "asrRAq"} {
		tt.send("C-u")
		tt.send("-l", word)
		s := tt.waitText("/ " + word)
		if !strings.Contains(firstLine(s), "0 checked") {
			t.Fatalf("typing %q checked rows:\n%s", word, s)
		}
	}
	tt.send("C-u")
	s := tt.waitFor("all 7 rows back", func(s string) bool { return len(listRows(s)) == 7 })
	for i, r := range listRows(s) {
		if r.checked {
			t.Errorf("a typed word checked %s", r.label())
		}
		if a, b := r.label(), order[i].label(); a[:min(len(a), 12)] != b[:min(len(b), 12)] {
			t.Errorf("a typed word re-sorted the rows: row %d is %s, was %s", i, r.label(), order[i].label())
		}
	}
	tt.quit()
}

// TestE2EHabitsRowsKeepStateAndRisk: with a very long name in the tree,
// a checked row shows + add and the risky row ⚠ secrets at every size
// (issue 17, 3 and 4).
func TestE2EHabitsRowsKeepStateAndRisk(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tree := habitsTree(t)
	for _, size := range [][2]int{{60, 15}, {80, 24}, {120, 35}} {
		tt := startTUI(t, tuiOptions{width: size[0], height: size[1], args: []string{tree}})
		tt.waitRows(7)
		tt.send("-l", "secrets-api")
		tt.waitFor("secrets-api alone", func(s string) bool { return len(listRows(s)) == 1 })
		tt.send("Tab") // in a query, space separates terms; tab checks
		tt.waitFor("secrets-api checked, with its risk", func(s string) bool {
			r := listRows(s)
			return len(r) == 1 && r[0].checked && strings.Contains(r[0].text, "⚠ secrets") && strings.Contains(r[0].text, "+")
		})
		tt.quitDiscarding()
	}
}

// TestE2EHabitsDialog: enter then n at once cancels (the guard ignores
// only y and space); a warned root left out at y is named in the result
// line; the title says what y does (issue 17, 5 and 6).
func TestE2EHabitsDialog(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tt, tree, rec := habitsTUI(t, 140)
	tt.query("secrets-api", 1)
	tt.send("Tab", "C-u")
	tt.query("terra", 1)
	tt.send("Tab", "Enter", "n") // n arrives while the guard holds
	tt.waitFor("the dialog cancelled by an early n", func(s string) bool {
		return !strings.Contains(s, "Share 1 of 2 roots") && strings.Contains(s, "/ terra")
	})
	tt.send("Enter")
	s := tt.waitText("Share 1 of 2 roots with", "(1 of 2 added, 0 removed)")
	if !strings.Contains(s, "services/secrets-api") {
		t.Errorf("the dialog does not name secrets-api as the list does:\n%s", s)
	}
	tt.send("y")
	line := tt.waitStatus("1 root exposed", "verified")
	if !strings.Contains(s+line, "not shared: services/secrets-api") {
		t.Errorf("the result line does not name the root left out: %q", line)
	}
	if got := served(t, rec); !slices.Equal(got, []string{filepath.Join(tree, "infra/terraform")}) {
		t.Errorf("served %v", got)
	}
	tt.quit()
}

// TestE2EHabitsEnterRevokeQuit: enter with nothing checked reviews the
// highlighted row; ctrl+d under a filter revokes every root; ? then q
// goes back to the list; a relaunch with remembered consent quits at once
// (issue 17, 7–10).
func TestE2EHabitsEnterRevokeQuit(t *testing.T) {
	t.Parallel()
	requireE2E(t)
	tt, tree, rec := habitsTUI(t, 120)
	tt.query("web-front", 1)
	tt.send("Enter") // nothing checked: the highlighted row
	tt.waitArmed(1, 0)
	tt.send("y")
	tt.waitStatus("1 root exposed", "verified")
	tt.send("C-u", "Down", "Space") // a second root, then a filter that hides it
	tt.query("web-front", 1)
	tt.send("Enter")
	tt.waitArmed(1, 0)
	tt.send("y")
	tt.waitStatus("2 roots exposed", "verified")
	tt.send("C-d") // under the filter webfr
	tt.waitText("Stop sharing all 2 roots", "whatever the filter shows", "(0 added, 2 removed)")
	tt.send("y")
	tt.waitStatus("nothing shared")
	tt.waitFor("the server holds nothing", func(string) bool { return len(served(t, rec)) == 0 })
	tt.send("?")
	tt.waitText("Keys")
	tt.send("q")
	tt.waitText("/ web-front")
	if tt.exited() {
		t.Fatal("q in the help quit the program")
	}
	tt.quit()

	// Remembered consent is not an unsaved change: a relaunch quits at once.
	tt2 := newTUI(t)
	tt2.home, tt2.env = tt.home, tt.env // the same state folder
	tt2.start(tuiOptions{width: 120, height: 30, args: []string{tree}})
	tt2.waitRows(7)
	tt2.send("C-q")
	if code := tt2.waitExit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// quitDiscarding quits, answering the quit key again to "discard
// unconfirmed changes?" (enter would review them).
func (tt *tui) quitDiscarding() {
	tt.t.Helper()
	tt.send("C-q")
	tt.waitText("Discard")
	tt.send("C-q")
	if code := tt.waitExit(); code != 0 {
		tt.t.Fatalf("exit code %d", code)
	}
}
