//go:build rootpick_e2e

package main

import (
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/rootpick/rootpick/internal/panics"
)

// The end-to-end tests' panic keys, built only into their binary (go
// build -tags rootpick_e2e, e2e/e2e_tmux_test.go): a release binary has
// no key that makes it panic (testpanic.go).

// panicKeyModel panics in Update when F12 is pressed, and on a goroutine
// of its own when F11 is. It wraps the UI only
// when ROOTPICK_TEST_PANIC=1, so that the end-to-end tests can check that a
// panic restores the terminal and leaves no server behind.
type panicKeyModel struct{ tea.Model }

func (m panicKeyModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "f12" {
		panic("test panic (ROOTPICK_TEST_PANIC)")
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "f11" {
		go func() { // as a walker or a server's reader would
			defer panics.Guard()
			panic("test panic on a goroutine (ROOTPICK_TEST_PANIC)")
		}()
	}
	inner, cmd := m.Model.Update(msg)
	return panicKeyModel{inner}, cmd
}

// withTestPanic returns m, wrapped in panicKeyModel if ROOTPICK_TEST_PANIC=1.
func withTestPanic(m tea.Model) tea.Model {
	if os.Getenv("ROOTPICK_TEST_PANIC") == "1" {
		return panicKeyModel{m}
	}
	return m
}
