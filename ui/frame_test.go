package ui

import (
	"strings"
	"testing"
)

// TestFramesCarryTheModelsState: the status line and the list keep no
// pointer back to the model; what they draw from is handed to them on
// each frame (Model.statusFrame, Model.listFrame), and a frame that left
// something out would draw the wrong line.
func TestFramesCarryTheModelsState(t *testing.T) {
	t.Run("a question takes the whole status line", func(t *testing.T) {
		m := wide(t)
		send(m, "space", "esc") // an unconfirmed check, then quit: asked first
		if got := statusOf(m); !strings.HasPrefix(got, "Discard 1 unconfirmed change?") {
			t.Fatalf("the status line with a question: %q; want the question alone, from its start", got)
		}
	})
	t.Run("a query matching nothing while the scan runs", func(t *testing.T) {
		m := wide(t)
		m.walk.running = true
		send(m, "z", "z", "z", "z")
		if s := screen(m); !strings.Contains(s, "Scanning…") || strings.Contains(s, "Nothing matches the filter.") {
			t.Fatalf("a query that matches nothing yet while scanning:\n%s\nwant Scanning…, not Nothing matches", s)
		}
	})
}
