package wrapplan

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/hostcfg"
)

// Request is what one hosts wrap or unwrap asks the planner for.
type Request struct {
	// Wrap says wrap, with Proxy; unwrap otherwise.
	Wrap  bool
	Proxy hostcfg.Proxy
	// Names are the servers asked for (none: every one); Except those
	// named with --except: never rewritten.
	Names  []string
	Except []string
	// Prefetch says the wrap fetches ahead what each wrapped launcher
	// would download (no --no-prefetch): each launch then says why it is
	// not fetched, if it is not. Yes is --yes, which fetches for a
	// project file's entries only with PrefetchProject (--prefetch).
	Prefetch        bool
	Yes             bool
	PrefetchProject bool
	// Grants reads what each profile's consent grants, for the notes,
	// and the folders a launcher must not be in.
	Grants Grants
	// Log is where the servers left alone are named, with the reason.
	Log io.Writer
}

// Result is what one run rewrites.
type Result struct {
	// Files are the files that change, one file read by several hosts
	// once.
	Files []*File
	// Missing are the names asked for that no file has, as shown.
	Missing []string
	// Refused says a server asked for by name could not be changed (said
	// on Log).
	Refused bool
}

// Plan decides what req rewrites in configs (the files the hosts read):
// which servers, their new entries and the notes below each file's diff.
// What it leaves alone, and why, it says on req.Log as it goes. An error
// stops the run before anything is written; its text says so.
func Plan(configs []*hostcfg.Config, req Request) (*Result, error) {
	pl := &planner{Request: req, found: map[string]bool{}}
	files, err := pl.plan(configs)
	if err != nil {
		return nil, err
	}
	return &Result{Files: files, Missing: pl.missing(), Refused: pl.refused}, nil
}

// done names the change done: "wrapped" or "unwrapped".
func (pl *planner) done() string {
	if pl.Wrap {
		return "wrapped"
	}
	return "unwrapped"
}

// File is one file to rewrite, as read by one or more hosts.
type File struct {
	// configs are the file as each host that reads it read it (several
	// when one file is reached two ways: .cursor/mcp.json a link to
	// ../.mcp.json); Hosts names them.
	configs []*hostcfg.Config
	Hosts   string
	// paths are the paths the hosts read the file by.
	paths []string
	// Steps are the rewrites, one per host view that changed something,
	// each of the one before's result; Out is the last one's.
	Steps []*hostcfg.Rewrite
	Out   []byte
	// Servers are the names rewritten, as shown; Notes say what became
	// of their folder arguments.
	Servers []string
	Notes   []string
	// Limited are the folders the wrapped servers were started with and
	// now see only through the consent ({roots}): where to pick.
	Limited []string
	// portable says the notes already say the file is a project's.
	portable bool
	// Launches are the wrapped servers whose command is a downloading
	// launcher (launch.go).
	Launches []Launch
}

// Data is the file as it was read.
func (p *File) Data() []byte { return p.configs[0].Data }

// Path is the file's path, as the first host that reads it names it.
func (p *File) Path() string { return p.configs[0].File.Path }

// AlsoAs names the file's other paths, when hosts reach it by several.
func (p *File) AlsoAs() string {
	if len(p.paths) < 2 {
		return ""
	}
	var other []string
	for _, path := range p.paths[1:] {
		other = append(other, shown(path))
	}
	return " (also read as " + strings.Join(other, ", ") + ")"
}

// sameFiles groups configs by the file they were read from (os.SameFile,
// links followed), in the order they come: one file that two hosts read
// (a project's .cursor/mcp.json a link to its .mcp.json) must be rewritten
// once, or the second write finds it changed since it was read.
func sameFiles(configs []*hostcfg.Config) [][]*hostcfg.Config {
	var groups [][]*hostcfg.Config
	var ids []os.FileInfo
	for _, c := range configs {
		id, err := os.Stat(c.File.Path)
		at := -1
		for i, g := range groups {
			if g[0].File.Path == c.File.Path || (err == nil && ids[i] != nil && os.SameFile(ids[i], id)) {
				at = i
				break
			}
		}
		if at >= 0 {
			groups[at] = append(groups[at], c)
			continue
		}
		groups = append(groups, []*hostcfg.Config{c})
		if err != nil {
			id = nil
		}
		ids = append(ids, id)
	}
	return groups
}

// sameServers reports whether two readings of one file found the same
// servers (two hosts that read it alike): the second adds nothing.
func sameServers(a, b *hostcfg.Config) bool {
	return slices.EqualFunc(a.Servers, b.Servers, func(x, y hostcfg.Server) bool {
		return x.Name == y.Name && x.Scope == y.Scope && x.Kind == y.Kind && x.Command == y.Command && slices.Equal(x.Args, y.Args) && x.URL == y.URL
	})
}

