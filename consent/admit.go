package consent

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Dropped is a remembered root that is not served, and why.
type Dropped struct {
	Root Root   `json:"root"`
	Why  string `json:"why"`
}

// String is "path: why", with the path quoted so that no control character
// in it reaches a terminal.
func (d Dropped) String() string { return strconv.Quote(d.Root.Path) + ": " + d.Why }

// Admit checks a remembered record's roots again, as the picker checks a
// proposal before its dialog: a record is a claim about what the person
// granted, not a grant. Each root must still be a clean absolute path to
// the same readable folder (NewRoot gives it back unchanged), and every
// warning Risks gives it now — judged against the record's scanned folder
// and the current home folder, so a root that became risky since counts
// as risky — must be one the record says the person acknowledged for that
// root (Record.Granted). The rest are dropped, each with why. A record
// without an absolute scanned folder admits nothing.
//
// It reads the disk (symlinks, the top of each folder, the mount table),
// so it belongs off the UI goroutine.
func Admit(rec Record, env Env) (ok []Root, dropped []Dropped) {
	drop := func(r Root, why string) { dropped = append(dropped, Dropped{Root: r, Why: why}) }
	if !filepath.IsAbs(rec.Dir) {
		for _, r := range rec.Roots {
			drop(r, "the record names no absolute scanned folder")
		}
		return nil, dropped
	}
	env = env.Prepared()
	seen := map[string]bool{}
	for _, r := range rec.Roots {
		if !filepath.IsAbs(r.Path) || filepath.Clean(r.Path) != r.Path {
			drop(r, "not a clean absolute path")
			continue
		}
		fresh, err := NewRoot(r.Path)
		if err != nil {
			drop(r, strings.TrimPrefix(err.Error(), "consent: "))
			continue
		}
		if fresh.Path != r.Path || fresh.URI != r.URI {
			drop(r, "now resolves to "+strconv.Quote(fresh.Path))
			continue
		}
		if seen[fresh.URI] {
			continue
		}
		seen[fresh.URI] = true
		granted := rec.Granted[r.URI]
		var missing []string
		for _, w := range Risks(r.Path, fresh, env) {
			if !slices.Contains(granted, w.Code) {
				missing = append(missing, w.Text)
			}
		}
		if len(missing) > 0 {
			drop(r, "never granted in the picker: "+strings.Join(missing, "; "))
			continue
		}
		if r.Name != "" {
			fresh.Name = r.Name
		}
		fresh.ReadOnly = r.ReadOnly
		ok = append(ok, fresh)
	}
	return ok, dropped
}

// GrantCodes are the codes of ws, for Record.Granted.
func GrantCodes(ws []Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Code
	}
	return out
}
