package hostcfg

// Codex's config.toml, read twice with one library, go-toml: its decoder
// checks the whole file as TOML (duplicate keys, redefined tables) and
// decodes it for the check after a rewrite, and its unstable parser, which
// keeps the byte range of every key and value, finds what to splice. The
// unstable API may change between go-toml releases; go.mod pins the
// version.

import (
	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// tomlServers is the key of the servers in Codex's and Vibe's files.
const tomlServers = "mcp_servers"

// tomlEntry gathers one [mcp_servers.NAME] entry, wherever its keys are
// (a table, dotted keys, an inline table).
type tomlEntry struct {
	name             string
	f                fields
	command, args    *tomlKV
	dupCommand, dup2 bool
	// named says a Vibe entry gives its name.
	named bool
}

// tomlKV is where one key = value of an entry is. The parser's nodes last
// only until its next expression, so the ranges are copied out at once.
type tomlKV struct {
	kv, value, lastKey span
	// top says the key = value is a line of its own, not inside { }.
	top bool
	// items are the elements of an array value.
	items []span
}

// tomlSpan is the range of bytes of n.
func tomlSpan(n *unstable.Node) span {
	return span{int(n.Raw.Offset), int(n.Raw.Offset + n.Raw.Length)}
}

// newTomlKV is where the key = value kv is; top says it is a line of its
// own.
func newTomlKV(kv *unstable.Node, top bool) *tomlKV {
	at := &tomlKV{kv: tomlSpan(kv), value: tomlSpan(kv.Value()), top: top}
	for it := kv.Key(); it.Next(); {
		at.lastKey = tomlSpan(it.Node())
	}
	return at
}

// set records the entry's field key, written at at.
func (e *tomlEntry) set(key string, at *tomlKV, value *unstable.Node) {
	isStr := value.Kind == unstable.String
	switch key {
	case "command":
		e.dupCommand = e.command != nil
		e.command = at
		e.f.hasCommand, e.f.commandIsStr = true, isStr
		if isStr {
			e.f.command = string(value.Data)
		}
	case "args":
		e.dup2 = e.args != nil
		e.args = at
		e.f.hasArgs = true
		e.f.argsAreStrs = value.Kind == unstable.Array
		if e.f.argsAreStrs {
			e.f.args = []string{}
			for it := value.Children(); it.Next(); {
				if n := it.Node(); n.Kind == unstable.String {
					e.f.args = append(e.f.args, string(n.Data))
					at.items = append(at.items, tomlSpan(n))
				} else {
					e.f.argsAreStrs = false
				}
			}
		}
	case "url":
		e.f.urlKey = "url"
		if isStr {
			e.f.url = string(value.Data)
		}
	case keyDisabled, keyEnabled:
		if value.Kind == unstable.Bool {
			if off := offField(key, string(value.Data) == "true", " = "); off != "" {
				e.f.disabled = off
			}
		}
	case "type":
		e.f.hasType = true
		if isStr {
			e.f.typ = string(value.Data)
		}
	}
}

func (c *Config) parseTOML() error {
	if _, err := decodeTOML(c.Data); err != nil {
		return err
	}
	if c.File.layout == layoutVibe {
		return c.parseVibe()
	}
	var p unstable.Parser
	p.Reset(c.Data)
	var entries []*tomlEntry
	byName := map[string]*tomlEntry{}
	entry := func(name string) *tomlEntry {
		e := byName[name]
		if e == nil {
			e = &tomlEntry{name: name}
			byName[name] = e
			entries = append(entries, e)
		}
		return e
	}
	var visit func(path []string, kv *unstable.Node, top bool)
	visit = func(path []string, kv *unstable.Node, top bool) {
		full := append(append([]string{}, path...), tomlKeys(kv.Key())...)
		value := kv.Value()
		if len(full) == 2 && full[0] == tomlServers {
			entry(full[1])
		}
		if value.Kind == unstable.InlineTable {
			for it := value.Children(); it.Next(); {
				visit(full, it.Node(), false)
			}
			return
		}
		if len(full) != 3 || full[0] != tomlServers {
			return
		}
		entry(full[1]).set(full[2], newTomlKV(kv, top), value)
	}
	var table []string
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.Table:
			table = tomlKeys(n.Key())
			if len(table) == 2 && table[0] == tomlServers {
				entry(table[1])
			}
		case unstable.ArrayTable:
			table = append([]string{"[["}, tomlKeys(n.Key())...) // matches nothing below
		case unstable.KeyValue:
			visit(table, n, true)
		}
	}
	if err := p.Error(); err != nil {
		return err
	}
	for _, e := range entries {
		s := Server{Host: c.File.Host, Path: c.File.Path, Scope: c.File.Scope, Name: e.name}
		classify(&s, e.f, c.self)
		if s.Kind == Stdio || s.Kind == Proxied {
			if e.dupCommand || e.dup2 {
				s.Problem = "command or args given twice"
			}
			s.loc = c.tomlLoc(e)
			s.loc.path = []string{tomlServers, e.name}
			if a := s.loc.args; a != nil && (a.open < 1 || a.open > len(c.Data) || c.Data[a.open-1] != '[') {
				s.Problem = "args is not written as [ ... ]"
			}
		}
		c.Servers = append(c.Servers, s)
	}
	return nil
}