// planner decides what one run rewrites, file by file; what it leaves
// alone, and why, it says on Log as it goes.
type planner struct {
	Request
	// found are the names asked for seen in some file.
	found map[string]bool
	// refused says a server asked for by name could not be changed.
	refused bool
	// geminiSaid says the note on Gemini CLI's trusted folders was made
	// (GeminiTrustNote): once a run, under the first Gemini file's diff.
	geminiSaid bool
}

// missing are the names asked for that no file has, as shown.
func (pl *planner) missing() []string {
	var missing []string
	for _, n := range pl.Names {
		if !pl.found[n] {
			missing = append(missing, shown(n))
		}
	}
	return missing
}

// plan is the rewrite of each file that changes, one file read by
// several hosts rewritten once.
func (pl *planner) plan(configs []*hostcfg.Config) ([]*File, error) {
	var plans []*File
	for _, group := range sameFiles(configs) {
		p, err := pl.file(group)
		if err != nil {
			return nil, err
		}
		if len(p.Steps) > 0 {
			plans = append(plans, p)
		}
	}
	return plans, nil
}

// file plans the rewrite of one file, as each host in group read it.
func (pl *planner) file(group []*hostcfg.Config) (*File, error) {
	p := &File{}
	var hosts []string
	for _, c := range group {
		if !slices.ContainsFunc(p.configs, func(d *hostcfg.Config) bool { return sameServers(c, d) }) {
			p.configs = append(p.configs, c)
		}
		if !slices.Contains(hosts, c.File.Host) {
			hosts = append(hosts, c.File.Host)
		}
		if !slices.Contains(p.paths, c.File.Path) {
			p.paths = append(p.paths, c.File.Path)
		}
		if !bytes.Equal(c.Data, group[0].Data) {
			return nil, fmt.Errorf("nothing written: %s changed while it was read (by %s and %s); run the command again", shown(c.File.Path), group[0].File.Host, c.File.Host)
		}
	}
	p.Hosts = strings.Join(hosts, ", ")
	data := p.Data()
	rewritten := map[string]bool{} // scope and name of the servers an earlier step rewrote
	for k, read := range p.configs {
		var err error
		if data, err = pl.view(p, k, read, data, rewritten); err != nil {
			return nil, err
		}
	}
	p.Out = data
	return p, nil
}

// wrapped adds to p what wrapping server i of c brings: its notes, and
// the launch to fetch ahead (or why not, said below the diff).
func (pl *planner) wrapped(p *File, c *hostcfg.Config, i int) {
	p.Notes = append(p.Notes, pl.wrapNotes(c, i)...)
	if !pl.Proxy.KeepArgs {
		for _, r := range c.FolderArgs(i) {
			if r.Replaced() {
				p.Limited = append(p.Limited, r.Paths...)
			}
		}
	}
	if l, ok := pl.launchOf(c, i); ok {
		p.Launches = append(p.Launches, l)
		if l.Skip != "" {
			p.Notes = append(p.Notes, l.skipNote())
		}
	}
}

// view adds to p the steps of one host's reading of the file (the k-th),
// given the file as the steps before left it (data), and returns the file
// as it leaves it.
func (pl *planner) view(p *File, k int, read *hostcfg.Config, data []byte, rewritten map[string]bool) ([]byte, error) {
	c := read
	label := p.Hosts
	if len(p.configs) > 1 {
		label = c.File.Host
	}
	var err error
	if k > 0 {
		// The file as the steps before left it, read as this host reads it.
		if c, err = hostcfg.Parse(read.File, data); err != nil {
			return nil, planError(read.File.Path, err)
		}
	}
	which, moves := pl.choose(c, label, rewritten)
	if len(moves) > 0 {
		rw, err := c.PlanProfile(moves, pl.Proxy.Profile)
		if err != nil {
			return nil, planError(c.File.Path, err)
		}
		for _, i := range moves {
			p.Servers = append(p.Servers, shown(c.Servers[i].Name))
			p.Notes = append(p.Notes, pl.moveNote(c.Servers[i]))
		}
		p.Steps = append(p.Steps, rw)
		data = rw.New
		if len(which) > 0 {
			// The servers to wrap, in the file as moved.
			if c, err = hostcfg.Parse(read.File, data); err != nil {
				return nil, planError(read.File.Path, err)
			}
		}
	}
	if len(which) == 0 {
		return data, nil
	}
	var rw *hostcfg.Rewrite
	if pl.Wrap {
		rw, err = c.PlanWrap(which, pl.Proxy)
	} else {
		rw, err = c.PlanUnwrap(which)
	}
	if err != nil {
		return nil, planError(c.File.Path, err)
	}
	for _, i := range which {
		s := c.Servers[i]
		rewritten[string(s.Scope)+"\x00"+s.Name] = true
		p.Servers = append(p.Servers, shown(s.Name))
		if pl.Wrap {
			pl.wrapped(p, c, i)
		} else {
			p.Notes = append(p.Notes, unwrapNotes(s)...)
		}
	}
	if pl.Wrap && c.File.Host == hostcfg.Gemini && !pl.geminiSaid {
		pl.geminiSaid = true
		if note := GeminiTrustNote(c.File); note != "" {
			p.Notes = append(p.Notes, note)
		}
	}
	if pl.Wrap && c.File.Scope == hostcfg.ScopeProject && !p.portable {
		p.portable = true
		p.Notes = append(p.Notes, pl.portableNotes()...)
	}
	p.Steps = append(p.Steps, rw)
	return rw.New, nil
}

