// Command keybench times a picker end to end through a pseudo-terminal,
// as a person would feel it: key → screen changed latency, memory, time to
// the first row and time until everything is listed. It runs rootpick's
// picker or fzf on the same list so the two can be compared; .ci/bench-keys
// drives it (its own module, so the main module gains no dependency).
//
//	keybench run -kind rootpick -prog BIN -dir TREE -list LIST [-label L] [-out R.jsonl]
//	keybench run -kind fzf -prog fzf -dir TREE -list LIST
//	keybench run -kind fzf-find -prog fzf -dir TREE     (fzf fed by find: startup only)
//	keybench report R.jsonl                              (markdown table, medians over runs)
//
// The screen is a 120×40 terminal emulator (charmbracelet/x/vt) fed with
// the pty's output as it arrives. The latency of a key is the time from
// writing it to the pty to the read after which the emulated screen (text
// and styles) differs from the screen before the key. Before each key the
// terminal must have been quiet (no output) for -quiet, so that no late
// frame of the previous key is taken for this one's, and then a random
// time up to -jitter passes, so that keys fall at any phase of a frame
// clock. A key that changes nothing within -timeout is counted as missed,
// never timed.
//
// Filter keys are also timed to "results drawn": the first pass over the
// query (the warm-up) records the screen each key settles on; in the timed
// passes a key is done when the screen equals that screen again.
//
// The second yardstick (issue #42): key → first visible change. The
// goroutine that reads the pty only reads, stamps each chunk with
// time.Now() right after its Read returns, and queues it; another feeds
// the emulator in order and decides, for each chunk, whether the screen
// changed. A key's first visible change is the read stamp of the first
// chunk read after the key was written whose emulation changed the screen,
// so emulating one chunk never delays the stamp of the next. The measure
// above ("screen changed") is kept for every key beside it: it is stamped
// as the loop before did, which read, stamped and emulated a chunk before
// reading the next (modelled from the read stamps and each chunk's
// emulation time; -emulate inline runs that loop itself, and then the two
// measures agree). See term.go.
//
// The second yardstick also has its own key protocol, run first, from the
// top of the list: -burst ↓ keys -burst-gap apart (no waiting for quiet),
// the first -burst-after after everything was listed (the "all listed"
// time). Its keys are the phase "burst_down". Then the phases above run
// as before, from where the burst left the cursor (-burst 0: from the top,
// as before the second yardstick).
//
// CPU per key is the program's own (utime+stime of /proc/PID/stat) and
// its children's (cutime+cstime: children it waited for, and theirs, such
// as the git status runs rootpick starts for a row's facts). For the ↓
// phases, the program's child processes are counted by sampling
// /proc/PID/task/*/children every -children-every (direct children alive
// at a sample: a lower bound, as a child that starts and ends between two
// samples is missed), beside the PIDs the kernel handed out on the whole
// machine meanwhile (the last PID of /proc/loadavg: an upper bound, as
// threads and everyone else's processes count too).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "run":
		if err := run(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "keybench:", err)
			os.Exit(1)
		}
	case "report":
		if err := report(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "keybench:", err)
			os.Exit(1)
		}
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: keybench run [flags] | keybench report RESULTS.jsonl...")
	os.Exit(2)
}

// kind is what differs between the programs: their keys and how their
// screen says how many rows are listed and whether input is still coming.
type kind struct {
	down, toggle, backspace, quit string
	openFilter                    string         // key that opens the filter ("" if typing filters)
	count                         *regexp.Regexp // shown (optional) and total
	busy                          *regexp.Regexp // still scanning or reading
	keys                          bool           // run the key phases
}

var kinds = map[string]kind{
	// Header "rootpick  DIR  123/48750 repos · …"; "⠸ scanning …" above the
	// status line until the walk is done (ui/scanline.go).
	"rootpick": {down: "\x1b[B", toggle: " ", backspace: "\x7f", quit: "\x03", openFilter: "", // typing filters, as in fzf
		count: regexp.MustCompile(`(?:(\d+)/)?(\d+) repos\b`), busy: regexp.MustCompile(`scanning`), keys: true},
	// Info line "  11949/48750 (3)", with a spinner before it while reading.
	"fzf": {down: "\x1b[B", toggle: "\t", backspace: "\x7f", quit: "\x03",
		count: regexp.MustCompile(`(?m)^.? *(\d+)/(\d+) \(\d+\)`), busy: regexp.MustCompile(`(?m)^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] *\d+/\d+`), keys: true},
}

