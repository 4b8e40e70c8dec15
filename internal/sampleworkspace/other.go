package sampleworkspace

import "github.com/rootpick/rootpick/vcsdetect"

// otherSpec is a folder recognised by its markers: a Mercurial,
// Subversion or Jujutsu working copy, a project, a broken repository.
type otherSpec struct {
	rel    string
	kind   vcsdetect.Kind
	branch string            // what vcsdetect reads as the branch
	files  map[string]string // the markers and a few files, slash paths
}

// other writes o. These kinds are recognised by their folders and a few
// files in them (.hg, .svn, .jj, a build file, a .git file that points
// nowhere), which is all that is written: the workspace is for looking,
// and hg, svn and jj need not be installed.
func (w *writer) other(o otherSpec) error {
	if err := writeFiles(w.path(o.rel), o.files); err != nil {
		return err
	}
	w.add(Repo{Rel: o.rel, Kind: o.kind, Branch: o.branch})
	return nil
}
