package proxy

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/panics"
)

// FileSource is a RootSource backed by a file that another process
// replaces (the consent store: written to a temporary file, then renamed).
// It watches the file's folder, so a rename over the file is seen, and
// signals within milliseconds of the change.
type FileSource struct {
	load    func() ([]consent.Root, error)
	changed chan struct{}
}

// NewFileSource watches path until ctx ends; load reads the set from it.
// If the folder cannot be watched, Changed never fires, and a caller that
// also re-reads periodically (as Run does) still sees changes.
func NewFileSource(ctx context.Context, path string, load func() ([]consent.Root, error)) *FileSource {
	f := &FileSource{load: load, changed: make(chan struct{}, 1)}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return f
	}
	if err := w.Add(filepath.Dir(path)); err != nil {
		_ = w.Close()
		return f
	}
	name := filepath.Base(path)
	go func() {
		defer panics.Guard()
		defer w.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if filepath.Base(ev.Name) == name {
					select {
					case f.changed <- struct{}{}:
					default:
					}
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	return f
}

// Roots reads the consented set.
func (f *FileSource) Roots() ([]consent.Root, error) { return f.load() }

// Changed fires when the file may have changed.
func (f *FileSource) Changed() <-chan struct{} { return f.changed }

// StoreSource is the consent of a profile as a RootSource: the store's
// record, read through consent.Store.Load (which believes only the
// person's own files) and then admitted root by root (consent.Admit: a
// record is a claim, and a root is served only if it is still the same
// folder and every warning it has now was granted in the picker).
type StoreSource struct {
	*FileSource
	mu      sync.Mutex
	dropped []consent.Dropped
}

// NewStoreSource watches store until ctx ends.
func NewStoreSource(ctx context.Context, store *consent.Store) *StoreSource {
	s := &StoreSource{}
	s.FileSource = NewFileSource(ctx, store.Path(), func() ([]consent.Root, error) {
		rec, err := store.Load()
		if err != nil {
			s.setDropped(nil)
			return nil, err
		}
		ok, dropped := consent.Admit(rec, consent.DefaultEnv(rec.Dir))
		s.setDropped(dropped)
		return ok, nil
	})
	return s
}

func (s *StoreSource) setDropped(d []consent.Dropped) {
	s.mu.Lock()
	s.dropped = d
	s.mu.Unlock()
}

// Dropped is what the last Roots did not admit, with why.
func (s *StoreSource) Dropped() []consent.Dropped {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}
