package wrapplan

import (
	"path/filepath"
	"strings"

	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/internal/safetext"
)

// The words the notes show a host entry's parts in, secrets hidden and
// escaped; the commands show entries and folders with the same ones
// (CommandLine, ShownFolder, ShownPath), so that a note and a listing
// say a command alike.

// CommandLine shows a command and its arguments, each quoted when it
// holds a space or a quote, with secrets hidden (each word by redact.Arg,
// a URL with spaces included; then the line by redact.Text, so that
// --api-key X loses X), escaped for the terminal.
func CommandLine(command string, args []string) string {
	words := append([]string{command}, args...)
	for i, w := range words {
		w = redact.Arg(w)
		if w == "" || strings.ContainsAny(w, " \t'\"\\$`") {
			w = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'" // as a shell reads it
		}
		words[i] = w
	}
	return shown(strings.Join(words, " "))
}

// shown is text from a host's file (a name, a command line, an error that
// quotes the file, a diff) as the terminal shows it: its secrets hidden
// (redact.Text), then escaped: the root package's and internal/prefetch's
// shown.
func shown(s string) string {
	return safetext.Escape(redact.Text(s))
}

// argWords shows arguments as a shell reads them, quoted where needed,
// secrets hidden, escaped.
func argWords(args []string) string {
	return strings.TrimPrefix(CommandLine("", args), "'' ")
}

// ShownFolder is dir as a person types it in a shell: ~ for the home
// folder and ~/… under it, quoted where the shell needs it, escaped.
func ShownFolder(dir, home string) string {
	if home != "" && dir == home {
		return "~"
	}
	if rel, err := filepath.Rel(home, dir); home != "" && err == nil && filepath.IsLocal(rel) {
		if q := argWords([]string{rel}); q == shown(rel) {
			return "~/" + q
		}
	}
	return argWords([]string{dir})
}

// ShownPath shows a path as a person reads it: under the home folder as
// ~/…, secrets hidden, escaped (launch.PolicyRefusal.Subject's path).
func ShownPath(home string) func(string) string {
	return func(p string) string { return ShownFolder(filepath.Clean(p), home) }
}
