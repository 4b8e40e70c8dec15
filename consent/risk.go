package consent

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Warning is one reason a root needs its own, deliberate confirmation.
// Code is stable (it goes to the audit log); Text says it to a person.
type Warning struct {
	Code string `json:"code"`
	Text string `json:"text"`
}

// Warning codes, one per reason a root is risky.
const (
	WarnDir          = "dir"           // the scanned folder itself
	WarnFSRoot       = "fs-root"       // "/"
	WarnHome         = "home"          // the home folder
	WarnHomeAncestor = "home-ancestor" // a folder that holds the home folder
	WarnSystem       = "system"        // a system folder or inside one
	WarnOutside      = "outside"       // not inside the scanned folder
	WarnSymlink      = "symlink"       // the checked path goes through a symbolic link
	WarnSecrets      = "secrets"       // well-known secrets at its top
	WarnMount        = "mount"         // another file system is mounted in or above it, inside the scanned folder
	WarnLinks        = "links"         // files at its top with other names (hard links), which may be outside it
	WarnLinkOut      = "link-out"      // symbolic links at its top lead to the home folder, a folder holding it, or /
)

// Env is what risk is judged against: the scanned folder and the home
// folder, both canonical (symlinks resolved).
type Env struct {
	Dir  string
	Home string

	// known is what Risks compares every root with, read once (Prepared).
	known *knownFolders
}

// knownFolders are the folders a root may be an alias of (by device and
// inode), and the mount points inside the scanned folder.
type knownFolders struct {
	ids    []knownID
	mounts []string // mount points strictly inside Env.Dir (Linux)
}

// knownID is one folder a root may be an alias of, and the warning it
// carries.
type knownID struct {
	fi         os.FileInfo
	code, text string
}

// DefaultEnv returns Env for the scanned folder dir with the current user's
// home folder, both with their symlinks resolved where they exist, ready
// to judge many roots (Prepared).
func DefaultEnv(dir string) Env {
	home, _ := HomeDir()
	return Env{Dir: canonical(dir), Home: canonical(home)}.Prepared()
}

// Prepared returns env with the folders every root is compared with read
// once: the identities of /, the home folder and its parents and the
// system folders, and the mount table. Risks of an Env not prepared reads
// them for each root.
func (env Env) Prepared() Env {
	if env.known != nil {
		return env
	}
	k := &knownFolders{}
	addID := func(p, code, text string) {
		if p == "" {
			return
		}
		if fi, err := os.Stat(p); err == nil {
			k.ids = append(k.ids, knownID{fi: fi, code: code, text: text})
		}
	}
	addID("/", WarnFSRoot, "the whole file system (/)")
	addID(env.Home, WarnHome, "your home folder")
	for q := filepath.Dir(env.Home); env.Home != "" && q != "/" && q != "."; q = filepath.Dir(q) {
		addID(q, WarnHomeAncestor, "holds your home folder")
	}
	for _, s := range slices.Concat(systemTrees, systemFolders) {
		addID(s, WarnSystem, "system folder "+s)
	}
	if env.Dir != "" {
		k.mounts = mountsInside(env.Dir)
	}
	env.known = k
	return env
}

