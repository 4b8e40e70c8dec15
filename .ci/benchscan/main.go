// Command benchscan runs the scan benchmark of .ci/bench-scan: it times
// rootpick list, find, fd and a bare floor walker on the same tree, in
// alternation, checks that they find the same Git repositories (against the
// tree's manifest, which says where find and fd are wrong by design), and
// prints medians and ratios, and the time to the first result.
//
//	benchscan run -rootpick BIN -manifest M.jsonl [-rounds 5] [-list-args '--all'] DIR
//	benchscan floor DIR     the floor: 2 workers, open + getdents + close only
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchscan run|floor ...")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "floor":
		floor(os.Args[2])
	case "run":
		run(os.Args[2:])
	default:
		fmt.Fprintln(os.Stderr, "usage: benchscan run|floor ...")
		os.Exit(2)
	}
}

// floor walks dir with two goroutines doing nothing but open, getdents and
// close (no stat, no allocation per entry, .git not entered, symlinks not
// followed), and prints the number of folders. Each goroutine keeps its own
// stack and gives half of it away only when the other one is idle, so the
// lock is rarely taken. Nothing walks the tree for much less; it is the
// floor the others are measured against.
func floor(dir string) {
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		global  = []string{dir}
		idle    atomic.Int32
		pending atomic.Int64
		done    bool
		dirs    atomic.Int64
		wg      sync.WaitGroup
	)
	pending.Store(1)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 32<<10)
			var local []string
			for {
				var p string
				if n := len(local); n > 0 {
					if n > 1 && idle.Load() > 0 {
						mu.Lock()
						global = append(global, local[:n/2]...)
						cond.Broadcast()
						mu.Unlock()
						local = local[:copy(local, local[n/2:])]
						n = len(local)
					}
					p, local = local[n-1], local[:n-1]
				} else {
					mu.Lock()
					idle.Add(1)
					for len(global) == 0 && !done {
						cond.Wait()
					}
					idle.Add(-1)
					if len(global) == 0 {
						mu.Unlock()
						return
					}
					p, global = global[len(global)-1], global[:len(global)-1]
					mu.Unlock()
				}
				before := len(local)
				fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, 0)
				if err == nil {
					dirs.Add(1)
					for {
						n, err := syscall.ReadDirent(fd, buf)
						if err != nil || n <= 0 {
							break
						}
						b := buf[:n]
						for len(b) > 19 {
							d := (*syscall.Dirent)(unsafe.Pointer(&b[0]))
							rl := int(d.Reclen)
							name := b[19:rl]
							if i := bytes.IndexByte(name, 0); i >= 0 {
								name = name[:i]
							}
							b = b[rl:]
							if d.Type != syscall.DT_DIR || string(name) == "." || string(name) == ".." || string(name) == ".git" {
								continue
							}
							local = append(local, p+"/"+string(name))
						}
					}
					syscall.Close(fd)
				}
				pending.Add(int64(len(local) - before))
				if pending.Add(-1) == 0 {
					mu.Lock()
					done = true
					cond.Broadcast()
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	fmt.Println(dirs.Load(), "folders")
}

type entry struct {
	Rel, Kind, Branch, DotGit string
	Heavy                     bool
}

type tool struct {
	name  string
	args  []string
	times []time.Duration
	first []time.Duration
	out   []byte
}

