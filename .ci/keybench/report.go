package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// report prints, for each tree and list size, two markdown tables with
// one column per label: the first (the quiet + jitter protocol, keys
// stamped as the inline loop stamped) the median over its runs of each
// run's p50 and p95, the worst max, missed keys, CPU, memory, first row and
// listing times; the second the second yardstick: first visible change,
// read-stamped and emulated apart, for the ↓ burst and the keys of the
// first table, CPU per ↓ with and without children, and child processes.
func report(files []string) error {
	var rs []*Result
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			r := new(Result)
			if err := json.Unmarshal(sc.Bytes(), r); err != nil {
				f.Close()
				return fmt.Errorf("%s: %v", name, err)
			}
			rs = append(rs, r)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return err
		}
	}
	// fzf-find has no list of its own: it belongs to the table of the size
	// run just before it.
	type table struct {
		tree string
		n    int
	}
	var tables []table
	for i, r := range rs {
		if r.N == 0 && i > 0 {
			r.N = rs[i-1].N
		}
		if r.Tree == "" && i > 0 && rs[i-1].N == r.N {
			r.Tree = rs[i-1].Tree
		}
		if tb := (table{r.Tree, r.N}); !slices.Contains(tables, tb) {
			tables = append(tables, tb)
		}
	}
	for _, tb := range tables {
		var labels []string
		by := map[string][]*Result{}
		for _, r := range rs {
			if r.N != tb.n || r.Tree != tb.tree {
				continue
			}
			if by[r.Label] == nil {
				labels = append(labels, r.Label)
			}
			by[r.Label] = append(by[r.Label], r)
		}
		title := thousands(tb.n) + " repositories"
		if tb.tree != "" {
			var paths []float64
			for _, r := range by[labels[0]] {
				paths = append(paths, r.MeanPath)
			}
			title += fmt.Sprintf(", %s tree (paths %.0f characters)", tb.tree, median(paths))
		}
		printTable(title, labels, by)
		printVisible(title, labels, by)
	}
	return nil
}

// rowPrinter prints the header of a table with a column per label and
// returns what prints its rows.
func rowPrinter(title string, labels []string, by map[string][]*Result) func(name string, cell func(rs []*Result) string) {
	fmt.Printf("\n| %s | %s |\n", title, strings.Join(labels, " | "))
	fmt.Printf("|---|%s\n", strings.Repeat("---:|", len(labels)))
	return func(name string, cell func(rs []*Result) string) {
		cells := make([]string, len(labels))
		for i, l := range labels {
			cells[i] = cell(by[l])
		}
		fmt.Printf("| %s | %s |\n", name, strings.Join(cells, " | "))
	}
}

// lats is the median over runs of each run's p50 and p95 of the
// latencies f picks in phase p, and the worst max.
func lats(rs []*Result, p string, f func(*Phase) []float64) string {
	var p50, p95, mx []float64
	for _, r := range rs {
		if ph := r.Phases[p]; ph != nil && len(f(ph)) > 0 {
			p50 = append(p50, pct(f(ph), 50))
			p95 = append(p95, pct(f(ph), 95))
			mx = append(mx, pct(f(ph), 100))
		}
	}
	if len(p50) == 0 {
		return "–"
	}
	return fmt.Sprintf("%s / %s / %s", f1(median(p50)), f1(median(p95)), f1(slices.Max(mx)))
}

// perKey is the median over runs of f(phase) ÷ the keys of the phase.
func perKey(rs []*Result, p string, f func(*Phase) float64) (string, bool) {
	var xs []float64
	for _, r := range rs {
		if ph := r.Phases[p]; ph != nil && ph.keys() > 0 {
			xs = append(xs, f(ph)/float64(ph.keys()))
		}
	}
	if len(xs) == 0 {
		return "–", false
	}
	return f1(median(xs)), true
}

