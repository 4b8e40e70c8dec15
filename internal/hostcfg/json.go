package hostcfg

// JSON and JSONC files (Claude Code, VS Code, Cursor, Gemini CLI), read
// with hujson: it keeps comments, trailing commas and the offset of every
// value, and the standard library decodes its standardized form for the
// check after a rewrite.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/tailscale/hujson"
)

func (c *Config) parseJSON() error {
	root, err := hujson.Parse(c.Data)
	if err != nil {
		return err
	}
	obj, ok := root.Value.(*hujson.Object)
	if !ok {
		return errors.New("not a JSON object")
	}
	switch c.File.layout {
	case layoutVSCode:
		c.jsonServers(obj, "servers", c.File.Scope, nil)
	case layoutClaudeUser:
		c.jsonServers(obj, "mcpServers", "user", nil)
		// Claude Code's "local" scope: servers for one project, kept in
		// ~/.claude.json under the project's path.
		if projects, ok := jsonMember(obj, "projects").(*hujson.Object); ok {
			for _, m := range projects.Members {
				p, ok := m.Value.Value.(*hujson.Object)
				if !ok {
					continue
				}
				path := jsonString(m.Name.Value)
				c.jsonServers(p, "mcpServers", "local "+path, []string{"projects", path})
			}
		}
	case layoutMCPServers, layoutCodex, layoutGoose:
		fallthrough
	default:
		c.jsonServers(obj, "mcpServers", c.File.Scope, nil)
	}
	return nil
}

// jsonServers adds the servers of obj's member key.
func (c *Config) jsonServers(obj *hujson.Object, key, scope string, path []string) {
	servers, ok := jsonMember(obj, key).(*hujson.Object)
	if !ok {
		return
	}
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
			case "url", "httpUrl", "serverUrl":
				if f.urlKey == "" || k == "httpUrl" {
					f.urlKey = k
					if isStr {
						f.url = lit.String()
					}
				}
			}
		}
		classify(&s, f, c.File.Rootpick)
		if s.Kind == Stdio || s.Kind == Proxied {
			s.loc = c.jsonLoc(entry, command, args)
			s.loc.path = append(append(append([]string{}, path...), key), name)
		}
		c.Servers = append(c.Servers, s)
	}
}

// jsonLoc is where an entry's command and args are. A new args member goes
// right after the command, on its own line when the members are one a line.
func (c *Config) jsonLoc(entry *hujson.Object, command, args *hujson.Value) *entryLoc {
	l := &entryLoc{commandKey: "command", command: span{command.StartOffset, command.EndOffset}}
	if args != nil {
		arr := args.Value.(*hujson.Array)
		a := &seqLoc{open: args.StartOffset + 1}
		for _, e := range arr.Elements {
			a.items = append(a.items, item{raw: span{e.StartOffset, e.EndOffset}, lead: e.StartOffset})
		}
		l.args = a
		return l
	}
	// The new member is written as the command's is: the same blank before
	// its name (a new line and indentation, a space or nothing) and the
	// same colon.
	l.addAt = command.EndOffset
	sep, colon := " ", ": "
	for _, m := range entry.Members {
		if m.Value.StartOffset == command.StartOffset {
			if b := m.Name.BeforeExtra; isBlank(b) {
				sep = string(b)
			}
			if b := c.Data[m.Name.EndOffset:m.Value.StartOffset]; isBlank(bytes.Replace(b, []byte(":"), nil, 1)) {
				colon = string(b)
			}
		}
	}
	l.addBefore = "," + sep + `"args"` + colon
	return l
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

// jsonMember is the value of obj's last member named key, or nil (a later
// duplicate wins, as with JSON.parse).
func jsonMember(obj *hujson.Object, key string) hujson.ValueTrimmed {
	var v hujson.ValueTrimmed
	for _, m := range obj.Members {
		if jsonString(m.Name.Value) == key {
			v = m.Value.Value
		}
	}
	return v
}

// jsonString is a string literal's value, "" for anything else.
func jsonString(v hujson.ValueTrimmed) string {
	if l, ok := v.(hujson.Literal); ok && l.Kind() == '"' {
		return l.String()
	}
	return ""
}

// decodeJSON decodes JSONC data as its standard JSON form. hujson's
// values share the input's bytes and Standardize blanks comments where
// they are, so it works on a copy.
func decodeJSON(data []byte) (any, error) {
	v, err := hujson.Standardize(slices.Clone(data))
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(v, &out); err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	return out, nil
}