func init() {
	k := kinds["fzf"]
	k.keys = false
	kinds["fzf-find"] = k
}

// Result is one run, one line of the results file.
type Result struct {
	Label     string  `json:"label"`
	Kind      string  `json:"kind"`
	N         int     `json:"n"`      // rows expected (lines of -list)
	Listed    int     `json:"listed"` // rows the screen said once listing was done
	FirstRow  float64 `json:"first_row_ms"`
	AllListed float64 `json:"all_listed_ms"`
	ListWall  float64 `json:"list_wall_ms,omitempty"` // rootpick list --all DIR > /dev/null, median
	ListCPU   float64 `json:"list_cpu_ms,omitempty"`  // its user+system CPU, median
	// rootpick list --all --json DIR > /dev/null, median: the walk that
	// reads each repository's HEAD for its branch, as the picker's does.
	ListJSONWall float64           `json:"list_json_wall_ms,omitempty"`
	ListedCPU    float64           `json:"listed_cpu_ms,omitempty"` // the picker's user+system CPU when all was listed
	SelfCPU      float64           `json:"self_cpu_ms,omitempty"`   // this harness's CPU meanwhile (emulator, compares)
	RSSKB        int               `json:"rss_kb,omitempty"`
	HWMKB        int               `json:"hwm_kb,omitempty"`
	Tree         string            `json:"tree,omitempty"`      // the tree's label (.ci/bench-keys: long or short paths)
	MeanPath     float64           `json:"mean_path,omitempty"` // characters per line of -list, on average
	Emulate      string            `json:"emulate,omitempty"`   // apart or inline (see term)
	Phases       map[string]*Phase `json:"phases,omitempty"`
	Notes        []string          `json:"notes,omitempty"`
	Load         string            `json:"load"`
	When         time.Time         `json:"when"`
}

// Phase is the latencies of one kind of key, in milliseconds.
type Phase struct {
	Lat    []float64 `json:"lat_ms"` // screen changed, stamped as the inline loop stamped (see term)
	CPU    float64   `json:"cpu_ms"` // the program's user+system CPU over the phase (10 ms ticks), quiet waits included
	Missed int       `json:"missed"` // no screen change within the timeout
	Early  int       `json:"early"`  // the screen changed before the key was written (a late frame): not timed
	// The second yardstick: first visible change, read-stamped (see term).
	Vis       []float64 `json:"visible_ms,omitempty"`
	VisMissed int       `json:"visible_missed,omitempty"`
	// CPU of the children the program waited for, over the phase.
	ChildCPU float64 `json:"child_cpu_ms,omitempty"`
	// ↓ phases: child processes seen by sampling (a lower bound), and PIDs
	// handed out on the machine meanwhile (an upper bound); see the top.
	Children    int `json:"children,omitempty"`
	PIDs        int `json:"pids,omitempty"`
	SampleEvery int `json:"sample_every_us,omitempty"` // 0: children not sampled
}

type options struct {
	kind, prog, dir, list, label, out, query, size string
	args, tree, emulate                            string
	env                                            multi
	presses, warmup, burst                         int
	quiet, jitter, timeout, settle                 time.Duration
	burstGap, burstAfter, childrenEvery            time.Duration
	listRuns                                       int
	startupOnly                                    bool
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, " ") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

