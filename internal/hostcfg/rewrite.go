package hostcfg

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Config is one configuration file as read: its bytes and its servers, in
// the file's order.
type Config struct {
	File    File
	Data    []byte
	Servers []Server

	// eol is the file's line end, once newline has looked.
	eol string
	// self tells this rootpick's command from others while parsing.
	self *selfCheck
}

// Load reads and parses f. A missing file is an error that wraps
// fs.ErrNotExist; a file that is not a regular file, is too big, or is a
// symbolic link to a file that is not the person's own is refused with a
// *RefusedError (see ReadConfig).
func Load(f File) (*Config, error) {
	data, err := f.Read()
	if err != nil {
		return nil, err
	}
	return Parse(f, data)
}

// Read reads f's bytes as Load does (ReadConfig: a regular file of the
// person's, within f's size limit), for a caller that looks at them
// before it parses them.
func (f File) Read() ([]byte, error) { return ReadConfig(f.Path, f.limit()) }

// Parse reads data as f's host reads it.
func Parse(f File, data []byte) (*Config, error) {
	if err := checkDepth(f, data); err != nil {
		return nil, err
	}
	c := &Config{File: f, Data: data, self: newSelfCheck(f.Rootpick, f.dir)}
	var err error
	switch f.format {
	case formatJSON:
		err = c.parseJSON()
	case formatTOML:
		err = c.parseTOML()
	case formatYAML:
		err = c.parseYAML()
	}
	c.self = nil
	if err != nil {
		return nil, err
	}
	// A name given twice: the host keeps one of them, and which one is
	// its business; rewriting either could change nothing or the wrong one.
	count := map[string]int{}
	for _, s := range c.Servers {
		count[string(s.Scope)+"\x00"+s.Name]++
	}
	for i := range c.Servers {
		s := &c.Servers[i]
		if count[string(s.Scope)+"\x00"+s.Name] > 1 && s.Problem == "" {
			s.Problem = "the name " + s.Name + " is given twice"
		}
	}
	return c, nil
}

// span is a range of bytes of a file: [start, end).
type span struct{ start, end int }

// item is one element of an args array.
type item struct {
	// raw is the element's text (with its quotes).
	raw span
	// lead is where the element begins: raw.start, or for an item of a
	// YAML block sequence its dash.
	lead int
}

// seqLoc is where an args array's parts are.
type seqLoc struct {
	// block is a YAML block sequence ("- a" lines); otherwise the array is
	// written [a, b].
	block bool
	// open is just after the '[' of a flow array.
	open int
	// indent is what precedes each dash of a block sequence on its line.
	indent string
	items  []item
}

// entryLoc is where the parts of a rewritable entry are.
type entryLoc struct {
	// path is the keys from the file's root to the entry, for checking a
	// rewrite with the format's decoder; commandKey names its command
	// ("command", or "cmd" for Goose).
	path       []string
	commandKey string
	// command is the command value's text; commandFlow says it sits in a
	// YAML flow mapping, where fewer plain scalars are allowed.
	command     span
	commandFlow bool
	// args is the args array, nil when the entry has none.
	args *seqLoc
	// inline says the arguments follow the command in one array (OpenCode's
	// "command": [CMD, ARGS...]): command is its first element, args the
	// rest (open just after the first), and an entry with no arguments
	// gets them inserted after the first with a comma, at addAt.
	inline bool
	// An entry with no args gets addBefore + ARRAY + addAfter inserted at
	// addAt; addBefore ends with the key ("args": , args = , args: ).
	addAt               int
	addBefore, addAfter string
}

// Proxy says how Wrap runs the proxy.
type Proxy struct {
	// Exe is the rootpick executable the host is to start.
	Exe string
	// Profile, when not "", is passed as --profile.
	Profile string
	// StateDir, when not "", is passed as --state-dir: hosts start servers
	// with a minimal environment, which may lack XDG_STATE_HOME.
	StateDir string
	// KeepArgs keeps a server's folder arguments (FolderArgs) as they are.
	// Otherwise each run of them becomes one {roots}, which the proxy
	// expands to the consented folders, and the arguments themselves go to
	// the proxy's --orig-arg flags, for unwrap (see OrigArgFlag).
	KeepArgs bool
	// Network, when not "", is passed as --network=VALUE: "off" refuses
	// the server every IP socket when it runs enforced.
	Network string
	// NetworkFor, when Network is "" and it is set, gives each server's
	// --network from its command line (the server's program and
	// arguments): "" passes none.
	NetworkFor func(command []string) string
}

