package hostcfg

// Goose's config.yaml, read with goccy/go-yaml: its AST keeps comments and
// gives each token's line and column, from which the byte range of a value
// is found (its Offset field is not a byte offset once a line holds
// non-ASCII text, so it is not used).

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

func (c *Config) parseYAML() error {
	// The decoder checks the whole file (anchors, duplicate keys).
	if _, err := decodeYAML(c.Data); err != nil {
		return err
	}
	f, err := parser.ParseBytes(c.Data, parser.ParseComments)
	if err != nil {
		return err
	}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return nil // an empty file: no extensions
	}
	y := &yamlDoc{c: c, lines: lineStarts(c.Data), cmdKey: "cmd"}
	root, _ := yamlMap(f.Docs[0].Body)
	if c.File.layout == layoutContinue {
		// Continue: mcpServers is a sequence of mappings, each named by
		// its "name" and started by "command".
		y.cmdKey = "command"
		for _, kv := range root {
			if yamlKey(kv) != "mcpServers" {
				continue
			}
			seq, ok := kv.Value.(*ast.SequenceNode)
			if !ok {
				continue
			}
			for i, item := range seq.Values {
				name := ""
				fields, _ := yamlMap(item)
				for _, f := range fields {
					if str, ok := f.Value.(*ast.StringNode); ok && yamlKey(f) == "name" {
						name = str.Value
					}
				}
				c.Servers = append(c.Servers, y.server(name, item, []string{"mcpServers", seqIndex(i)}))
			}
		}
		return nil
	}
	for _, kv := range root {
		if yamlKey(kv) != "extensions" {
			continue
		}
		exts, _ := yamlMap(kv.Value)
		for _, ext := range exts {
			c.Servers = append(c.Servers, y.server(yamlKey(ext), ext.Value, []string{"extensions", yamlKey(ext)}))
		}
	}
	return nil
}

// seqIndex is the path element that stands for the i-th element of a
// sequence (see lookup): no mapping key starts with a NUL.
func seqIndex(i int) string {
	return "\x00" + strconv.Itoa(i)
}

// yamlDoc turns token positions into byte offsets.
type yamlDoc struct {
	c     *Config
	lines []int
	// cmdKey names the command: Goose's "cmd", Continue's "command".
	cmdKey string
}

// server is the entry named name whose fields are value, at path.
func (y *yamlDoc) server(name string, value ast.Node, path []string) Server {
	s := Server{Host: y.c.File.Host, Path: y.c.File.Path, Scope: y.c.File.Scope, Name: name}
	fieldsNode, flow := yamlMap(value)
	if fieldsNode == nil {
		s.Kind, s.Note = Other, "not a mapping"
		return s
	}
	var f fields
	var cmdKV, argsKV *ast.MappingValueNode
	for _, kv := range fieldsNode {
		str, isStr := kv.Value.(*ast.StringNode)
		switch yamlKey(kv) {
		case "type":
			f.hasType = true
			if isStr {
				f.typ = str.Value
			}
		case y.cmdKey:
			if cmdKV != nil {
				s.Problem = y.cmdKey + " is given twice"
			}
			cmdKV = kv
			f.hasCommand, f.commandIsStr = true, isStr
			if isStr {
				f.command = str.Value
			}
		case "args":
			if argsKV != nil {
				s.Problem = "args is given twice"
			}
			argsKV = kv
			f.hasArgs = true
			seq, ok := kv.Value.(*ast.SequenceNode)
			f.argsAreStrs = ok
			if ok {
				f.args = []string{}
				for _, v := range seq.Values {
					if str, ok := v.(*ast.StringNode); ok {
						f.args = append(f.args, str.Value)
					} else {
						f.argsAreStrs = false
					}
				}
			}
		case keyDisabled, keyEnabled:
			if b, ok := kv.Value.(*ast.BoolNode); ok {
				if off := offField(yamlKey(kv), b.Value, ": "); off != "" {
					f.disabled = off
				}
			}
		case "uri", "url":
			f.urlKey = yamlKey(kv)
			if isStr {
				f.url = str.Value
			}
		}
	}
	classify(&s, f, y.c.self)
	if s.Kind != Stdio && s.Kind != Proxied {
		return s
	}
	l, problem := y.loc(cmdKV, argsKV, flow)
	s.loc = l
	if s.Problem == "" {
		s.Problem = problem
	}
	if l != nil {
		l.path = path
	}
	return s
}

// loc is where an extension's cmd and args are, or why they cannot be
// rewritten.
func (y *yamlDoc) loc(cmdKV, argsKV *ast.MappingValueNode, flow bool) (*entryLoc, string) {
	cmd, ok := y.scalar(cmdKV.Value.(*ast.StringNode))
	if !ok {
		return nil, "cmd is written in a way hostcfg does not rewrite (a multi-line or block scalar)"
	}
	l := &entryLoc{commandKey: y.cmdKey, command: cmd, commandFlow: flow}
	if argsKV != nil {
		a, why := y.argsLoc(argsKV)
		if why != "" {
			return nil, why
		}
		l.args = a
		return l, ""
	}
	// No args: "args: [...]" on a line after cmd's, indented as cmd, or
	// ", args: [...]" after cmd inside { }.
	if flow {
		l.addAt, l.addBefore = cmd.end, ", args: "
		return l, ""
	}
	key, ok := y.offset(cmdKV.Key.GetToken())
	if !ok {
		return nil, "cannot find cmd"
	}
	lineStart := key
	for lineStart > 0 && y.c.Data[lineStart-1] != '\n' {
		lineStart--
	}
	indent := string(y.c.Data[lineStart:key])
	if strings.Trim(indent, " ") != "" {
		return nil, "cmd does not start its line"
	}
	end := cmd.end
	for end < len(y.c.Data) && y.c.Data[end] != '\n' {
		end++
	}
	if end == len(y.c.Data) {
		l.addAt, l.addBefore = end, y.c.newline()+indent+"args: "
	} else {
		l.addAt, l.addBefore, l.addAfter = end+1, indent+"args: ", y.c.newline()
	}
	return l, ""
}

