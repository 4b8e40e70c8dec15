package hostcfg

// JSON and JSONC files (Claude Code, VS Code, Cursor, Gemini CLI). hujson
// reads the servers objects: it keeps comments, trailing commas and the
// offset of every value. The rest of a file is only walked over: a
// ~/.claude.json of tens of megabytes (Claude Code keeps every project's
// history in it) parsed whole by hujson took seven times its size in
// memory. The file is checked as a whole by the standard library, which
// also decodes its standard form for the check after a rewrite.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

func (c *Config) parseJSON() error {
	std := standardJSON(c.Data)
	if !json.Valid(std) {
		// hujson says where and what.
		if _, err := hujson.Parse(c.Data); err != nil {
			return err
		}
		return errors.New("not valid JSON")
	}
	top := jsonSpace(std, 0)
	if top >= len(std) || std[top] != '{' {
		return errors.New("not a JSON object")
	}
	switch c.File.layout {
	case layoutVSCode:
		return c.jsonServers(std, top, "servers", c.File.Scope, nil, "")
	case layoutClaudeUser:
		if err := c.jsonServers(std, top, "mcpServers", ScopeUser, nil, ""); err != nil {
			return err
		}
		// Claude Code's "local" scope: servers for one project, kept in
		// ~/.claude.json under the project's path.
		at, _, ok := jsonLast(std, top, "projects")
		if !ok || std[at] != '{' {
			return nil
		}
		dup := ""
		if jsonCount(std, top, "projects") > 1 {
			dup = `"projects"`
		}
		seen := map[string]int{}
		jsonEach(std, at, func(name []byte, _, _ int) { seen[jsonKey(name)]++ })
		var err error
		jsonEach(std, at, func(name []byte, start, _ int) {
			if err == nil && std[start] == '{' {
				path := jsonKey(name)
				d := dup
				if d == "" && seen[path] > 1 {
					d = "the project " + strconv.Quote(path)
				}
				err = c.jsonServers(std, start, "mcpServers", LocalScope(path), []string{"projects", path}, d)
			}
		})
		return err
	case layoutCrush, layoutOpenCode:
		return c.jsonServers(std, top, "mcp", c.File.Scope, nil, "")
	case layoutZed:
		return c.jsonServers(std, top, "context_servers", c.File.Scope, nil, "")
	case layoutAmp:
		// One top-level key whose name holds a dot, as VS Code's settings
		// are written: not an object "amp" with "mcpServers" in it.
		return c.jsonServers(std, top, "amp.mcpServers", c.File.Scope, nil, "")
	case layoutMCPServers, layoutCodex, layoutGoose, layoutContinue, layoutVibe:
		// layoutContinue is YAML (a list, yaml.go), layoutCodex and
		// layoutVibe TOML; a JSON file of those layouts is read the
		// common way.
		fallthrough
	default:
		return c.jsonServers(std, top, "mcpServers", c.File.Scope, nil, "")
	}
}

