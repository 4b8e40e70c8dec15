package hostcfg

// Nesting depth, measured before any parser sees a file: the parsers
// recurse (hujson until the stack overflows: a .mcp.json nested 10⁶ deep,
// 2 MB, ended rootpick with "fatal error: stack overflow"), or build
// structures that grow with the depth or its square (goccy/go-yaml with
// 30,000 levels in 58 KB: 1.4 GB before its own limit refuses it; go-toml
// stops arrays and inline tables at 10,000 levels but not dotted keys: one
// of 10⁵ parts, 200 KB, cost 59 MB). Each scan is one pass that
// allocates nothing that grows with the file, and reads the file as its
// parser does where it matters (strings, comments), so that no nesting can
// hide from it; where in doubt it counts more, never less.

import (
	"bytes"
	"errors"
	"io"

	"github.com/goccy/go-yaml/scanner"
	"github.com/goccy/go-yaml/token"
)

// MaxDepth is the deepest nesting hostcfg reads: containers within
// containers (objects, arrays, tables, mappings, sequences), and for TOML
// each part of a dotted key or table name. A host's configuration is five
// or six levels deep; a hundred leaves room for anything a person writes.
const MaxDepth = 100

// checkDepth refuses data nested deeper than MaxDepth, before it is parsed.
func checkDepth(f File, data []byte) error {
	var line int
	switch f.format {
	case formatJSON:
		line = jsonTooDeep(data, MaxDepth)
	case formatTOML:
		line = tomlTooDeep(data, MaxDepth)
	case formatYAML:
		line = yamlTooDeep(data, MaxDepth)
	}
	if line > 0 {
		return refused(f.Path, "", "is nested more than %d levels deep (at line %d): rootpick reads no deeper", MaxDepth, line)
	}
	return nil
}

// jsonTooDeep is the line where JSONC data first nests more than max
// arrays and objects, or 0. Strings and comments are skipped as hujson
// reads them.
func jsonTooDeep(b []byte, max int) int {
	depth, line := 0, 1
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			line++
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				switch b[i] {
				case '\\':
					i++
				case '\n':
					line++
				}
			}
		case '/':
			switch {
			case i+1 < len(b) && b[i+1] == '/':
				for i+1 < len(b) && b[i+1] != '\n' {
					i++
				}
			case i+1 < len(b) && b[i+1] == '*':
				end := bytes.Index(b[i+2:], []byte("*/"))
				if end < 0 {
					return 0 // unclosed: the parser refuses it
				}
				line += bytes.Count(b[i:i+2+end], []byte("\n"))
				i += 2 + end + 1
			}
		case '[', '{':
			if depth++; depth > max {
				return line
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return 0
}

// tomlTooDeep is the line where TOML data first nests more than max
// levels, or 0. A value's depth is its table's (the parts of its [table]
// name), plus the parts of its dotted key, plus the arrays and inline
// tables around it.
func tomlTooDeep(b []byte, max int) int {
	type open struct {
		depth  int
		inline bool // { }, where keys are; else [ ], where values are
	}
	var stack []open
	line := 1
	table := 0        // depth of the current [table]
	expectKey := true // at a key (a line's start, or in { } after { or ,)
	dots := 0         // dots so far in the key being read
	value := 0        // depth of the value being read
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\n':
			line++
			if len(stack) == 0 {
				expectKey, dots = true, 0
			}
		case c == ' ' || c == '\t' || c == '\r':
		case c == '#':
			for i+1 < len(b) && b[i+1] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			end, lines := tomlStringEnd(b, i)
			i, line = end-1, line+lines
		case expectKey && len(stack) == 0 && c == '[':
			// A [table] or [[array of tables]] name: one level a part,
			// and one more for the array.
			table = 1
			if i+1 < len(b) && b[i+1] == '[' {
				table++
				i++
			}
			for i++; i < len(b) && b[i] != ']' && b[i] != '\n'; i++ {
				switch b[i] {
				case '.':
					table++
				case '"', '\'':
					end, _ := tomlStringEnd(b, i)
					i = end - 1
				}
			}
			if table > max {
				return line
			}
			for i+1 < len(b) && b[i+1] == ']' {
				i++
			}
		case expectKey && c == '.':
			dots++
		case expectKey && c == '=':
			base := table
			if len(stack) > 0 {
				base = stack[len(stack)-1].depth
			}
			value = base + dots + 1
			if value > max {
				return line
			}
			expectKey, dots = false, 0
		case expectKey:
			// a bare key's character
		case c == '[' || c == '{':
			if value > max {
				return line
			}
			stack = append(stack, open{value, c == '{'})
			if c == '{' {
				expectKey, dots = true, 0
			} else {
				value++
			}
		case c == ']' || c == '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && !stack[len(stack)-1].inline {
				value = stack[len(stack)-1].depth + 1
			}
		case c == ',':
			if len(stack) > 0 {
				if top := stack[len(stack)-1]; top.inline {
					expectKey, dots = true, 0
				} else {
					value = top.depth + 1
				}
			}
		}
	}
	return 0
}