// printVisible prints the second yardstick's table.
func printVisible(title string, labels []string, by map[string][]*Result) {
	any := false
	for _, rs := range by {
		for _, r := range rs {
			for _, ph := range r.Phases {
				any = any || len(ph.Vis) > 0
			}
		}
	}
	if !any {
		return
	}
	fmt.Printf("\nSecond yardstick: key → first visible change (each chunk stamped as its read returns, emulated apart).\n")
	row := rowPrinter(title, labels, by)
	burst := "↓ burst"
	for _, rs := range by {
		for _, r := range rs {
			if ph := r.Phases["burst_down"]; ph != nil {
				burst = fmt.Sprintf("%d ↓ from the top, on a fixed schedule", ph.keys())
			}
		}
	}
	row(burst+": first visible change, p50 / p95 / max ms", func(rs []*Result) string {
		return lats(rs, "burst_down", func(p *Phase) []float64 { return p.Vis })
	})
	row(burst+": the same chunk stamped as the inline loop stamped, p50 / p95 / max ms", func(rs []*Result) string {
		return lats(rs, "burst_down", func(p *Phase) []float64 { return p.Lat })
	})
	titles := map[string]string{"down": "↓", "toggle": "toggle", "type": "filter typing", "erase": "filter erasing"}
	for _, p := range []string{"down", "toggle", "type", "erase"} {
		row(titles[p]+" (quiet + jitter): first visible change, p50 / p95 / max ms", func(rs []*Result) string {
			return lats(rs, p, func(p *Phase) []float64 { return p.Vis })
		})
	}
	row("keys with no visible change within the timeout: burst / quiet + jitter", func(rs []*Result) string {
		b, q, seen := 0, 0, false
		for _, r := range rs {
			for name, ph := range r.Phases {
				switch name {
				case "burst_down":
					b += ph.VisMissed
					seen = true
				case "down", "toggle", "type", "erase":
					q += ph.VisMissed
					seen = true
				}
			}
		}
		if !seen {
			return "–"
		}
		return fmt.Sprintf("%d / %d", b, q)
	})
	for _, p := range []string{"burst_down", "down"} {
		name := "burst"
		if p == "down" {
			name = "quiet + jitter"
		}
		row("CPU per ↓ ("+name+"), ms: the program / with its children", func(rs []*Result) string {
			own, ok := perKey(rs, p, func(p *Phase) float64 { return p.CPU })
			if !ok {
				return "–"
			}
			all, _ := perKey(rs, p, func(p *Phase) float64 { return p.CPU + p.ChildCPU })
			return own + " / " + all
		})
		row("child processes per ↓ ("+name+"): seen by sampling (at least) / PIDs handed out on the machine (at most)", func(rs []*Result) string {
			var seen, pids []float64
			for _, r := range rs {
				if ph := r.Phases[p]; ph != nil && ph.SampleEvery > 0 && ph.keys() > 0 {
					seen = append(seen, float64(ph.Children)/float64(ph.keys()))
					pids = append(pids, float64(ph.PIDs)/float64(ph.keys()))
				}
			}
			if len(seen) == 0 {
				return "–"
			}
			return fmt.Sprintf("%.2f / %.2f", median(seen), median(pids))
		})
	}
	row("reading and emulating", func(rs []*Result) string {
		var xs []string
		for _, r := range rs {
			e := r.Emulate
			if e == "" {
				e = "inline"
			}
			if !slices.Contains(xs, e) {
				xs = append(xs, e)
			}
		}
		return strings.Join(xs, ", ")
	})
}