func run(argv []string) error {
	var o options
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	fs.StringVar(&o.kind, "kind", "rootpick", "rootpick, fzf, or fzf-find (fzf reading `find DIR` itself: startup only)")
	fs.StringVar(&o.prog, "prog", "", "the program: a rootpick binary, or fzf")
	fs.StringVar(&o.dir, "dir", "", "the tree (rootpick scans it; fzf-find walks it)")
	fs.StringVar(&o.list, "list", "", "the repositories, one a line (fzf's stdin; its line count is N)")
	fs.StringVar(&o.label, "label", "", "name of this program in the report (default: -kind)")
	fs.StringVar(&o.out, "out", "", "append the result to this JSON Lines file")
	fs.StringVar(&o.args, "args", "", "extra arguments (split at spaces), before DIR for rootpick")
	fs.Var(&o.env, "env", "extra environment `KEY=VALUE` (repeatable)")
	fs.StringVar(&o.query, "query", "mirror", "filter query, typed one key at a time and erased, over and over")
	fs.StringVar(&o.size, "size", "120x40", "terminal size")
	fs.IntVar(&o.presses, "presses", 200, "timed presses per kind of key")
	fs.IntVar(&o.warmup, "warmup", 20, "untimed presses before ↓ and toggle (the filter's first pass over the query is its warm-up)")
	fs.DurationVar(&o.quiet, "quiet", 50*time.Millisecond, "no output for this long before each key")
	fs.DurationVar(&o.jitter, "jitter", time.Second/60, "then wait a random time up to this long, so keys fall at any phase of the program's frame clock (a multiple of its frame period)")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Second, "a key that changes nothing for this long is missed")
	fs.DurationVar(&o.settle, "settle", 400*time.Millisecond, "quiet time that ends a key of the warm-up pass of the filter (its screen is the reference)")
	fs.IntVar(&o.listRuns, "list-runs", 3, "rootpick: times `PROG list --all DIR > /dev/null` runs before the picker (median)")
	fs.BoolVar(&o.startupOnly, "startup-only", false, "time the first row and the listing only, no keys")
	fs.StringVar(&o.tree, "tree", "", "label of the tree in the report (.ci/bench-keys: long or short)")
	fs.StringVar(&o.emulate, "emulate", "apart", "apart: a goroutine reads and stamps, another emulates; inline: the reader emulates each chunk before reading the next (the loop before the second yardstick)")
	fs.IntVar(&o.burst, "burst", 60, "the second yardstick's protocol: this many ↓ from the top, first of all (0: none)")
	fs.DurationVar(&o.burstGap, "burst-gap", 60*time.Millisecond, "between the burst's keys (written on a fixed schedule, no waiting for quiet)")
	fs.DurationVar(&o.burstAfter, "burst-after", time.Second, "the burst's first key this long after everything was listed")
	fs.DurationVar(&o.childrenEvery, "children-every", time.Millisecond, "during the ↓ phases, sample the program's child processes this often (0: not at all)")
	_ = fs.Parse(argv)
	k, ok := kinds[o.kind]
	if !ok || o.prog == "" || o.dir == "" || (k.keys && o.list == "") {
		fs.Usage()
		return fmt.Errorf("need -kind rootpick|fzf|fzf-find, -prog, -dir and (but for fzf-find) -list")
	}
	if o.label == "" {
		o.label = o.kind
	}
	if o.emulate != "apart" && o.emulate != "inline" {
		return fmt.Errorf("-emulate %q: apart or inline", o.emulate)
	}
	var cols, rows int
	if _, err := fmt.Sscanf(o.size, "%dx%d", &cols, &rows); err != nil {
		return fmt.Errorf("-size %q: %v", o.size, err)
	}
	r := &Result{Label: o.label, Kind: o.kind, When: time.Now(), Phases: map[string]*Phase{}, Tree: o.tree, Emulate: o.emulate}
	if o.list != "" {
		n, chars, err := countLines(o.list)
		if err != nil {
			return err
		}
		r.N = n
		if n > 0 {
			r.MeanPath = float64(chars) / float64(n)
		}
	}
	if o.kind == "rootpick" && o.listRuns > 0 {
		wall, cpu, err := listWall(o.prog, o.dir, o.listRuns)
		if err != nil {
			return err
		}
		r.ListWall, r.ListCPU = wall, cpu
		if r.ListJSONWall, _, err = listWall(o.prog, o.dir, o.listRuns, "--json"); err != nil {
			return err
		}
	}

	home, err := os.MkdirTemp("", "keybench-home-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TERM=xterm-256color", "LANG=C.UTF-8"}
	env = append(env, o.env...)
	args := strings.Fields(o.args)
	var stdin *os.File
	switch o.kind {
	case "rootpick":
		args = append(args, o.dir)
	case "fzf":
		args = append([]string{"-m", "--layout=reverse"}, args...)
		if stdin, err = os.Open(o.list); err != nil {
			return err
		}
		defer stdin.Close()
	case "fzf-find":
		args = append([]string{"-m", "--layout=reverse"}, args...)
		env = append(env, "FZF_DEFAULT_COMMAND=find "+shellQuote(o.dir)+` -name .git -prune -printf '%h\n'`)
	}

	self0 := selfCPU()
	t, err := startTerm(o.prog, args, env, stdin, cols, rows, o.emulate == "inline")
	if err != nil {
		return err
	}
	defer t.stop(k.quit)

	// Startup: the first row, then everything listed: the count is there
	// and the busy sign is gone, on a screen that then stays quiet (a frame
	// comes in several reads; while scanning, a spinner turns).
	t.setText(true)
	debug := os.Getenv("KEYBENCH_DEBUG") != ""
	first := t.add(func(_, text string) bool {
		s, _, ok := counts(k, text)
		if ok && s >= 1 && debug {
			fmt.Fprintf(os.Stderr, "first row at %v:\n%s\n", time.Since(t.start), text)
		}
		return ok && s >= 1
	})
	all := t.hold(func(_, text string) bool {
		_, tot, ok := counts(k, text)
		return ok && tot >= 1 && !k.busy.MatchString(text)
	})
	deadline := time.Now().Add(3 * time.Minute)
	for {
		ok, err := t.waitFor(time.Until(deadline), first, all)
		if ok && t.quiet(500*time.Millisecond, 5*time.Second) && !t.hit(all).IsZero() {
			break
		}
		if err != nil || time.Now().After(deadline) {
			_, text := t.snapshot()
			return fmt.Errorf("startup: not listed within 3 minutes (%v); screen:\n%s", err, text)
		}
	}
	r.ListedCPU, _ = cpuTime(t.cmd.Process.Pid)
	r.SelfCPU = selfCPU() - self0
	r.FirstRow = ms(t.hit(first).Sub(t.start))
	r.AllListed = ms(t.hit(all).Sub(t.start))
	t.remove(first, all)
	_, text := t.snapshot()
	shown, total, _ := counts(k, text)
	r.Listed = total
	if r.N > 0 && (total != r.N || shown != r.N) {
		r.Notes = append(r.Notes, fmt.Sprintf("listed %d/%d rows, expected %d", shown, total, r.N))
	}
	t.setText(false)
	b := &bench{t: t, o: o, r: r}
	keys := k.keys && !o.startupOnly
	if keys && o.burst > 0 {
		time.Sleep(time.Until(t.hit(all).Add(o.burstAfter)))
		b.burstPhase("burst_down", k.down)
	}
	if !t.quiet(time.Second, 20*time.Second) {
		r.Notes = append(r.Notes, "the screen kept changing after the listing was done")
	}

	if keys {
		b.phase("down", k.down, o.warmup)
		b.phase("toggle", k.toggle, o.warmup)
		if err := b.filter(k); err != nil {
			return err
		}
		if rss, hwm, err := memory(t.cmd.Process.Pid); err == nil {
			r.RSSKB, r.HWMKB = rss, hwm
		} else {
			r.Notes = append(r.Notes, "memory: "+err.Error())
		}
	}
	r.Load = loadavg()
	printResult(r)
	if o.out != "" {
		f, err := os.OpenFile(o.out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		return json.NewEncoder(f).Encode(r)
	}
	return nil
}

