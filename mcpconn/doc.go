// Package mcpconn connects rootpick to MCP servers and serves them roots.
//
// It has these parts, each in its own files; none of them knows about a
// terminal (events reach a UI through one channel, Hub.Events).
//
// The hub (hub.go, event.go, watch.go, watched.go, verify.go) holds the
// consented set that is served, answers every server's roots/list with it
// and sends notifications/roots/list_changed when it changes (SetRoots
// stores the set before it notifies anyone). It watches the served
// folders and withdraws one that vanishes, is renamed, turns into a
// symlink or becomes unreadable, from every server at once; it records
// what each server fetched and, where rootpick knows how, asks the server
// what it really holds (verified / mismatch).
//
// Server supervision (server.go, spec.go, budget.go) runs one supervisor a
// server: a stdio command (started by mcpconn/launch), a Streamable HTTP
// URL or the built-in demo server in the same process (demo.go). It
// starts and initializes the session within a budget, restarts it with a
// doubling backoff when it crashes, stops it when it stops reading
// (wedged), restarts it with no roots when every root is revoked (some
// servers ignore an empty list) — enforced, on every consented change —,
// and keeps the last lines of its stderr for a failure.
//
// rootpick proxy is mcpconn/proxy's: it shares the hub's Timing, its
// verification (ProberFor, DiffSets) and its words (RestartEnforced),
// and starts its one server through mcpconn/launch as the supervision
// does.
//
// Starting a stdio server, ending it with all it started, and holding it
// to the consent (Landlock, seccomp, the guard process) are
// mcpconn/launch's: see its package doc. A consented change restarts an
// enforced server under the new ruleset instead of telling it
// list_changed; where the kernel cannot (another OS, no Landlock,
// enforce = off) a server runs advisory, and its Enforcement says so and
// why; enforce = require refuses to start it.
//
// Secrets (URL passwords, query values, tokens) are removed from
// everything this package logs, shows or reports with internal/redact,
// stderr lines and labels included.
package mcpconn
