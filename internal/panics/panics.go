// Package panics lets a panic on any of rootpick's own goroutines put the
// terminal back before the program dies. Bubble Tea restores the terminal
// after a panic in Update, View or a command, but a panic on a goroutine
// it did not start (a walker, a server's reader, a pool worker) ends the
// process at once: the terminal stays in raw mode on the alternate
// screen, and the panic is printed where no one can read it. Every
// goroutine the domain packages start defers Guard; the picker sets the
// Hook that restores the terminal and stops the servers. It has its own
// folder because ui, vcsdetect, mcpconn and main all use it and none of
// them may import another for it.
package panics

import (
	"sync"
	"sync/atomic"
)

// oneHook is a hook with its own once: setting a new hook arms it again.
type oneHook struct {
	f    func()
	once sync.Once
}

var (
	hook      atomic.Pointer[oneHook]
	panicking atomic.Bool
)

// SetHook sets f to run, once, when a guarded goroutine panics, before the
// panic goes on and ends the program; nil removes it.
func SetHook(f func()) {
	if f == nil {
		hook.Store(nil)
		return
	}
	hook.Store(&oneHook{f: f})
}

// Guard runs the hook when the goroutine it is deferred first in panics,
// and then panics on with the same value: the program still crashes, with
// the original stack in the trace, but on a terminal put back in order.
func Guard() {
	if r := recover(); r != nil {
		panicking.Store(true)
		if h := hook.Load(); h != nil {
			h.once.Do(h.f)
		}
		panic(r)
	}
}

// Hold blocks for good when a guarded goroutine is panicking: the hook
// may have ended what main was waiting for, and main returning first would
// end the program with its own exit code and without the panic's trace.
func Hold() {
	if panicking.Load() {
		select {}
	}
}
