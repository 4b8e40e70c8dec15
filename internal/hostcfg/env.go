package hostcfg

import "fmt"

// Env is the environment server i's entry gives it, as its host passes it
// on: the "env" object (Goose's "envs", OpenCode's "environment"), with
// the host's variables expanded as the host does where it can
// (${VAR}, ${workspaceFolder}…; a value it cannot expand is kept as
// written). Values that are not strings (a number, true) are written as
// the format's decoder read them. Nil when the entry sets none or the
// file cannot be decoded. `rootpick hosts wrap` runs a launcher's
// prefetch with it, so that an entry's own npm cache or registry counts.
func (c *Config) Env(i int) map[string]string {
	s := c.Servers[i]
	if s.loc == nil {
		return nil
	}
	v, err := decode(c.File.format, c.Data)
	if err != nil {
		return nil
	}
	entry, ok := lookup(v, s.loc.path).(map[string]any)
	if !ok {
		return nil
	}
	var out map[string]string
	for _, key := range []string{"env", "envs", "environment"} {
		m, ok := entry[key].(map[string]any)
		if !ok {
			continue
		}
		for name, value := range m {
			text, isString := value.(string)
			if !isString {
				if value == nil {
					continue
				}
				text = fmt.Sprint(value)
			}
			if x, ok := c.File.expand(text); ok {
				text = x
			}
			if out == nil {
				out = map[string]string{}
			}
			out[name] = text
		}
	}
	return out
}