// PortableExe is the proxy's command in a project-scope file: rootpick by
// name, found on PATH, so that the file holds nothing of one person's.
const PortableExe = "rootpick"

// For is p as the entry of a server of f is to run it. A project-scope
// file is one a team commits: its entry names rootpick by name (found on
// each person's PATH) and no state folder, so that it holds nothing of
// the person who wrapped it; a user-scope file keeps the executable's path
// and the state folder, which hosts that start servers with a minimal
// environment need.
func (p Proxy) For(f File) Proxy {
	if f.Scope == ScopeProject {
		p.Exe, p.StateDir = PortableExe, ""
	}
	return p
}

// LogTag is what a wrapped entry passes as the proxy's --host: the host,
// and "-project" for a project-scope file, so that a user-scope and a
// project-scope server of the same name log to different files.
func LogTag(f File) string {
	if f.Scope == ScopeProject {
		return f.Host + "-project"
	}
	return f.Host
}

// proxyFlags are the proxy's arguments Wrap puts before the folder
// arguments it keeps and the server command, for server s of a file of
// tag (LogTag): --host and --name name its log file.
func (p Proxy) proxyFlags(tag, name string) []string {
	args := []string{"proxy"}
	if p.Profile != "" {
		args = append(args, "--profile", p.Profile)
	}
	if p.StateDir != "" {
		args = append(args, "--state-dir", p.StateDir)
	}
	if p.Network != "" {
		args = append(args, "--network="+p.Network)
	}
	// One word each (--name=VALUE): a name that begins with '-' is
	// still the flag's value.
	return append(args, HostFlag+"="+tag, NameFlag+"="+name)
}

// HostFlag and NameFlag are the proxy's flags that name, in a wrapped
// entry, the host (LogTag) and the server: the proxy names its log file
// by them (proxy-PROFILE-HOST-NAME.log).
const (
	HostFlag = "--host"
	NameFlag = "--name"
)

// edit replaces data[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// Rewrite is a file rewritten by Wrap or Unwrap: its content before and
// after, and the splices that made one from the other, which WriteDiff
// uses to diff only the lines they touched.
type Rewrite struct {
	Old, New []byte
	// edits are sorted, in Old's offsets.
	edits []edit
}

// Wrap returns the file with the servers at the indexes which (into
// c.Servers) running through the proxy: the command becomes p.Exe and the
// arguments `proxy [--profile P] [--orig-arg A…] -- COMMAND ARGS...`, each
// run of folder arguments (FolderArgs) replaced by {roots} unless
// p.KeepArgs. Every server must be one CanWrap accepts. The result is read
// back and checked before it is returned.
func (c *Config) Wrap(which []int, p Proxy) ([]byte, error) {
	r, err := c.PlanWrap(which, p)
	if err != nil {
		return nil, err
	}
	return r.New, nil
}

// Unwrap returns the file with the servers at the indexes which no longer
// running through the proxy: the command and arguments become the server
// command that followed the proxy's flags, with the folder arguments wrap
// replaced by {roots} put back (Server.Restored). Every server must be one
// CanUnwrap accepts.
func (c *Config) Unwrap(which []int) ([]byte, error) {
	r, err := c.PlanUnwrap(which)
	if err != nil {
		return nil, err
	}
	return r.New, nil
}

// piece is an element Wrap puts first in an args array: its text (a value
// as written; in a YAML block sequence without its dash unless dashed),
// and what follows it ("" for the array's usual separator).
type piece struct {
	text, sep string
	dashed    bool
}

