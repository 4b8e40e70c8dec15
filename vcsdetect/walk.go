package vcsdetect

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/rootpick/rootpick/internal/panics"
)

// entryType is the type of a folder entry as far as the walk cares.
type entryType uint8

const (
	typeUnknown entryType = iota // the file system did not say: lstat it
	typeDir
	typeFile
	typeSymlink
	typeOther // FIFO, socket, device
)

// fileID identifies a file by device and inode; the zero value means
// "unknown" and never matches. (On Windows every id is unknown: nothing
// there sets ino, hence the nolint.)
type fileID struct {
	dev uint64
	ino uint64 //nolint:unused // set by the unix readers only
}

// job is one folder to read.
type job struct {
	path   string
	depth  int
	inRepo bool // a repository contains it: project markers do not count
	link   bool // reached through a symlink (Options.Follow)
}

// shared is the state all walking goroutines of one scan share. The queue
// is a LIFO (depth first, so memory stays small); each worker keeps its own
// stack and hands half of it over only when another worker is idle, so the
// lock is rarely taken.
type shared struct {
	opts    Options
	log     *slog.Logger
	skip    map[string]bool
	markers map[string]bool
	// besideFiles holds every file name a SkipBeside rule looks for.
	besideFiles map[string]bool
	rootDev     uint64
	out         chan []Repo
	stop        atomic.Bool     // cancelled
	done        <-chan struct{} // the scan's ctx.Done()
	pending     atomic.Int64

	mu       sync.Mutex
	cond     *sync.Cond
	global   []job
	idle     atomic.Int32
	finished bool

	seenMu sync.Mutex
	seen   map[fileID]bool // folders walked (Follow) or repositories reported

	dirs, repos, warnings, skipped atomic.Int64
}

