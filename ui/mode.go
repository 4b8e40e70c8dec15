package ui

// page is what the body shows beneath any overlay: the list, the full
// help or the server pane. It is the only screen state Model stores; the
// overlays above it are stored where they belong (the dialog in the
// sharing state, the question in Model.question), and mode derives what is
// on top from the three.
type page int

const (
	pageList    page = iota // the list, its query line and the details pane: model.go, list.go, filter.go, details.go
	pageHelp                // the full help: help.go
	pageServers             // the server pane: servers.go
)

// mode is what takes the keys now and what the screen is doing. It is
// derived (Model.mode), never stored: "the dialog is open" is the
// sharing state's Dialog() != nil and nothing else.
type mode int

const (
	modeList    mode = iota // pageList
	modeHelp                // pageHelp
	modeServers             // pageServers
	modeDialog              // the consent dialog, over any page: dialog.go, review.go
	modeAsk                 // a yes/no question on the status line (quit, check all) over a page: ask.go
)
