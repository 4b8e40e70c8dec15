package mcpconn

import (
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/panics"
)

// availability watches the served roots (the Roots page: clients MUST
// monitor root accessibility). A root that is deleted, renamed, made
// unreadable, or whose canonical path changes (it or a parent swapped for a
// symlink) is withdrawn from every server at once and never served again
// without a new consent. File-system events make it quick; a re-check every
// Timing.Revalidate backs them up where events do not come (network
// folders, a parent made unreadable).
type availability struct {
	h    *Hub
	w    *fsnotify.Watcher // nil if the system gives none
	poke chan struct{}
	done chan struct{}
	once sync.Once

	mu      sync.Mutex
	roots   []consent.Root
	watched map[string]bool
}

func newAvailability(h *Hub) *availability {
	a := &availability{h: h, poke: make(chan struct{}, 1), done: make(chan struct{}), watched: map[string]bool{}}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		h.logger.Warn("no file-system events; re-checking roots periodically only", "err", err)
	} else {
		a.w = w
	}
	h.running.Add(1)
	go func() {
		defer panics.Guard()
		defer h.running.Done()
		a.run()
	}()
	return a
}

// update sets the roots to watch.
func (a *availability) update(roots []consent.Root) {
	a.mu.Lock()
	a.roots = slices.Clone(roots)
	want := map[string]bool{}
	for _, r := range roots {
		// The root itself (chmod, deletion) and its parent (rename, a
		// symlink put in its place).
		want[r.Path] = true
		want[filepath.Dir(r.Path)] = true
	}
	if a.w != nil {
		for p := range a.watched {
			if !want[p] {
				_ = a.w.Remove(p)
				delete(a.watched, p)
			}
		}
		for p := range want {
			if !a.watched[p] && a.w.Add(p) == nil {
				a.watched[p] = true
			}
		}
	}
	a.mu.Unlock()
	a.check()
}

func (a *availability) check() {
	select {
	case a.poke <- struct{}{}:
	default:
	}
}

func (a *availability) close() {
	a.once.Do(func() {
		close(a.done)
		if a.w != nil {
			_ = a.w.Close()
		}
	})
}

func (a *availability) run() {
	var events <-chan fsnotify.Event
	var errs <-chan error
	if a.w != nil {
		events, errs = a.w.Events, a.w.Errors
	}
	tick := time.NewTicker(a.h.timing.Revalidate)
	defer tick.Stop()
	for {
		select {
		case <-a.done:
			return
		case _, ok := <-events:
			if !ok {
				events = nil
				continue
			}
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			a.h.logger.Warn("file watch", "err", err)
		case <-tick.C:
		case <-a.poke:
		}
		a.revalidate()
	}
}

// revalidate checks every watched root and withdraws those that changed.
func (a *availability) revalidate() {
	a.mu.Lock()
	roots := a.roots
	a.mu.Unlock()
	var gone []withdrawal
	for _, r := range roots {
		if why := consent.Recheck(r); why != "" {
			gone = append(gone, withdrawal{root: r, why: why})
		}
	}
	if len(gone) > 0 {
		a.h.withdraw(gone)
	}
}

type withdrawal struct {
	root consent.Root
	why  string
}

// withdraw removes roots from the served set, with one notification, and
// says so.
func (h *Hub) withdraw(gone []withdrawal) {
	h.setMu.Lock()
	defer h.setMu.Unlock()
	if h.isClosed() {
		return
	}
	cur := h.served.Load().roots
	var keep []consent.Root
	var out []withdrawal
	for _, r := range cur {
		i := slices.IndexFunc(gone, func(w withdrawal) bool { return w.root.Path == r.Path })
		if i < 0 {
			keep = append(keep, r)
		} else {
			out = append(out, gone[i])
		}
	}
	if len(out) == 0 {
		return // a change made meanwhile no longer holds them
	}
	if f := h.hooks.withdrawing; f != nil {
		f(keep)
	}
	// keep was decided from the set served now: only setMu, held since
	// that read, makes sure no consent confirmed meanwhile is undone.
	h.swap(keep)
	for _, w := range out {
		h.logger.Warn("root withdrawn", "path", w.root.Path, "why", w.why)
		h.publish(Event{Kind: Withdrawn, Path: w.root.Path, Text: w.why})
	}
}
