package ui

// common is what every part of the screen shares: the palette and the key
// maps, one copy behind one pointer (soft-serve's pkg/ui/common), so a
// theme change reaches the list, the dialog and the panes at once and no
// part is handed them one by one.
type common struct {
	st    styles
	keys  keyMap     // the list's keys (keys.go)
	dkeys dialogKeys // the dialog's keys, whose navigation the panes use (dialogkeys.go)
}

// component is the contract of a part of the screen that draws itself in
// the area it is given (soft-serve's Component): the consent dialog. A part that takes keys answers them with its own decision
// (consentDialog.Update returns a reviewAction, a confirmation carrying
// its decision as a value; crush's dialogs do the same); Model acts on it
// (Model.onReview).
type component interface {
	SetSize(w, h int)
	View() string
}

// framed is the contract of a part of the screen drawn from what its
// owner hands it on each frame, F (the list's rows and their states, the
// status line's servers and question), rather than from a pointer back
// to the model that it would keep.
type framed[F any] interface {
	SetSize(w, h int)
	View(in F) string
}