func run(args []string) {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	rootpick := fs.String("rootpick", "rootpick", "rootpick binary")
	manifest := fs.String("manifest", "", "the tree's manifest (gentree -manifest)")
	rounds := fs.Int("rounds", 5, "runs of each tool, alternating")
	listArgs := fs.String("list-args", "--all", "flags for rootpick list")
	minRepos := fs.Int("min-repos", 0, "fail unless the manifest holds at least `N` repositories rootpick must list (projects and broken .git entries not counted)")
	var extra []string
	fs.Func("extra", "also time `LABEL=BINARY` (run as BINARY DIR; repeatable), e.g. a fastwalk-based walker", func(v string) error {
		extra = append(extra, v)
		return nil
	})
	fs.Parse(args)
	dir, _ := filepath.Abs(fs.Arg(0))
	self, _ := os.Executable()

	fd := "fdfind"
	if _, err := exec.LookPath(fd); err != nil {
		fd = "fd"
	}
	// --full-path: absolute paths, as find and fd print them and as check
	// compares them.
	tools := []*tool{
		{name: "rootpick list " + *listArgs, args: append(append([]string{*rootpick, "list", "--full-path"}, strings.Fields(*listArgs)...), dir)},
		{name: "rootpick list " + *listArgs + " --stream", args: append(append([]string{*rootpick, "list", "--full-path"}, strings.Fields(*listArgs)...), "--stream", dir)},
		{name: "find -name .git -prune", args: []string{"find", dir, "-name", ".git", "-prune"}},
		{name: "fd -H -I --prune", args: []string{fd, "-H", "-I", "--prune", "-t", "d", "-t", "f", `^\.git$`, dir}},
		{name: "floor (2 workers, getdents)", args: []string{self, "floor", dir}},
	}
	if _, err := exec.LookPath(fd); err != nil {
		fmt.Fprintln(os.Stderr, "benchscan: fd not found (apt-get install fd-find); leaving it out")
		tools = slices.Delete(tools, 3, 4)
	}
	for _, e := range extra {
		label, bin, _ := strings.Cut(e, "=")
		tools = append(tools, &tool{name: label, args: []string{bin, dir}})
	}
	// Warm the cache, then alternate.
	for _, t := range tools {
		t.once()
	}
	for range *rounds {
		for _, t := range tools {
			d, first := t.once()
			t.times = append(t.times, d)
			t.first = append(t.first, first)
		}
	}

	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("tree %s, %d CPUs, load average %s", dir, runtime.NumCPU(), load)
	fmt.Printf("%d rounds, alternating, warm cache; medians:\n\n", *rounds)
	base := map[string]time.Duration{}
	for _, t := range tools {
		base[strings.Fields(t.name)[0]] = median(t.times)
	}
	fmt.Printf("| command | median | first result | × fd | × find | × floor |\n|---|---|---|---|---|---|\n")
	for _, t := range tools {
		m := median(t.times)
		ratio := func(k string) string {
			if b, ok := base[k]; ok && b > 0 {
				return fmt.Sprintf("%.2f", float64(m)/float64(b))
			}
			return "–"
		}
		fmt.Printf("| `%s` | %s | %s | %s | %s | %s |\n", t.name, ms(m), ms(median(t.first)), ratio("fd"), ratio("find"), ratio("floor"))
	}

	if *manifest != "" {
		check(dir, *manifest, tools, *listArgs, *minRepos)
	}
}

// once runs the tool, keeps its output, and returns the wall time and the
// time to its first byte of output.
func (t *tool) once() (time.Duration, time.Duration) {
	cmd := exec.Command(t.args[0], t.args[1:]...)
	cmd.Stderr = nil
	pr, pw, err := os.Pipe()
	if err != nil {
		panic(err)
	}
	cmd.Stdout = pw
	start := time.Now()
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	pw.Close()
	var out bytes.Buffer
	var first time.Duration
	buf := make([]byte, 64<<10)
	for {
		n, err := pr.Read(buf)
		if n > 0 && first == 0 {
			first = time.Since(start)
		}
		out.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", t.name, err)
	}
	d := time.Since(start)
	t.out = out.Bytes()
	return d, first
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/1e6) }

