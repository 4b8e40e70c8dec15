package mcpconn

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// TestServerCapPolicy: the server cap (Spec.ReadOnly) makes every
// consented root read-only, whatever the record says; without it, each
// root is as the record says. The cap narrows the consent only.
func TestServerCapPolicy(t *testing.T) {
	base := tempDir(t)
	rw, ro, aw := filepath.Join(base, "rw"), filepath.Join(base, "ro"), filepath.Join(base, "aw")
	for _, d := range []string{rw, ro, aw} {
		must(t, os.MkdirAll(d, 0o755))
	}
	roots := []consent.Root{testproc.Root(t, rw), {Path: ro, URI: consent.PathToURI(ro), ReadOnly: true}}
	if w, r := (Spec{}).ConsentedPaths(roots); !slices.Equal(w, []string{rw}) || !slices.Equal(r, []string{ro}) {
		t.Errorf("ConsentedPaths: read and write %v, read-only %v", w, r)
	}
	if w, r := (Spec{ReadOnly: true}).ConsentedPaths(roots); len(w) != 0 || !slices.Equal(r, []string{rw, ro}) {
		t.Errorf("ConsentedPaths capped: read and write %v, read-only %v", w, r)
	}
	a := Spec{ReadOnly: true, AllowWrite: []string{aw}}.access(roots)
	capped := launch.BuildPolicy(launch.PolicyInput{Consented: a.Consented, ReadOnly: a.ReadOnly, AllowWrite: a.AllowWrite})
	for _, pp := range capped.Paths {
		if pp.Path == rw && (pp.Access != launch.AccessRead || !pp.ReadOnly) {
			t.Errorf("capped: %s is %s, read-only %v", rw, pp.Access, pp.ReadOnly)
		}
		if pp.Path == aw && pp.Access != launch.AccessRead|launch.AccessWrite|launch.AccessExec {
			t.Errorf("capped: allow-write %s is %s; the cap narrows the consent only", aw, pp.Access)
		}
	}
}
