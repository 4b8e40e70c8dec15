// Package proxy is rootpick proxy: it sits between an agent host and one
// stdio server, passes everything through, and answers roots from the
// person's consent record (StoreSource, admitted again by consent.Admit
// on every change) instead of from the host. It negotiates a protocol
// version both sides accept, answers 2026-07-28 multi-round-trip roots
// requests (proxy_mrtr.go), refuses malformed host lines with JSON-RPC
// errors (hostconn.go), holds the host's requests until the server has
// fetched its roots (proxy_hold.go), lets a launcher's first install
// finish (proxy_install.go), and registers itself so the picker can show
// it (registry*.go: List, Entry).
//
// The host side (hostkeys.go) reads a host's params as a server will
// (encoding/json folds keys and keeps the last of two): roots a host
// slips into an MRTR retry are replaced whatever their spelling, and
// params that could be read two ways are refused.
//
// It has a package of its own because it never touches the hub: it
// supervises one child itself, started through mcpconn/launch as the
// hub's servers are, and shares with mcpconn only the Timing, the
// verification of what a server holds (mcpconn.ProberFor) and a few
// words. Secrets are removed from everything it logs, shows or reports
// with internal/redact.
package proxy
