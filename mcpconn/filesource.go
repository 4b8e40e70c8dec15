package mcpconn

import (
	"context"
	"path/filepath"

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
// also re-reads periodically (as RunProxy does) still sees changes.
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
