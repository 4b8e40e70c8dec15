package ui

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/vcsdetect"
)

// TestCountsKeptByToggleEqualRecount: the header's tally, updated by the
// difference on each toggle, equals a count from scratch, over random
// toggles of nested folders with some of them shared.
func TestCountsKeptByToggleEqualRecount(t *testing.T) {
	rels := []string{"a", "a/b", "a/b/c", "a/b/c/d", "a/x", "a-b", "b", "b/c", "b/c/d", "c"}
	var repos []vcsdetect.Repo
	for _, r := range rels {
		repos = append(repos, repo(r, "main"))
	}
	rng := rand.New(rand.NewSource(1))
	for round := range 20 {
		m := fixture(t, repos...)
		var exposed []consent.Root
		for _, r := range rels {
			if rng.Intn(4) == 0 {
				exposed = append(exposed, mkRoot("/work/demo/"+r))
			}
		}
		m.review.sh.ServedNow(exposed)
		var remembered []string
		for _, r := range rels {
			switch rng.Intn(5) {
			case 0:
				remembered = append(remembered, "/work/demo/"+r)
			case 1:
				m.review.sh.Withdraw("/work/demo/"+r, "gone")
			}
		}
		m.review.sh.Remember(remembered)
		_ = m.pendingCounts() // the cache is current: toggles update it
		for step := range 40 {
			m.picker.MoveTo(rng.Intn(len(rels)))
			send(m, "space")
			got := m.counts()
			want := m.tally(m.sharedSet())
			want.key = got.key
			if got != want {
				t.Fatalf("round %d step %d: kept %+v, recounted %+v (checked %v, shared %d)",
					round, step, got, want, m.picker.Checked(), len(exposed))
			}
		}
	}
}

// TestRememberedRowsAreNotAdds: a row checked from the remembered consent
// says "↺ remembered", on its row and in the header's tally, never
// "+ add": it is not a change the person made. A row the person checks
// beside it is an add.
func TestRememberedRowsAreNotAdds(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.applyRemembered(&consent.Record{Dir: "/work/demo", Roots: []consent.Root{mkRoot("/work/demo/api")}})
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 24})
	row := func(name string) string {
		for _, l := range strings.Split(screen(m), "\n") {
			if f := strings.Fields(strings.TrimPrefix(l, "›")); len(f) > 1 && f[0] == "[x]" && f[1] == name {
				return l
			}
		}
		return ""
	}
	if r := row("api"); !strings.Contains(r, "↺ remembered") || strings.Contains(r, "+ add") {
		t.Fatalf("remembered row api = %q, want \"↺ remembered\" and no \"+ add\"\n%s", r, screen(m))
	}
	if h := firstLine(screen(m)); !strings.Contains(h, "↺1 remembered") || strings.Contains(h, "add") {
		t.Fatalf("header %q, want \"↺1 remembered\" and no add", h)
	}
	send(m, "down", "space") // api-wt: the person's own check
	if r := row("api-wt"); !strings.Contains(r, "+ add") {
		t.Fatalf("checked row api-wt = %q, want \"+ add\"", r)
	}
	if h := firstLine(screen(m)); !strings.Contains(h, "+1 add") || !strings.Contains(h, "↺1 remembered") {
		t.Fatalf("header %q, want \"+1 add\" and \"↺1 remembered\"", h)
	}
}

// TestRiskMarksAreWords: a row's ⚠ mark names its risks in words (the
// codes stay in the audit log), every code consent has a word, and the
// help explains each word.
func TestRiskMarksAreWords(t *testing.T) {
	codes := []string{consent.WarnDir, consent.WarnFSRoot, consent.WarnHome, consent.WarnHomeAncestor, consent.WarnSystem,
		consent.WarnOutside, consent.WarnSymlink, consent.WarnSecrets, consent.WarnMount, consent.WarnLinks, consent.WarnLinkOut}
	m := fixture(t, demoRepos()...)
	help := ansi.Strip(m.helpText(200))
	for _, c := range codes {
		if !slices.ContainsFunc(riskWords, func(r struct{ code, word, meaning string }) bool { return r.code == c }) {
			t.Errorf("code %s has no word", c)
		}
		w := riskWord(c)
		if !strings.Contains(help, glyphRisk+" "+w) {
			t.Errorf("the help does not explain %s %s", glyphRisk, w)
		}
	}
	if len(riskWords) != len(codes) {
		t.Errorf("%d risk words for %d codes", len(riskWords), len(codes))
	}
	m.facts.known["/work/demo/api"] = repoFacts{risks: []string{consent.WarnDir, consent.WarnSecrets}}
	st := m.rowTags("/work/demo/api", map[string]bool{})
	if full := ansi.Strip(st.full); !strings.Contains(full, "⚠ whole folder, secrets") || strings.Contains(full, "dir") {
		t.Errorf("full row state %q, want the words of both risks", full)
	}
	if short := ansi.Strip(st.short); !strings.Contains(short, "⚠ whole folder +1") {
		t.Errorf("short row state %q", short)
	}
}
