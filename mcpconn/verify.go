package mcpconn

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/rootpick/rootpick/consent"
)

// A Prober asks a server what it holds: Tool is called with no arguments
// and Parse turns its text into the folders the server allows, as roots'
// Paths (ByPath) or URIs.
type Prober struct {
	Tool   string
	ByPath bool
	Parse  func(text string) []string
}

// ProberFor is how a server that calls itself server (its serverInfo
// name) can be asked what it holds, if rootpick knows (probers).
func ProberFor(server string) (Prober, bool) {
	p, ok := probers[server]
	return p, ok
}

// probers lists the servers rootpick knows how to ask what they really
// hold, by the name they give in serverInfo. Fetching a list is not
// applying it (server-filesystem ignores an empty one); asking is the only
// way to know. Add a server here with its tool and a parser of its answer.
var probers = map[string]Prober{
	// @modelcontextprotocol/server-filesystem: "Allowed directories:\n/a\n/b".
	"secure-filesystem-server": {Tool: "list_allowed_directories", ByPath: true, Parse: func(text string) []string {
		var out []string
		for line := range strings.SplitSeq(text, "\n") {
			if strings.HasPrefix(line, "/") {
				out = append(out, line)
			}
		}
		return out
	}},
	// @modelcontextprotocol/server-everything: "1. name\n   URI: file:///a".
	"mcp-servers/everything": {Tool: "get-roots-list", Parse: func(text string) []string {
		var out []string
		for line := range strings.SplitSeq(text, "\n") {
			if uri, ok := strings.CutPrefix(strings.TrimSpace(line), "URI: "); ok {
				out = append(out, uri)
			}
		}
		return out
	}},
	// rootpick's own demo server: one URI a line, or "(no roots)".
	"rootpick-demo": {Tool: "list_roots", Parse: func(text string) []string {
		var out []string
		for line := range strings.SplitSeq(text, "\n") {
			if strings.HasPrefix(line, "file:") {
				out = append(out, line)
			}
		}
		return out
	}},
}

// VerifyTries and VerifyPause bound how long a server may take to apply a
// set it fetched before a difference counts as a mismatch.
const (
	VerifyTries = 5
	VerifyPause = 200 * time.Millisecond
)

// verifier asks the server what it holds after each fetch, if rootpick
// knows how, and publishes Verified or Mismatch.
func (c *conn) verifier() {
	p, ok := probers[c.serverName]
	if !ok {
		return
	}
	for {
		select {
		case <-c.verifyWake:
		case <-c.done:
			return
		}
		c.verify(p)
	}
}

func (c *conn) verify(p Prober) {
	var diff string
	for try := range VerifyTries {
		if try > 0 {
			select {
			case <-time.After(VerifyPause):
			case <-c.done:
				return
			}
		}
		set := c.s.h.served.Load()
		ctx, cancel := context.WithTimeout(c.s.h.ctx, 5*time.Second)
		text, err := CallTool(ctx, c.session, p.Tool, nil)
		cancel()
		if err != nil {
			c.s.h.logger.Warn("asking what the server holds failed", "server", c.s.label, "tool", p.Tool, "err", err)
			return // the state stays "fetched"
		}
		want := make([]string, len(set.roots))
		for i, r := range set.roots {
			if p.ByPath {
				want[i] = r.Path
			} else {
				want[i] = r.URI
			}
		}
		got := p.Parse(text)
		diff = DescribeDiff(want, got)
		if c.s.h.served.Load().version != set.version {
			continue // the set changed while we asked: ask again
		}
		if diff == "" {
			uris := make([]string, len(set.roots))
			for i, r := range set.roots {
				uris[i] = r.URI
			}
			c.report(Event{Server: c.s.label, Kind: Verified, URIs: uris})
			return
		}
	}
	c.s.h.logger.Warn("server holds something else", "server", c.s.label, "diff", diff)
	c.report(Event{Server: c.s.label, Kind: Mismatch, Text: diff})
}

// DescribeDiff says what got holds that want does not, and the reverse, or
// "" when they are the same set.
func DescribeDiff(want, got []string) string {
	extra, missing := DiffSets(want, got)
	var parts []string
	if len(extra) > 0 {
		parts = append(parts, "holds "+strings.Join(extra, ", ")+" beyond the consent")
	}
	if len(missing) > 0 {
		parts = append(parts, "lacks "+strings.Join(missing, ", "))
	}
	return strings.Join(parts, "; ")
}

// DiffSets is what got holds that want does not (extra) and the reverse
// (missing), each shown as a path when it is a file URI.
func DiffSets(want, got []string) (extra, missing []string) {
	for _, g := range got {
		if !slices.Contains(want, g) {
			extra = append(extra, pathOf(g))
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			missing = append(missing, pathOf(w))
		}
	}
	return extra, missing
}

// pathOf shows a URI as its path when it is a file URI.
func pathOf(s string) string {
	if p, err := consent.URIToPath(s); err == nil {
		return p
	}
	return s
}
