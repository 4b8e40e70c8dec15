package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/vcsdetect"
)

// TestScanHeaderLiveCount: while the walk runs the scan line counts
// folders walked, repositories found, folders skipped and the time spent;
// once done the line goes and the header says what was skipped and what
// could not be read.
func TestScanHeaderLiveCount(t *testing.T) {
	m := New(Config{Dir: "/work/demo"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 24})
	m.walk.gen, m.walk.running = 1, true
	m.Update(scanBatchMsg{gen: 1, repos: []vcsdetect.Repo{repo("a", "main")}, progress: true,
		stats: vcsdetect.Stats{Dirs: 1234, Repos: 1, Skipped: 7, Warnings: 2}, elapsed: 1520 * time.Millisecond})
	h := ansi.Strip(m.scanLine())
	if want := "scanning 1234 folders · 1 repository · 7 skipped · 2 unreadable · 1.5s"; !strings.Contains(h, want) {
		t.Errorf("scan line:\n%s\nwant it to contain\n%s", h, want)
	}
	if !strings.Contains(screen(m), h) {
		t.Errorf("the scan line is not on the screen:\n%s", screen(m))
	}
	// A stale generation's counts are dropped.
	m.Update(scanBatchMsg{gen: 0, progress: true, stats: vcsdetect.Stats{Dirs: 99999}})
	if h := ansi.Strip(m.scanLine()); strings.Contains(h, "99999") {
		t.Errorf("scan line shows a cancelled scan's count: %s", h)
	}
	m.Update(scanBatchMsg{gen: 1, done: true, stats: vcsdetect.Stats{Dirs: 2000, Repos: 1, Skipped: 9, Warnings: 2}, elapsed: 2 * time.Second})
	h = ansi.Strip(m.headerView())
	if want := "9 folders skipped  2 unreadable folders skipped"; !strings.Contains(h, want) || strings.Contains(screen(m), "scanning") {
		t.Errorf("header after the scan:\n%s\nwant it to contain\n%s", h, want)
	}
}

