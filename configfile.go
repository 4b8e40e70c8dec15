package main

// Reading the config file: TOML decoded key by key, each value checked as
// its flag is, each mistake placed at its line and column.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/paths"
)

// loadConfig reads and checks the config file at path. A missing file is
// no config, unless it was named (named).
func loadConfig(path string, named bool) (*configFile, error) {
	cfg := &configFile{path: path}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !named {
		return cfg, nil
	}
	if err != nil {
		return nil, &configError{path: path, msg: "cannot read the config file: " + unwrapPathError(err).Error()}
	}
	cfg.exists = true
	if err := cfg.parse(string(b)); err != nil {
		return nil, err
	}
	return cfg, nil
}

// unwrapPathError drops the path an *fs.PathError repeats.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// configParser reads one file's TOML into a configFile.
type configParser struct {
	cfg *configFile
	doc map[string]any // the file, decoded
	// keys are the file's keys (tables included) in the order it first
	// names them, each with the place of its value (of its header, for a
	// table): read from go-toml's parser, which keeps both.
	keys []placedKey
}

// placedKey is one key of the file and where its value starts.
type placedKey struct {
	key       []string
	line, col int
}

// parse fills cfg from TOML data. Keys are taken one by one in the file's
// order, so that the first mistake is the one reported, each with its line
// and column, and an unknown key is found by the switch: decoding into a
// struct would report bad values in field order, not the file's.
func (cfg *configFile) parse(data string) error {
	p := &configParser{cfg: cfg}
	if err := toml.Unmarshal([]byte(data), &p.doc); err != nil {
		return p.syntaxError(err)
	}
	p.keys = placeKeys([]byte(data))
	for _, name := range p.childKeys(nil) {
		key := []string{name}
		v := p.doc[name]
		var err error
		switch name {
		case "dir":
			var s tomlString
			if err = s.UnmarshalTOML(v); err == nil {
				if cfg.Dir, err = expandDir(string(s)); err != nil {
					return p.at(key, "dir: "+err.Error())
				}
				cfg.dirAt = *p.at(key, "")
			}
		case "profile":
			var s tomlString
			if err = s.UnmarshalTOML(v); err == nil {
				if err := consent.ValidateProfile(string(s)); err != nil {
					return p.at(key, "profile: "+strings.TrimPrefix(err.Error(), "consent: "))
				}
				cfg.Profile, cfg.hasProfile = string(s), true
			}
		case "skip":
			var l tomlStrings
			err = l.UnmarshalTOML(v)
			cfg.Skip, cfg.hasSkip = l, true
		case "max_depth":
			var n depth
			err = n.UnmarshalTOML(v)
			cfg.MaxDepth, cfg.hasMaxDepth = n, true
		case "theme":
			var s tomlString
			if err = s.UnmarshalTOML(v); err == nil {
				if !slices.Contains(themes, string(s)) {
					return p.at(key, fmt.Sprintf("theme: want %s, got %s", strings.Join(themes, ", "), quote(string(s))))
				}
				cfg.Theme = string(s)
			}
		case "servers":
			if err := p.servers(); err != nil {
				return err
			}
		default:
			return p.at(key, "unknown key "+quoteKey(key))
		}
		if err != nil {
			return p.valueError(key, err)
		}
	}
	return nil
}

// tomlValue is a value of the config file that checks itself as its flag
// does (the flag types in flags.go, and tomlString and tomlStrings below):
// v is what go-toml decodes into an any (string, int64, float64, bool,
// []any, map[string]any, a date or time).
type tomlValue interface {
	UnmarshalTOML(v any) error
}

// servers reads the [servers.NAME] tables.
func (p *configParser) servers() error {
	names, ok := p.doc["servers"].(map[string]any)
	if !ok {
		return p.valueError([]string{"servers"}, wrongType("a table", p.doc["servers"]))
	}
	for _, name := range p.childKeys([]string{"servers"}) {
		at := []string{"servers", name}
		s := configServer{Name: name}
		if consent.ValidateProfile(name) != nil {
			return p.at(at, "server name "+quote(name)+": only letters, digits, '-', '_' and '.', at most 64, not starting with '.'")
		}
		fields, ok := names[name].(map[string]any)
		if !ok {
			return p.valueError(at, wrongType("a table", names[name]))
		}
		for _, key := range p.childKeys(at) {
			var into tomlValue
			switch key {
			case "command":
				into = &s.Command
			case "url":
				into = &s.URL
			case "enforce":
				into = &s.Enforce
			case "allow-read":
				into = &s.AllowRead
			case "allow-write":
				into = &s.AllowWrite
			default:
				return p.at(append(at, key), "unknown key "+quoteKey(append(at, key)))
			}
			if err := into.UnmarshalTOML(fields[key]); err != nil {
				return p.valueError(append(at, key), err)
			}
		}
		if (s.Command == nil) == (s.URL == "") {
			return p.at(at, "server "+quote(name)+": give either command or url")
		}
		if s.URL != "" && (s.Enforce != "" || s.AllowRead != nil || s.AllowWrite != nil) {
			return p.at(at, "server "+quote(name)+": enforce, allow-read and allow-write are for a command rootpick starts, not a url")
		}
		p.cfg.Servers = append(p.cfg.Servers, s)
	}
	return nil
}

