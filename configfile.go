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
		if err := p.topKey(name); err != nil {
			return err
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

// decode decodes v, the value at key, into into; what it refuses is
// placed at the value and named by its key.
func (p *configParser) decode(key []string, v any, into tomlValue) error {
	if err := into.UnmarshalTOML(v); err != nil {
		return p.valueError(key, err)
	}
	return nil
}

// topKey reads the top-level key name.
func (p *configParser) topKey(name string) error {
	key, cfg := []string{name}, p.cfg
	switch name {
	case "dir":
		return p.dir(key)
	case "profile":
		return p.profile(key)
	case "skip":
		var l tomlStrings
		if err := p.decode(key, p.doc[name], &l); err != nil {
			return err
		}
		cfg.Skip, cfg.hasSkip = l, true
	case "max_depth":
		var n depth
		if err := p.decode(key, p.doc[name], &n); err != nil {
			return err
		}
		cfg.MaxDepth, cfg.hasMaxDepth = n, true
	case "theme":
		return p.theme(key)
	case "read_only":
		var b tomlBool
		if err := p.decode(key, p.doc[name], &b); err != nil {
			return err
		}
		cfg.ReadOnly = bool(b)
	case "servers":
		return p.servers()
	default:
		return p.at(key, "unknown key "+quoteKey(key))
	}
	return nil
}

// dir reads dir: an absolute folder or one under ~/, whose place is kept
// for the check that it can be scanned (AfterApply).
func (p *configParser) dir(key []string) error {
	var s tomlString
	if err := p.decode(key, p.doc[key[0]], &s); err != nil {
		return err
	}
	d, err := expandDir(string(s))
	if err != nil {
		return p.at(key, "dir: "+err.Error())
	}
	p.cfg.Dir, p.cfg.dirAt = d, *p.at(key, "")
	return nil
}

// profile reads profile, checked as --profile is.
func (p *configParser) profile(key []string) error {
	var s tomlString
	if err := p.decode(key, p.doc[key[0]], &s); err != nil {
		return err
	}
	if err := consent.ValidateProfile(string(s)); err != nil {
		return p.at(key, "profile: "+strings.TrimPrefix(err.Error(), "consent: "))
	}
	p.cfg.Profile, p.cfg.hasProfile = string(s), true
	return nil
}

// theme reads theme: one of themes.
func (p *configParser) theme(key []string) error {
	var s tomlString
	if err := p.decode(key, p.doc[key[0]], &s); err != nil {
		return err
	}
	if !slices.Contains(themes, string(s)) {
		return p.at(key, fmt.Sprintf("theme: want %s, got %s", strings.Join(themes, ", "), quote(string(s))))
	}
	p.cfg.Theme = string(s)
	return nil
}

// servers reads the [servers.NAME] tables, in the file's order.
func (p *configParser) servers() error {
	if _, ok := p.doc["servers"].(map[string]any); !ok {
		return p.valueError([]string{"servers"}, wrongType("a table", p.doc["servers"]))
	}
	for _, name := range p.childKeys([]string{"servers"}) {
		s, err := p.readServer(name)
		if err != nil {
			return err
		}
		p.cfg.Servers = append(p.cfg.Servers, s)
	}
	return nil
}

// readServer reads the table [servers.NAME]: a command or a url, and for a
// command the sandbox's settings.
func (p *configParser) readServer(name string) (configServer, error) {
	at := []string{"servers", name}
	s := configServer{Name: name}
	if consent.ValidateProfile(name) != nil {
		return s, p.at(at, "server name "+quote(name)+": only letters, digits, '-', '_' and '.', at most 64, not starting with '.'")
	}
	v := p.doc["servers"].(map[string]any)[name] // servers checked the table
	table, ok := v.(map[string]any)
	if !ok {
		return s, p.valueError(at, wrongType("a table", v))
	}
	fields := map[string]tomlValue{"command": &s.Command, "url": &s.URL, "enforce": &s.Enforce, "allow-read": &s.AllowRead, "allow-write": &s.AllowWrite, "allow-socket": &s.AllowSocket, "network": &s.Network, "read_only": &s.ReadOnly}
	for _, key := range p.childKeys(at) {
		into, ok := fields[key]
		if !ok {
			return s, p.at(append(at, key), "unknown key "+quoteKey(append(at, key)))
		}
		if err := p.decode(append(at, key), table[key], into); err != nil {
			return s, err
		}
	}
	if (s.Command == nil) == (s.URL == "") {
		return s, p.at(at, "server "+quote(name)+": give either command or url")
	}
	if s.URL != "" && (s.Enforce != "" || s.AllowRead != nil || s.AllowWrite != nil || s.AllowSocket != nil || s.Network != "" || s.ReadOnly) {
		return s, p.at(at, "server "+quote(name)+": enforce, allow-read, allow-write, allow-socket, network and read_only are for a command rootpick starts, not a url")
	}
	return s, nil
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

// tomlBool is a TOML boolean.
type tomlBool bool

func (b *tomlBool) UnmarshalTOML(v any) error {
	x, ok := v.(bool)
	if !ok {
		return wrongType("true or false", v)
	}
	*b = tomlBool(x)
	return nil
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

// addAllowRead adds path to the allow-read of the table [servers.NAME] of
// the config file at file, and changes nothing else in it: the person
// allowed the server to read what enforcement refused it (the server
// pane's a). The path is written under ~/ when it is in the home folder.
// It edits the text, not a decoded copy, so that comments and layout
// stay: an allow-read on one line gets the path before its closing
// bracket; a table without one gets it on the line after its header. An
// allow-read that spans lines, or a table not written as a [servers.NAME]
// header, is left for the person to edit, with an error that says so.
// What it writes is read back as the config is before it replaces the
// file (atomically, with the file's mode).
func addAllowRead(file, name, path string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	shown := path
	if home, err := paths.Home(); err == nil && consent.Within(path, home) && path != home {
		rel, _ := filepath.Rel(home, path)
		shown = "~/" + rel
	}
	lines := strings.SplitAfter(string(b), "\n")
	header := -1
	for i, l := range lines {
		t := strings.TrimSpace(stripComment(l))
		if t == "[servers."+name+"]" || t == `[servers."`+name+`"]` {
			header = i
			break
		}
	}
	if header < 0 {
		return fmt.Errorf("no [servers.%s] header in %s: add allow-read = [%s] to its table", name, file, tomlText(shown))
	}
	at, line := -1, ""
	for i := header + 1; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "["); i++ {
		key, _, ok := strings.Cut(stripComment(lines[i]), "=")
		if ok && strings.TrimSpace(key) == "allow-read" {
			at, line = i, lines[i]
			break
		}
	}
	switch {
	case at < 0:
		eol := "\n"
		if !strings.HasSuffix(lines[header], "\n") {
			lines[header] += eol
		}
		lines = slices.Insert(lines, header+1, "allow-read = ["+tomlText(shown)+"]"+eol)
	default:
		value := stripComment(line)
		end := strings.LastIndexByte(value, ']')
		if end < 0 {
			return fmt.Errorf("the allow-read of [servers.%s] in %s spans lines: add %s to it", name, file, tomlText(shown))
		}
		open := strings.IndexByte(value, '[')
		sep := ", "
		if strings.TrimSpace(value[open+1:end]) == "" {
			sep = ""
		}
		lines[at] = line[:end] + sep + tomlText(shown) + line[end:]
	}
	out := strings.Join(lines, "")
	check := &configFile{path: file}
	if err := check.parse(out); err != nil {
		return fmt.Errorf("adding allow-read to [servers.%s] would break %s (%v): add it yourself", name, file, err)
	}
	if s, ok := check.server(name); !ok || !slices.Contains(s.AllowRead, path) {
		return fmt.Errorf("adding allow-read to [servers.%s] in %s did not read back: add %s to it yourself", name, file, tomlText(shown))
	}
	fi, err := os.Stat(file)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".config-*.toml")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(out); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(fi.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// stripComment is a line of TOML without its comment: what follows a #
// outside a string.
func stripComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quote != 0 && c == '\\' && quote == '"':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return line[:i]
		}
	}
	return line
}