func printTable(title string, labels []string, by map[string][]*Result) {
	row := rowPrinter(title+", 120×40", labels, by)
	titles := map[string]string{
		"down":        "↓ (scroll)",
		"toggle":      "toggle (rootpick space, fzf tab)",
		"type":        "filter typing: screen changed",
		"type_drawn":  "filter typing: results drawn",
		"erase":       "filter erasing: screen changed",
		"erase_drawn": "filter erasing: results drawn",
	}
	for _, p := range phaseNames {
		if titles[p] == "" {
			continue // the burst: the second yardstick's table
		}
		row(titles[p]+", p50 / p95 / max ms", func(rs []*Result) string {
			return lats(rs, p, func(p *Phase) []float64 { return p.Lat })
		})
	}
	row("timed keys; missed / late frame (not timed)", func(rs []*Result) string {
		timed, missed, early := 0, 0, 0
		for _, r := range rs {
			for _, p := range []string{"down", "toggle", "type", "erase"} {
				if ph := r.Phases[p]; ph != nil {
					timed += len(ph.Lat)
					missed += ph.Missed
					early += ph.Early
				}
			}
		}
		if timed+missed+early == 0 {
			return "–"
		}
		return fmt.Sprintf("%d; %d / %d", timed, missed, early)
	})
	row("filter keys whose results were never drawn", func(rs []*Result) string {
		missed, any := 0, false
		for _, r := range rs {
			for _, p := range []string{"type_drawn", "erase_drawn"} {
				if ph := r.Phases[p]; ph != nil {
					missed += ph.Missed
					any = true
				}
			}
		}
		if !any {
			return "–"
		}
		return strconv.Itoa(missed)
	})
	for _, children := range []bool{false, true} {
		name := "program CPU per key, ms: ↓ / toggle / type / erase"
		if children {
			name = "the same with its children's (cutime + cstime)"
		}
		row(name, func(rs []*Result) string {
			var cells []string
			for _, p := range []string{"down", "toggle", "type", "erase"} {
				c, ok := perKey(rs, p, func(p *Phase) float64 {
					if children {
						return p.CPU + p.ChildCPU
					}
					return p.CPU
				})
				if !ok {
					return "–"
				}
				cells = append(cells, c)
			}
			return strings.Join(cells, " / ")
		})
	}
	row("VmRSS / VmHWM after the keys, MB", func(rs []*Result) string {
		return pair(rs, func(r *Result) float64 { return float64(r.RSSKB) / 1024 }, func(r *Result) float64 { return float64(r.HWMKB) / 1024 })
	})
	row("first row on screen, ms from start", func(rs []*Result) string {
		return one(rs, func(r *Result) float64 { return r.FirstRow })
	})
	row("all listed on screen, ms from start", func(rs []*Result) string {
		return one(rs, func(r *Result) float64 { return r.AllListed })
	})
	row("`rootpick list --all DIR > /dev/null`, ms", func(rs []*Result) string {
		return one(rs, func(r *Result) float64 { return r.ListWall })
	})
	row("CPU until all listed / of list --all / of this harness meanwhile, ms", func(rs []*Result) string {
		if one(rs, func(r *Result) float64 { return r.ListCPU }) == "–" {
			return "–"
		}
		return one(rs, func(r *Result) float64 { return r.ListedCPU }) + " / " +
			one(rs, func(r *Result) float64 { return r.ListCPU }) + " / " +
			one(rs, func(r *Result) float64 { return r.SelfCPU })
	})
	// listedOver is the median of all listed ÷ a list run's wall time.
	listedOver := func(wall func(*Result) float64) func([]*Result) string {
		return func(rs []*Result) string {
			var xs []float64
			for _, r := range rs {
				if wall(r) > 0 {
					xs = append(xs, r.AllListed/wall(r))
				}
			}
			if len(xs) == 0 {
				return "–"
			}
			return fmt.Sprintf("%.2f×", median(xs))
		}
	}
	row("all listed ÷ list --all", listedOver(func(r *Result) float64 { return r.ListWall }))
	row("all listed ÷ list --all --json (the walk that reads each HEAD, as the picker's)", listedOver(func(r *Result) float64 { return r.ListJSONWall }))
	row("rows listed", func(rs []*Result) string {
		var xs []string
		for _, r := range rs {
			if s := thousands(r.Listed); !slices.Contains(xs, s) {
				xs = append(xs, s)
			}
		}
		return strings.Join(xs, ", ")
	})
	row("runs (load average 1 min: min–max)", func(rs []*Result) string {
		var ls []float64
		for _, r := range rs {
			if f := strings.Fields(r.Load); len(f) > 0 {
				x, _ := strconv.ParseFloat(f[0], 64)
				ls = append(ls, x)
			}
		}
		if len(ls) == 0 {
			return strconv.Itoa(len(rs))
		}
		return fmt.Sprintf("%d (%.2f–%.2f)", len(rs), slices.Min(ls), slices.Max(ls))
	})
	var notes []string
	for _, l := range labels {
		for _, r := range by[l] {
			for _, n := range r.Notes {
				notes = append(notes, l+": "+n)
			}
		}
	}
	slices.Sort(notes)
	for _, n := range slices.Compact(notes) {
		fmt.Println("\nnote:", n)
	}
}

// one is the median of f over the runs where it is set.
func one(rs []*Result, f func(*Result) float64) string {
	var xs []float64
	for _, r := range rs {
		if x := f(r); x > 0 {
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 {
		return "–"
	}
	return f0(median(xs))
}

func pair(rs []*Result, f, g func(*Result) float64) string {
	a, b := one(rs, f), one(rs, g)
	if a == "–" {
		return a
	}
	return a + " / " + b
}

func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
func f0(x float64) string { return strconv.FormatFloat(x, 'f', 0, 64) }

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
