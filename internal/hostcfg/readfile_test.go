package hostcfg

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestHostsHolds: holds compares a file with what was read, piece by
// piece, and tells any difference: a byte, a length.
func TestHostsHolds(t *testing.T) {
	want := bytes.Repeat([]byte("0123456789abcdef"), 10_000) // several pieces
	name := filepath.Join(t.TempDir(), "f")
	for _, tc := range []struct {
		name string
		file []byte
		same bool
	}{
		{"the same", want, true},
		{"the last byte differs", append(bytes.Clone(want[:len(want)-1]), 'x'), false},
		{"a byte in the middle differs", append(append(bytes.Clone(want[:80_000]), 'x'), want[80_001:]...), false},
		{"longer", append(bytes.Clone(want), '\n'), false},
		{"shorter", want[:len(want)-1], false},
		{"empty", nil, false},
	} {
		if err := os.WriteFile(name, tc.file, 0o600); err != nil {
			t.Fatal(err)
		}
		same, _, err := holds(name, want, false)
		if err != nil || same != tc.same {
			t.Errorf("%s: holds = %v, %v; want %v", tc.name, same, err, tc.same)
		}
	}
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if same, _, err := holds(name, nil, false); !same || err != nil {
		t.Errorf("an empty file holds nothing: %v, %v", same, err)
	}
}
