package ui

import (
	"strings"
	"testing"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/ui/sharing"
)

// TestEarlyKeysOneQueueKeepsOrder: the keys that wait for the query's
// result and those that wait for the review's dialog are one queue, in
// the order pressed. A tab held for the query, then (the review kept
// while a change was applied now being built) an n and an x typed for the
// dialog: the query's result releases none of them to the list, and when
// the dialog opens it gets tab, then n, which cancels it, and x goes on
// to the query. In any other order the x is lost in the dialog or the n
// types into the query.
func TestEarlyKeysOneQueueKeepsOrder(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.filterSyncMax = 0 // every list counts as large: the query is matched off the loop
	api := mkRoot("/work/demo/api")
	openDialog(t, m, api)
	send(m, "y")
	send(m, "enter") // applying: the review is kept for when api is served
	results := filterResults(send(m, "w"))
	send(m, "tab") // waits for w's result
	m.Update(rootsServedMsg{roots: []consent.Root{api}})
	if m.review.sh.Phase() != sharing.Preparing {
		t.Fatalf("served: phase %v, want the kept review preparing", m.review.sh.Phase())
	}
	send(m, "n", "x") // wait for the dialog, behind the tab
	for _, r := range results {
		m.Update(r)
	}
	if len(m.early.msgs) != 3 || m.picker.CheckedCount() != 0 || m.filter.Value() != "w" {
		t.Fatalf("w's result came while the review was built: %d keys wait, checked %v, query %q; want tab, n, x waiting for the dialog",
			len(m.early.msgs), m.picker.Checked(), m.filter.Value())
	}
	m.Update(proposalMsg{proposed: plainItems("/work/demo/api", "/work/demo/web")})
	if m.review.sh.Dialog() != nil || m.early.waiting() || m.filter.Value() != "wx" || m.picker.CheckedCount() != 0 {
		t.Fatalf("the dialog opened on tab, n, x: open %v, %d wait, query %q, checked %v; want it cancelled by n and x typed after it",
			m.review.sh.Dialog() != nil, len(m.early.msgs), m.filter.Value(), m.picker.Checked())
	}
}

// TestEarlyKeysOneBound: while a review is built, exactly earlyKeysMax
// keys wait, the same bound as for a query's result; the next is dropped
// and the note says so, and none reaches the list before those pressed
// earlier. When the review turns out to change nothing, they go to the
// list in order.
func TestEarlyKeysOneBound(t *testing.T) {
	m := fixture(t, demoRepos()...)
	send(m, "enter") // takes the highlighted row and builds its review
	if m.review.sh.Phase() != sharing.Preparing {
		t.Fatalf("enter: phase %v, want preparing", m.review.sh.Phase())
	}
	send(m, "ctrl+x") // unchecks everything: the review will change nothing
	for range earlyKeysMax - 1 {
		send(m, "x")
	}
	if len(m.early.msgs) != earlyKeysMax || m.filter.Value() != "" || strings.Contains(m.status.note, "dropped") {
		t.Fatalf("%d keys wait, query %q, note %q; want %d waiting, none typed, none dropped",
			len(m.early.msgs), m.filter.Value(), m.status.note, earlyKeysMax)
	}
	send(m, "y")
	if len(m.early.msgs) != earlyKeysMax || m.filter.Value() != "" || !strings.Contains(m.status.note, "dropped") {
		t.Fatalf("key %d: %d wait, query %q, note %q; want it dropped and the note saying so",
			earlyKeysMax+1, len(m.early.msgs), m.filter.Value(), m.status.note)
	}
	m.Update(proposalMsg{}) // nothing to change: no dialog
	if m.review.sh.Dialog() != nil || m.early.waiting() || m.picker.CheckedCount() != 0 || m.filter.Value() != strings.Repeat("x", earlyKeysMax-1) {
		t.Fatalf("no dialog: open %v, %d wait, checked %v, query %q; want ctrl+x then the x's on the list",
			m.review.sh.Dialog() != nil, len(m.early.msgs), m.picker.Checked(), m.filter.Value())
	}
}