// tomlStringEnd is the index just after the TOML string (basic or literal,
// one line or multi-line) that starts at b[i], and the line ends in it.
func tomlStringEnd(b []byte, i int) (end, lines int) {
	q := b[i]
	if i+2 < len(b) && b[i+1] == q && b[i+2] == q {
		for j := i + 3; j < len(b); j++ {
			switch {
			case q == '"' && b[j] == '\\':
				if j+1 < len(b) && b[j+1] == '\n' {
					lines++
				}
				j++
			case b[j] == '\n':
				lines++
			case b[j] == q && j+2 < len(b) && b[j+1] == q && b[j+2] == q:
				// Up to two more quotes belong to the string.
				j += 3
				for k := 0; k < 2 && j < len(b) && b[j] == q; k++ {
					j++
				}
				return j, lines
			}
		}
		return len(b), lines
	}
	for j := i + 1; j < len(b) && b[j] != '\n'; j++ {
		switch {
		case q == '"' && b[j] == '\\':
			j++
		case b[j] == q:
			return j + 1, 0
		}
	}
	return len(b), 0 // unclosed: the parser refuses it
}

// yamlTooDeep is the line where YAML data first nests more than max
// levels, or 0. It reads the tokens of goccy/go-yaml's own scanner (so
// that quoted, block and plain scalars and comments are what the parser
// will see), a few at a time, keeping none: flow brackets count one level
// each, and block structure one level for each column at which a
// mapping's keys or a sequence's dashes stand, as the parser nests them.
func yamlTooDeep(b []byte, max int) int {
	type open struct {
		column int
		dash   bool // a sequence's dashes; else a mapping's keys
	}
	var stack []open
	flow := 0
	var prev *token.Token
	block := func(column int, dash bool) {
		for len(stack) > 0 && stack[len(stack)-1].column > column {
			stack = stack[:len(stack)-1]
		}
		if n := len(stack); n > 0 && stack[n-1].column == column {
			if stack[n-1].dash == dash {
				return // the next entry of the same collection
			}
			if !dash {
				// A key where a sequence's dashes stood: the sequence
				// (a mapping's value at the key's column) has ended.
				stack = stack[:n-1]
				if n > 1 && stack[n-2].column == column && !stack[n-2].dash {
					return
				}
			}
		}
		stack = append(stack, open{column, dash})
	}
	var s scanner.Scanner
	s.Init(string(b))
	for {
		toks, err := s.Scan()
		for _, t := range toks {
			if t.Position == nil {
				continue
			}
			switch t.Type {
			case token.SequenceStartType, token.MappingStartType:
				flow++
			case token.SequenceEndType, token.MappingEndType:
				if flow > 0 {
					flow--
				}
			case token.DocumentHeaderType:
				stack, flow = stack[:0], 0
			case token.SequenceEntryType:
				if flow == 0 {
					block(t.Position.Column, true)
				}
			case token.MappingKeyType:
				if flow == 0 {
					block(t.Position.Column, false)
				}
			case token.MappingValueType:
				if flow == 0 && prev != nil && prev.Position != nil && prev.Type != token.MappingKeyType {
					column := prev.Position.Column
					if prev.Position.Line != t.Position.Line {
						column = t.Position.Column
					}
					block(column, false)
				}
			}
			if t.Type != token.CommentType && t.Type != token.SpaceType {
				prev = t
			}
			if len(stack)+flow > max {
				return t.Position.Line
			}
		}
		// Past a token it cannot read the scanner goes on, as the
		// parser's does (lexer.Tokenize): so does this.
		if errors.Is(err, io.EOF) {
			return 0
		}
	}
}
