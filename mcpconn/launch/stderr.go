package launch

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// A server's stderr is outside rootpick's control: a line may be megabytes
// long and lines may come by the million. Everything here is bounded: the
// length of a line kept, the number of lines kept, and the rate at which
// lines are logged. What does not fit is counted and said, never silently
// lost.

// maxStderrLine is the longest stderr line kept, in bytes; the rest of a
// longer line is counted and dropped.
const maxStderrLine = 4 << 10

// readLines reads r line by line until it ends and calls emit with each line
// (without its "\n" or "\r\n"). A line longer than max bytes is cut at max
// (on a UTF-8 boundary) and emitted with a note of how many bytes were
// dropped; reading goes on with the next line. Memory use is bounded by max,
// whatever r holds.
func readLines(r io.Reader, max int, emit func(string)) {
	br := bufio.NewReaderSize(r, max)
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			kept := string(cutUTF8(chunk, max))
			dropped := len(chunk) - len(kept)
			for errors.Is(err, bufio.ErrBufferFull) { // skip the rest of the line
				chunk, err = br.ReadSlice('\n')
				if err == nil {
					chunk = trimEOL(chunk)
				}
				dropped += len(chunk)
			}
			if dropped > 0 {
				kept += " … (" + strconv.Itoa(dropped) + " more bytes dropped)"
			}
			emit(kept)
		} else if len(chunk) > 0 {
			emit(string(trimEOL(chunk)))
		}
		if err != nil {
			return
		}
	}
}

// trimEOL drops a final "\n" or "\r\n".
func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// cutUTF8 returns at most max bytes of b, dropping a UTF-8 sequence left
// incomplete at the end (by the cut or by a full read buffer).
func cutUTF8(b []byte, max int) []byte {
	if len(b) > max {
		b = b[:max]
	}
	// Back off over a sequence the cut left incomplete (at most 3 bytes).
	for i := 1; i <= utf8.UTFMax-1 && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < utf8.RuneSelf {
			break // ASCII: nothing incomplete
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				b = b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// StderrRing keeps the last lines a server wrote on stderr, for the server
// pane and for failure messages. It is safe for concurrent use.
type StderrRing struct {
	mu           sync.Mutex
	lines        []string // circular once full
	next         int      // where the next line goes once full
	maxLineBytes int
	dropped      int
}

// NewStderrRing returns a ring that keeps the last maxLines lines, each cut
// to maxLineBytes bytes (on a UTF-8 boundary, marked with "…").
func NewStderrRing(maxLines, maxLineBytes int) *StderrRing {
	if maxLines < 1 {
		maxLines = 1
	}
	return &StderrRing{lines: make([]string, 0, maxLines), maxLineBytes: maxLineBytes}
}

// Add keeps line, pushing out the oldest line if the ring is full.
func (r *StderrRing) Add(line string) {
	if r.maxLineBytes > 0 && len(line) > r.maxLineBytes {
		line = string(cutUTF8([]byte(line), r.maxLineBytes)) + "…"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.lines) < cap(r.lines) {
		r.lines = append(r.lines, line)
		return
	}
	r.lines[r.next] = line
	r.next = (r.next + 1) % len(r.lines)
	r.dropped++
}

// Tail returns the last n lines kept, oldest first; n <= 0 means all.
func (r *StderrRing) Tail(n int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	all := make([]string, 0, len(r.lines))
	all = append(all, r.lines[r.next:]...)
	all = append(all, r.lines[:r.next]...)
	if n > 0 && n < len(all) {
		all = all[len(all)-n:]
	}
	return all
}

// Dropped returns how many lines were pushed out of the ring.
func (r *StderrRing) Dropped() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// logBudget limits how many stderr lines of one server reach the log: a
// burst of burst lines, then perSecond lines a second. A flooding server
// cannot fill the disk or keep rootpick busy writing, and the log keeps the
// first lines, which usually say what went wrong. Not safe for concurrent
// use: each stderr reader has its own.
type logBudget struct {
	burst, perSecond float64
	tokens           float64
	last             time.Time
	skipped          int // lines not logged since the last one logged
}

func newLogBudget(burst, perSecond int) *logBudget {
	return &logBudget{burst: float64(burst), perSecond: float64(perSecond), tokens: float64(burst)}
}

// take reports whether a line may be logged now and, if so, how many lines
// were skipped before it.
func (b *logBudget) take(now time.Time) (ok bool, skipped int) {
	if !b.last.IsZero() {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.perSecond)
	}
	b.last = now
	if b.tokens < 1 {
		b.skipped++
		return false, 0
	}
	b.tokens--
	skipped, b.skipped = b.skipped, 0
	return true, skipped
}