// PlanWrap is Wrap, with what it changed.
func (c *Config) PlanWrap(which []int, p Proxy) (*Rewrite, error) {
	if p.Exe == "" || !utf8.ValidString(p.Exe) || !utf8.ValidString(p.Profile) || !utf8.ValidString(p.StateDir) {
		return nil, errors.New("hostcfg: the rootpick executable's path and the profile must be valid UTF-8")
	}
	p = p.For(c.File)
	var edits []edit
	want := map[int][]string{}
	for _, i := range which {
		s := c.Servers[i]
		if ok, why := s.CanWrap(); !ok {
			return nil, fmt.Errorf("%s: %s", s.Name, why)
		}
		if !utf8.ValidString(s.Name) {
			return nil, fmt.Errorf("%q: the name is not valid UTF-8", s.Name)
		}
		l := s.loc
		q := p
		if q.Network == "" && q.NetworkFor != nil {
			q.Network = q.NetworkFor(append([]string{s.Command}, s.Args...))
		}
		flags := q.proxyFlags(LogTag(c.File), s.Name)
		line := append([]string{p.Exe}, flags...)
		var pieces []piece
		for _, a := range flags {
			pieces = append(pieces, piece{text: Quote(a)})
		}
		args := slices.Clone(s.Args)
		if !p.KeepArgs {
			var runs []FolderRun
			for _, r := range c.FolderArgs(i) {
				if r.Replaced() {
					runs = append(runs, r)
				}
			}
			// Each folder argument's own text moves into the proxy's
			// arguments, after --orig-arg, with what separated it from the
			// next one of its run, so that Unwrap can put the run back
			// byte for byte; the run becomes one {roots}.
			for k := len(runs) - 1; k >= 0; k-- {
				r := runs[k]
				args = slices.Replace(args, r.Start, r.End, RootsArg)
			}
			for k, r := range runs {
				if k > 0 {
					pieces = append(pieces, piece{text: Quote(OrigNextFlag)})
					line = append(line, OrigNextFlag)
				}
				items := l.args.items
				for j := r.Start; j < r.End; j++ {
					pieces = append(pieces, piece{text: Quote(OrigArgFlag)})
					line = append(line, OrigArgFlag, s.Args[j])
					it := items[j]
					moved := piece{text: string(c.Data[it.lead:it.raw.end]), dashed: l.args.block}
					if !c.movable(string(c.Data[it.raw.start:it.raw.end]), !l.args.block) {
						moved = piece{text: Quote(s.Args[j])}
					}
					if j+1 < r.End {
						moved.sep = string(c.Data[it.raw.end:items[j+1].lead])
					}
					pieces = append(pieces, moved)
				}
				edits = append(edits, edit{items[r.Start].raw.start, items[r.End-1].raw.end, Quote(RootsArg)})
			}
		}
		// The command's own text moves into the arguments, so that Unwrap
		// can move it back byte for byte.
		moved := string(c.Data[l.command.start:l.command.end])
		if !c.movable(moved, l.args == nil || !l.args.block) {
			moved = Quote(s.Command)
		}
		pieces = append(pieces, piece{text: Quote("--")}, piece{text: moved})
		edits = append(edits, edit{l.command.start, l.command.end, Quote(p.Exe)})
		edits = append(edits, c.prepend(l, pieces))
		want[i] = append(append(append(line, "--"), s.Command), args...)
	}
	return c.rewrite(edits, want)
}

// CanMove reports whether PlanProfile would move s to profile, and if
// not, why: s must run through the proxy, under another profile, with a
// server command after the proxy's flags.
func (s Server) CanMove(profile string) (bool, string) {
	switch {
	case s.Kind != Proxied:
		return false, "does not run through rootpick proxy"
	case s.Profile == profile:
		return false, "already runs through rootpick proxy (profile " + profile + ")"
	case s.Behind == nil:
		return false, "no server command after rootpick proxy's flags"
	case s.Problem != "":
		return false, s.Problem
	}
	return true, ""
}

