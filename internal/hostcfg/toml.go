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

// tomlEntry gathers one [mcp_servers.NAME] entry, wherever its keys are
// (a table, dotted keys, an inline table).
type tomlEntry struct {
	name             string
	f                fields
	command, args    *tomlKV
	dupCommand, dup2 bool
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

func (c *Config) parseTOML() error {
	if _, err := decodeTOML(c.Data); err != nil {
		return err
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
		if len(full) == 2 && full[0] == "mcp_servers" {
			entry(full[1])
		}
		if value.Kind == unstable.InlineTable {
			for it := value.Children(); it.Next(); {
				visit(full, it.Node(), false)
			}
			return
		}
		if len(full) != 3 || full[0] != "mcp_servers" {
			return
		}
		e := entry(full[1])
		at := &tomlKV{kv: tomlSpan(kv), value: tomlSpan(value), top: top}
		for it := kv.Key(); it.Next(); {
			at.lastKey = tomlSpan(it.Node())
		}
		isStr := value.Kind == unstable.String
		switch full[2] {
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
		case "type":
			e.f.hasType = true
			if isStr {
				e.f.typ = string(value.Data)
			}
		}
	}
	var table []string
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.Table:
			table = tomlKeys(n.Key())
			if len(table) == 2 && table[0] == "mcp_servers" {
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
			s.loc.path = []string{"mcp_servers", e.name}
			if a := s.loc.args; a != nil && (a.open < 1 || a.open > len(c.Data) || c.Data[a.open-1] != '[') {
				s.Problem = "args is not written as [ ... ]"
			}
		}
		c.Servers = append(c.Servers, s)
	}
	return nil
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
