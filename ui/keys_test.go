package ui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/vcsdetect"
)

// TestTextsNameTheBoundKeys: notes, questions, the dialog and the pane
// name keys from the bindings, so a text cannot disagree with what the key
// does: with review, grant, confirm, cancel, quit-now, retry and the pane
// bound to other keys, every text names the new ones.
func TestTextsNameTheBoundKeys(t *testing.T) {
	bind := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	rebind := func(m *Model) {
		m.keys.Review = bind("f5", "review")
		m.keys.QuitNow = bind("f10", "quit")
		m.keys.Quit = key.NewBinding(key.WithKeys("esc", "f10"), key.WithHelp("esc/f10", "quit"))
		m.keys.Retry = bind("f6", "retry")
		m.keys.Rescan = bind("f3", "rescan")
		m.keys.Servers = bind("f7", "servers")
		m.dkeys.Confirm = bind("f8", "confirm")
		m.dkeys.Cancel = bind("f9", "cancel")
		m.dkeys.Grant = bind("f4", "grant")
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }

	m := fixture(t, demoRepos()...)
	rebind(m)
	m.applyRemembered(&consent.Record{Dir: "/work/demo", Roots: []consent.Root{mkRoot("/work/demo/api")}})
	if out := flat(screen(m)); !strings.Contains(out, "not shared until you confirm (f5)") {
		t.Errorf("the remembered note does not name the review key:\n%s", out)
	}

	m = fixture(t, demoRepos()...)
	rebind(m)
	send(m, "space", "f10")
	if out := flat(screen(m)); !strings.Contains(out, "y or f10 quits, f5 reviews them") {
		t.Errorf("the quit question does not name its keys:\n%s", out)
	}
	send(m, "x")
	if out := flat(screen(m)); !strings.Contains(out, "(f5 reviews them)") {
		t.Errorf("not quitting does not name the review key:\n%s", out)
	}

	m = fixture(t, demoRepos()...)
	openDialogWith(t, m, warnedItem("/work/demo", consent.WarnDir))
	rebind(m)     // (the helper checks the default key line)
	send(m, "up") // a key: the helper's "too soon" note goes
	if out := flat(screen(m)); !strings.Contains(out, "grant each with f4") || !strings.Contains(out, "f9 cancel") || strings.Contains(out, "f8 confirm") {
		t.Errorf("the dialog does not name its keys, or offers f8 that would confirm nothing:\n%s", out)
	}
	send(m, "f4")
	if out := flat(screen(m)); !strings.Contains(out, "f8 confirm f9 cancel") {
		t.Errorf("the dialog does not offer f8 once it would confirm:\n%s", out)
	}

	m = fixture(t, demoRepos()...)
	rebind(m)
	if out := flat(strings.Join(m.fleet.PaneLines(m.fleetView(), 120), "\n")); !strings.Contains(out, "f6 retries servers that are down now · q/esc or f7 goes back") {
		t.Errorf("the server pane does not name its keys:\n%s", out)
	}

	// The empty folder's screen names the rescan and quit keys.
	m = fixture(t)
	rebind(m)
	m.Update(scanBatchMsg{gen: 1, done: true})
	if out := flat(screen(m)); !strings.Contains(out, "f3 rescans · esc/f10 quits") {
		t.Errorf("the empty screen does not name its keys:\n%s", out)
	}
}

// TestQuestionsNameTheYesKey: the questions (check or uncheck every row
// shown with some off screen, discard unconfirmed changes) name their yes
// key from its binding, askYes: bound to another key, the note names that
// one, and that key answers.
func TestQuestionsNameTheYesKey(t *testing.T) {
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var repos []vcsdetect.Repo
	for i := range 40 {
		repos = append(repos, repo(fmt.Sprintf("svc-%02d", i), "main"))
	}
	for _, yes := range []string{keyName(askYes), "ctrl+y"} {
		if yes != keyName(askYes) {
			old := askYes
			askYes = key.NewBinding(key.WithKeys(yes), key.WithHelp(yes, "yes"))
			t.Cleanup(func() { askYes = old })
		}
		m := fixture(t, repos...) // 80×24: not 40 rows
		for _, ask := range []struct{ key, says string }{{"ctrl+a", "Check 40 rows?"}, {"ctrl+x", "Uncheck 40 rows?"}} {
			send(m, ask.key)
			note := flat(m.status.note)
			if m.mode() != modeAsk || !strings.Contains(note, ask.says) {
				t.Fatalf("%s with rows off screen: mode %d, note %q; want the question", ask.key, m.mode(), note)
			}
			if !strings.Contains(note, " "+yes+" does it,") {
				t.Fatalf("with yes bound to %s, %s's question says %q: it does not name %s", yes, ask.key, note, yes)
			}
			send(m, yes)
			if on := m.picker.CheckedCount() == 40; on != (ask.key == "ctrl+a") {
				t.Fatalf("%s then %s: %d checked", ask.key, yes, m.picker.CheckedCount())
			}
		}
		send(m, "space", "esc") // one unconfirmed change, then quit
		if note := flat(m.status.note); !strings.Contains(note, "? "+keyName(askDiscard)+" or "+keyName(m.keys.QuitNow)+" quits") {
			t.Fatalf("the quit question says %q: it does not name %s", note, keyName(askDiscard))
		}
	}
}