// PlanProfile returns the file with the servers at the indexes which
// (each one CanMove accepts) served by the proxy's profile instead of the
// one they have: the --profile value is replaced where there is one, and
// `--profile PROFILE` put right after `proxy` where there is none. Nothing
// else in the entry changes (its --state-dir, --enforce, --allow-* flags
// and folder arguments stay).
func (c *Config) PlanProfile(which []int, profile string) (*Rewrite, error) {
	if profile == "" || !utf8.ValidString(profile) {
		return nil, errors.New("hostcfg: a profile must be named, in UTF-8")
	}
	var edits []edit
	want := map[int][]string{}
	for _, i := range which {
		s := c.Servers[i]
		if ok, why := s.CanMove(profile); !ok {
			return nil, fmt.Errorf("%s: %s", s.Name, why)
		}
		l := s.loc
		items := l.args.items
		pl := parseProxy(s.Args)
		args := slices.Clone(s.Args)
		switch {
		case pl.profileAt >= 0 && pl.profileEq:
			args[pl.profileAt] = "--profile=" + profile
			edits = append(edits, edit{items[pl.profileAt].raw.start, items[pl.profileAt].raw.end, Quote(args[pl.profileAt])})
		case pl.profileAt >= 0:
			args[pl.profileAt] = profile
			edits = append(edits, edit{items[pl.profileAt].raw.start, items[pl.profileAt].raw.end, Quote(profile)})
		default:
			args = slices.Insert(args, 1, "--profile", profile)
			sep := c.flowSep(l.args)
			if l.args.block {
				sep = c.newline() + l.args.indent + "- "
			}
			edits = append(edits, edit{items[0].raw.end, items[0].raw.end, sep + Quote("--profile") + sep + Quote(profile)})
		}
		want[i] = append([]string{s.Command}, args...)
	}
	return c.rewrite(edits, want)
}

// PlanUnwrap is Unwrap, with what it changed.
func (c *Config) PlanUnwrap(which []int) (*Rewrite, error) {
	var edits []edit
	want := map[int][]string{}
	for _, i := range which {
		s := c.Servers[i]
		if ok, why := s.CanUnwrap(); !ok {
			return nil, fmt.Errorf("%s: %s", s.Name, why)
		}
		l := s.loc
		items := l.args.items
		k := len(s.Args) - len(s.Behind) // the server command's element
		moved := string(c.Data[items[k].raw.start:items[k].raw.end])
		if !c.movable(moved, l.commandFlow) {
			moved = Quote(s.Behind[0])
		}
		edits = append(edits, edit{l.command.start, l.command.end, moved})
		switch {
		case k+1 < len(items):
			edits = append(edits, edit{items[0].lead, items[k+1].lead, ""})
		case l.inline:
			// Nothing is left after the command: remove from its end.
			edits = append(edits, edit{l.command.end, items[k].raw.end, ""})
		case l.args.block:
			// Nothing is left: an empty block sequence cannot be written.
			edits = append(edits, edit{items[0].lead, items[k].raw.end, "[]"})
		default:
			end := items[k].raw.end
			j := end
			for j < len(c.Data) && (c.Data[j] == ' ' || c.Data[j] == '\t') {
				j++
			}
			if j < len(c.Data) && c.Data[j] == ',' { // a trailing comma (JSONC, TOML)
				end = j + 1
			}
			edits = append(edits, edit{items[0].lead, end, ""})
		}
		// Each {roots} wrap put in stands for its --orig-arg group again.
		if groups := parseProxy(s.Args).orig; groups != nil {
			g := 0
			for m := k + 1; m < len(items); m++ {
				if s.Args[m] != RootsArg {
					continue
				}
				if group := groups[g]; len(group) > 0 {
					edits = append(edits, edit{items[m].raw.start, items[m].raw.end, c.runText(l.args, group)})
				}
				g++
			}
		}
		want[i] = slices.Clone(s.Restored)
	}
	return c.rewrite(edits, want)
}