// childKeys are the keys right below parent, in the order the file first
// names them (a table [servers.fs] names servers).
func (p *configParser) childKeys(parent []string) []string {
	var out []string
	for _, k := range p.keys {
		if len(k.key) > len(parent) && slices.Equal(k.key[:len(parent)], parent) && !slices.Contains(out, k.key[len(parent)]) {
			out = append(out, k.key[len(parent)])
		}
	}
	return out
}

// at is an error msg at key's value. A table only implied by the keys in
// it ([servers.fs] implies servers) is placed at the first of them.
func (p *configParser) at(key []string, msg string) *configError {
	ce := &configError{path: p.cfg.path, msg: printable(msg)}
	for _, k := range p.keys {
		if len(k.key) >= len(key) && slices.Equal(k.key[:len(key)], key) {
			ce.line, ce.col = k.line, k.col
			break
		}
	}
	return ce
}

// valueError is err, which the value at key refused, named by its key and
// placed at the value.
func (p *configParser) valueError(key []string, err error) error {
	if ce, ok := errors.AsType[*configError](err); ok {
		return ce
	}
	return p.at(key, quoteKey(key)+": "+err.Error())
}

// syntaxError is a TOML error of go-toml as a configError, at the line and
// column go-toml gives it.
func (p *configParser) syntaxError(err error) error {
	ce := &configError{path: p.cfg.path, msg: strings.TrimPrefix(err.Error(), "toml: ")}
	if de, ok := errors.AsType[*toml.DecodeError](err); ok {
		ce.line, ce.col = de.Position()
	}
	ce.msg = printable(ce.msg)
	return ce
}

// placeKeys lists the keys of a TOML document that go-toml has already
// decoded without error, in order, each placed at its value's first
// character (the opening quote of a string, the '[' of an array) or, for a
// table, at its header.
func placeKeys(data []byte) []placedKey {
	var out []placedKey
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = nil
			it := e.Key()
			line, col := 0, 0
			for it.Next() {
				if line == 0 {
					pos := p.Shape(it.Node().Raw).Start
					line, col = pos.Line, pos.Column
				}
				table = append(table, string(it.Node().Data))
			}
			out = append(out, placedKey{key: table, line: line, col: col})
		case unstable.KeyValue:
			out = placeKeyValue(&p, data, table, e, out)
		}
	}
	return out
}

// placeKeyValue adds the key of the key/value node e below table, and
// those of an inline table it holds.
func placeKeyValue(p *unstable.Parser, data []byte, table []string, e *unstable.Node, out []placedKey) []placedKey {
	key := slices.Clone(table)
	end := 0
	for it := e.Key(); it.Next(); {
		key = append(key, string(it.Node().Data))
		r := it.Node().Raw
		end = int(r.Offset + r.Length)
	}
	// The value starts after the key, the spaces and the '='.
	start := end
	for start < len(data) && strings.IndexByte(" \t=", data[start]) >= 0 {
		start++
	}
	pos := p.Shape(unstable.Range{Offset: uint32(start), Length: 1}).Start
	out = append(out, placedKey{key: key, line: pos.Line, col: pos.Column})
	if v := e.Value(); v.Kind == unstable.InlineTable {
		for it := v.Children(); it.Next(); {
			out = placeKeyValue(p, data, key, it.Node(), out)
		}
	}
	return out
}

// tomlString is a TOML string.
type tomlString string

func (s *tomlString) UnmarshalTOML(v any) error {
	str, ok := v.(string)
	if !ok {
		return wrongType("a string", v)
	}
	*s = tomlString(str)
	return nil
}

// tomlStrings is a TOML array of strings.
type tomlStrings []string

func (l *tomlStrings) UnmarshalTOML(v any) error {
	a, ok := v.([]any)
	if !ok {
		return wrongType("an array of strings", v)
	}
	out := make([]string, 0, len(a))
	for i, e := range a {
		s, ok := e.(string)
		if !ok {
			return fmt.Errorf("element %d: %w", i+1, wrongType("a string", e))
		}
		out = append(out, s)
	}
	*l = out
	return nil
}

// wrongType says what a key wants and what it got, in TOML's words.
func wrongType(want string, v any) error {
	got := "a " + fmt.Sprintf("%T", v)
	switch v.(type) {
	case string:
		got = "a string"
	case int64:
		got = "an integer"
	case float64:
		got = "a float"
	case bool:
		got = "a boolean"
	case []any, []map[string]any:
		got = "an array"
	case map[string]any:
		got = "a table"
	}
	return fmt.Errorf("want %s, got %s", want, got)
}

// expandDir is dir with a leading ~ made the home folder; it must then be
// absolute, since the file is read from any folder.
func expandDir(dir string) (string, error) {
	if dir == "~" || strings.HasPrefix(dir, "~/") {
		home, err := paths.Home()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(home, dir[1:])
	}
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("want an absolute folder or one under ~/, got %q", dir)
	}
	return filepath.Clean(dir), nil
}

// quote is s as a Go string, so that no control character reaches the
// terminal.
func quote(s string) string { return strconv.Quote(s) }

// quoteKey is a dotted TOML key, each part quoted as needed.
func quoteKey(k []string) string {
	parts := make([]string, len(k))
	for i, p := range k {
		parts[i] = p
		if p == "" || strings.ContainsFunc(p, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' }) {
			parts[i] = quote(p)
		}
	}
	return strings.Join(parts, ".")
}

// printable is msg with any character that is not printable escaped.
func printable(msg string) string {
	if !strings.ContainsFunc(msg, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return msg
	}
	q := strconv.QuoteToGraphic(msg)
	return q[1 : len(q)-1]
}