// jsonServers adds the servers of the member key of the object at
// std[obj] (a later duplicate wins, as with JSON.parse). The servers
// object alone is parsed by hujson, from the file's own bytes (with their
// comments), and its offsets moved to the file's. dup, when not "", names
// a key on the way there that the file gives twice.
//
// A key on the way given twice makes every server there one that cannot
// be rewritten: the host reads the last of the two, and a rewrite of it
// could not be checked against the file as the decoder reads it (it meets
// the first), so it is refused with the reason in words.
func (c *Config) jsonServers(std []byte, obj int, key string, scope Scope, path []string, dup string) error {
	start, end, ok := jsonLast(std, obj, key)
	if !ok || std[start] != '{' {
		return nil
	}
	if dup == "" && jsonCount(std, obj, key) > 1 {
		dup = strconv.Quote(key)
	}
	problem := ""
	if dup != "" {
		problem = "the file gives " + dup + " twice (the host reads only the last one): rootpick rewrites neither; make it one, then run again"
	}
	v, err := hujson.Parse(c.Data[start:end])
	if err != nil {
		return err
	}
	servers, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	base := start
	for _, m := range servers.Members {
		name := jsonString(m.Name.Value)
		s := Server{Host: c.File.Host, Path: c.File.Path, Scope: scope, Name: name}
		entry, ok := m.Value.Value.(*hujson.Object)
		if !ok {
			s.Kind, s.Note = Other, "not an object"
			c.Servers = append(c.Servers, s)
			continue
		}
		var f fields
		var command, args *hujson.Value
		seen := map[string]bool{}
		for i := range entry.Members {
			em := &entry.Members[i]
			k := jsonString(em.Name.Value)
			if seen[k] && (k == "command" || k == "args") {
				s.Problem = k + " is given twice"
			}
			seen[k] = true
			v := &em.Value
			lit, isLit := v.Value.(hujson.Literal)
			isStr := isLit && lit.Kind() == '"'
			switch k {
			case "type":
				f.hasType = true
				if isStr {
					f.typ = lit.String()
				}
			case "command":
				f.hasCommand, f.commandIsStr, command = true, isStr, v
				if isStr {
					f.command = lit.String()
				}
				if arr, ok := v.Value.(*hujson.Array); ok && c.File.layout == layoutOpenCode {
					// OpenCode: [CMD, ARGS...], read as command and args.
					strs, all := jsonStrings(arr)
					f.commandIsStr = all && len(strs) > 0
					if f.commandIsStr {
						f.command, f.args, f.hasArgs, f.argsAreStrs = strs[0], strs[1:], true, true
					}
				}
			case "args":
				f.hasArgs, args = true, v
				arr, ok := v.Value.(*hujson.Array)
				f.argsAreStrs = ok
				if ok {
					f.args = []string{}
					for _, e := range arr.Elements {
						l, ok := e.Value.(hujson.Literal)
						if !ok || l.Kind() != '"' {
							f.argsAreStrs = false
							break
						}
						f.args = append(f.args, l.String())
					}
				}
			case keyDisabled, keyEnabled:
				if isLit && (lit.Kind() == 't' || lit.Kind() == 'f') {
					if off := offField(k, lit.Bool(), ": "); off != "" {
						f.disabled = `"` + k + `"` + off[len(k):]
					}
				}
			case "url", "httpUrl", "serverUrl":
				if f.urlKey == "" || k == "httpUrl" {
					f.urlKey = k
					if isStr {
						f.url = lit.String()
					}
				}
			}
		}
		classify(&s, f, c.self)
		if problem != "" && (s.Kind == Stdio || s.Kind == Proxied) {
			s.Problem = problem
		}
		if c.File.layout == layoutOpenCode && (s.Kind == Stdio || s.Kind == Proxied) {
			if _, isArr := command.Value.(*hujson.Array); !isArr {
				s.Kind, s.Note = Other, "command is not an array (OpenCode takes [command, args...])"
			} else if args != nil {
				s.Kind, s.Note = Other, "args beside the command array (not an OpenCode field)"
			}
		}
		if c.File.layout == layoutOpenCode && (s.Kind == Stdio || s.Kind == Proxied) {
			s.loc = c.inlineLoc(base, command)
			s.loc.path = append(append(append([]string{}, path...), key), name)
		} else if s.Kind == Stdio || s.Kind == Proxied {
			s.loc = c.jsonLoc(base, entry, command, args)
			s.loc.path = append(append(append([]string{}, path...), key), name)
		}
		c.Servers = append(c.Servers, s)
	}
	return nil
}

// jsonLoc is where an entry's command and args are. A new args member goes
// right after the command, on its own line when the members are one a line.
// The offsets hujson gives are from base, where the servers object starts.
func (c *Config) jsonLoc(base int, entry *hujson.Object, command, args *hujson.Value) *entryLoc {
	l := &entryLoc{commandKey: "command", command: span{base + command.StartOffset, base + command.EndOffset}}
	if args != nil {
		arr := args.Value.(*hujson.Array)
		a := &seqLoc{open: base + args.StartOffset + 1}
		for _, e := range arr.Elements {
			a.items = append(a.items, item{raw: span{base + e.StartOffset, base + e.EndOffset}, lead: base + e.StartOffset})
		}
		l.args = a
		return l
	}
	// The new member is written as the command's is: the same blank before
	// its name (a new line and indentation, a space or nothing) and the
	// same colon.
	l.addAt = base + command.EndOffset
	sep, colon := " ", ": "
	for _, m := range entry.Members {
		if m.Value.StartOffset == command.StartOffset {
			if b := m.Name.BeforeExtra; isBlank(b) {
				sep = string(b)
			}
			if b := c.Data[base+m.Name.EndOffset : base+m.Value.StartOffset]; isBlank(bytes.Replace(b, []byte(":"), nil, 1)) {
				colon = string(b)
			}
		}
	}
	l.addBefore = "," + sep + `"args"` + colon
	return l
}