// argsLoc is where the items of an extension's args are, or why they
// cannot be rewritten.
func (y *yamlDoc) argsLoc(argsKV *ast.MappingValueNode) (*seqLoc, string) {
	seq := argsKV.Value.(*ast.SequenceNode)
	a := &seqLoc{block: !seq.IsFlowStyle}
	if seq.IsFlowStyle {
		open, ok := y.offset(seq.Start)
		if !ok || y.c.Data[open] != '[' {
			return nil, "cannot find args' ["
		}
		a.open = open + 1
	}
	for i, v := range seq.Values {
		r, ok := y.scalar(v.(*ast.StringNode))
		if !ok {
			return nil, "an element of args is written in a way hostcfg does not rewrite (a multi-line or block scalar)"
		}
		it := item{raw: r, lead: r.start}
		if a.block {
			if i >= len(seq.Entries) || seq.Entries[i].Start == nil {
				return nil, "cannot find the dashes of args"
			}
			dash, ok := y.offset(seq.Entries[i].Start)
			if !ok || y.c.Data[dash] != '-' {
				return nil, "cannot find the dashes of args"
			}
			it.lead = dash
			lineStart := dash
			for lineStart > 0 && y.c.Data[lineStart-1] != '\n' {
				lineStart--
			}
			indent := string(y.c.Data[lineStart:dash])
			if strings.Trim(indent, " ") != "" || (i > 0 && indent != a.indent) {
				return nil, "args' dashes are not each at the start of a line"
			}
			a.indent = indent
		}
		a.items = append(a.items, it)
	}
	return a, ""
}

// scalar is the byte range of a one-line string scalar's text, quotes
// included; ok is false for anything else.
func (y *yamlDoc) scalar(n *ast.StringNode) (span, bool) {
	t := n.GetToken()
	start, ok := y.offset(t)
	if !ok {
		return span{}, false
	}
	d := y.c.Data
	switch t.Type {
	case token.DoubleQuoteType:
		if d[start] != '"' {
			return span{}, false
		}
		for i := start + 1; i < len(d) && d[i] != '\n'; i++ {
			switch d[i] {
			case '\\':
				i++
			case '"':
				return span{start, i + 1}, true
			}
		}
	case token.SingleQuoteType:
		if d[start] != '\'' {
			return span{}, false
		}
		for i := start + 1; i < len(d) && d[i] != '\n'; i++ {
			if d[i] == '\'' {
				if i+1 < len(d) && d[i+1] == '\'' {
					i++
					continue
				}
				return span{start, i + 1}, true
			}
		}
	case token.StringType:
		// A plain scalar on one line is its own text.
		end := start + len(n.Value)
		if n.Value != "" && end <= len(d) && string(d[start:end]) == n.Value {
			return span{start, end}, true
		}
	}
	return span{}, false
}

// offset is the byte offset of t's first character, from its line and
// column (which counts characters, from 1).
func (y *yamlDoc) offset(t *token.Token) (int, bool) {
	if t == nil || t.Position == nil || t.Position.Line < 1 || t.Position.Line > len(y.lines) {
		return 0, false
	}
	i := y.lines[t.Position.Line-1]
	for col := 1; col < t.Position.Column; col++ {
		if i >= len(y.c.Data) || y.c.Data[i] == '\n' {
			return 0, false
		}
		_, size := utf8.DecodeRune(y.c.Data[i:])
		i += size
	}
	if i >= len(y.c.Data) {
		return 0, false
	}
	return i, true
}

// lineStarts is the offset of each line's first byte.
func lineStarts(b []byte) []int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// yamlMap is the entries of a mapping node (goccy gives a mapping of one
// entry as the entry itself), and whether it is written { }.
func yamlMap(n ast.Node) ([]*ast.MappingValueNode, bool) {
	switch m := n.(type) {
	case *ast.MappingNode:
		return m.Values, m.IsFlowStyle
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}, m.IsFlowStyle
	}
	return nil, false
}

// yamlKey is an entry's key as a string.
func yamlKey(kv *ast.MappingValueNode) string {
	if s, ok := kv.Key.(*ast.StringNode); ok {
		return s.Value
	}
	if t := kv.Key.GetToken(); t != nil {
		return t.Value
	}
	return ""
}

// decodeYAML decodes data as a tree of maps.
func decodeYAML(data []byte) (any, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// decode decodes data with the format's own decoder.
func decode(f format, data []byte) (any, error) {
	switch f {
	case formatTOML:
		return decodeTOML(data)
	case formatYAML:
		return decodeYAML(data)
	case formatJSON:
		return decodeJSON(data)
	}
	return decodeJSON(data)
}
