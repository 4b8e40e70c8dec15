// Package procinfo tells one Linux process from another across time and
// PID namespaces: its start time (a reused pid has a later one) and the
// PID namespace pids are numbered in (a rootpick in a container sharing
// /tmp numbers its processes otherwise). It has a room of its own because
// two sweeps of left folders use it — the servers' private TMPDIRs
// (mcpconn) and the demo's workspaces (sampleworkspace) — and neither
// package may import the other. Elsewhere than on Linux both answers are
// "": callers then never take a folder for an orphan.
package procinfo
