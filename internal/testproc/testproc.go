// Package testproc holds the process calls that the tests of two packages
// (rootpick's end-to-end tests and mcpconn's) make to start servers in
// their own session or group and to signal them. It has its own folder
// because test files cannot be shared between packages, and each call
// needs one body per system so that the tests type-check for Windows too
// (.ci/typecheck in .ci/run). It also holds Buffer, the goroutine-safe
// sink those tests and the root package's read their processes' output
// from, and LoadScaled, which holds a time bound measured idle in
// proportion on a loaded machine. Only tests import it.
package testproc

import (
	"bytes"
	"os"
	"strings"
	"sync"
)

// NoRaceExitSleep makes the processes a test binary starts from itself
// (fault servers, guards) end as soon as they are done: a binary built
// with -race otherwise sleeps 1 s before it exits (GORACE's
// atexit_sleep_ms), and a test that waits for a server to end waits that
// second too. It sets GORACE for the children only (the test binary read
// its own at start), and keeps what a GORACE already set says. Call it
// first in TestMain.
func NoRaceExitSleep() {
	v := os.Getenv("GORACE")
	if strings.Contains(v, "atexit_sleep_ms=") {
		return
	}
	os.Setenv("GORACE", strings.TrimSpace(v+" atexit_sleep_ms=0"))
}

// Buffer is a goroutine-safe bytes.Buffer for what a test's processes and
// loggers write while the test reads it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
