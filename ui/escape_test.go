package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/proxy"
	"github.com/rootpick/rootpick/vcsdetect"
)

// hostile is what a folder, a branch or a server could be named to drive
// the terminal: clear the screen, a one-character CSI (as a rune and as a
// lone byte), a right-to-left override, a zero-width space, a carriage
// return, a byte that is not UTF-8 and a newline.
const hostile = "\x1b[2J\u009b\x9b\u202e\u200b\r\xff\n"

// escapedStart is how the start of hostile must be drawn.
const escapedStart = `\x1b[2J\u009b\x9b\u202e\u200b\r\xff\n`

// TestEveryDrawingSiteEscapes drives every place where text from the disk
// or a server reaches the screen with a hostile string, each behind its
// own tag, and checks that every tag is drawn, escaped, and that no frame
// holds a raw control, format or separator character or a byte that is
// not UTF-8.
func TestEveryDrawingSiteEscapes(t *testing.T) {
	t.Setenv("HOME", "/nonexistent-home")
	h := func(tag string) string { return tag + hostile }
	outer := "/work/OUTER" + hostile // outside DIR, holding it
	dir := outer + "/DIR" + hostile
	repoPath := dir + "/REPO" + hostile
	innerPath := repoPath + "/inner"
	brokenPath := dir + "/b"
	projPath := dir + "/c"
	root := func(p string) consent.Root { return consent.Root{Path: p, URI: consent.PathToURI(p), Name: "x"} }

	var frames []string
	var m *Model
	draw := func() { frames = append(frames, m.View().Content) }

	m = New(Config{
		Dir: dir,
		Scan: func(context.Context, string, vcsdetect.Options, func(vcsdetect.Repo)) (vcsdetect.Stats, error) {
			t.Fatal("this model does not scan")
			return vcsdetect.Stats{}, nil
		},
		Store:      storeFor(t),
		ProxyDir:   t.TempDir(),
		LogPath:    "/tmp/LOGPATH" + hostile,
		Remembered: &consent.Record{Dir: "/REMEMBERED" + hostile, Roots: []consent.Root{root(repoPath)}},
	})
	m.Update(tea.WindowSizeMsg{Width: 400, Height: 70})
	draw() // the remembered consent's note
	m.walk.gen = 1
	m.Update(scanBatchMsg{gen: 1, done: true, repos: []vcsdetect.Repo{
		{Path: repoPath, Name: "REPO" + hostile, Kind: vcsdetect.KindGit, Branch: h("BRANCH"), Depth: 1},
		{Path: brokenPath, Name: "b", Kind: vcsdetect.KindBroken, Reason: h("REASON"), Depth: 1},
		{Path: projPath, Name: "c", Kind: vcsdetect.KindProject, Marker: h("MARKER"), Depth: 1},
		{Path: innerPath, Name: "inner", Kind: vcsdetect.KindGit, Depth: 2},
	}})
	// The details pane, for each row in turn.
	facts := repoFacts{
		uri: consent.PathToURI(repoPath),
		det: vcsdetect.Details{Head: h("HEAD"), Upstream: h("UPSTREAM"), Ahead: 1, Remote: h("REMOTE"),
			LastCommit: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC), Subject: h("SUBJECT"), State: vcsdetect.StateDirty},
		warnings: []string{h("FACTWARN")},
		err:      h("FACTERR"),
	}
	m.Update(factsMsg{pool: m.facts.pool, results: []vcsdetect.Result[repoFacts]{{Repo: vcsdetect.Repo{Path: repoPath}, Value: facts}}})
	facts.det.Head = "h" // room for the upstream on the branch line
	for _, p := range []string{brokenPath, projPath} {
		m.Update(factsMsg{pool: m.facts.pool, results: []vcsdetect.Result[repoFacts]{{Repo: vcsdetect.Repo{Path: p}, Value: facts}}})
	}
	for range 4 {
		draw()
		send(m, "down")
	}
	// Rows covered by a shared folder inside DIR, and by one outside it.
	m.review.sh.ServedNow([]consent.Root{root(repoPath)})
	draw()
	m.review.sh.ServedNow([]consent.Root{root(outer)})
	draw()

	// Notes and row tags.
	m.onHubEvent(mcpconn.Event{Kind: mcpconn.Withdrawn, Path: repoPath, Text: h("WITHDRAWN")})
	draw()
	m.Update(consentSavedMsg{err: errors.New(h("SAVEERR"))})
	draw()
	m.Update(resumeMsg{err: errors.New(h("RESUMEERR"))})
	draw()

	// Servers: the status line and the server pane.
	m.review.sh.ServedNow([]consent.Root{root(repoPath)})
	for _, ev := range []mcpconn.Event{
		{Server: "s1", Kind: mcpconn.Connected, ServerName: h("SRVNAME"), ServerVersion: h("SRVVERSION"), Text: h("PROTOCOL")},
		{Server: "s1", Kind: mcpconn.Fetched, URIs: []string{consent.PathToURI(repoPath)}},
		{Server: "s1", Kind: mcpconn.Stderr, Text: h("STDERR")},
		{Server: "s1", Kind: mcpconn.ServerLog, Text: h("SRVLOG")},
		{Server: h("LABEL"), Kind: mcpconn.Connected, ServerName: "named"},
		{Server: "s3", Kind: mcpconn.Failed, Err: errors.New(h("FAILED"))},
		{Server: "s4", Kind: mcpconn.Restarting, Text: h("RESTARTWHY")},
		{Server: "s5", Kind: mcpconn.Connected, ServerName: "m"},
		{Server: "s5", Kind: mcpconn.Mismatch, Text: h("MISMATCH")},
		{Server: "s6", Kind: mcpconn.Failed, Err: errors.New(h("RESTARTERR"))},
		{Server: "s6", Kind: mcpconn.Restarting, Attempt: 1, Delay: time.Second},
		{Server: "s7", Kind: mcpconn.Connected, ServerName: h("LABELLED")},
		{Server: h("NONAME"), Kind: mcpconn.Connecting},
	} {
		m.onHubEvent(ev)
	}
	m.Update(proxiesMsg{entries: []proxy.Entry{
		{PID: 1, Status: proxy.Status{Host: h("PXHOST"), Server: h("PXSERVER"), State: "restarting", Error: h("PXERROR")}},
		{PID: 2, Status: proxy.Status{Command: h("PXCOMMAND"), State: "starting", Problem: h("PXPROBLEM"), Dropped: []string{h("PXDROPPED")}}},
	}})
	draw()
	send(m, "ctrl+o")
	if m.mode() != modeServers {
		t.Fatal("ctrl+o did not open the server pane")
	}
	draw()
	send(m, "ctrl+o")

	// The consent dialog: an added root with a warning, one outside DIR,
	// a removed one, problems, and the servers it reaches; each entry
	// highlighted (its full path below) and opened (what it brings in).
	m.review.sh.ServedNow([]consent.Root{root(dir + "/REMOVED" + hostile)})
	clk := clockOf(m)
	m.review.sh.Review(nil) // as enter leaves it: preparing
	m.Update(proposalMsg{
		proposed: []proposedRoot{{Root: root(repoPath), Requested: repoPath,
			Warnings: []consent.Warning{{Code: "x", Text: h("CONSENTWARN")}}}, {Root: root(outer), Requested: outer}},
		problems: []string{h("PROBLEM")},
	})
	if m.review.sh.Dialog() == nil {
		t.Fatal("no dialog")
	}
	clk.Advance(time.Second)
	m.Update(consentGuardMsg{id: m.review.sh.Dialog().id, seq: m.review.sh.Dialog().guardSeq})
	for range 4 {
		send(m, "e")
		draw()
		send(m, "down")
	}

	// A kept filter (typed or pasted: not from the disk, drawn the same),
	// over the list: the dialog closed.
	send(m, "esc")
	if m.mode() != modeList {
		t.Fatalf("esc left the dialog open (mode %v)", m.mode())
	}
	// A pasted query: the query line's input drops control characters.
	m.Update(tea.PasteMsg{Content: h("FILTER")})
	draw()
	if !strings.Contains(ansi.Strip(frames[len(frames)-1]), "/ FILTER") {
		t.Errorf("the pasted query is not on the query line:\n%s", ansi.Strip(frames[len(frames)-1]))
	}

	// A scan that failed.
	m2 := New(Config{Dir: "/work/demo"})
	m2.Update(tea.WindowSizeMsg{Width: 400, Height: 20})
	m2.walk.gen = 1
	m2.Update(scanBatchMsg{gen: 1, done: true, err: errors.New(h("SCANERR"))})
	frames = append(frames, m2.View().Content)

	for i, f := range frames {
		checkFrame(t, i, f)
	}
	all := ansi.Strip(strings.Join(frames, "\n"))
	for _, tag := range []string{"DIR", "REPO", "BRANCH", "REASON", "MARKER", "HEAD", "UPSTREAM", "REMOTE", "SUBJECT",
		"FACTWARN", "FACTERR", "REMEMBERED", "SRVNAME", "SRVVERSION", "PROTOCOL", "STDERR", "SRVLOG", "LABEL", "FAILED",
		"RESTARTWHY", "MISMATCH", "RESTARTERR", "PXHOST", "PXSERVER", "PXERROR", "PXCOMMAND", "PXPROBLEM", "PXDROPPED", "LOGPATH", "WITHDRAWN",
		"SAVEERR", "RESUMEERR", "REMOVED", "CONSENTWARN", "PROBLEM", "SCANERR", "OUTER", "NONAME",
		"covered by REPO", "covered by /work/OUTER", "inner"} {
		if tag == "inner" { // what a root brings in, in the dialog
			tag = "· REPO" + escapedStart + "/inner"
		} else {
			tag += escapedStart[:7]
		}
		if !strings.Contains(all, tag) {
			t.Errorf("no frame shows %q", tag)
		}
	}
	if t.Failed() {
		t.Logf("frames:\n%s", all)
	}
}

// checkFrame fails when frame i holds a hostile character raw. Styles are
// the only escape sequences a frame may hold, and none of them is ESC [2J.
func checkFrame(t *testing.T, i int, frame string) {
	t.Helper()
	if !utf8.ValidString(frame) {
		t.Errorf("frame %d holds bytes that are not UTF-8 (a raw \\x9b or \\xff)", i)
	}
	for _, bad := range []string{"\x1b[2J", "\u009b", "\u202e", "\u200b", "\r"} {
		if strings.Contains(frame, bad) {
			t.Errorf("frame %d holds %q raw", i, bad)
		}
	}
	for _, r := range ansi.Strip(frame) {
		if r != '\n' && safetext.Unsafe(r) {
			t.Errorf("frame %d holds %U raw once styles are stripped", i, r)
		}
	}
}
