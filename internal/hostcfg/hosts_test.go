package hostcfg

import (
	"slices"
	"testing"
)

// TestHostTable: every entry of HostTable is whole (a name, a title,
// files with a user or project scope, a snippet), no name or title is
// used twice, and Hosts, FileFor and Files follow the table.
func TestHostTable(t *testing.T) {
	if len(HostTable) == 0 || !slices.Equal(Hosts, hostNames()) {
		t.Fatalf("Hosts %v is not HostTable's names", Hosts)
	}
	names, titles := map[string]bool{}, map[string]bool{}
	for _, h := range HostTable {
		if h.Name == "" || h.Title == "" || h.files == nil || h.snippet == nil {
			t.Errorf("%q: the entry lacks a name, title, files or snippet: %+v", h.Name, h)
		}
		if names[h.Name] || titles[h.Title] {
			t.Errorf("%q (%s): a name or title used twice", h.Name, h.Title)
		}
		names[h.Name], titles[h.Title] = true, true
		files := h.files(Places{Home: "/h", Project: "/p"})
		if len(files) == 0 {
			t.Errorf("%s: no file on Linux", h.Name)
		}
		for i, f := range files {
			if f.Scope != ScopeUser && f.Scope != ScopeProject {
				t.Errorf("%s: file %s has scope %q", h.Name, f.Path, f.Scope)
			}
			if i > 0 && f.Scope == ScopeProject && files[i-1].Scope == ScopeUser {
				t.Errorf("%s: project file %s after a user file", h.Name, f.Path)
			}
			if g, ok := FileFor(h.Name, string(f.Scope), f.Path); !ok || g.format != f.format || g.layout != f.layout {
				t.Errorf("%s: FileFor(%s) reads %s otherwise than Files", h.Name, f.Scope, f.Path)
			}
		}
	}
	if _, ok := FileFor("emacs", "user", "x"); ok {
		t.Error("FileFor of no host")
	}
	if _, ok := FileFor(Windsurf, "project", "x"); ok {
		t.Error("FileFor of a scope the host has no file of")
	}
}
