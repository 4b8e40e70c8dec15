package redact

import (
	"slices"
	"strings"
)

// span is a range [start, end) of a text to hide.
type span struct{ start, end int }

// spans collects what the detectors find in one text. Every detector reads
// the original text and adds ranges; apply hides their union. So no
// detector can hide another's clue (a flag's name, a setting's key)
// before that one has looked, and the order they run in does not matter.
type spans []span

func (ss *spans) add(start, end int) {
	if end > start {
		*ss = append(*ss, span{start, end})
	}
}

// apply returns s with each range of ss (overlapping or touching ranges
// merged) replaced by Marker. A line end inside a range stays: each line's
// part of it becomes Marker, so that redaction never changes the number
// of lines.
func (ss spans) apply(s string) string {
	if len(ss) == 0 {
		return s
	}
	slices.SortFunc(ss, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	last := 0
	for i := 0; i < len(ss); {
		start, end := ss[i].start, ss[i].end
		for i++; i < len(ss) && ss[i].start <= end; i++ {
			end = max(end, ss[i].end)
		}
		b.WriteString(s[last:start])
		for k, piece := range strings.Split(s[start:end], "\n") {
			if k > 0 {
				b.WriteByte('\n')
			}
			// A line's \r stays with its line end.
			body, cr := strings.CutSuffix(piece, "\r")
			if body != "" {
				b.WriteString(Marker)
			}
			if cr {
				b.WriteByte('\r')
			}
		}
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}
