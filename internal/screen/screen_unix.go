//go:build unix

package screen

import (
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"github.com/rootpick/rootpick/internal/panics"
)

// Open takes the terminal for the picker: in is read in raw mode, and out
// shows the alternate screen until [Screen.Close]. It returns
// ErrNoTerminal where in or out is not a terminal.
func Open(in, out *os.File, env []string) (*Screen, error) {
	if !isTerminal(in) || !isTerminal(out) {
		return nil, ErrNoTerminal
	}
	return open(in, out, env)
}

// Run runs p, which was made with s's [Screen.Options] and a model
// wrapped by [Screen.Model], and tells it each new size of the terminal
// (SIGWINCH) until it ends.
func (s *Screen) Run(p *tea.Program) (tea.Model, error) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGWINCH)
	ended := make(chan struct{})
	defer func() {
		signal.Stop(sig)
		close(ended)
	}()
	go func() {
		defer panics.Guard()
		for {
			select {
			case <-ended:
				return
			case <-sig:
				w, h := termSize(s.out)
				p.Send(tea.WindowSizeMsg{Width: w, Height: h})
			}
		}
	}()
	return p.Run()
}