// bench runs the key phases of one run.
type bench struct {
	t *term
	o options
	r *Result
}

// key presses one key: it waits for the terminal to be quiet, writes the
// key and waits for the screen to change and, if ref is not empty, for its
// text to equal ref. It returns the latencies (negative if not met): the
// screen changed (inline stamps), its first visible change (read stamps)
// and the results drawn.
func (b *bench) key(key, ref string) (changed, visible, drawn float64, early bool) {
	t := b.t
	if !t.quiet(b.o.quiet, 10*time.Second) {
		b.r.Notes = append(b.r.Notes, "never quiet before a key")
	}
	// Bubble Tea draws on a ticker (60 or 120 frames a second) whose last
	// frame ended the quiet time: a key written a whole number of frames
	// later would always wait for a full frame. A person's key comes at any
	// phase.
	if b.o.jitter > 0 {
		time.Sleep(rand.N(b.o.jitter))
	}
	before, _ := t.snapshot()
	ch := t.add(func(s, _ string) bool { return s != before })
	ws := []*watch{ch}
	var eq *watch
	if ref != "" {
		eq = t.add(func(_, text string) bool { return text == ref })
		ws = append(ws, eq)
	}
	at, vis, err := t.press(key)
	if err != nil {
		t.remove(ws...)
		return -1, -1, -1, false
	}
	ws = append(ws, vis)
	_, _ = t.waitFor(b.o.timeout, ws...)
	t.remove(ws...)
	changed, visible, drawn = -1, -1, -1
	if h := t.hitRead(vis); !h.IsZero() {
		visible = ms(h.Sub(at))
	}
	if h := t.hit(ch); !h.IsZero() {
		if h.Before(at) {
			return -1, visible, -1, true
		}
		changed = ms(h.Sub(at))
	}
	if eq != nil {
		if h := t.hit(eq); !h.IsZero() && !h.Before(at) {
			drawn = ms(h.Sub(at))
		} else if os.Getenv("KEYBENCH_DEBUG") != "" {
			_, now := t.snapshot()
			fmt.Fprintf(os.Stderr, "key %q: never drew its reference screen; now:\n%s\nreference:\n%s\n", key, now, ref)
		}
	}
	return changed, visible, drawn, false
}

