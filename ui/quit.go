package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// unconfirmed counts the checks that differ from what is served: folders
// checked but not shared (unless the hub withdrew them), and shared
// folders unchecked.
func (m *Model) unconfirmed() int {
	shared := m.sharedPaths()
	n := 0
	for _, p := range m.picker.Checked() {
		if _, gone := m.withdrawn[p]; !shared[p] && !gone {
			n++ // a root the hub withdrew is not a change the person made
		}
	}
	for p := range shared {
		if !m.picker.IsChecked(p) {
			n++
		}
	}
	return n
}

// quit ends the program, first asking when checks are unconfirmed, and
// waiting for consent still being written (the next launch must remember a
// y pressed just before q).
func (m *Model) quit() tea.Cmd {
	if n := m.unconfirmed(); n > 0 && !m.applying {
		m.open(modeQuitAsk)
		m.setNote("Discard "+itoa(n)+" unconfirmed "+noun(n, "change", "changes")+"? y or q quits, any other key goes back.", true)
		return nil
	}
	return m.finish()
}

// quitAnswer takes the answer to "discard N unconfirmed changes?".
func (m *Model) quitAnswer(msg tea.KeyPressMsg) tea.Cmd {
	m.close()
	if key.Matches(msg, m.dkeys.Confirm) || key.Matches(msg, m.keys.Quit) {
		return m.finish()
	}
	m.setNote("Not quitting: the unconfirmed changes are still checked (enter reviews them).", false)
	return nil
}

func (m *Model) finish() tea.Cmd {
	if m.saving > 0 {
		m.quitAfterSave = true
		m.setNote("Remembering the consent, then quitting…", false)
		return nil
	}
	m.stopScan() // a walk still running would outlive the screen
	m.closePool()
	return tea.Quit
}