// manyRepos makes a tree of n repositories.
func manyRepos(t *testing.T, n int) string {
	dir := t.TempDir()
	for i := range n {
		if err := os.MkdirAll(filepath.Join(dir, fmt.Sprintf("r%03d", i), ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// stallingScan is the real vcsdetect.Scan whose found blocks after the
// first repository until the walk is cancelled: a walk that runs until
// someone stops it.
func stallingScan() (ScanFunc, <-chan error) {
	ended := make(chan error, 4)
	return func(ctx context.Context, dir string, opts vcsdetect.Options, found func(vcsdetect.Repo)) (vcsdetect.Stats, error) {
		st, err := vcsdetect.Scan(ctx, dir, opts, func(r vcsdetect.Repo) {
			found(r)
			<-ctx.Done()
		})
		ended <- err
		return st, err
	}, ended
}

func TestQuitAndRescanCancelTheWalk(t *testing.T) {
	dir := manyRepos(t, 20)
	for _, key := range []string{"ctrl+q", "ctrl+c", "ctrl+r"} {
		t.Run(key, func(t *testing.T) {
			scan, ended := stallingScan()
			m := New(Config{Dir: dir, Scan: scan})
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			m.Update(m.startScan()()) // scanStartedMsg
			select {
			case err := <-ended:
				t.Fatalf("the walk ended by itself (%v); the test needs it blocked", err)
			case <-time.After(50 * time.Millisecond):
			}
			send(m, key)
			select {
			case err := <-ended:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("after %q the walk ended with %v, want context.Canceled", key, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("after %q the walk is still running", key)
			}
		})
	}
}

// TestScanResultsGatheredByFrame: repositories that trickle in (one a
// millisecond, as a walk finds them) reach the model in one batch a
// gather window, not one message each; each batch costs the list a merge.
// The window is 100 ms here, not a frame: on a loaded machine a 1 ms sleep
// can take as long as a frame, and the batches would prove nothing.
func TestScanResultsGatheredByFrame(t *testing.T) {
	const window = 100 * time.Millisecond
	box := newScanBox()
	go func() {
		for i := range 40 {
			box.put(func(b *scanBox) { b.repos = append(b.repos, vcsdetect.Repo{Path: fmt.Sprintf("/w/r%02d", i)}) })
			time.Sleep(time.Millisecond)
		}
		box.put(func(b *scanBox) { b.done = true })
	}()
	var batches, repos int
	for {
		msg := readScan(1, box, window)().(scanBatchMsg)
		batches++
		repos += len(msg.repos)
		if msg.done {
			break
		}
	}
	// 40 ms of results (400 ms under heavy load) at 100 ms a window: one
	// to five batches, and the end; one a repository would be 41.
	if repos != 40 || batches > 12 {
		t.Fatalf("%d repositories in %d batches, want 40 in a batch a frame", repos, batches)
	}
}

// TestWalkNeverWaitsForTheUI: the walk leaves what it finds in the box
// and goes on; with nobody taking anything (a UI busy drawing), a walk of
// 10,000 repositories still runs to its end.
func TestWalkNeverWaitsForTheUI(t *testing.T) {
	const n = 10000
	ended := make(chan struct{})
	m := New(Config{Dir: "/w", Scan: func(_ context.Context, _ string, _ vcsdetect.Options, found func(vcsdetect.Repo)) (vcsdetect.Stats, error) {
		defer close(ended)
		for i := range n {
			found(vcsdetect.Repo{Path: fmt.Sprintf("/w/r%05d", i)})
		}
		return vcsdetect.Stats{Repos: n}, nil
	}})
	started := m.startScan()().(scanStartedMsg)
	defer started.cancel()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the walk waited for someone to take its results")
	}
	// Everything is there for the model: every repository in the first
	// take, and the end with it or right after (the walk's goroutine says
	// it ended after the walk returns; under load that comes a moment
	// later).
	msg := readScan(1, started.box, FrameInterval)().(scanBatchMsg)
	if len(msg.repos) != n {
		t.Fatalf("took %d repositories, want %d in one take", len(msg.repos), n)
	}
	for deadline := time.Now().Add(5 * time.Second); !msg.done; {
		if time.Now().After(deadline) {
			t.Fatal("the walk's end never came")
		}
		msg = readScan(1, started.box, FrameInterval)().(scanBatchMsg)
		if len(msg.repos) != 0 {
			t.Fatalf("%d more repositories after all %d", len(msg.repos), n)
		}
	}
}

// TestScanBatchWaitGrowsWithTheList: each batch costs a merge into the
// sorted list, O(rows listed), so the wait between batches grows with the
// list: the merging stays a small share of the walk on a huge tree.
func TestScanBatchWaitGrowsWithTheList(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want time.Duration
	}{
		{0, 12 * FrameInterval},
		{40000, 12 * FrameInterval},
		{75000, 150 * time.Millisecond},
		{1000000, 250 * time.Millisecond},
	} {
		if got := scanBatchWait(tc.n); got != tc.want {
			t.Errorf("with %d listed: %v between batches, want %v", tc.n, got, tc.want)
		}
	}
}

// TestScanEndShowsAtOnce: the gather window does not outlast the walk:
// its last rows and its end reach the model as soon as it ends.
func TestScanEndShowsAtOnce(t *testing.T) {
	box := newScanBox()
	box.put(func(b *scanBox) { b.repos = append(b.repos, vcsdetect.Repo{Path: "/w/a"}) })
	go func() {
		time.Sleep(10 * time.Millisecond)
		box.put(func(b *scanBox) { b.done = true })
		close(box.ended)
	}()
	start := time.Now()
	msg := readScan(1, box, time.Hour)().(scanBatchMsg)
	if took := time.Since(start); took > time.Second || !msg.done || len(msg.repos) != 1 {
		t.Fatalf("after %v: done %v, %d repositories; want the end and a/ at once", took, msg.done, len(msg.repos))
	}
}

// TestTheWalkDropsWhatAnOlderScanSends: the walk's state (scanState)
// keeps its generation: the start of a walk a newer scan replaced is
// cancelled and its box not taken; the end of a walk that failed says so
// in the header, with the rows it listed.
func TestTheWalkDropsWhatAnOlderScanSends(t *testing.T) {
	m := fixture(t, demoRepos()...)
	m.walk.gen, m.walk.running = 5, true
	cancelled := false
	old := newScanBox()
	m.Update(scanStartedMsg{gen: 4, box: old, cancel: func() { cancelled = true }})
	if !cancelled || m.walk.box == old {
		t.Fatalf("an older walk's start: cancelled %v, its box taken %v; want cancelled, not taken", cancelled, m.walk.box == old)
	}
	m.Update(scanBatchMsg{gen: 5, done: true, err: errors.New("the disk went away")})
	if h := strings.Split(screen(m), "\n")[0]; !strings.Contains(h, "scan failed: the disk went away") {
		t.Fatalf("the header after a failed walk: %q; want it to say the scan failed, and why", h)
	}
}