func (b *bench) phaseOf(name string) *Phase {
	p := b.r.Phases[name]
	if p == nil {
		p = &Phase{}
		b.r.Phases[name] = p
	}
	return p
}

// cpu adds the program's CPU time and its children's since *since to
// phase name.
func (b *bench) cpu(name string, since *cpuT) {
	now := cpuTimes(b.t.cmd.Process.Pid)
	p := b.phaseOf(name)
	p.CPU += now.own - since.own
	p.ChildCPU += now.children - since.children
	*since = now
}

func (b *bench) record(name string, lat float64, early bool) {
	p := b.phaseOf(name)
	switch {
	case early:
		p.Early++
	case lat < 0:
		p.Missed++
	default:
		p.Lat = append(p.Lat, lat)
	}
}

// recordVis records a key's first visible change (negative: none within
// the timeout).
func (b *bench) recordVis(name string, vis float64) {
	p := b.phaseOf(name)
	if vis < 0 {
		p.VisMissed++
	} else {
		p.Vis = append(p.Vis, vis)
	}
}

// phase presses key warm times untimed, then -presses times timed.
func (b *bench) phase(name, key string, warm int) {
	for range warm {
		b.key(key, "")
	}
	stop := b.sampleChildren(name, name == "down")
	cpu := cpuTimes(b.t.cmd.Process.Pid)
	for range b.o.presses {
		lat, vis, _, early := b.key(key, "")
		b.record(name, lat, early)
		b.recordVis(name, vis)
	}
	b.cpu(name, &cpu)
	stop()
}

// burstPhase is the second yardstick's protocol: -burst presses of key
// written -burst-gap apart on a fixed schedule, never waiting for the
// screen; each is timed to its first visible change (and, in Lat, to the
// inline stamp of the same chunk). Its CPU runs from the first key until
// the terminal is quiet after the last.
func (b *bench) burstPhase(name, key string) {
	t, o := b.t, b.o
	stop := b.sampleChildren(name, true)
	cpu := cpuTimes(t.cmd.Process.Pid)
	ats := make([]time.Time, o.burst)
	ws := make([]*watch, 0, o.burst)
	t0 := time.Now()
	for i := range o.burst {
		time.Sleep(time.Until(t0.Add(time.Duration(i) * o.burstGap)))
		at, w, err := t.press(key)
		if err != nil {
			break
		}
		ats[i] = at
		ws = append(ws, w)
	}
	_, _ = t.waitFor(o.timeout, ws...)
	t.quiet(o.quiet, 10*time.Second)
	t.remove(ws...)
	b.cpu(name, &cpu)
	stop()
	p := b.phaseOf(name)
	for i, w := range ws {
		read, at := t.hitRead(w), t.hit(w)
		if read.IsZero() || read.Sub(ats[i]) > o.timeout {
			p.Missed++
			p.VisMissed++
			continue
		}
		p.Vis = append(p.Vis, ms(read.Sub(ats[i])))
		p.Lat = append(p.Lat, ms(at.Sub(ats[i])))
	}
}

