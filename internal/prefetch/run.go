package prefetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/internal/safetext"
)

// DefaultTimeout bounds one prefetch: far above the 51 s a cold npx
// download of server-filesystem took on a loaded machine, and below what
// a person waits before deciding something hangs.
const DefaultTimeout = 5 * time.Minute

// Options say how Run runs a prefetch.
type Options struct {
	// Env is the whole environment of the prefetch: the person's, with
	// the entry's own env (a different npm cache or registry) over it.
	Env []string
	// Dir is the folder it runs in: where the host starts the server.
	Dir string
	// Progress receives what is being fetched and how long it has taken.
	// Terminal says it is a terminal: one line, rewritten in place;
	// otherwise a line every Every (default 10 s).
	Progress io.Writer
	Terminal bool
	Every    time.Duration
	// Timeout bounds the prefetch; 0 means DefaultTimeout.
	Timeout time.Duration
	// Name is the server's name in the host's file, for messages.
	Name string
	// Program is the launcher's program to start, as Installed found it
	// (an absolute path); the launcher's command line names it as
	// written. Run starts nothing else, and nothing without it.
	Program string
	// Confine puts the launcher's command, made and not started yet,
	// under the boundary its server will run under (launch.Confine,
	// which this package cannot import). finish is called with what
	// Start or Wait returned, once the command has ended or failed to
	// start, and returns the error to report. Run starts nothing without
	// a Confine, nor where it fails: a prefetch runs a package's install
	// scripts, which a project file may have chosen.
	Confine func(cmd *exec.Cmd) (finish func(error) error, err error)
}

// NotRunError is a prefetch that Run did not start, and why: its program
// is not one Installed found, or it cannot be confined here.
type NotRunError struct {
	Why string
}

func (e *NotRunError) Error() string { return e.Why }

// Error is a prefetch that failed: what the runner said last, and the
// command that a person can run to fetch it by hand.
type Error struct {
	Tool, What string
	Reason     string // the exit status, or the timeout
	Said       string // the runner's last lines, secrets hidden, escaped
	Command    string // the prefetch command line, shell-quoted
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s could not fetch %s (%s)", e.Tool, e.What, e.Reason)
	if e.Said != "" {
		s += ": " + e.Said
	}
	return s
}

// Run runs l's prefetch command, telling opts.Progress how it goes; it
// returns how long it took. A launcher with no prefetch command returns
// an error saying why. It starts opts.Program only, under opts.Confine,
// or nothing (a *NotRunError says why). The command runs in a process
// group of its own (the terminal's ctrl+c is the caller's to handle);
// ctx's end interrupts it.
func Run(ctx context.Context, l Launcher, opts Options) (time.Duration, error) {
	if len(l.Prefetch) == 0 {
		return 0, errors.New(l.NoPrefetch)
	}
	if !filepath.IsAbs(opts.Program) {
		return 0, &NotRunError{Why: "its program was not found installed on PATH (prefetch.Installed)"}
	}
	if opts.Confine == nil {
		return 0, &NotRunError{Why: "there is no boundary to run it in"}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Every <= 0 {
		opts.Every = 10 * time.Second
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, opts.Program, l.Prefetch[1:]...)
	cmd.Args[0] = l.Prefetch[0] // as the host starts it: bun, for one, reads its name
	cmd.Env, cmd.Dir = opts.Env, opts.Dir
	ownGroup(cmd)
	finish, err := opts.Confine(cmd)
	if err != nil {
		return 0, &NotRunError{Why: "it runs only confined as its server will be, and cannot be here: " + shown(err.Error())}
	}
	var out tail
	cmd.Stdout, cmd.Stderr = &out, &out
	// Interrupted rather than killed: npm and uv tidy up on SIGINT. On
	// Windows, where a process cannot be interrupted, it is killed.
	cmd.Cancel = func() error { return interrupt(cmd.Process) }
	cmd.WaitDelay = 10 * time.Second
	what := fmt.Sprintf("%s: fetching %s with %s", shownName(opts.Name), safetext.Escape(l.What()), l.Tool)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		err = finish(err)
		return 0, &Error{Tool: l.Tool, What: safetext.Escape(l.What()), Reason: "not started", Said: shown(err.Error()), Command: Quote(l.Prefetch)}
	}
	stop := progress(opts, what, start)
	err = finish(cmd.Wait())
	took := time.Since(start)
	stop()
	if err == nil {
		fmt.Fprintf(opts.Progress, "%s: fetched %s with %s in %.1f s\n", shownName(opts.Name), safetext.Escape(l.What()), l.Tool, took.Seconds())
		return took, nil
	}
	reason := err.Error()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		reason = fmt.Sprintf("stopped after %s", opts.Timeout)
	case ctx.Err() != nil:
		reason = "interrupted"
	}
	return took, &Error{Tool: l.Tool, What: safetext.Escape(l.What()), Reason: shown(reason), Said: shown(out.summary(2)), Command: Quote(l.Prefetch)}
}

func shownName(name string) string {
	if name == "" {
		return "prefetch"
	}
	return safetext.Escape(redact.Text(name))
}

func shown(s string) string { return safetext.Escape(redact.Text(s)) }

// progress writes what is fetched and the time so far until stop is
// called: on a terminal one line rewritten every second, else a line
// every opts.Every.
func progress(opts Options, what string, start time.Time) (stop func()) {
	every := opts.Every
	if opts.Terminal {
		every = time.Second
		fmt.Fprintf(opts.Progress, "\r\x1b[K%s… 0 s", what)
	} else {
		fmt.Fprintf(opts.Progress, "%s…\n", what)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s := int(time.Since(start).Seconds())
				if opts.Terminal {
					fmt.Fprintf(opts.Progress, "\r\x1b[K%s… %d s", what, s)
				} else {
					fmt.Fprintf(opts.Progress, "%s… %d s so far\n", what, s)
				}
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		if opts.Terminal {
			fmt.Fprint(opts.Progress, "\r\x1b[K")
		}
	}
}

// tail keeps the last 16 KiB a command wrote.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 16 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailMax {
		t.buf = t.buf[len(t.buf)-tailMax:]
	}
	return len(p), nil
}

// summary is what a runner said about its failure, in n lines at most,
// joined by " / ": its first lines that say "error" (npm's code and
// reason come first; its pointer to a debug log is left out), else its
// last lines.
func (t *tail) summary(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var lines, errs []string
	for l := range bytes.SplitSeq(t.buf, []byte("\n")) {
		s := strings.TrimSpace(string(l))
		if s == "" {
			continue
		}
		lines = append(lines, s)
		low := strings.ToLower(s)
		if strings.Contains(low, "error") && !strings.Contains(low, "complete log") && len(strings.Fields(s)) > 3 {
			errs = append(errs, s)
		}
	}
	if len(errs) > 0 {
		return strings.Join(errs[:min(n, len(errs))], " / ")
	}
	return strings.Join(lines[max(0, len(lines)-n):], " / ")
}

// Quote writes a command line as a POSIX shell reads it back.
func Quote(line []string) string {
	out := make([]string, len(line))
	for i, w := range line {
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
			out[i] = w
			continue
		}
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