// parseVibe reads Mistral Vibe's servers: an array of tables,
// [[mcp_servers]], each named by its name and started by its transport,
// command and args (a server in an inline array, mcp_servers = [{...}],
// is not read: Vibe's documentation writes the tables).
func (c *Config) parseVibe() error {
	var p unstable.Parser
	p.Reset(c.Data)
	var entries []*tomlEntry
	var cur *tomlEntry // the [[mcp_servers]] element the lines are in, or nil
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.ArrayTable:
			cur = nil
			if keys := tomlKeys(n.Key()); len(keys) == 1 && keys[0] == tomlServers {
				cur = &tomlEntry{}
				entries = append(entries, cur)
			}
		case unstable.Table:
			cur = nil // [mcp_servers.env] and the like: nothing to read
		case unstable.KeyValue:
			if cur != nil {
				cur.setVibe(n)
			}
		}
	}
	if err := p.Error(); err != nil {
		return err
	}
	for i, e := range entries {
		s := Server{Host: c.File.Host, Path: c.File.Path, Scope: c.File.Scope, Name: e.name}
		classify(&s, e.f, c.self)
		switch {
		case !e.named || e.name == "":
			s.Kind, s.Note = Other, "no name"
		case s.Kind == Stdio || s.Kind == Proxied:
			if e.dupCommand || e.dup2 {
				s.Problem = "command or args given twice"
			}
			s.loc = c.tomlLoc(e)
			s.loc.path = []string{tomlServers, seqIndex(i)}
			if a := s.loc.args; a != nil && (a.open < 1 || a.open > len(c.Data) || c.Data[a.open-1] != '[') {
				s.Problem = "args is not written as [ ... ]"
			}
		}
		c.Servers = append(c.Servers, s)
	}
	return nil
}

// setVibe records the key = value kv of a Vibe entry: its name, its
// transport (read as a type), or a field Codex's entries have too. A
// dotted key (env.DEBUG = ...) is none of them.
func (e *tomlEntry) setVibe(kv *unstable.Node) {
	keys := tomlKeys(kv.Key())
	if len(keys) != 1 {
		return
	}
	value := kv.Value()
	switch keys[0] {
	case "name":
		e.named = true
		if value.Kind == unstable.String {
			e.name = string(value.Data)
		}
	case "transport":
		e.set("type", newTomlKV(kv, true), value)
	default:
		e.set(keys[0], newTomlKV(kv, true), value)
	}
}

// tomlKeys are the parts of a dotted key.
func tomlKeys(it unstable.Iterator) []string {
	var keys []string
	for it.Next() {
		keys = append(keys, string(it.Node().Data))
	}
	return keys
}

// tomlLoc is where an entry's command and args are.
func (c *Config) tomlLoc(e *tomlEntry) *entryLoc {
	l := &entryLoc{commandKey: "command", command: e.command.value}
	if e.args != nil {
		// The '[' follows the last key part, blanks and '='.
		i := skipBlanks(c.Data, e.args.lastKey.end)
		if i < len(c.Data) && c.Data[i] == '=' {
			i = skipBlanks(c.Data, i+1)
		}
		a := &seqLoc{open: i + 1}
		for _, r := range e.args.items {
			a.items = append(a.items, item{raw: r, lead: r.start})
		}
		l.args = a
		return l
	}
	// No args: a key = value line after the command's line, with the same
	// indentation and dotted prefix, or ", args = [...]" after the command
	// inside { }.
	kv := e.command.kv
	prefix := string(c.Data[kv.start:e.command.lastKey.start])
	if !e.command.top {
		l.addAt, l.addBefore = l.command.end, ", "+prefix+"args = "
		return l
	}
	lineStart := kv.start
	for lineStart > 0 && c.Data[lineStart-1] != '\n' {
		lineStart--
	}
	indent := string(c.Data[lineStart:kv.start])
	end := kv.end
	for end < len(c.Data) && c.Data[end] != '\n' {
		end++
	}
	if end == len(c.Data) {
		l.addAt, l.addBefore = end, c.newline()+indent+prefix+"args = "
		return l
	}
	l.addAt, l.addBefore, l.addAfter = end+1, indent+prefix+"args = ", c.newline()
	return l
}

// skipBlanks returns the index of the first byte at or after i that is not
// a space or tab.
func skipBlanks(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

// decodeTOML decodes data with go-toml's decoder, as a tree of maps.
func decodeTOML(data []byte) (any, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	return doc, nil
}