// sampleChildren, when on and -children-every is set, counts the
// program's direct children seen in /proc/PID/task/*/children, sampled
// every -children-every, and the PIDs handed out on the machine
// meanwhile, into phase name, until the function it returns is called.
func (b *bench) sampleChildren(name string, on bool) (stop func()) {
	every := b.o.childrenEvery
	if !on || every <= 0 {
		return func() {}
	}
	pid := b.t.cmd.Process.Pid
	pid0 := lastPID()
	quit, done := make(chan struct{}), make(chan struct{})
	seen := map[string]bool{}
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		var files []string
		for i := 0; ; i++ {
			if i%200 == 0 { // threads come and go, rarely
				files, _ = filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "children"))
			}
			for _, f := range files {
				data, _ := os.ReadFile(f)
				for _, c := range strings.Fields(string(data)) {
					seen[c] = true
				}
			}
			select {
			case <-quit:
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(quit)
		<-done
		p := b.phaseOf(name)
		p.Children += len(seen)
		p.SampleEvery = int(every.Microseconds())
		if pid1 := lastPID(); pid0 > 0 && pid1 > 0 {
			n := pid1 - pid0
			if n < 0 { // wrapped around pid_max
				n += pidMax()
			}
			p.PIDs += n
		}
	}
}

// filter types the query one key at a time and erases it, over and over.
// The first two passes are the warm-up; the second records the text of the
// screen each key settles on, the reference for "results drawn" (not the
// first: rootpick keeps its cursor on its row when the query changes, so
// the first pass starts from another row than the next ones). Text, not
// styles: the text cursor blinks, and on the placeholder of an empty query
// it is a letter in reverse video, then a dim one.
func (b *bench) filter(k kind) error {
	t := b.t
	t.setText(true)
	defer t.setText(false)
	if k.openFilter != "" {
		if lat, _, _, _ := b.key(k.openFilter, ""); lat < 0 {
			return fmt.Errorf("%q did not open the filter", k.openFilter)
		}
	}
	q := strings.Split(b.o.query, "")
	keys := make([]string, 0, 2*len(q))
	keys = append(keys, q...)
	for range q {
		keys = append(keys, k.backspace)
	}
	refs := make([]string, len(keys))
	var cpu cpuT
	for pass := 0; (pass-2)*len(q) < b.o.presses; pass++ {
		if pass == 2 {
			cpu = cpuTimes(t.cmd.Process.Pid)
		}
		for i, key := range keys {
			if pass < 2 {
				b.key(key, "")
				t.quiet(b.o.settle, 10*time.Second)
				_, refs[i] = t.snapshot()
				continue
			}
			name := "type"
			if i >= len(q) {
				name = "erase"
			}
			if i == len(q) {
				b.cpu("type", &cpu)
			}
			lat, vis, drawn, early := b.key(key, refs[i])
			b.record(name, lat, early)
			b.recordVis(name, vis)
			b.record(name+"_drawn", drawn, early)
		}
		if pass >= 2 {
			b.cpu("erase", &cpu)
		}
	}
	return nil
}

// counts reads the shown and total rows from the screen.
func counts(k kind, text string) (shown, total int, ok bool) {
	m := k.count.FindStringSubmatch(text)
	if m == nil {
		return 0, 0, false
	}
	total, _ = strconv.Atoi(m[2])
	shown = total
	if m[1] != "" {
		shown, _ = strconv.Atoi(m[1])
	}
	return shown, total, true
}

// listWall times `prog list --all [flags] dir > /dev/null` runs times:
// the median wall and CPU (user+system) times in ms.
func listWall(prog, dir string, runs int, flags ...string) (wall, cpu float64, err error) {
	var ws, cs []float64
	for range runs {
		cmd := exec.Command(prog, append(append([]string{"list", "--all"}, flags...), dir)...)
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return 0, 0, fmt.Errorf("%s list --all %s: %v", prog, dir, err)
		}
		ws = append(ws, ms(time.Since(start)))
		cs = append(cs, ms(cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime()))
	}
	return median(ws), median(cs), nil
}

// selfCPU is this process's user+system CPU time so far, in ms.
func selfCPU() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ms(time.Duration(ru.Utime.Nano() + ru.Stime.Nano()))
}

// cpuT is CPU time in ms: a process's own, and that of its children it
// waited for (and theirs).
type cpuT struct{ own, children float64 }

// cpuTime is the user+system CPU time of pid so far, in ms (10 ms ticks).
func cpuTime(pid int) (float64, error) {
	c, err := readCPU(pid)
	return c.own, err
}

