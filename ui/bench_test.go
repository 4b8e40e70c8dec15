package ui

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/vcsdetect"
)

// scanBatchMax is the size of the scan batches the tests and benchmarks
// feed the model.
const scanBatchMax = 512

// benchModel is a 120×40 model over n generated repositories under
// /src, with every one checked when all is set.
func benchModel(b testing.TB, n int, all bool) *Model {
	b.Helper()
	words := []string{"payments", "service", "legacy", "api", "web", "tools", "cli", "infra", "auth", "billing"}
	repos := make([]vcsdetect.Repo, n)
	for i := range repos {
		name := fmt.Sprintf("%s-%s-%05d", words[i%len(words)], words[(i/7)%len(words)], i)
		repos[i] = vcsdetect.Repo{Path: fmt.Sprintf("/src/team%03d/%s", i%97, name), Name: name,
			Kind: vcsdetect.KindGit, Branch: "main", Depth: 2}
	}
	m := New(Config{Dir: "/src", Scan: func(context.Context, string, vcsdetect.Options, func(vcsdetect.Repo)) (vcsdetect.Stats, error) {
		return vcsdetect.Stats{}, nil
	}, Describe: func(context.Context, vcsdetect.Repo) vcsdetect.Details { return vcsdetect.Details{} }})
	m.walk.gen = 1
	for i := 0; i < n; i += scanBatchMax {
		m.Update(scanBatchMsg{gen: 1, repos: repos[i:min(i+scanBatchMax, n)]})
	}
	m.Update(scanBatchMsg{gen: 1, done: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if all {
		m.Update(keyPress("ctrl+a"))
		m.Update(keyPress("enter")) // rows off screen: ctrl+a asks first
	}
	// Every row's facts known, as once the pool has read the screen: the
	// rows draw their marks.
	for i, r := range repos {
		m.facts.known[r.Path] = repoFacts{det: vcsdetect.Details{State: []string{vcsdetect.StateDirty, vcsdetect.StateClean}[i%2], Ahead: i % 3}}
	}
	if m.picker.Len() != n {
		b.Fatalf("%d repositories, want %d", m.picker.Len(), n)
	}
	return m
}

// frame is one key as the program handles it: Update, then View.
func frame(m *Model, msg tea.Msg) {
	m.Update(msg)
	_ = m.View()
}

func benchKeys(b *testing.B, run func(b *testing.B, m *Model)) {
	for _, all := range []bool{false, true} {
		name := "checked=0"
		if all {
			name = "checked=50000"
		}
		b.Run(name, func(b *testing.B) {
			m := benchModel(b, 50000, all)
			b.ReportAllocs()
			b.ResetTimer()
			run(b, m)
		})
	}
}

// BenchmarkKeyDown is ↓ at 50,000 repositories, bouncing between the
// first rows and the end of a page so that the list scrolls too.
func BenchmarkKeyDown(b *testing.B) {
	benchKeys(b, func(b *testing.B, m *Model) {
		down, top := keyPress("down"), keyPress("home")
		i := 0
		for b.Loop() {
			if i%60 == 59 {
				frame(m, top)
			} else {
				frame(m, down)
			}
			i++
		}
	})
}

// BenchmarkKeyToggle is space on the same row, checking and unchecking it.
func BenchmarkKeyToggle(b *testing.B) {
	benchKeys(b, func(b *testing.B, m *Model) {
		space := keyPress("space")
		for b.Loop() {
			frame(m, space)
		}
	})
}

// BenchmarkKeyFilter is one keystroke in the open query: typing p, then
// deleting it, alternately. The match itself runs in a command (see
// BenchmarkFilterResult for showing its result, and the picker's
// BenchmarkFilter for the match).
func BenchmarkKeyFilter(b *testing.B) {
	benchKeys(b, func(b *testing.B, m *Model) {
		p, bs := keyPress("p"), tea.KeyPressMsg{Code: tea.KeyBackspace}
		i := 0
		for b.Loop() {
			if i%2 == 0 {
				frame(m, p)
			} else {
				frame(m, bs)
			}
			i++
		}
	})
}

// BenchmarkFilterResult is the frame that shows a match's result: every
// 50,000 repositories match "p" (the worst case), and the result of "pa"
// (9,000) alternates with it.
func BenchmarkFilterResult(b *testing.B) {
	benchKeys(b, func(b *testing.B, m *Model) {
		res := func(text string) filterResultMsg {
			m.filterWant = text
			return filterResultMsg{m.picker.Prepare(text).Run()}
		}
		m.picker.SetFilter("")
		p, pa := res("p"), res("pa")
		i := 0
		for b.Loop() {
			b.StopTimer()
			msg := p
			if i%2 == 1 {
				msg = pa
			}
			m.filterWant = msg.res.Text
			b.StartTimer()
			frame(m, msg)
			i++
		}
	})
}

// TestKeyCostDoesNotGrowWithTheList: a key's allocations (↓, space, a
// filter keystroke) must not grow with the number of repositories or of
// checked ones — a copy of the shown list or a sort of the checked set per
// frame would make them grow 20-fold here.
func TestKeyCostDoesNotGrowWithTheList(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 40,000-repository model")
	}
	perKey := func(n int) uint64 {
		m := benchModel(t, n, true)
		keys := []tea.Msg{keyPress("down"), keyPress("space"), keyPress("p"),
			tea.KeyPressMsg{Code: tea.KeyBackspace}, keyPress("esc")}
		frame(m, keys[0]) // warm the caches
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const rounds = 20
		for range rounds {
			for _, k := range keys {
				frame(m, k)
			}
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / (rounds * uint64(len(keys)))
	}
	small, large := perKey(2000), perKey(40000)
	t.Logf("bytes allocated per key: %d at 2,000 repositories, %d at 40,000", small, large)
	if large > 2*small+16<<10 {
		t.Fatalf("a key allocates %d bytes at 40,000 repositories against %d at 2,000: something per frame grows with the list", large, small)
	}
}

// BenchmarkKeySort is ctrl+s (path → last commit → name → path) at 50,000
// repositories: each press sorts the list again.
func BenchmarkKeySort(b *testing.B) {
	benchKeys(b, func(b *testing.B, m *Model) {
		s := keyPress("ctrl+s")
		for b.Loop() {
			frame(m, s)
		}
	})
}

// BenchmarkScanTick is one spinner tick while a scan runs at 50,000
// repositories: the spinner and the elapsed time move, so only the scan
// line changes, yet the frame is drawn whole (the visible rows only).
func BenchmarkScanTick(b *testing.B) {
	benchKeys(b, func(b *testing.B, m *Model) {
		m.walk.running = true
		m.walk.start = time.Now()
		tick := m.walk.spinner.Tick().(spinner.TickMsg)
		for b.Loop() {
			tick.Time = tick.Time.Add(83 * time.Millisecond)
			_, cmd := m.Update(tick)
			_ = m.View()
			if cmd == nil {
				b.Fatal("the spinner stopped")
			}
			tick = m.walk.spinner.Tick().(spinner.TickMsg) // the next tick, without its timer
		}
	})
}

// holdDown presses ↓ through every row of a 50,000-repository model whose
// describe takes cost, drawing each frame when view is set, and reports
// how many descriptions began by the last key and once the pool is idle.
func holdDown(t testing.TB, cost time.Duration, view bool) (atLastKey, total int, elapsed time.Duration) {
	m := benchModel(t, 50000, false)
	m.cfg.Describe = func(ctx context.Context, r vcsdetect.Repo) vcsdetect.Details {
		select {
		case <-time.After(cost):
		case <-ctx.Done():
		}
		return vcsdetect.Details{}
	}
	m.newPool()
	defer m.closePool()
	down := keyPress("down")
	start := time.Now()
	for range 50000 - 1 {
		m.Update(down)
		if view {
			_ = m.View()
		}
	}
	elapsed = time.Since(start)
	atLastKey = m.facts.pool.Started()
	deadline := time.Now().Add(30 * time.Second)
	for m.facts.pool.Running() > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	return atLastKey, m.facts.pool.Started(), elapsed
}

// TestHoldingDownQueuesNoBacklog: holding ↓ through 50,000 rows while each
// description takes 2 ms leaves at most a screen of descriptions to run
// after the last key (the rows then visible and those read ahead past each
// edge), not the rows passed.
func TestHoldingDownQueuesNoBacklog(t *testing.T) {
	if testing.Short() {
		t.Skip("presses ↓ 50,000 times")
	}
	atLast, total, elapsed := holdDown(t, 2*time.Millisecond, false)
	t.Logf("↓ through 50,000 rows in %v: %d descriptions begun by the last key, %d in all", elapsed.Round(time.Millisecond), atLast, total)
	if after := total - atLast; after > 40+2*prefetchRows+1+vcsdetect.PoolWorkers() {
		t.Fatalf("%d descriptions ran after the last key: a backlog of rows scrolled past", after)
	}
}

// BenchmarkHoldDown is one pass of ↓ through 50,000 rows, each frame
// drawn, with descriptions that take 20 ms (git status on a small
// repository under load): descriptions begun per pass, and the frame time.
func BenchmarkHoldDown(b *testing.B) {
	for b.Loop() {
		atLast, total, elapsed := holdDown(b, 20*time.Millisecond, true)
		b.ReportMetric(float64(atLast), "described-by-last-key")
		b.ReportMetric(float64(total), "described")
		b.ReportMetric(float64(elapsed.Microseconds())/49999, "µs/frame")
	}
}
