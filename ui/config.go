package ui

import (
	"context"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/vcsdetect"
)

// DescribeFunc reads a repository's details; vcsdetect.Describer.Describe
// is one.
type DescribeFunc func(ctx context.Context, r vcsdetect.Repo) vcsdetect.Details

// ScanFunc is the signature of vcsdetect.Scan, injectable for tests.
type ScanFunc func(ctx context.Context, dir string, opts vcsdetect.Options, found func(vcsdetect.Repo)) (vcsdetect.Stats, error)

// FrameRate is how many frames a second Bubble Tea's renderer may draw
// where the program uses it (tea.WithFPS; off Unix). It draws on a ticker,
// not on input, so a key shows at the next frame: at its default 60 the
// wait alone is 0–16.7 ms; 120, its maximum, halves it. On Unix the
// picker draws with internal/screen instead, which writes each frame as
// soon as it is ready.
const FrameRate = 120

// FrameInterval is one frame: the scan's results and the like are
// gathered for about that long, so the model takes one batch a frame.
const FrameInterval = time.Second / FrameRate

// Config is what the model needs from main.
type Config struct {
	// Dir is the folder to scan, absolute.
	Dir string
	// Hub serves the consented roots; Servers are connected to it at start.
	Hub *mcpconn.Hub
	// RememberAllow keeps a path the person allowed a server to read
	// after enforcement refused it (the server pane's a): for a server of
	// the config file, in its allow-read. It says where it kept it
	// ("kept in ~/.config/rootpick/config.toml"), or why it could not
	// ("add --allow-read PATH to keep it"). It runs off the UI goroutine;
	// nil keeps nothing.
	RememberAllow func(server, path string) (where string, err error)
	Servers       []mcpconn.Spec
	// Scan defaults to vcsdetect.Scan; ScanOptions are passed to it.
	Scan        ScanFunc
	ScanOptions vcsdetect.Options
	// ArmDelay is how long the consent dialog ignores keys after it opens,
	// and after each key it ignored, so that type-ahead cannot answer it.
	// Zero means 300ms.
	ArmDelay time.Duration
	// Store, if set, remembers each confirmed consent and takes the audit
	// log. Remembered is what it held at start: its roots are pre-checked,
	// and served at once only with Resume (if they all still validate).
	Store      *consent.Store
	Remembered *consent.Record
	Resume     bool
	// ReadOnly makes every folder checked in the picker read-only until
	// the person switches it (ctrl+l): --read-only, read_only = true.
	// Remembered roots keep the access they were confirmed with.
	ReadOnly bool
	// StoreProblem, if set, is a sentence saying why the remembered
	// consent was not believed (a record or folder that is not the
	// person's own) or not read; it is shown at start, and nothing of it
	// is checked or served.
	StoreProblem string
	// Intro, when set, starts the screen with a line that says what
	// rootpick is for (the demo's first screen).
	Intro bool
	// Consumers name who consumes the profile's consent when the picker
	// runs no server of its own for it ("claude → fs": the hosts' servers
	// wrapped for the profile, its running proxies): the dialog and the
	// status line say the folders go to them.
	Consumers []string
	// ProxyDir, with Store, is where the proxies of Store's profile
	// register (proxy.Dir); they are shown beside the servers.
	ProxyDir string
	// Describe reads a repository's details for the rows and the details
	// pane; nil is a vcsdetect.Describer's (git when installed, go-git
	// otherwise). Injectable for tests.
	Describe DescribeFunc
	// LogPath is the log file, named in the server pane.
	LogPath string
	// CommitTime reads a repository's last commit time for the sort by
	// last commit; nil is vcsdetect.LastCommitTime. Injectable for tests.
	CommitTime func(vcsdetect.Repo) (time.Time, bool)
	// NoMouse leaves the mouse to the terminal (text selection): no wheel
	// scrolling, no clicking rows (--no-mouse).
	NoMouse bool
	// Theme is the config file's theme: "auto" (or "") takes the
	// terminal's background, as it answers tea.RequestBackgroundColor;
	// "dark" or "light" sets the palette and asks nothing.
	Theme string
	// AsRoot says rootpick runs as root (euid 0): an enforced server then
	// still reads all that root can in its runtime (/etc/shadow, other
	// processes' /proc), which the dialog and the pane say.
	AsRoot bool
	// Now is the clock of the type-ahead guard and of records; nil is
	// time.Now.
	Now func() time.Time
}
