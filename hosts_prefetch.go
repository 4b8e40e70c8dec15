package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/prefetch"
)

// launch is one wrapped server whose command is a launcher that
// downloads it first (npx, uvx, pnpm dlx…), with what its start needs.
type launch struct {
	name     string
	launcher prefetch.Launcher
	// env is the entry's own environment (its npm cache or registry);
	// dir is where the host starts the server.
	env map[string]string
	dir string
}

// prefetchFunc fetches what a launcher would download (prefetch.Run).
type prefetchFunc func(ctx context.Context, l prefetch.Launcher, opts prefetch.Options) (time.Duration, error)

// prefetchRun is what hosts wrap uses; the root package's tests replace
// it so that no test downloads by accident (hosts_prefetch_test.go).
var prefetchRun prefetchFunc = prefetch.Run

// launchOf is server i of c as a launch, ok false when its command is no
// downloading launcher.
func launchOf(c *hostcfg.Config, i int) (launch, bool) {
	s := c.Servers[i]
	l, ok := prefetch.Of(append([]string{s.Command}, s.Args...))
	if !ok {
		return launch{}, false
	}
	return launch{name: s.Name, launcher: l, env: c.Env(i), dir: c.File.Workspace}, true
}

// prefetchAll fetches, one after the other, what the wrapped launchers
// would download on the host's first start: the host gives a server a
// few tens of seconds (Claude Code about 27 s), and a cold npx download of
// server-filesystem took 51 s. A launcher reached twice (one server in
// two files) is fetched once. A failure is said, with the command that
// fetches it by hand, and the wrap goes on: the entry is right either
// way, and the proxy lets a first start's download finish even when the
// host gives up, so a later start works.
//
// ctrl+c (or SIGTERM, SIGHUP) during a fetch lets that fetch finish — a
// launcher interrupted mid-install leaves its cache broken — fetches
// nothing more and writes nothing: interrupted is the signal, and the
// caller ends with it. A second one stops the fetch at once.
func (ch hostsChange) prefetchAll(e *env, plans []*planned) (interrupted os.Signal) {
	terminal := false
	if f, ok := e.stderr.(*os.File); ok {
		terminal = term.IsTerminal(f.Fd())
	}
	ctx, stop, got := prefetchSignals(e)
	defer stop()
	seen := map[string]bool{}
	for _, p := range plans {
		for _, l := range p.launches {
			if sig := got(); sig != nil {
				return sig
			}
			key := strings.Join(append(append(slices.Clone(l.launcher.Prefetch), l.dir), envList(nil, l.env)...), "\x00")
			if seen[key] {
				continue
			}
			seen[key] = true
			if len(l.launcher.Prefetch) == 0 {
				fmt.Fprintf(e.stderr, "%s: not fetched ahead: %s; its first start downloads %s and may take longer than the host waits\n",
					shown(l.name), l.launcher.NoPrefetch, shown(l.launcher.What()))
				continue
			}
			_, err := ch.prefetch(ctx, l.launcher, prefetch.Options{
				Env: envList(os.Environ(), l.env), Dir: l.dir, Progress: e.stderr, Terminal: terminal, Name: l.name,
			})
			if err == nil {
				continue
			}
			fmt.Fprintf(e.stderr, "%s: %s\n", shown(l.name), err)
			var pe *prefetch.Error
			if errors.As(err, &pe) {
				if got() != nil {
					continue
				}
				fmt.Fprintf(e.stderr, "  The file is written anyway. What cannot be fetched now, the host's first start cannot fetch either; what can be fetched then may take longer than the host waits (the proxy lets that download finish, so the next start works). To fetch it by hand: %s\n", shown(pe.Command))
			}
		}
	}
	return got()
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

// envList is base with env's settings over it, as NAME=VALUE, env's in
// name order.
func envList(base []string, env map[string]string) []string {
	names := make([]string, 0, len(env))
	for name := range env {
		names = append(names, name)
	}
	slices.Sort(names)
	out := slices.DeleteFunc(slices.Clone(base), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		_, over := env[name]
		return over
	})
	for _, name := range names {
		out = append(out, name+"="+env[name])
	}
	return out
}