// check compares each tool's Git result set with what the manifest says it
// must be.
func check(dir, manifest string, tools []*tool, listArgs string, minRepos int) {
	b, err := os.ReadFile(manifest)
	if err != nil {
		fmt.Println("cannot read manifest:", err)
		os.Exit(1)
	}
	all := strings.Contains(listArgs, "--all")
	var es []entry
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var e entry
		if err := json.Unmarshal(line, &e); err != nil {
			fmt.Println("bad manifest line:", err)
			os.Exit(1)
		}
		es = append(es, e)
	}
	want := func(keep func(entry) bool) map[string]bool {
		m := map[string]bool{}
		for _, e := range es {
			if keep(e) {
				m[filepath.Join(dir, filepath.FromSlash(e.Rel))] = true
			}
		}
		return m
	}
	// What each tool must report, by design:
	// find lists every entry named .git (a FIFO or a dangling symlink
	// too); fd, not following symlinks, lists .git folders and files but
	// no symlink; rootpick lists every repository, including bare ones,
	// other VCSs and projects, and no FIFO.
	wantFind := want(func(e entry) bool { return e.DotGit != "" })
	wantFd := want(func(e entry) bool { return e.DotGit == "dir" || e.DotGit == "file" })
	wantRootpick := want(func(e entry) bool { return e.Kind != "" && (all || !e.Heavy) })
	ok := true
	fmt.Println()
	// What rootpick must list, by kind; repositories are every kind but
	// project and broken.
	kinds := map[string]int{}
	repos := 0
	for _, e := range es {
		if e.Kind != "" && (all || !e.Heavy) {
			kinds[e.Kind]++
			if e.Kind != "project" && e.Kind != "broken" {
				repos++
			}
		}
	}
	names := slices.Sorted(maps.Keys(kinds))
	fmt.Printf("manifest: rootpick must list %d entries: %d repositories", len(wantRootpick), repos)
	for _, k := range names {
		fmt.Printf(", %d %s", kinds[k], k)
	}
	fmt.Println()
	if repos < minRepos {
		fmt.Printf("TOO FEW: the tree holds %d repositories, fewer than -min-repos %d\n", repos, minRepos)
		ok = false
	}
	for _, t := range tools {
		var got map[string]bool
		var exp map[string]bool
		switch strings.Fields(t.name)[0] {
		case "find":
			got, exp = lines(t.out, true), wantFind
		case "fd":
			got, exp = lines(t.out, true), wantFd
		case "rootpick":
			got, exp = lines(t.out, false), wantRootpick
		default:
			continue
		}
		missing, extra := diff(exp, got)
		status := "same set as the manifest"
		if len(missing)+len(extra) > 0 {
			ok = false
			status = fmt.Sprintf("DIFFERS: %d missing %q…, %d extra %q…", len(missing), head(missing), len(extra), head(extra))
		}
		fmt.Printf("%-40s %6d results: %s\n", t.name, len(got), status)
	}
	// The plain Git repositories (.git folder or file) are the set all three
	// must agree on.
	plain := want(func(e entry) bool { return (e.DotGit == "dir" || e.DotGit == "file") && (all || !e.Heavy) })
	for _, t := range tools {
		if strings.Fields(t.name)[0] == "floor" {
			continue
		}
		got := lines(t.out, strings.Fields(t.name)[0] != "rootpick")
		for p := range plain {
			if !got[p] {
				fmt.Printf("%s misses %s\n", t.name, p)
				ok = false
				break
			}
		}
	}
	fmt.Printf("Git repositories with a .git folder or file that rootpick must list: %d; every tool lists all of them\n", len(plain))
	if !ok {
		os.Exit(1)
	}
}

func head(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// lines turns output into a set of folders; strip removes a final /.git.
func lines(out []byte, strip bool) map[string]bool {
	m := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := strings.TrimSuffix(sc.Text(), "/")
		if strip {
			l = strings.TrimSuffix(l, "/.git")
		}
		m[l] = true
	}
	return m
}

func diff(want, got map[string]bool) (missing, extra []string) {
	for k := range want {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	for k := range got {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return missing, extra
}
