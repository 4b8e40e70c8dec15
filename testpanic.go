//go:build !rootpick_e2e

package main

import tea "charm.land/bubbletea/v2"

// withTestPanic returns m as it is: the panic keys of the end-to-end tests
// are built only with the rootpick_e2e tag (testpanic_e2e.go).
func withTestPanic(m tea.Model) tea.Model { return m }
