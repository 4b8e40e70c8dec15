// Package wrapplan decides what `rootpick hosts wrap` and `hosts unwrap`
// change in the agent hosts' configuration files: which entries are
// rewritten and which are left alone (and why, said on Request.Log), each
// file's rewrite (one file that several hosts read rewritten once), the
// network a wrapped server gets when --network is not given (OfflineNetwork:
// off for servers known to need none), what a wrapped launcher fetches
// ahead and why one is not fetched (Launch), and the notes shown below each
// file's diff. Plan returns it all; the command in the root package
// shows the diffs, asks, fetches and writes.
//
// It is a package of its own rather than a part of internal/hostcfg,
// though no import cycle forces it today: hostcfg reads and rewrites the
// files (four formats, every byte kept) and imports no domain package,
// while the plan reads what each profile's consent grants (Grants, from
// the consent stores) and what the proxy's policy refuses an entry's env
// (launch.EnvRefusals). In hostcfg, those imports would hang consent and
// mcpconn under the file layer: mcpconn could then never use hostcfg (the
// proxy reads the flags a wrap writes, hostcfg.OrigArgFlag) without a
// cycle, and every hostcfg test would build the sandbox's code.
//
// Nothing here talks to a terminal or writes a file: the notes and the
// lines on Log are text for the command to print, secrets hidden and
// escaped (CommandLine, ShownFolder).
package wrapplan
