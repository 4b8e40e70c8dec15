package main

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/rootpick/rootpick/internal/panics"
)

// endSignals end every command as ctrl+c does: nothing is printed, what
// the command started is stopped, and the exit code says which signal it
// was (128 + its number).
var endSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalled is the one signal set-up of every command: a context that the
// first of endSignals cancels, and which signal that was (nil before one
// came). stop must be called when the command ends.
type signalled struct {
	context.Context
	got  atomic.Value
	stop func()
}

func onSignals(parent context.Context) *signalled {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, endSignals...)
	s := &signalled{Context: ctx}
	s.stop = func() {
		signal.Stop(sigs)
		cancel()
	}
	go func() {
		defer panics.Guard()
		select {
		case sig := <-sigs:
			s.got.Store(sig)
			cancel()
		case <-ctx.Done():
		}
	}()
	return s
}

// signal is the signal that cancelled the context, if one did.
func (s *signalled) signal() (os.Signal, bool) {
	sig, ok := s.got.Load().(os.Signal)
	return sig, ok
}

// signalExit is the exit of a command ended by sig: 128 + its number, as a
// shell reports it.
func signalExit(sig os.Signal) exitError {
	if n, ok := sig.(syscall.Signal); ok {
		return exitError{code: 128 + int(n)}
	}
	return exitError{code: 130}
}
