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
// Server supervision (server.go, spec.go, stderr.go) runs one supervisor a
// server: a stdio command, a Streamable HTTP URL or the built-in demo
// server in the same process (demo.go). It starts and initializes the
// session within a budget, restarts it with a doubling backoff when it
// crashes, stops it when it stops reading (wedged), restarts it with no
// roots when every root is revoked (some servers ignore an empty list) —
// enforced, on every consented change —, and bounds what a flooding
// stderr can cost.
//
// The proxy (proxy.go, proxy_mrtr.go, hostconn.go, filesource.go,
// registry*.go) is rootpick proxy: it sits between an agent host and one
// stdio server, passes everything through, and answers roots from the
// person's consent record (StoreSource, admitted again by consent.Admit
// on every change) instead of from the host. It negotiates a protocol
// version both sides accept, answers 2026-07-28 multi-round-trip roots
// requests, refuses malformed host lines with JSON-RPC errors, and
// registers itself so the picker can show it.
//
// Process clean-up (process_*.go, guard*.go) ends a stdio server with
// everything it started: its process group, its descendants found in
// /proc, and every process carrying its random environment tag, looking
// again until nothing new runs. On Linux each server runs under a guard
// process (a subreaper with a parent-death signal), so the tree ends even
// when rootpick itself is killed with SIGKILL.
//
// Enforcement (policy.go, enforce.go, landlock_*.go) makes the consent a
// boundary rather than advice: on Linux the guard applies a Landlock
// ruleset just before it starts the server, built by BuildPolicy from the
// consented folders, the server's runtime (system folders, its program,
// interpreter and package, its launcher's cache, a private TMPDIR) and the
// person's allow-read / allow-write, each path with the reason it is
// there. A consented change restarts an enforced server under the new
// ruleset instead of telling it list_changed. Where the kernel cannot
// (another OS, no Landlock, enforce = off) a server runs advisory, and its
// Enforcement says so and why; enforce = require refuses to start it.
//
// The proxy's host side (hostkeys.go) reads a host's params as a server
// will (encoding/json folds keys and keeps the last of two): roots a host
// slips into an MRTR retry are replaced whatever their spelling, and
// params that could be read two ways are refused.
//
// Secrets (URL passwords, query values, tokens) are removed from
// everything this package logs, shows or reports with internal/redact,
// stderr lines and labels included.
package mcpconn
