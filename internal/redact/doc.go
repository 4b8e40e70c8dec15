// Package redact removes secrets from text before it is shown or logged:
// the user information, query values and fragment of URLs (well formed or
// not), the values of settings and environment variables whose names look
// like secrets (API_KEY=…, "token": "…", password: …), the values of
// command-line flags such as --api-key and --token, bearer credentials,
// and well-known token shapes (sk-…, ghp_…, github_pat_…, xoxb-…, AKIA…)
// wherever they stand.
//
// It is a package of its own because it is cross-cutting: the root package
// (error messages, flag errors, the hosts list), mcpconn (server labels and
// connection errors), logfile (every log record) and hostcfg (the diff of
// a wrap or unwrap) all use it, and none of them should have to import
// another of them for it. Every surface uses the same functions, so a
// secret hidden in one place is hidden in all of them.
//
// Every secret is replaced by [Marker]; what identifies an entry is kept:
// a URL's scheme, host, port and path and its query keys
// (https://REDACTED@h.example/mcp?token=REDACTED), a setting's name
// (GITHUB_TOKEN=REDACTED), a flag's name (--api-key REDACTED), a token's
// kind (sk-REDACTED). Redaction never adds or removes a line break, and
// redacting redacted text changes nothing.
//
// The text scanner errs on the side of hiding: a word after a secret-named
// flag or setting is hidden even when it was not a secret. Where the exact
// extent of a URL is known (a flag's value, a configured url), [URL] is
// used instead of [Text], so that a URL with spaces or bad escapes is still
// cut at the right places.
package redact