// scan implements Scan: it checks dir, starts the workers and relays what
// they find to found on the calling goroutine.
func scan(ctx context.Context, dir string, opts Options, found func(Repo)) (Stats, error) {
	root, err := filepath.Abs(dir) // Abs also cleans the path.
	if err != nil {
		return Stats{}, fmt.Errorf("vcsdetect: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return Stats{}, err
	}
	if found == nil {
		found = func(Repo) {}
	}
	s := &shared{
		opts:    opts,
		log:     opts.Logger,
		skip:    map[string]bool{},
		markers: map[string]bool{},
		out:     make(chan []Repo, 64),
		seen:    map[fileID]bool{},
		done:    ctx.Done(),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if !opts.All {
		for _, n := range DefaultSkip {
			s.skip[n] = true
		}
	}
	for _, n := range opts.Skip {
		s.skip[n] = true
	}
	markers := DefaultMarkers
	if opts.Markers != nil {
		markers = opts.Markers
	}
	for _, n := range markers {
		s.markers[n] = true
	}
	s.besideFiles = map[string]bool{}
	for _, files := range SkipBeside {
		for _, f := range files {
			s.besideFiles[f] = true
		}
	}
	s.cond = sync.NewCond(&s.mu)

	// The scanned folder itself may be reached through a symlink (the user
	// named it); only symlinks met during the walk are not followed.
	id, typ, err := statID(root)
	if err != nil {
		return Stats{}, fmt.Errorf("vcsdetect: %w", err)
	}
	if typ != typeDir {
		return Stats{}, fmt.Errorf("vcsdetect: %w", &fs.PathError{Op: "scan", Path: root, Err: syscall.ENOTDIR})
	}
	s.rootDev = id.dev
	// Read the root here, so that an unreadable root is an error and not a
	// warning; the workers take its subfolders from there.
	first := &worker{s: s, r: newDirReader()}
	rootJob := job{path: root, link: true}
	var children []job
	if err := s.visit(first, rootJob, &children, true); err != nil {
		return Stats{}, fmt.Errorf("vcsdetect: %w", err)
	}

	workers := opts.Workers
	if workers <= 0 {
		workers = max(2, runtime.GOMAXPROCS(0))
	}
	s.pending.Store(int64(len(children)))
	s.global = children
	if len(children) == 0 {
		s.finished = true
	}
	stopWatch := context.AfterFunc(ctx, func() {
		s.stop.Store(true)
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	defer stopWatch()

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		w := first
		if w == nil {
			w = &worker{s: s, r: newDirReader()}
		}
		go func() {
			defer panics.Guard()
			defer wg.Done()
			w.work()
		}()
		first = nil
	}
	go func() {
		defer panics.Guard()
		wg.Wait()
		close(s.out)
	}()

	every := opts.ProgressEvery
	if every <= 0 {
		every = 100 * time.Millisecond
	}
	var tick <-chan time.Time
	if opts.Progress != nil {
		t := time.NewTicker(every)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case batch, ok := <-s.out:
			if !ok {
				if err := ctx.Err(); err != nil {
					return s.stats(), err
				}
				return s.stats(), nil
			}
			for _, r := range batch {
				if ctx.Err() != nil {
					break
				}
				s.repos.Add(1)
				found(r)
			}
		case <-tick:
			opts.Progress(s.stats())
		}
	}
}

func (s *shared) stats() Stats {
	return Stats{
		Dirs:     int(s.dirs.Load()),
		Repos:    int(s.repos.Load()),
		Warnings: int(s.warnings.Load()),
		Skipped:  int(s.skipped.Load()),
	}
}

// worker is the state of one walking goroutine: its folder reader and the
// repositories it found but has not handed over yet.
type worker struct {
	s       *shared
	r       *dirReader
	batch   []Repo
	sent    time.Time // when the last batch was handed over
	subdirs []string  // the listing's, reused from folder to folder
}

// batchMax and batchAge bound how long a found repository waits in a
// worker's batch: handing over one repository at a time costs a channel
// send and often a wake-up of the calling goroutine each, which showed on
// trees dense with repositories; a batch goes as soon as it is this full
// or this old, or the worker runs out of work.
const (
	batchMax = 64
	batchAge = 5 * time.Millisecond
)

// add queues a repository for the calling goroutine.
func (w *worker) add(r Repo) {
	if w.batch == nil {
		w.batch = make([]Repo, 0, batchMax)
	}
	w.batch = append(w.batch, r)
	if len(w.batch) == 1 && w.sent.IsZero() {
		w.flush() // the first result of a worker goes at once
	}
}

// maybeFlush hands the batch over if it is full or old enough.
func (w *worker) maybeFlush() {
	if len(w.batch) > 0 && (len(w.batch) >= batchMax || time.Since(w.sent) >= batchAge) {
		w.flush()
	}
}

// flush hands the batch over, unless the scan was cancelled.
func (w *worker) flush() {
	if len(w.batch) == 0 {
		return
	}
	select {
	case w.s.out <- w.batch:
	case <-w.s.done:
	}
	w.batch, w.sent = nil, time.Now()
}

// work is one walking goroutine: it takes folders from its own stack, or
// from the shared one when its own is empty, until the walk is done or
// cancelled.
func (w *worker) work() {
	s := w.s
	defer w.flush()
	var local []job
	for {
		if s.stop.Load() {
			return
		}
		var j job
		if n := len(local); n > 0 {
			if n > 1 && s.idle.Load() > 0 {
				half := n / 2
				s.share(local[:half])
				local = local[:copy(local, local[half:])]
				n = len(local)
			}
			j, local = local[n-1], local[:n-1]
		} else {
			w.flush() // nothing is waiting behind an idle worker
			var ok bool
			if j, ok = s.take(); !ok {
				return
			}
		}
		before := len(local)
		if err := s.visit(w, j, &local, false); err != nil {
			s.warnings.Add(1)
			s.log.Warn("vcsdetect: skipping unreadable folder", "path", j.path, "err", err)
		}
		// Count the children before the folder is done, so that pending
		// cannot touch zero while work remains.
		if added := len(local) - before; added > 0 {
			s.pending.Add(int64(added))
		}
		if s.pending.Add(-1) == 0 {
			s.mu.Lock()
			s.finished = true
			s.cond.Broadcast()
			s.mu.Unlock()
		}
		w.maybeFlush()
	}
}

// share puts jobs on the shared stack and wakes idle workers.
func (s *shared) share(jobs []job) {
	s.mu.Lock()
	s.global = append(s.global, jobs...)
	s.cond.Broadcast()
	s.mu.Unlock()
}

// take waits for a job on the shared stack; false means the walk is over.
func (s *shared) take() (job, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.idle.Add(1)
	for len(s.global) == 0 && !s.finished && !s.stop.Load() {
		s.cond.Wait()
	}
	s.idle.Add(-1)
	if len(s.global) == 0 || s.stop.Load() {
		return job{}, false
	}
	j := s.global[len(s.global)-1]
	s.global = s.global[:len(s.global)-1]
	return j, true
}

// markOnce records id and reports whether it was new. A zero id (unknown)
// is always new.
func (s *shared) markOnce(id fileID) bool {
	if id == (fileID{}) {
		return true
	}
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	if s.seen[id] {
		return false
	}
	s.seen[id] = true
	return true
}
