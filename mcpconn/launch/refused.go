package launch

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// An enforced server that opens a path its policy does not grant gets
// EACCES (or EPERM), and what it does with that is its own affair: node
// prints `Error: EACCES: permission denied, open '/x'`, Python a
// PermissionError, a shell `sh: 1: /x: Permission denied`, and the
// server usually exits — with a status that reads like an ordinary bug.
// Refusal reads the server's stderr for those forms and names the path,
// so that the picker can say that enforcement refused it, and offer to
// allow it, instead of leaving the person to turn enforcement off.

// Refusal is a path an enforced server reported it was refused, which its
// policy does not grant: most likely the kernel refused it.
type Refusal struct {
	// Path is absolute, as the server wrote it (not resolved).
	Path string
	// Need is what the server tried, as far as the line says: AccessRead
	// (open, read, list), AccessWrite (create, write, remove, rename) or
	// AccessExec (run).
	Need Access
	// Line is the stderr line it was read from.
	Line string
}

// deniedWords are the forms of "permission denied" runtimes print.
var deniedWords = regexp.MustCompile(`EACCES|EPERM|[Pp]ermission denied|[Oo]peration not permitted`)

// pathForms find the path a refusal line is about, in the order tried:
// quoted (node, Python, env), then a bare path before ": Permission
// denied" (shells, cat, Go's "open /x: permission denied"), then after
// node's "spawn " and Go's "fork/exec ".
var pathForms = []*regexp.Regexp{
	regexp.MustCompile(`'(/[^']*)'`),
	regexp.MustCompile(`"(/[^"]*)"`),
	regexp.MustCompile(`‘(/[^’]*)’`), // coreutils and env in a UTF-8 locale
	regexp.MustCompile(`(?:^|[\s:])(/[^\s:'"]*): (?:[Pp]ermission denied|[Oo]peration not permitted)`),
	regexp.MustCompile(`(?:spawn\w*|exec) (/[^\s:'"]+)`),
}

// needWords say what a line's operation needs; read when none matches.
var (
	// A shell or env that says "PATH: Permission denied" could not run
	// PATH; cat or ls saying it could not read it name themselves.
	execWords  = regexp.MustCompile(`spawn\w*|\bexec(ve)?\b|fork/exec|not executable|^(?:[\w/.-]*/)?(?:sh|bash|dash|zsh|env): `)
	writeWords = regexp.MustCompile(`\b(mkdir|mkdtemp|rmdir|unlink|rename|write|writeFile|appendFile|copyfile|symlink|link|chmod|utime|truncate|rm)\b|Read-only file system`)
)

// refusedIn reads a stderr line for a refused path: ok is false when the
// line is not a refusal or names no absolute path.
func refusedIn(line string) (path string, need Access, ok bool) {
	if !deniedWords.MatchString(line) {
		return "", 0, false
	}
	for _, re := range pathForms {
		if m := re.FindStringSubmatch(line); m != nil && len(m[1]) > 1 {
			path = filepath.Clean(m[1])
			break
		}
	}
	if path == "" {
		return "", 0, false
	}
	switch {
	case writeWords.MatchString(line):
		need = AccessWrite
	case execWords.MatchString(line) && !strings.Contains(line, "open"):
		need = AccessExec
	default:
		need = AccessRead
	}
	return path, need, true
}

// Allows reports whether the policy lets the server do need with path:
// a path of the policy that is path itself or a folder above it grants
// every bit of need (Landlock's rights add up along the tree).
func (p Policy) Allows(path string, need Access) bool {
	var have Access
	for _, pp := range p.Paths {
		if pp.Path == path || within(path, pp.Path) {
			have |= pp.Access
		}
	}
	return have&need == need
}

// Refusal reads a stderr line of a server that runs under p for a path
// the policy does not grant it: what the kernel, not the file's mode,
// most likely refused. A path the policy grants was refused by something
// else (the file's own permissions), and is no Refusal.
func (p Policy) Refusal(line string) (Refusal, bool) {
	path, need, ok := refusedIn(line)
	if !ok || p.Allows(path, need) {
		return Refusal{}, false
	}
	return Refusal{Path: path, Need: need, Line: line}, true
}

// Words say the refusal in a few words: "refused: /x/settings.json
// (read)".
func (r Refusal) Words(path func(string) string) string {
	return "refused: " + path(r.Path) + " (" + r.Need.String() + ")"
}

// String is Words with the path as it is (the UI escapes and shortens
// it; a log and the proxy's stderr show it whole).
func (r Refusal) String() string { return r.Words(func(p string) string { return p }) }

// Refusals are the refusals one start of a server wrote, first first.
type Refusals struct {
	mu   sync.Mutex
	list []Refusal
}

// Note records r; it reports whether r is new (each path and access is
// said once a start).
func (rs *Refusals) Note(r Refusal) bool {
	if rs == nil {
		return false
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	for _, o := range rs.list {
		if o.Path == r.Path && o.Need == r.Need {
			return false
		}
	}
	rs.list = append(rs.list, r)
	return true
}

// Explain is why a server's process ended (end), with the first path it
// said enforcement refused, if any: a status that reads like an ordinary
// bug (exited with status 1) is then most likely the boundary.
func (rs *Refusals) Explain(end string) string {
	if rs == nil {
		return end
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if len(rs.list) == 0 {
		return end
	}
	return "stopped by enforcement? " + rs.list[0].String() + "; " + end
}