// runText is the text of a run of arguments kept by --orig-arg flags in a:
// each argument's own text, and between two of them what separated them
// there (which Wrap copied from the original run); the array's usual
// separator for arguments written otherwise (by hand, --orig-arg=A).
func (c *Config) runText(a *seqLoc, group []origArg) string {
	var b strings.Builder
	for j, o := range group {
		if j > 0 {
			prev := group[j-1]
			if prev.at >= 0 && o.at == prev.at+2 {
				b.Write(c.Data[a.items[prev.at].raw.end:a.items[o.at-1].lead])
				b.Write(c.Data[a.items[o.at].lead:a.items[o.at].raw.start])
			} else if a.block {
				b.WriteString(c.newline() + a.indent + "- ")
			} else {
				b.WriteString(c.flowSep(a))
			}
		}
		if o.at >= 0 {
			b.Write(c.Data[a.items[o.at].raw.start:a.items[o.at].raw.end])
		} else {
			b.WriteString(Quote(o.value))
		}
	}
	return b.String()
}

// prepend is the edit that puts pieces first in l's args, or adds an
// args member holding them.
func (c *Config) prepend(l *entryLoc, pieces []piece) edit {
	a := l.args
	var b strings.Builder
	switch {
	case a == nil || len(a.items) == 0:
		// No arguments, so no folder arguments: nothing but the proxy's.
		for i, p := range pieces {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p.text)
		}
		if l.inline {
			return edit{l.command.end, l.command.end, ", " + b.String()}
		}
		if a == nil {
			return edit{l.addAt, l.addAt, l.addBefore + "[" + b.String() + "]" + l.addAfter}
		}
		return edit{a.open, a.open, b.String()}
	case a.block:
		sep := c.newline() + a.indent
		for _, p := range pieces {
			if !p.dashed {
				b.WriteString("- ")
			}
			b.WriteString(p.text)
			b.WriteString(cmp.Or(p.sep, sep))
		}
	default:
		sep := c.flowSep(a)
		for _, p := range pieces {
			b.WriteString(p.text)
			b.WriteString(cmp.Or(p.sep, sep))
		}
	}
	return edit{a.items[0].lead, a.items[0].lead, b.String()}
}

// flowSep is what goes between two elements put first in a [a, b] array:
// a comma and a new line indented as the first element when the array has
// one element a line, else a comma and the space the file uses.
func (c *Config) flowSep(a *seqLoc) string {
	first := a.items[0].lead
	if before := c.Data[a.open:first]; bytes.IndexByte(before, '\n') >= 0 {
		line := c.Data[bytes.LastIndexByte(c.Data[:first], '\n')+1 : first]
		if len(bytes.Trim(line, " \t")) == 0 {
			return "," + c.newline() + string(line)
		}
		return "," + c.newline()
	}
	if len(a.items) > 1 {
		gap := c.Data[a.items[0].raw.end:a.items[1].lead]
		if i := bytes.IndexByte(gap, ','); i >= 0 && len(bytes.Trim(gap, " \t,")) == 0 && bytes.Count(gap, []byte(",")) == 1 {
			return "," + string(gap[i+1:])
		}
	}
	return ", "
}

// newline is the file's line end: CRLF when it has one, else LF.
// It is looked for once: a wrap asks for each server, and a large file
// searched that often costs seconds.
func (c *Config) newline() string {
	if c.eol == "" {
		c.eol = "\n"
		if bytes.Contains(c.Data, []byte("\r\n")) {
			c.eol = "\r\n"
		}
	}
	return c.eol
}

// movable reports whether the text of a string value can be moved as it
// is to where a value goes: in JSON and TOML always, in YAML when it is a
// one-line scalar that is valid where it lands (flow: inside [..] or {..}).
func (c *Config) movable(raw string, toFlow bool) bool {
	if c.File.format != formatYAML {
		return true
	}
	if raw == "" || strings.ContainsAny(raw, "\r\n") {
		return false
	}
	switch raw[0] {
	case '"', '\'':
		return true
	}
	return !toFlow || !strings.ContainsAny(raw, ",[]{}")
}

