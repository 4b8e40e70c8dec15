// Package launch starts one stdio MCP server as rootpick promised: in its
// own process group with a random environment tag, under a guard process,
// held by the kernel to the consented folders, and ended with everything
// it started. It knows nothing of roots being served or of sessions: the
// hub's supervision (mcpconn) and rootpick proxy (mcpconn's proxy files)
// both start their servers through NewProcess, an mcp.Transport, and read
// what it says (Enforcement, Refusal, how the process ended).
//
// It has these parts:
//
// The process (process.go, process_*.go): NewProcess starts the command
// with pipes of its own (the server never inherits the terminal), tags
// it, and Process.Stop ends the tree — the process group, the
// descendants found in /proc, every process carrying the tag — looking
// again until nothing new runs. BecomeSubreaper and EndDescendants are
// the program's own share of the clean-up.
//
// The guard (guard*.go, outlive_*.go): on Linux each server runs under
// the program re-executed as rootpick-guard (GuardMain), a subreaper with
// a parent-death signal that applies the ruleset just before exec and
// ends the server's tree when its parent dies, even by SIGKILL.
//
// The boundary (policy*.go, homes_policy.go, landlock_*.go, seccomp_*.go,
// enforce.go, confine.go, network.go): BuildPolicy turns the consented
// folders, the server's runtime and the person's allow-read/allow-write
// into a Policy, each path with why; the guard applies it with Landlock,
// and with a seccomp filter for the doors Landlock leaves open on the
// kernel (unix sockets below ABI 9, a file's mode, times, owner and
// extended attributes). WouldEnforce and Enforcement say whether a server
// is enforced or advisory, and why.
//
// What a server says when it fails (exit*.go, refused.go, stderr.go):
// how its process ended, in words; which refused path its stderr names
// (Policy.Refusal); stderr read in bounded lines and kept in a bounded
// ring.
//
// It has a room of its own because it is the part that touches the
// kernel: its tests watch processes, rulesets and /proc directly
// (TestMain makes the test binary a guard and the processes a server
// leaves behind) without a hub, and the hub and the proxy reach it only
// through the names above.
package launch
