// Package logfile is rootpick's log: a rotating file in the person's own
// state folder (or at --log FILE), whose records lose every secret
// internal/redact recognises (URL credentials, tokens, secret settings). It has its own room because every command that runs for
// a while (the picker, the proxy) opens it, and the root package holds
// only commands.
package logfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/paths"
	"github.com/rootpick/rootpick/internal/redact"
)

// maxLogBytes is the size at which the log is rotated: the file becomes
// FILE.1 (replacing an older one) and a new FILE is started, so the log
// never takes more than about twice this on disk.
const maxLogBytes = 10 << 20

// Open opens the log: FILE is rootpick.log in rootpick's state folder
// state unless path is given. It is created 0600 in a 0700 folder; an
// existing log with looser modes is tightened, and so is the default
// folder (not the folder of a --log FILE, which may be shared, such as
// /tmp, nor a state folder the person named). Nothing is ever logged to
// the terminal. What is logged loses its secrets (see redactHandler).
func Open(path string, state paths.State, debug bool) (*slog.Logger, func(), error) {
	if path == "" {
		path = DefaultPath(state)
	}
	// A log in rootpick's state folder (the default, or the proxy's own)
	// goes only into a folder that is the person's own.
	dir := filepath.Dir(path)
	if dir == filepath.Clean(state.Dir) {
		// rootpick's state folder: the person's own, 0700, not a link.
		d, err := consent.OpenStateDir(state, true)
		if err != nil {
			return nil, nil, fmt.Errorf("the log folder: %w", err)
		}
		d.Close()
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("creating the log folder: %w", err)
	}
	w, err := openRotating(path, maxLogBytes)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the log: %w", err)
	}
	level := slog.LevelInfo
	if debug {
		level = slog.LevelDebug
	}
	h := redactHandler{slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})}
	return slog.New(h), func() { _ = w.Close() }, nil
}

// Redacting wraps h so that what it logs loses the secrets of any URL (for
// a log written elsewhere than the file, such as the proxy's stderr).
func Redacting(h slog.Handler) slog.Handler { return redactHandler{h} }

// MaxBytes is the size at which the log is rotated.
const MaxBytes = maxLogBytes

// rotatingFile appends to a file and rotates it to FILE.1 when a write
// would take it past max bytes. It is safe for concurrent use. (Two
// rootpick processes sharing a log each keep their own count: the file may
// then grow past max before one of them rotates it.)
type rotatingFile struct {
	mu   sync.Mutex
	path string
	max  int64
	f    *os.File
	size int64
}

func openRotating(path string, max int64) (*rotatingFile, error) {
	r := &rotatingFile{path: path, max: max}
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

// open opens (or creates) the file for appending, 0600. It never writes
// through a symbolic link, nor into anything but a regular file: the file
// is checked before it is opened, and the opened file is checked to be the
// one that was looked at.
func (r *rotatingFile) open() error {
	before, err := os.Lstat(r.path)
	if err == nil && !before.Mode().IsRegular() {
		return fmt.Errorf("%q is not a regular file (%s): not written to", r.path, before.Mode().Type())
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(r.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if now, err := os.Lstat(r.path); err != nil || !os.SameFile(st, now) || !st.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("%q was replaced while opened: not written to", r.path)
	}
	if st.Mode().Perm()&^0o600 != 0 {
		if err := f.Chmod(st.Mode().Perm() & 0o600); err != nil {
			f.Close()
			return err
		}
	}
	r.f, r.size = f, st.Size()
	return nil
}

// Write appends p, rotating first if p would not fit. A record larger than
// max is written whole to a fresh file.
func (r *rotatingFile) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return 0, errors.New("log closed")
	}
	if r.size > 0 && r.size+int64(len(p)) > r.max {
		if err := r.rotate(); err != nil {
			return 0, err
		}
	}
	n, err := r.f.Write(p)
	r.size += int64(n)
	return n, err
}

// rotate moves the file to FILE.1 (replacing it) and starts a new one.
func (r *rotatingFile) rotate() error {
	_ = r.f.Close()
	r.f = nil
	if err := os.Rename(r.path, r.path+".1"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return r.open()
}

// Close closes the file.
func (r *rotatingFile) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}

// redactHandler passes every message and attribute through redact.Text,
// so that no secret reaches the log whatever code logs it (the SDK logs
// transport errors quoting the endpoint; a server's stderr may print its
// token); an attribute whose key looks like a secret's (token, api_key)
// is logged as redact.Marker whatever its value.
type redactHandler struct{ slog.Handler }

func (h redactHandler) Handle(ctx context.Context, r slog.Record) error {
	nr := slog.NewRecord(r.Time, r.Level, redact.Text(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		nr.AddAttrs(redactAttr(a))
		return true
	})
	return h.Handler.Handle(ctx, nr)
}

func (h redactHandler) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = redactAttr(a)
	}
	return redactHandler{h.Handler.WithAttrs(out)}
}

func (h redactHandler) WithGroup(name string) slog.Handler {
	return redactHandler{h.Handler.WithGroup(name)}
}

func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		g := v.Group()
		out := make([]any, len(g))
		for i, x := range g {
			out[i] = redactAttr(x)
		}
		return slog.Group(a.Key, out...)
	}
	if redact.SecretName(a.Key) {
		return slog.String(a.Key, redact.Marker)
	}
	var s string
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, redact.Text(v.String()))
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			s = err.Error()
		} else {
			s = fmt.Sprint(v.Any())
		}
	default:
		return slog.Attr{Key: a.Key, Value: v} // numbers, times, durations, booleans
	}
	if r := redact.Text(s); r != s {
		return slog.String(a.Key, r)
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// DefaultPath is rootpick.log in the state folder state, beside the
// consent store.
func DefaultPath(state paths.State) string {
	return filepath.Join(state.Dir, "rootpick.log")
}

// ShownPath is the log's path as the server pane names it.
func ShownPath(flag string, state paths.State) string {
	if flag != "" {
		return flag
	}
	return DefaultPath(state)
}
