//go:build !rootpick_e2e

package main

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

type noModel struct{}

func (noModel) Init() tea.Cmd                       { return nil }
func (noModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return noModel{}, nil }
func (noModel) View() tea.View                      { return tea.NewView("") }

// TestReleaseHasNoPanicKey: built without the e2e tag, as a release is,
// ROOTPICK_TEST_PANIC=1 gives the picker no key that panics.
func TestReleaseHasNoPanicKey(t *testing.T) {
	t.Setenv("ROOTPICK_TEST_PANIC", "1")
	if _, plain := withTestPanic(noModel{}).(noModel); !plain {
		t.Error("the release build wraps the picker in the e2e tests' panic keys")
	}
}