// inlineLoc is where an OpenCode entry's command array's parts are: its
// first element the command, the others the arguments.
func (c *Config) inlineLoc(base int, command *hujson.Value) *entryLoc {
	arr := command.Value.(*hujson.Array)
	first := arr.Elements[0]
	l := &entryLoc{commandKey: "command", inline: true, command: span{base + first.StartOffset, base + first.EndOffset}}
	if len(arr.Elements) > 1 {
		a := &seqLoc{open: base + first.EndOffset}
		for _, e := range arr.Elements[1:] {
			a.items = append(a.items, item{raw: span{base + e.StartOffset, base + e.EndOffset}, lead: base + e.StartOffset})
		}
		l.args = a
	}
	return l
}

// jsonStrings are an array's elements when all are strings; all is false
// otherwise.
func jsonStrings(arr *hujson.Array) (out []string, all bool) {
	out = []string{}
	for _, e := range arr.Elements {
		l, ok := e.Value.(hujson.Literal)
		if !ok || l.Kind() != '"' {
			return nil, false
		}
		out = append(out, l.String())
	}
	return out, true
}

// isBlank reports whether b is only spaces, tabs and line ends.
func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// jsonString is a string literal's value, "" for anything else.
func jsonString(v hujson.ValueTrimmed) string {
	if l, ok := v.(hujson.Literal); ok && l.Kind() == '"' {
		return l.String()
	}
	return ""
}

// decodeJSON decodes JSONC data as its standard JSON form.
func decodeJSON(data []byte) (any, error) {
	var out any
	if err := json.Unmarshal(standardJSON(data), &out); err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	return out, nil
}

// standardJSON is JSONC data as standard JSON of the same length:
// comments and trailing commas become blanks, line ends are kept. It is
// what hujson.Standardize gives, without the tree hujson builds first (for
// a ~/.claude.json of tens of megabytes, several times the file's size).
// Data that is standard JSON already (as Claude Code writes it) is returned
// as it is, not copied: the result is only to be read. What is not JSONC
// (an unclosed comment, a comma after nothing) is left as it is, for the
// JSON decoder to refuse.
func standardJSON(data []byte) []byte {
	b := data
	blank := func(i int) {
		if &b[0] == &data[0] {
			b = slices.Clone(data)
		}
		b[i] = ' '
	}
	comma := -1       // a comma after a value, that no value has followed yet
	prev := byte('{') // the last byte of JSON seen: what a comma follows
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			comma, prev = -1, '"'
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				blank(i)
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			j := bytes.Index(b[i+2:], []byte("*/"))
			if j < 0 {
				return b
			}
			for end := i + 2 + j + 2; i < end; i++ {
				if b[i] != '\n' && b[i] != '\r' {
					blank(i)
				}
			}
			i--
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == ',':
			if prev != '{' && prev != '[' && prev != ',' && prev != ':' {
				comma = i
			}
			prev = c
		case c == ']' || c == '}':
			if comma >= 0 {
				blank(comma)
			}
			comma, prev = -1, c
		default:
			comma, prev = -1, c
		}
	}
	return b
}

// jsonTarget is a rewritten entry, as checkJSON expects to find it.
type jsonTarget struct {
	name, commandKey string
	inline           bool // the line is one array under commandKey (OpenCode)
	line             []string
	met              int
}

