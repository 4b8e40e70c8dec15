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

	"github.com/BurntSushi/toml"
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
	cfg  *configFile
	data string
	md   toml.MetaData
	top  map[string]toml.Primitive
}

// parse fills cfg from TOML data. Keys are taken one by one in the file's
// order, so that the first mistake is the one reported, each with its line
// and column, and an unknown key is found by the switch rather than by
// MetaData.Undecoded: decoding into a struct would also take "DIR" for dir
// (it matches names in any case) and report bad values in map order.
func (cfg *configFile) parse(data string) error {
	p := &configParser{cfg: cfg, data: data}
	var err error
	if p.md, err = toml.Decode(data, &p.top); err != nil {
		return p.tomlError(err, false)
	}
	for _, name := range p.childKeys(nil) {
		key := toml.Key{name}
		prim := p.top[name]
		switch name {
		case "dir":
			var s tomlString
			if err = p.md.PrimitiveDecode(prim, &s); err == nil {
				if cfg.Dir, err = expandDir(string(s)); err != nil {
					return p.at(key, "dir: "+err.Error())
				}
				cfg.dirAt = *p.at(key, "")
			}
		case "profile":
			var s tomlString
			if err = p.md.PrimitiveDecode(prim, &s); err == nil {
				if err := consent.ValidateProfile(string(s)); err != nil {
					return p.at(key, "profile: "+strings.TrimPrefix(err.Error(), "consent: "))
				}
				cfg.Profile, cfg.hasProfile = string(s), true
			}
		case "skip":
			var l tomlStrings
			err = p.md.PrimitiveDecode(prim, &l)
			cfg.Skip, cfg.hasSkip = l, true
		case "max_depth":
			var n depth
			err = p.md.PrimitiveDecode(prim, &n)
			cfg.MaxDepth, cfg.hasMaxDepth = n, true
		case "theme":
			var s tomlString
			if err = p.md.PrimitiveDecode(prim, &s); err == nil {
				if !slices.Contains(themes, string(s)) {
					return p.at(key, fmt.Sprintf("theme: want %s, got %s", strings.Join(themes, ", "), quote(string(s))))
				}
				cfg.Theme = string(s)
			}
		case "servers":
			err = p.servers()
		default:
			return p.at(key, "unknown key "+quoteKey(key))
		}
		if err != nil {
			return p.tomlError(err, true)
		}
	}
	return nil
}

// servers reads the [servers.NAME] tables.
func (p *configParser) servers() error {
	names, err := p.table(p.top["servers"])
	if err != nil {
		return err
	}
	for _, name := range p.childKeys(toml.Key{"servers"}) {
		at := toml.Key{"servers", name}
		s := configServer{Name: name}
		if consent.ValidateProfile(name) != nil {
			return p.at(at, "server name "+quote(name)+": only letters, digits, '-', '_' and '.', at most 64, not starting with '.'")
		}
		fields, err := p.table(names[name])
		if err != nil {
			return err
		}
		for _, key := range p.childKeys(at) {
			var err error
			switch key {
			case "command":
				err = p.md.PrimitiveDecode(fields[key], &s.Command)
			case "url":
				err = p.md.PrimitiveDecode(fields[key], &s.URL)
			case "enforce":
				err = p.md.PrimitiveDecode(fields[key], &s.Enforce)
			case "allow-read":
				err = p.md.PrimitiveDecode(fields[key], &s.AllowRead)
			case "allow-write":
				err = p.md.PrimitiveDecode(fields[key], &s.AllowWrite)
			default:
				return p.at(append(at, key), "unknown key "+quoteKey(append(at, key)))
			}
			if err != nil {
				return err
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
// names them (a table [servers.fs] names servers, which Keys leaves out).
func (p *configParser) childKeys(parent toml.Key) []string {
	var out []string
	for _, k := range p.md.Keys() {
		if len(k) > len(parent) && slices.Equal(k[:len(parent)], parent) && !slices.Contains(out, k[len(parent)]) {
			out = append(out, k[len(parent)])
		}
	}
	return out
}

// table is the TOML table prim, its values left undecoded.
func (p *configParser) table(prim toml.Primitive) (map[string]toml.Primitive, error) {
	if err := p.md.PrimitiveDecode(prim, tableCheck{}); err != nil {
		return nil, err
	}
	var m map[string]toml.Primitive
	err := p.md.PrimitiveDecode(prim, &m)
	return m, err
}

// tableCheck fails on anything but a table, with the place of the value.
type tableCheck struct{}

func (tableCheck) UnmarshalTOML(v any) error {
	if _, ok := v.(map[string]any); !ok {
		return wrongType("a table", v)
	}
	return nil
}

// at is an error msg at key's value. A table only implied by the keys in
// it ([servers.fs] implies servers) is placed at the first of them.
func (p *configParser) at(key toml.Key, msg string) *configError {
	ce := &configError{path: p.cfg.path, msg: printable(msg)}
	for _, k := range p.md.Keys() {
		if len(k) < len(key) || !slices.Equal(k[:len(key)], key) {
			continue
		}
		var pe toml.ParseError
		if prim, ok := p.primitive(k); ok && errors.As(p.md.PrimitiveDecode(prim, failWith{}), &pe) && pe.Position.Line > 0 {
			ce.line, ce.col = pe.Position.Line, p.valueColumn(pe.Position)
			break
		}
	}
	return ce
}

// primitive is the undecoded value at key.
func (p *configParser) primitive(key toml.Key) (toml.Primitive, bool) {
	prim, ok := p.top[key[0]]
	for _, part := range key[1:] {
		var m map[string]toml.Primitive
		if !ok || p.md.PrimitiveDecode(prim, &m) != nil {
			return toml.Primitive{}, false
		}
		prim, ok = m[part]
	}
	return prim, ok
}

// valueColumn is the column where the value at pos starts: the TOML
// package places a string after its opening quotes and an array at its
// first element.
func (p *configParser) valueColumn(pos toml.Position) int {
	i, col := pos.Start, pos.Col
	for n := 0; n < 3 && i > 0 && col > 1 && (p.data[i-1] == '"' || p.data[i-1] == '\''); n++ {
		i, col = i-1, col-1
	}
	if i > 0 && col > 1 && p.data[i-1] == '[' {
		col--
	}
	return col
}

// tomlError is a TOML error as a configError, at its line and column when
// the TOML package knows them. A value one of the toml* types below refused
// is named by its key (withKey); a syntax error is not, since its key is
// only the last one read.
func (p *configParser) tomlError(err error, withKey bool) error {
	if ce, ok := errors.AsType[*configError](err); ok {
		return ce
	}
	ce := &configError{path: p.cfg.path, msg: err.Error()}
	var pe toml.ParseError
	if errors.As(err, &pe) {
		ce.line, ce.col, ce.msg = pe.Position.Line, pe.Position.Col, pe.Message
		if withKey && pe.LastKey != "" {
			ce.col = p.valueColumn(pe.Position)
			ce.msg = pe.LastKey + ": " + ce.msg
		}
	}
	ce.msg = printable(ce.msg)
	return ce
}

// failWith is decoded into to find where a value is: the TOML package
// gives an Unmarshaler's error the line and column of the value.
type failWith struct{}

func (failWith) UnmarshalTOML(any) error { return errors.New("here") }

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
func quoteKey(k toml.Key) string {
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