// cpuTimes is cpuTime with its children's (zero if pid is gone).
func cpuTimes(pid int) cpuT {
	c, _ := readCPU(pid)
	return c
}

func readCPU(pid int) (cpuT, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return cpuT{}, err
	}
	// Fields after the command name (which may hold spaces): state is the
	// first, utime and stime the 12th and 13th, cutime and cstime the 14th
	// and 15th.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 15 {
		return cpuT{}, fmt.Errorf("short /proc/%d/stat", pid)
	}
	var v [4]int
	for i := range v {
		v[i], _ = strconv.Atoi(f[11+i])
	}
	return cpuT{own: float64(v[0]+v[1]) * 10, children: float64(v[2]+v[3]) * 10}, nil
}

// lastPID is the PID the kernel handed out last, on the whole machine
// (the 5th field of /proc/loadavg; 0 if unknown).
func lastPID() int {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 5 {
		return 0
	}
	n, _ := strconv.Atoi(f[4])
	return n
}

func pidMax() int {
	b, err := os.ReadFile("/proc/sys/kernel/pid_max")
	if err != nil {
		return 1 << 22
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// memory reads VmRSS and VmHWM (kB) of pid.
func memory(pid int) (rss, hwm int, err error) {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		switch fields[0] {
		case "VmRSS:":
			rss, _ = strconv.Atoi(fields[1])
		case "VmHWM:":
			hwm, _ = strconv.Atoi(fields[1])
		}
	}
	return rss, hwm, sc.Err()
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// countLines returns the lines of path and their characters (newlines
// not counted).
func countLines(path string) (lines, chars int, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	lines = strings.Count(string(b), "\n")
	return lines, utf8.RuneCount(b) - lines, nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(xs []float64) float64 { return pct(xs, 50) }

// pct is the p-th percentile (nearest rank) of xs.
func pct(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(p/100*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func printResult(r *Result) {
	switch {
	case r.Tree != "" && r.MeanPath > 0:
		fmt.Printf("[%s tree, paths %.0f characters] ", r.Tree, r.MeanPath)
	case r.Tree != "":
		fmt.Printf("[%s tree] ", r.Tree)
	}
	fmt.Printf("%s (%s) N=%d listed=%d first row %.0f ms, all listed %.0f ms", r.Label, r.Kind, r.N, r.Listed, r.FirstRow, r.AllListed)
	if r.ListWall > 0 {
		fmt.Printf(", list --all %.0f ms (×%.2f), --json %.0f ms (×%.2f); CPU %.0f ms listing (harness %.0f ms), list %.0f ms", r.ListWall, r.AllListed/r.ListWall, r.ListJSONWall, r.AllListed/r.ListJSONWall, r.ListedCPU, r.SelfCPU, r.ListCPU)
	}
	if r.RSSKB > 0 {
		fmt.Printf(", RSS %.1f MB, HWM %.1f MB", float64(r.RSSKB)/1024, float64(r.HWMKB)/1024)
	}
	fmt.Printf(", load %s\n", r.Load)
	for _, name := range phaseNames {
		p := r.Phases[name]
		if p == nil {
			continue
		}
		fmt.Printf("  %-12s n=%d p50 %.1f p95 %.1f max %.1f ms, missed %d, early %d", name, len(p.Lat), pct(p.Lat, 50), pct(p.Lat, 95), pct(p.Lat, 100), p.Missed, p.Early)
		if len(p.Vis) > 0 {
			fmt.Printf("; first visible p50 %.1f p95 %.1f max %.1f ms", pct(p.Vis, 50), pct(p.Vis, 95), pct(p.Vis, 100))
		}
		if keys := p.keys(); p.CPU > 0 && keys > 0 {
			fmt.Printf(", CPU %.2f ms/key (with children %.2f)", p.CPU/float64(keys), (p.CPU+p.ChildCPU)/float64(keys))
		}
		if p.SampleEvery > 0 {
			fmt.Printf(", children seen %d, PIDs handed out %d", p.Children, p.PIDs)
		}
		fmt.Println()
	}
	for _, n := range r.Notes {
		fmt.Println("  note:", n)
	}
}

var phaseNames = []string{"burst_down", "down", "toggle", "type", "type_drawn", "erase", "erase_drawn"}

// keys is the number of keys pressed in the phase.
func (p *Phase) keys() int { return len(p.Lat) + p.Missed + p.Early }
