package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/internal/wrapplan"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// prefetchFunc fetches what a launcher would download (prefetch.Run).
type prefetchFunc func(ctx context.Context, l prefetch.Launcher, opts prefetch.Options) (time.Duration, error)

// prefetchRun is what hosts wrap uses; the root package's tests replace
// it so that no test downloads by accident (hosts_prefetch_test.go).
var prefetchRun prefetchFunc = prefetch.Run

// confineFunc puts a prefetch under the boundary its server will run
// under (launch.Confine).
type confineFunc = func(cmd *exec.Cmd) (finish func(error) error, err error)

// prefetchConfine is what hosts wrap confines a prefetch with; only the
// tests that break one defence on purpose, to see that the other holds,
// replace it.
var prefetchConfine confineFunc = launch.Confine

// prefetchAll fetches, one after the other, what the wrapped launchers
// would download on the host's first start: the host gives a server a
// few tens of seconds (Claude Code about 27 s), and a cold npx download of
// server-filesystem took 51 s. A launcher reached twice (one server in
// two files) is fetched once. A failure is said, with the command that
// fetches it by hand, and the wrap goes on: the entry is right either
// way, and the proxy lets a first start's download finish even when the
// host gives up, so a later start works.
//
// A fetch runs a package's install scripts on the person's behalf, so it
// starts only a launcher installed on PATH, never a program of the
// project (prefetch.Installed, checked again just before it starts),
// confined as its server will be (ch.confine: Landlock, through the
// guard), or not at all; and with the entry's env less what the server's
// policy would not grant (wrapplan.Launch.Environ). Each refusal is said in one line.
//
// ctrl+c (or SIGTERM, SIGHUP) during a fetch lets that fetch finish — a
// launcher interrupted mid-install leaves its cache broken — fetches
// nothing more and writes nothing: interrupted is the signal, and the
// caller ends with it. A second one stops the fetch at once.
func (ch hostsChange) prefetchAll(e *env, plans []*wrapplan.File) (interrupted os.Signal) {
	terminal := false
	if f, ok := e.stderr.(*os.File); ok {
		terminal = term.IsTerminal(f.Fd())
	}
	ctx, stop, got := prefetchSignals(e)
	defer stop()
	seen := map[string]bool{}
	for _, p := range plans {
		for _, l := range p.Launches {
			if sig := got(); sig != nil {
				return sig
			}
			if l.Skip != "" {
				continue // said below the diff
			}
			key := l.Key()
			if seen[key] {
				continue
			}
			seen[key] = true
			if len(l.Launcher.Prefetch) == 0 {
				fmt.Fprintf(e.stderr, "%s: not fetched ahead: %s; its first start downloads %s and may take longer than the host waits\n",
					shown(l.Name), l.Launcher.NoPrefetch, l.What())
				continue
			}
			ch.fetchOne(ctx, e, l, terminal, got)
		}
	}
	return got()
}

// fetchOne fetches what launch l would download, saying on e.stderr why
// not or what failed; got is the first end signal so far.
func (ch hostsChange) fetchOne(ctx context.Context, e *env, l wrapplan.Launch, terminal bool, got func() os.Signal) {
	// Found again, now: the program started is the one checked.
	program, err := prefetch.Installed(l.Launcher.Prefetch[0], l.Dir, l.Places)
	if err != nil {
		fmt.Fprintln(e.stderr, l.NotFetched(shown(err.Error())))
		return
	}
	_, err = ch.prefetch(ctx, l.Launcher, prefetch.Options{
		Env: l.Environ(), Dir: l.Dir, Progress: e.stderr, Terminal: terminal, Name: l.Name,
		Program: program, Confine: ch.confine,
	})
	if err == nil {
		return
	}
	var nr *prefetch.NotRunError
	if errors.As(err, &nr) {
		fmt.Fprintln(e.stderr, l.NotFetched(nr.Why))
		return
	}
	fmt.Fprintf(e.stderr, "%s: %s\n", shown(l.Name), err)
	var pe *prefetch.Error
	if errors.As(err, &pe) && got() == nil {
		fmt.Fprintf(e.stderr, "  The file is written anyway. What cannot be fetched now, the host's first start cannot fetch either; what can be fetched then may take longer than the host waits (the proxy lets that download finish, so the next start works). To fetch it by hand: %s\n", shown(pe.Command))
	}
}

// prefetchSignals catches endSignals while wrap fetches: the first says
// that the fetch under way is let finish and nothing is written; the
// second cancels ctx, which interrupts the fetch. got is the first signal
// (nil before one came); stop undoes it all.
func prefetchSignals(e *env) (ctx context.Context, stop func(), got func() os.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, endSignals...)
	var mu sync.Mutex
	var first os.Signal
	done := make(chan struct{})
	go func() {
		defer panics.Guard()
		for {
			select {
			case sig := <-sigs:
				mu.Lock()
				again := first != nil
				if !again {
					first = sig
				}
				mu.Unlock()
				if again {
					fmt.Fprintln(e.stderr, "\nrootpick: stopping the fetch now; its cache may be left incomplete (see docs/troubleshooting.md, ERR_MODULE_NOT_FOUND)")
					cancel()
					return
				}
				fmt.Fprintln(e.stderr, "\nrootpick: letting this fetch finish, so that the launcher's cache is not left half-written; nothing will be written (press ctrl+c again to stop it now)")
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
			signal.Stop(sigs)
			close(done)
			cancel()
		}, func() os.Signal {
			mu.Lock()
			defer mu.Unlock()
			return first
		}
}
