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

// report prints, for each list size, a markdown table with one column per
// label: the median over its runs of each run's p50 and p95, the worst
// max, missed keys, memory, first row and listing times.
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
	var sizes []int
	for i, r := range rs {
		if r.N == 0 && i > 0 {
			r.N = rs[i-1].N
		}
		if !slices.Contains(sizes, r.N) {
			sizes = append(sizes, r.N)
		}
	}
	for _, n := range sizes {
		var labels []string
		by := map[string][]*Result{}
		for _, r := range rs {
			if r.N != n {
				continue
			}
			if by[r.Label] == nil {
				labels = append(labels, r.Label)
			}
			by[r.Label] = append(by[r.Label], r)
		}
		printTable(n, labels, by)
	}
	return nil
}

func printTable(n int, labels []string, by map[string][]*Result) {
	fmt.Printf("\n| %s repositories, 120×40 | %s |\n", thousands(n), strings.Join(labels, " | "))
	fmt.Printf("|---|%s\n", strings.Repeat("---:|", len(labels)))
	row := func(name string, cell func(rs []*Result) string) {
		cells := make([]string, len(labels))
		for i, l := range labels {
			cells[i] = cell(by[l])
		}
		fmt.Printf("| %s | %s |\n", name, strings.Join(cells, " | "))
	}
	titles := map[string]string{
		"down":        "↓ (scroll)",
		"toggle":      "toggle (rootpick space, fzf tab)",
		"type":        "filter typing: screen changed",
		"type_drawn":  "filter typing: results drawn",
		"erase":       "filter erasing: screen changed",
		"erase_drawn": "filter erasing: results drawn",
	}
	for _, p := range phaseNames {
		row(titles[p]+", p50 / p95 / max ms", func(rs []*Result) string {
			var p50, p95, mx []float64
			for _, r := range rs {
				if ph := r.Phases[p]; ph != nil && len(ph.Lat) > 0 {
					p50 = append(p50, pct(ph.Lat, 50))
					p95 = append(p95, pct(ph.Lat, 95))
					mx = append(mx, pct(ph.Lat, 100))
				}
			}
			if len(p50) == 0 {
				return "–"
			}
			return fmt.Sprintf("%s / %s / %s", f1(median(p50)), f1(median(p95)), f1(slices.Max(mx)))
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
	row("program CPU per key, ms: ↓ / toggle / type / erase", func(rs []*Result) string {
		var cells []string
		for _, p := range []string{"down", "toggle", "type", "erase"} {
			var xs []float64
			for _, r := range rs {
				if ph := r.Phases[p]; ph != nil && len(ph.Lat) > 0 {
					xs = append(xs, ph.CPU/float64(len(ph.Lat)+ph.Missed+ph.Early))
				}
			}
			if len(xs) == 0 {
				return "–"
			}
			cells = append(cells, f1(median(xs)))
		}
		return strings.Join(cells, " / ")
	})
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
	row("all listed ÷ list --all", func(rs []*Result) string {
		var xs []float64
		for _, r := range rs {
			if r.ListWall > 0 {
				xs = append(xs, r.AllListed/r.ListWall)
			}
		}
		if len(xs) == 0 {
			return "–"
		}
		return fmt.Sprintf("%.2f×", median(xs))
	})
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
