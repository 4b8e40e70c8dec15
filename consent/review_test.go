package consent

import (
	"slices"
	"testing"
)

// mk builds a Root for a path without touching the disk.
func mk(path string) Root { return Root{Path: path, URI: PathToURI(path), Name: path} }

// named is mk with a different Name, to tell two versions of a root apart.
func named(path, name string) Root { r := mk(path); r.Name = name; return r }

// ro is mk shared read-only.
func ro(path string) Root { r := mk(path); r.ReadOnly = true; return r }

func TestReview(t *testing.T) {
	a, b, c, d := mk("/r/a"), mk("/r/b"), mk("/r/c"), mk("/r/d")
	tests := []struct {
		name                          string
		exposed, proposed             []Root
		added, removed, kept, changed []Root
		empty                         bool
	}{
		{name: "both nil", empty: true},
		{name: "first consent", proposed: []Root{b, a}, added: []Root{a, b}},
		{name: "revoke all", exposed: []Root{c, a}, removed: []Root{a, c}},
		{name: "same set, other order", exposed: []Root{a, b}, proposed: []Root{b, a}, kept: []Root{a, b}, empty: true},
		{
			name:    "mixed",
			exposed: []Root{d, a, b}, proposed: []Root{c, b, a},
			added: []Root{c}, removed: []Root{d}, kept: []Root{a, b},
		},
		{
			name:    "duplicates collapse",
			exposed: []Root{a, a, d, d}, proposed: []Root{c, a, c, a},
			added: []Root{c}, removed: []Root{d}, kept: []Root{a},
		},
		{
			name:    "kept takes the proposed version",
			exposed: []Root{named("/r/a", "old")}, proposed: []Root{named("/r/a", "new")},
			kept: []Root{named("/r/a", "new")}, empty: true,
		},
		{
			name:    "an access changed alone is a change",
			exposed: []Root{a, b}, proposed: []Root{ro("/r/a"), b},
			kept: []Root{ro("/r/a"), b}, changed: []Root{ro("/r/a")},
		},
		{
			name:    "read-only back to read and write",
			exposed: []Root{ro("/r/a"), ro("/r/b")}, proposed: []Root{a, ro("/r/b")},
			kept: []Root{a, ro("/r/b")}, changed: []Root{a},
		},
		{
			name:    "read-only kept read-only is no change",
			exposed: []Root{ro("/r/a")}, proposed: []Root{ro("/r/a")},
			kept: []Root{ro("/r/a")}, empty: true,
		},
		{
			name:    "an added root's access is no change of access",
			exposed: []Root{}, proposed: []Root{ro("/r/a")},
			added: []Root{ro("/r/a")},
		},
		{
			name:     "first duplicate in the proposal wins",
			proposed: []Root{named("/r/a", "first"), named("/r/a", "second")},
			added:    []Root{named("/r/a", "first")},
		},
		{
			name:    "matched by URI, sorted by Path",
			exposed: []Root{mk("/r/b c")}, proposed: []Root{mk("/r/b c"), mk("/r/b"), mk("/r/a"), mk("/r/B")},
			added: []Root{mk("/r/B"), mk("/r/a"), mk("/r/b")}, kept: []Root{mk("/r/b c")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exposed, proposed := slices.Clone(tt.exposed), slices.Clone(tt.proposed)
			got := Review(exposed, proposed)
			check := func(what string, got, want []Root) {
				t.Helper()
				if !slices.Equal(got, want) {
					t.Errorf("%s = %v, want %v", what, got, want)
				}
			}
			check("Added", got.Added, tt.added)
			check("Removed", got.Removed, tt.removed)
			check("Kept", got.Kept, tt.kept)
			check("Changed", got.Changed, tt.changed)
			if got.Empty() != tt.empty {
				t.Errorf("Empty() = %v, want %v", got.Empty(), tt.empty)
			}
			// Review must not reorder or change its inputs.
			check("exposed after Review", exposed, tt.exposed)
			check("proposed after Review", proposed, tt.proposed)
		})
	}
}

func TestChangeEmpty(t *testing.T) {
	a := mk("/a")
	tests := []struct {
		name string
		c    Change
		want bool
	}{
		{"zero", Change{}, true},
		{"kept only", Change{Kept: []Root{a}}, true},
		{"empty slices", Change{Added: []Root{}, Removed: []Root{}}, true},
		{"added", Change{Added: []Root{a}}, false},
		{"removed", Change{Removed: []Root{a}}, false},
		{"access changed", Change{Kept: []Root{a}, Changed: []Root{a}}, false},
	}
	for _, tt := range tests {
		if got := tt.c.Empty(); got != tt.want {
			t.Errorf("%s: Empty() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSortRoots(t *testing.T) {
	roots := []Root{named("/b", "x"), mk("/a/b"), named("/b", "w"), mk("/a"), mk("/")}
	SortRoots(roots)
	want := []Root{mk("/"), mk("/a"), mk("/a/b"), named("/b", "w"), named("/b", "x")}
	if !slices.Equal(roots, want) {
		t.Errorf("SortRoots = %v, want %v", roots, want)
	}
	SortRoots(nil) // must not panic
}