func canonical(p string) string {
	if p == "" {
		return ""
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return filepath.Clean(p)
}

// systemTrees are folders that, or anything inside which, belong to the
// operating system; systemFolders must only not be shared themselves (their
// subfolders may well be a person's projects, as in /opt/src or /srv/www).
var (
	systemTrees = []string{
		"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32",
		"/proc", "/root", "/run", "/sbin", "/sys", "/usr", "/var",
		"/System", "/Library", "/private/etc", "/cores",
	}
	systemFolders = []string{
		"/home", "/Users", "/opt", "/srv", "/mnt", "/media", "/tmp", "/private",
		"/private/var", "/private/tmp", "/Applications", "/Volumes",
	}
)

// secretNames are entries whose presence at the top of a folder means it
// holds credentials; secretPatterns are filepath.Match patterns.
var (
	secretNames    = []string{".ssh", ".gnupg", ".aws", ".env", ".netrc", ".kube", ".docker", ".password-store"}
	secretPatterns = []string{"*.pem", "id_*", "*.key", ".env.*"}
)

// maxSecretScan bounds how many entries of one folder are looked at.
const maxSecretScan = 100_000

// Within reports whether path is root or inside it. Both must be clean
// absolute paths.
func Within(path, root string) bool {
	if root == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == root || strings.HasPrefix(path, root+"/")
}

// aliases maps the code of each warning whose folder p is under another
// name (the same device and inode) to the text that says so.
func aliases(p string, env Env) map[string]string {
	alias := map[string]string{}
	if id, err := os.Stat(p); err == nil {
		for _, k := range env.known.ids {
			if _, seen := alias[k.code]; !seen && os.SameFile(id, k.fi) {
				alias[k.code] = k.text + " (the same folder, under another name)"
			}
		}
	}
	return alias
}

// systemFolder is the text of WarnSystem's warning for p, or "" when p is
// not a system folder (nor in a system tree).
func systemFolder(p string) string {
	for _, s := range systemTrees {
		if Within(p, s) {
			return "system folder " + s
		}
	}
	if slices.Contains(systemFolders, p) {
		return "system folder " + p
	}
	return ""
}

// Risks returns why the root r, which the person checked as requested,
// needs its own confirmation; nil means it is a plain root. It reads the
// top of r's folder (for secrets) and resolves requested (for symlinks),
// so it belongs off the UI goroutine.
func Risks(requested string, r Root, env Env) []Warning {
	var w []Warning
	add := func(code, text string) { w = append(w, Warning{Code: code, Text: text}) }
	p := r.Path
	env = env.Prepared()
	// Folders are compared by identity (device and inode) as well as by
	// path: a bind mount of the home folder, of / or of /etc is that
	// folder under another name, and carries its warning.
	alias := aliases(p, env) // warning code → the text of the folder it is
	byAlias := func(code string) bool {
		if text, ok := alias[code]; ok {
			add(code, text)
			return true
		}
		return false
	}
	switch {
	case p == "/":
		add(WarnFSRoot, "the whole file system (/)")
	case byAlias(WarnFSRoot):
	case env.Home != "" && p == env.Home:
		add(WarnHome, "your home folder")
	case byAlias(WarnHome):
	case env.Home != "" && Within(env.Home, p):
		add(WarnHomeAncestor, "holds your home folder")
	case byAlias(WarnHomeAncestor):
	}
	if p != "/" {
		if system := systemFolder(p); system != "" {
			add(WarnSystem, system)
		} else {
			byAlias(WarnSystem)
		}
	}
	if env.Dir != "" {
		switch {
		case p == env.Dir:
			add(WarnDir, "the scanned folder itself (everything in it)")
		case !Within(p, env.Dir):
			add(WarnOutside, "outside the scanned folder")
		}
	}
	if requested != "" {
		abs := requested
		if a, err := filepath.Abs(requested); err == nil {
			abs = a
		}
		if filepath.Clean(abs) != p {
			add(WarnSymlink, "reached through a symbolic link")
		}
	}
	top := atTop(p, env.Home)
	if len(top.secrets) > 0 {
		add(WarnSecrets, "holds secrets at its top: "+strings.Join(top.secrets, ", "))
	}
	if len(top.linked) > 0 {
		add(WarnLinks, "files at its top have other names elsewhere (hard links), through which a server reads them: "+strings.Join(top.linked, ", "))
	}
	if len(top.out) > 0 {
		add(WarnLinkOut, "symbolic links at its top lead to your home folder or above it (an enforced server cannot follow them; an advisory one may): "+strings.Join(top.out, ", "))
	}
	if env.Dir != "" {
		if m, ok := mountNear(p, env.known.mounts); ok {
			if m == p {
				add(WarnMount, "another file system is mounted here")
			} else {
				add(WarnMount, "another file system is mounted at "+strconv.Quote(m))
			}
		}
	}
	return w
}

// atTop reads dir's entries once (maxSecretScan at most) and lists, each
// sorted with at most three named (then "…"), the symbolic links among
// its first maxLinkScan entries that lead to home or a folder above it
// (topNames.out), and:
//   - secrets: the well-known secret files and folders in it;
//   - linked: its regular files with more than one name (a hard link
//     count above 1), among its first maxLinkScan entries. Another name of
//     such a file may be outside dir: a server that may read dir reads
//     that file through this name, since the kernel checks the path it is
//     opened by. Finding where the other name is would mean walking the
//     file system; docs/consent.md says so.
//
// Risks runs for every row whose facts are read (ui/facts.go), so the
// folder is read once for both, and only regular files are stat'ed.
func atTop(dir, home string) (t topNames) {
	f, err := os.Open(dir)
	if err != nil {
		return t
	}
	defer f.Close()
	seen := 0
	for seen < maxSecretScan {
		entries, err := f.ReadDir(1024)
		for _, e := range entries {
			if isSecretName(e.Name()) {
				t.secrets = append(t.secrets, e.Name())
			}
			if seen < maxLinkScan {
				t.note(dir, home, e)
			}
			seen++
		}
		if err != nil {
			break // io.EOF, or a folder that stopped reading
		}
	}
	return topNames{firstThree(t.secrets), firstThree(t.linked), firstThree(t.out)}
}

// topNames are what atTop finds at a folder's top: secrets, files with
// other names (hard links), and symbolic links that lead out to the home
// folder, a folder holding it or / ("home → ~").
type topNames struct{ secrets, linked, out []string }

// note looks at entry e of dir for a hard link or a link out.
func (t *topNames) note(dir, home string, e os.DirEntry) {
	switch {
	case e.Type().IsRegular():
		if fi, err := e.Info(); err == nil && linkCount(fi) > 1 {
			t.linked = append(t.linked, e.Name())
		}
	case e.Type()&os.ModeSymlink != 0:
		to, err := filepath.EvalSymlinks(filepath.Join(dir, e.Name()))
		if err != nil || home == "" || !Within(home, to) {
			return // dangling, or inside: what a folder's own links are
		}
		shown := to
		if to == home {
			shown = "~"
		}
		t.out = append(t.out, e.Name()+" → "+shown)
	}
}

// firstThree sorts names and keeps three of them, then "…".
func firstThree(names []string) []string {
	slices.Sort(names)
	if len(names) > 3 {
		names = append(names[:3:3], "…")
	}
	return names
}

// maxLinkScan bounds how many entries at a root's top are looked at for
// hard links: one lstat each.
const maxLinkScan = 512

// IsSecretName reports whether a file or folder named n is a well-known
// secret (.ssh, .gnupg, .aws, .env, id_*, *.pem…): the names the dialog
// warns of at a root's top, which mcpconn never grants as a server's
// runtime.
func IsSecretName(n string) bool { return isSecretName(n) }

func isSecretName(n string) bool {
	if slices.Contains(secretNames, n) {
		return true
	}
	for _, p := range secretPatterns {
		if ok, _ := filepath.Match(p, n); ok {
			return true
		}
	}
	return false
}

// Overlaps returns, for each root inside another root of the same list, the
// outermost root that holds it: such a root is redundant, since the outer
// one already exposes it.
func Overlaps(roots []Root) map[string]string {
	set := make(map[string]bool, len(roots))
	for _, r := range roots {
		set[r.Path] = true
	}
	var out map[string]string
	for _, r := range roots {
		if outer, ok := CoveringRoot(r.Path, set); ok {
			if out == nil {
				out = map[string]string{}
			}
			out[r.Path] = outer
		}
	}
	return out
}

// CoveringRoot returns the outermost folder of roots that holds path
// strictly (path itself does not count), looking at each parent of path in
// turn. path must be clean and absolute; it costs one map lookup a level.
func CoveringRoot(path string, roots map[string]bool) (string, bool) {
	return CoveringRootFunc(path, func(p string) bool { return roots[p] })
}

// CoveringRootFunc is CoveringRoot over the folders for which isRoot is
// true.
func CoveringRootFunc(path string, isRoot func(string) bool) (string, bool) {
	found := ""
	for p := path; p != "/"; {
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			break
		}
		if i == 0 {
			p = "/"
		} else {
			p = p[:i]
		}
		if isRoot(p) {
			found = p
		}
	}
	return found, found != ""
}

// mountNear reports the mount point of mounts that p is in or that is
// inside p: sharing p then shares (part of) another file system, which may
// be anything — a bind mount of the home folder, of /etc, a network share.
// It returns the one nearest to p.
func mountNear(p string, mounts []string) (string, bool) {
	best := ""
	for _, m := range mounts {
		// The one nearest to p: the deepest at or above it, else the
		// shallowest below it.
		switch above := best != "" && Within(p, best); {
		case Within(p, m):
			if !above || len(m) > len(best) {
				best = m
			}
		case Within(m, p):
			if best == "" || (!above && len(m) < len(best)) {
				best = m
			}
		}
	}
	return best, best != ""
}
