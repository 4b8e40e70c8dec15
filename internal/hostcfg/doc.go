// Package hostcfg finds the MCP server entries that agent hosts (Claude
// Code, VS Code, Cursor, Gemini CLI, Codex, Goose, Amp and the others in
// HostTable; docs/hosts.md says which files each reads) keep in their own
// configuration files, and rewrites chosen stdio entries to run through
// `rootpick proxy` and back.
//
// HostTable is one entry per host: its names, its files (each with its
// format and where the servers are in it) and the entry --print-config
// prints. Hosts, Files, FileFor and Snippet are derived from it.
//
// It needs its own room because it edits files that belong to other
// programs, in four formats (JSON, JSONC, TOML, YAML), and must leave every
// byte it was not asked to change where it was: comments, key order,
// indentation, quoting. Each format is read with a real parser that gives
// the byte range of every value (hujson for JSON and JSONC, where only the
// servers objects are parsed and the rest walked over; go-toml's unstable
// parser for TOML, goccy/go-yaml for YAML); a rewrite is a few splices at
// those ranges, read back with the same parser and checked before anything
// is written. Wrap moves the original command's text into the proxy's
// arguments and unwrap moves it back, so that wrap followed by unwrap gives
// the original bytes.
//
// A server started with a folder as an argument keeps it whatever the
// consent says, so wrap replaces each run of arguments that name folders
// (FolderArgs: expanded as the host expands them, a launcher's own program
// left out) with {roots}, which the proxy expands to the consented
// folders, and moves their text to the proxy's --orig-arg flags, where
// unwrap finds it (OrigArgFlag).
//
// The diff a command shows (Rewrite.WriteDiff) matches only the lines the
// splices touched and is written a hunk at a time, every line with its
// secrets hidden: a ~/.claude.json of tens of megabytes costs what changed.
//
// The files come from the home folder and from repositories, so they are
// claims (ReadConfig): regular files only, a symbolic link only to a file
// of the person's own, under a size cap, and nested no deeper than
// MaxDepth, all checked before a parser sees them.
//
// Nothing here talks to a terminal: the command in the root package shows
// the diff and asks.
package hostcfg
