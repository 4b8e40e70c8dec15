package consent

import (
	"testing"

	"github.com/rootpick/rootpick/internal/testskip"
)

// TestMain names the groups of tests that skipped for a missing tool or for
// running as root (see package testskip).
func TestMain(m *testing.M) { testskip.Exit("consent", m.Run(), "as root") }