// checkJSON is check for JSON: before (c.Data) and after are read side by
// side, token by token, and must be the same everywhere but in the
// rewritten entries, each of which must be its old self with the new
// command line. Reading them as streams keeps memory to the size of one
// entry, where decoding both files whole took several times their size.
// It is stricter than comparing decoded trees: member order and duplicate
// members must be the same too, as they are when only splices were made.
func (c *Config) checkJSON(after []byte, want map[int][]string) error {
	w := jsonWalk{targets: map[string]*jsonTarget{}}
	for i, line := range want {
		l := c.Servers[i].loc
		w.targets[pathKey(l.path)] = &jsonTarget{name: c.Servers[i].Name, commandKey: l.commandKey, inline: l.inline, line: line}
		w.deepest = max(w.deepest, len(l.path))
	}
	w.a = json.NewDecoder(bytes.NewReader(standardJSON(c.Data)))
	w.b = json.NewDecoder(bytes.NewReader(standardJSON(after)))
	w.a.UseNumber()
	w.b.UseNumber()
	if err := w.value(nil, true); err != nil {
		return err
	}
	if w.a.More() || w.b.More() {
		return errors.New("more than one value")
	}
	for _, t := range w.targets {
		if t.met != 1 {
			return fmt.Errorf("%s found %d times by the decoder", t.name, t.met)
		}
	}
	return nil
}

// jsonWalk reads two JSON streams in step.
type jsonWalk struct {
	a, b    *json.Decoder
	targets map[string]*jsonTarget
	deepest int
}

// errOtherChanged says a value that was not to change did.
var errOtherChanged = errors.New("other values changed")

// value compares the next value of both streams; path is where it is
// (tracked false inside arrays, where no entry is looked for).
func (w *jsonWalk) value(path []string, tracked bool) error {
	ta, err := w.a.Token()
	if err != nil {
		return err
	}
	tb, err := w.b.Token()
	if err != nil {
		return err
	}
	if ta != tb {
		return errOtherChanged
	}
	d, ok := ta.(json.Delim)
	if !ok || (d != '{' && d != '[') {
		return nil
	}
	for {
		more := w.a.More()
		if more != w.b.More() {
			return errOtherChanged
		}
		if !more {
			break
		}
		if d == '[' {
			if err := w.value(nil, false); err != nil {
				return err
			}
			continue
		}
		ka, err := w.a.Token()
		if err != nil {
			return err
		}
		kb, err := w.b.Token()
		if err != nil {
			return err
		}
		if ka != kb {
			return errOtherChanged
		}
		key, _ := ka.(string)
		child := append(path[:len(path):len(path)], key)
		if t := w.target(child, tracked); t != nil {
			if err := w.entry(t); err != nil {
				return err
			}
			continue
		}
		if err := w.value(child, tracked && len(child) < w.deepest); err != nil {
			return err
		}
	}
	// The closing bracket, the same on both sides as both had no more.
	if _, err := w.a.Token(); err != nil {
		return err
	}
	_, err = w.b.Token()
	return err
}

// target is the rewritten entry at path, or nil.
func (w *jsonWalk) target(path []string, tracked bool) *jsonTarget {
	if !tracked || len(path) > w.deepest {
		return nil
	}
	return w.targets[pathKey(path)]
}

// entry compares a rewritten entry: the old one with the new command line
// must be the new one.
func (w *jsonWalk) entry(t *jsonTarget) error {
	t.met++
	var before, after any
	if err := w.a.Decode(&before); err != nil {
		return err
	}
	if err := w.b.Decode(&after); err != nil {
		return err
	}
	m, ok := before.(map[string]any)
	if !ok {
		return fmt.Errorf("%s is not an object", t.name)
	}
	args := make([]any, 0, len(t.line)-1)
	for _, a := range t.line[1:] {
		args = append(args, a)
	}
	if t.inline {
		m[t.commandKey] = append([]any{t.line[0]}, args...)
	} else {
		m[t.commandKey] = t.line[0]
		m["args"] = args
	}
	if !reflect.DeepEqual(before, after) {
		return fmt.Errorf("%s changed otherwise", t.name)
	}
	return nil
}

// pathKey is a path as one map key, its parts quoted so that no two paths
// share one.
func pathKey(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteString(strconv.Quote(p))
	}
	return b.String()
}
