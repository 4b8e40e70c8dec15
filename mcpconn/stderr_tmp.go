package mcpconn

import "sync"

// stderrRing keeps the last lines a server wrote on stderr.
type stderrRing struct {
	mu       sync.Mutex
	lines    []string
	max, cut int
	dropped  int
}

func newStderrRing(maxLines, maxLineBytes int) *stderrRing {
	return &stderrRing{max: maxLines, cut: maxLineBytes}
}

func (r *stderrRing) Add(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(line) > r.cut {
		line = line[:r.cut]
	}
	r.lines = append(r.lines, line)
	if len(r.lines) > r.max {
		r.dropped += len(r.lines) - r.max
		r.lines = append(r.lines[:0:0], r.lines[len(r.lines)-r.max:]...)
	}
}

func (r *stderrRing) Tail(n int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	n = min(n, len(r.lines))
	return append([]string(nil), r.lines[len(r.lines)-n:]...)
}
