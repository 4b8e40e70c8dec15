package mcpconn

import (
	"context"
	"errors"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// Spec says how to reach one server. Exactly one of Command, URL and Demo is
// set.
type Spec struct {
	// Name labels the server in events and the UI; "" derives one.
	Name string
	// Command is a stdio server: the program and its arguments.
	Command []string
	// URL is a Streamable HTTP endpoint.
	URL string
	// Demo is the built-in server, run in this process.
	Demo *Demo

	// Enforce says whether the kernel enforces what a stdio server may
	// open (Landlock, on Linux; see BuildPolicy): EnforceOn (the default
	// EnforceDefault) where the kernel can, EnforceOff never,
	// EnforceRequire or the server is not started.
	Enforce launch.Enforce
	// AllowRead and AllowWrite are folders an enforced stdio server may
	// read (and execute), or also write, on top of the consented folders
	// and its runtime.
	AllowRead, AllowWrite []string
	// AllowSocket are unix sockets an enforced stdio server may connect
	// to on purpose (an agent's, a database's). Landlock holds it to
	// them from ABI 9; below 9 the guard can only let the server make
	// unix sockets at all, and Enforcement says so (policy_sockets.go).
	AllowSocket []string
	// Network off refuses an enforced stdio server every IP socket
	// (network.go).
	Network launch.Network
	// ReadOnly caps the server to reading ("this server never writes"):
	// every consented folder is read-only for an enforced stdio server,
	// whatever the consent says of it (consent.Root.ReadOnly), so that it
	// may read files and list folders there and nothing else. It narrows
	// the consent only: its runtime, its TMPDIR, its launcher's cache
	// and allow-write are as they are.
	ReadOnly bool
}

// Label is the name used for the server before it has told its own. A URL
// is shown with its user information, query values and fragment hidden
// (redact.URL); a command launched through env(1) is named after the
// command env runs.
func (s Spec) Label() string {
	switch {
	case s.Name != "":
		return s.Name
	case s.Demo != nil:
		return "rootpick-demo"
	case s.URL != "":
		return redact.URL(s.URL)
	case len(s.Command) > 0:
		return launch.CommandLabel(s.Command)
	}
	return "server"
}

// redactError hides the secrets in an error about s (redact.Error): any
// text's (a URL's credentials, --api-key X), and the secrets of s.URL
// wherever they stand on their own, since transport errors quote the URL
// they were given, whole or with the password masked, and a server may
// repeat a token it was sent.
func (s Spec) redactError(err error) error {
	return redact.Error(err, redact.URLSecrets(s.URL))
}

// transport builds the transport for spec and a stop function that ends what
// it started. onStderr receives the server's stderr, line by line, each
// with the path it says enforcement refused, if any (refused.go). An
// enforced stdio server may open the consented folders and its runtime.
func (s Spec) transport(ctx context.Context, logger *slog.Logger, onStderr launch.StderrFunc, consented []consent.Root) (mcp.Transport, func(), error) {
	switch {
	case s.Demo != nil:
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.Demo.Server().Connect(ctx, st, nil)
		if err != nil {
			return nil, nil, err
		}
		return ct, func() { _ = ss.Close() }, nil
	case s.URL != "":
		return &mcp.StreamableClientTransport{Endpoint: s.URL}, func() {}, nil
	case len(s.Command) > 0:
		t, err := launch.NewProcess(s.Command, s.access(consented), logger, onStderr)
		if err != nil {
			return nil, nil, err
		}
		return t, t.Stop, nil
	}
	return nil, nil, errors.New("mcpconn: empty server spec")
}

// advisory is the Enforcement of a server rootpick does not start as a
// process of its own.
func (s Spec) advisory() launch.Enforcement {
	switch {
	case s.Demo != nil:
		return launch.Enforcement{Advisory: "the built-in demo server runs inside rootpick and opens no files"}
	case s.URL != "":
		return launch.Enforcement{Advisory: "an HTTP server runs outside rootpick: its host decides what it can open"}
	}
	return launch.Enforcement{}
}

// defaultEnforce is what a Spec's unset Enforce stands for when its
// server is started: launch.EnforceDefault (on). Only tests change it
// (hub_test.go: their servers that are not about enforcement run
// advisory, notified of a change rather than restarted under a new
// ruleset; the enforcement tests ask for it).
var defaultEnforce = launch.EnforceDefault

// access is what a stdio server of s may open besides its runtime.
func (s Spec) access(consented []consent.Root) launch.ServerAccess {
	enforce := s.Enforce
	if enforce == launch.EnforceDefault {
		enforce = defaultEnforce
	}
	a := launch.ServerAccess{Enforce: enforce, AllowRead: s.AllowRead, AllowWrite: s.AllowWrite, AllowSocket: s.AllowSocket, Network: s.Network}
	a.Consented, a.ReadOnly = s.ConsentedPaths(consented)
	return a
}

// ConsentedPaths splits the consented roots into the folders a server of
// s may read and write and those it may only read (launch.SplitConsented,
// capped when s is: ReadOnly).
func (s Spec) ConsentedPaths(consented []consent.Root) (readWrite, readOnly []string) {
	return launch.SplitConsented(consented, s.ReadOnly)
}