// portableNotes say what a project-scope file (one a team commits) gets
// instead of this person's paths: rootpick by name, from PATH, and no
// state folder; and warn when that is not this rootpick, or when the
// state folder is not the default one.
func (pl *planner) portableNotes() []string {
	notes := []string{"a project file, for the team: its entries start 'rootpick' from PATH, with no path or state folder of yours"}
	if !onPath() {
		notes = append(notes, "warning: the rootpick on your PATH is not this one (or there is none): the host will start what PATH finds; install rootpick on PATH")
	}
	if pl.Proxy.StateDir != "" {
		notes = append(notes, fmt.Sprintf("warning: your state folder %s is not written into a project file: start the host with the same XDG_STATE_HOME, or wrap a user-scope file, or the proxy reads the default one", shown(pl.Proxy.StateDir)))
	}
	return notes
}

// onPath reports whether "rootpick" on PATH is this executable.
func onPath() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	return hostcfg.IsRootpick(hostcfg.PortableExe, exe)
}

// planError is the error that stops a run before anything is written.
func planError(path string, err error) error {
	return fmt.Errorf("nothing written: %s: %v", shown(path), shown(err.Error()))
}

// moveNote says what moving s to the asked profile changes.
func (pl *planner) moveNote(s hostcfg.Server) string {
	to := pl.Proxy.Profile
	return fmt.Sprintf("%s: profile %s → %s: it will see what you consent for %s (%s)",
		shown(s.Name), shown(cmp.Or(s.Profile, consent.DefaultProfile)), shown(to), shown(to), pl.Grants.of(to))
}

// choose picks c's servers to rewrite (which) and to move to the asked
// profile (moves); the others it names on Log with the reason.
func (pl *planner) choose(c *hostcfg.Config, label string, rewritten map[string]bool) (which, moves []int) {
	for i, s := range c.Servers {
		if len(pl.Names) > 0 && !slices.Contains(pl.Names, s.Name) {
			continue
		}
		pl.found[s.Name] = true
		if rewritten[string(s.Scope)+"\x00"+s.Name] {
			continue
		}
		if slices.Contains(pl.Except, s.Name) {
			fmt.Fprintf(pl.Log, "%s %s: left alone: --except\n", label, shown(s.Name))
			continue
		}
		// A server behind the proxy under another profile than the one
		// asked for moves to it when it is named: a wrap of every server
		// must not move those of other profiles.
		if pl.Wrap && pl.Proxy.Profile != "" && s.Kind == hostcfg.Proxied {
			if ok, _ := s.CanMove(pl.Proxy.Profile); ok {
				if len(pl.Names) > 0 {
					moves = append(moves, i)
				} else {
					fmt.Fprintf(pl.Log, "%s %s: left alone: runs through rootpick proxy with profile %s; to move it to %s: rootpick hosts wrap %s %s --profile %s\n",
						label, shown(s.Name), shown(cmp.Or(s.Profile, consent.DefaultProfile)), shown(pl.Proxy.Profile), c.File.Host, argWords([]string{s.Name}), argWords([]string{pl.Proxy.Profile}))
				}
				continue
			}
		}
		ok, why := s.CanWrap()
		if !pl.Wrap {
			ok, why = s.CanUnwrap()
		}
		if ok {
			which = append(which, i)
			continue
		}
		pl.leave(c, s, label, why)
	}
	return which, moves
}

// leave says why s is not rewritten: an error when it was asked for by
// name and is not already as asked, a note otherwise.
func (pl *planner) leave(c *hostcfg.Config, s hostcfg.Server, label, why string) {
	already := (pl.Wrap && s.Kind == hostcfg.Proxied) || (!pl.Wrap && s.Kind != hostcfg.Proxied && s.Kind != hostcfg.Other)
	switch {
	case len(pl.Names) > 0 && !already:
		pl.refused = true
		fmt.Fprintf(pl.Log, "rootpick: %s %s in %s: not %s: %s\n", label, shown(s.Name), shown(c.File.Path), pl.done(), shown(why))
	case pl.Wrap || len(pl.Names) > 0 || s.Kind == hostcfg.Proxied:
		fmt.Fprintf(pl.Log, "%s %s: left alone: %s\n", label, shown(s.Name), shown(why))
	}
}
