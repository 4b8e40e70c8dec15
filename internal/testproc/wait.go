package testproc

import (
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// The waits and folders the tests of mcpconn and mcpconn/launch share.

// WaitFor polls cond every 5 ms until it holds, and fails t after 30 s.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	WaitWithin(t, 30*time.Second, what, cond)
}

// WaitWithin is WaitFor with its own deadline, for a wait whose bound is
// checked afterwards and may exceed WaitFor's (under -race).
func WaitWithin(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TempDir is one temporary folder per test, symlinks resolved.
func TempDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Must fails t at once if err is not nil.
func Must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Trials runs trial(i) for each i below trials, atOnce at a time, and
// returns what the trials returned that is not "" (a survivor, say).
func Trials(trials, atOnce int, trial func(i int) string) []string {
	var mu sync.Mutex
	var out []string
	var wg sync.WaitGroup
	sem := make(chan struct{}, atOnce)
	for i := range trials {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if s := trial(i); s != "" {
				mu.Lock()
				out = append(out, s)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out
}
