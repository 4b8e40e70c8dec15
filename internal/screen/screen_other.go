//go:build !unix

package screen

import (
	"os"

	tea "charm.land/bubbletea/v2"
)

// Open returns ErrNoTerminal: off Unix the picker draws with Bubble Tea's
// own renderer.
func Open(in, out *os.File, env []string) (*Screen, error) { return nil, ErrNoTerminal }

// Run runs p.
func (s *Screen) Run(p *tea.Program) (tea.Model, error) { return p.Run() }
