package wrapplan

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/paths"
	"mvdan.cc/sh/v3/syntax"
)

// Grants reads once per profile what its consent grants now, from
// the consent stores in this run's state folder (dirs) or another one.
type Grants struct {
	dirs paths.Dirs
	read map[string]string
}

// NewGrants reads the consent stores of dirs' state folder, and those of
// the state folders proxies are given (In).
func NewGrants(dirs paths.Dirs) Grants {
	return Grants{dirs: dirs, read: map[string]string{}}
}

// of says what profile's proxies serve now: the consented folders, or
// that there are none and why.
func (g Grants) of(profile string) string {
	return g.In("", profile)
}

// In is of for the consent store in the state folder state ("" for this
// run's): what a proxy given --state-dir state serves.
func (g Grants) In(state, profile string) string {
	key := state + "\x00" + profile
	if v, ok := g.read[key]; ok {
		return v
	}
	v := readGrant(g.dirs, state, profile)
	g.read[key] = v
	return v
}

// readGrant says what profile's consent grants, read from the state folder
// state, or from dirs' when state is "".
func readGrant(dirs paths.Dirs, state, profile string) string {
	var store *consent.Store
	var err error
	if state != "" {
		store, err = consent.OpenStoreIn(state, profile)
	} else {
		var st paths.State
		if st, err = dirs.State(); err == nil {
			store, err = consent.OpenStoreAt(st, profile)
		}
	}
	if err != nil {
		return "what it grants cannot be read: " + shown(err.Error())
	}
	rec, err := store.Load()
	if errors.Is(err, fs.ErrNotExist) {
		return "nothing yet: choose with 'rootpick --profile " + shellWord(profile) + " DIR'"
	}
	if err != nil {
		return "nothing: its consent cannot be read: " + shown(err.Error())
	}
	roots, _ := consent.Admit(rec, consent.DefaultEnv(rec.Dir))
	if len(roots) == 0 {
		return "nothing now"
	}
	first := make([]string, 0, 3)
	for _, r := range roots[:min(3, len(roots))] {
		first = append(first, shown(r.Path))
	}
	more := ""
	if len(roots) > 3 {
		more = fmt.Sprintf(" and %d more", len(roots)-3)
	}
	folders := "folders"
	if len(roots) == 1 {
		folders = "folder"
	}
	return fmt.Sprintf("now %d %s: %s%s", len(roots), folders, strings.Join(first, ", "), more)
}

// shellWord is s quoted for a POSIX shell where it needs quoting (as the
// root package's, for the command a grant's text names).
func shellWord(s string) string {
	q, err := syntax.Quote(s, syntax.LangPOSIX)
	if err != nil { // a NUL byte or invalid UTF-8: no shell word holds it
		return strconv.Quote(s)
	}
	return q
}
