package launch

import "testing"

// TestRefusedIn reads the refusal lines runtimes really print (each taken
// from a run as nobody against a 0700 folder: the same errno the kernel's
// Landlock refusal gives) for the path and what was tried; other lines are
// no refusal.
func TestRefusedIn(t *testing.T) {
	for _, tc := range []struct {
		line string
		path string
		need Access
	}{
		{"Error: EACCES: permission denied, open '/home/me/.config/x/settings.json'", "/home/me/.config/x/settings.json", AccessRead},
		{"Error: EACCES: permission denied, scandir '/srv/data'", "/srv/data", AccessRead},
		{"Error: EACCES: permission denied, mkdir '/home/me/.cache/x'", "/home/me/.cache/x", AccessWrite},
		{"Error: EPERM: operation not permitted, unlink '/src/a/b'", "/src/a/b", AccessWrite},
		{"Error: spawnSync /opt/tool/bin/run EACCES", "/opt/tool/bin/run", AccessExec},
		{"Error: spawn /opt/tool/bin/run EACCES", "/opt/tool/bin/run", AccessExec},
		{"PermissionError: [Errno 13] Permission denied: '/home/me/.config/x/settings.toml'", "/home/me/.config/x/settings.toml", AccessRead},
		{"cat: /etc/shadow-like: Permission denied", "/etc/shadow-like", AccessRead},
		{"sh: 1: /home/me/bin/helper: Permission denied", "/home/me/bin/helper", AccessExec},
		{"bash: line 1: /home/me/bin/helper: Permission denied", "/home/me/bin/helper", AccessExec},
		{"/bin/sh: /home/me/bin/helper: Permission denied", "/home/me/bin/helper", AccessExec},
		{"env: ‘/home/me/bin/helper’: Permission denied", "/home/me/bin/helper", AccessExec},
		{"ls: cannot open directory '/home/me/notes': Permission denied", "/home/me/notes", AccessRead},
		{"mkdir: cannot create directory ‘/home/me/x’: Permission denied", "/home/me/x", AccessWrite},
		{"open /home/me/.netrc: permission denied", "/home/me/.netrc", AccessRead},
		{"fork/exec /home/me/bin/helper: permission denied", "/home/me/bin/helper", AccessExec},
		{"mkdir /home/me/x: permission denied", "/home/me/x", AccessWrite},
		{"Error: EACCES: permission denied, open '/a/b/../c'", "/a/c", AccessRead},
	} {
		path, need, ok := refusedIn(tc.line)
		if !ok || path != tc.path || need != tc.need {
			t.Errorf("%q: %q %v %v, want %q %v", tc.line, path, need, ok, tc.path, tc.need)
		}
	}
	for _, line := range []string{
		"Secure MCP Filesystem Server running on stdio",
		"Error: ENOENT: no such file or directory, open '/x/y'",
		"Permission denied (os error 13)", // no path: nothing to allow
		"EACCES: permission denied, open 'relative/path'",
		"Allowed directories: [ '/src' ]",
	} {
		if path, _, ok := refusedIn(line); ok {
			t.Errorf("%q read as a refusal of %q", line, path)
		}
	}
}

// TestPolicyRefusal: a refused path the policy does not grant is a
// Refusal; one it grants (a read-only file the server tried to open, a
// file's own mode) is not: the kernel's ruleset did not refuse it.
func TestPolicyRefusal(t *testing.T) {
	p := Policy{Paths: []PolicyPath{
		{Path: "/src/app", Access: accessRWX, Why: WhyConsented},
		{Path: "/src/docs", Access: AccessRead, Why: WhyConsented, ReadOnly: true},
		{Path: "/usr", Access: accessRX, Why: WhySystem},
	}}
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"Error: EACCES: permission denied, open '/home/me/.config/x/settings.json'", true},
		{"Error: EACCES: permission denied, open '/src/app/.env'", false},       // granted: the file's mode refused it
		{"Error: EACCES: permission denied, mkdir '/src/docs/new'", true},       // read-only: writing is refused
		{"Error: EACCES: permission denied, open '/src/docs/readme.md'", false}, // read-only, read granted
		{"sh: 1: /src/docs/run.sh: Permission denied", true},                    // read-only: no exec
		{"sh: 1: /usr/bin/tool: Permission denied", false},
		{"Error: EACCES: permission denied, open '/src/applesauce'", true}, // a sibling, not inside /src/app
	} {
		r, ok := p.Refusal(tc.line)
		if ok != tc.want {
			t.Errorf("%q: refusal %v (%+v), want %v", tc.line, ok, r, tc.want)
		}
	}
	r, _ := p.Refusal("Error: EACCES: permission denied, open '/home/me/.config/x/settings.json'")
	if got := r.Words(func(s string) string { return s }); got != "refused: /home/me/.config/x/settings.json (read)" {
		t.Errorf("Words = %q", got)
	}
}