// rewrite applies edits to c.Data, then reads the result back and checks
// that it holds exactly what was meant: the servers in want (by index)
// have that command line, every other server is as it was, and, decoded
// with the format's own decoder, everything else in the file is the same.
func (c *Config) rewrite(edits []edit, want map[int][]string) (*Rewrite, error) {
	// One pass from the front, into one buffer: a file with thousands of
	// servers (a large ~/.claude.json) gets thousands of edits, and
	// splicing each into a fresh copy of the whole file cost time and
	// memory in proportion to both.
	// At one offset an insertion goes before a replacement, as the text
	// it is inserted before.
	sort.Slice(edits, func(i, j int) bool {
		if edits[i].start != edits[j].start {
			return edits[i].start < edits[j].start
		}
		return edits[i].end < edits[j].end
	})
	grow := 0
	for _, e := range edits {
		grow += len(e.text) - (e.end - e.start)
	}
	out := make([]byte, 0, len(c.Data)+max(grow, 0))
	at := 0
	for _, e := range edits {
		if e.start < at || e.start > e.end || e.end > len(c.Data) {
			return nil, errors.New("hostcfg: overlapping edits") // a bug, never a file's fault
		}
		out = append(append(out, c.Data[at:e.start]...), e.text...)
		at = e.end
	}
	out = append(out, c.Data[at:]...)
	back, err := Parse(c.File, out)
	if err != nil {
		return nil, fmt.Errorf("hostcfg: the rewritten file does not read back (%v); nothing written", err)
	}
	if err := c.check(back, want); err != nil {
		return nil, fmt.Errorf("hostcfg: the rewritten file does not hold what was meant (%v); nothing written", err)
	}
	return &Rewrite{Old: c.Data, New: out, edits: edits}, nil
}

// check compares the file read back after a rewrite with c.
func (c *Config) check(back *Config, want map[int][]string) error {
	if len(back.Servers) != len(c.Servers) {
		return fmt.Errorf("%d servers instead of %d", len(back.Servers), len(c.Servers))
	}
	for i, a := range c.Servers {
		b := back.Servers[i]
		if a.Name != b.Name || a.Scope != b.Scope {
			return fmt.Errorf("server %d is %s, was %s", i, b.Name, a.Name)
		}
		line, ok := want[i]
		if !ok {
			if a.Kind != b.Kind || a.Command != b.Command || !slices.Equal(a.Args, b.Args) || a.URL != b.URL {
				return fmt.Errorf("%s changed", a.Name)
			}
			continue
		}
		if b.Command != line[0] || !slices.Equal(b.Args, line[1:]) {
			return fmt.Errorf("%s runs %q %q", a.Name, b.Command, b.Args)
		}
	}
	if c.File.format == formatJSON {
		return c.checkJSON(back.Data, want)
	}
	before, err := decode(c.File.format, c.Data)
	if err != nil {
		return err
	}
	after, err := decode(c.File.format, back.Data)
	if err != nil {
		return err
	}
	for i, line := range want {
		l := c.Servers[i].loc
		entry, ok := lookup(before, l.path).(map[string]any)
		if !ok {
			return fmt.Errorf("%s not found by the decoder", c.Servers[i].Name)
		}
		entry[l.commandKey] = line[0]
		args := make([]any, 0, len(line)-1)
		for _, a := range line[1:] {
			args = append(args, a)
		}
		entry["args"] = args
	}
	if !reflect.DeepEqual(before, after) {
		return errors.New("other values changed")
	}
	return nil
}

// lookup follows path from v through maps, and through sequences where
// an element of path is a seqIndex.
func lookup(v any, path []string) any {
	for _, k := range path {
		if rest, ok := strings.CutPrefix(k, "\x00"); ok {
			l, isList := v.([]any)
			i, err := strconv.Atoi(rest)
			if !isList || err != nil || i < 0 || i >= len(l) {
				return nil
			}
			v = l[i]
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// Quote writes s as a double-quoted string that JSON, TOML (a basic
// string) and YAML all read back as s: quotes and backslashes escaped, and
// every control character, DEL, C1 control and line separator written as
// \uXXXX (TOML and YAML forbid some of them raw).
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029 || r == 0xfeff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
