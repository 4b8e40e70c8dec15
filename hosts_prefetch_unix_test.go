//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/internal/testproc"
)

// TestHostsPrefetchInterrupted: ctrl+c during a fetch lets that fetch
// finish (the launcher is not interrupted), fetches nothing more and
// returns the signal, so that nothing is written; a second ctrl+c stops
// the fetch at once.
func TestHostsPrefetchInterrupted(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	npx := filepath.Join(dir, "npx")
	// "installs" for 1.5 s; a SIGINT to the launcher would end it before
	// it writes done.
	script := "#!/bin/sh\ntrap 'exit 130' INT\necho \"start $2\" >> " + state + "\ni=0\nwhile [ $i -lt 15 ]; do sleep 0.1; i=$((i+1)); done\necho \"done $2\" >> " + state + "\n"
	if err := os.WriteFile(npx, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	plan := func() []*planned {
		a, _ := prefetch.Of([]string{npx, "-y", "a"})
		b, _ := prefetch.Of([]string{npx, "-y", "b"})
		return []*planned{{launches: []launch{{name: "a", launcher: a, dir: dir}, {name: "b", launcher: b, dir: dir}}}}
	}
	read := func() string { b, _ := os.ReadFile(state); return string(b) }
	interrupt := func(times int) (os.Signal, string) {
		t.Helper()
		_ = os.Remove(state)
		var errb testproc.Buffer
		done := make(chan os.Signal, 1)
		go func() {
			done <- hostsChange{wrap: true, prefetch: prefetch.Run}.prefetchAll(&env{stderr: &errb}, plan())
		}()
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(read(), "start"); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the fetch did not start")
			}
		}
		for range times {
			if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			time.Sleep(200 * time.Millisecond)
		}
		return <-done, errb.String()
	}

	sig, text := interrupt(1)
	if sig != os.Interrupt {
		t.Errorf("prefetchAll returned %v; want the interrupt", sig)
	}
	if got := read(); got != "start --package=a\ndone --package=a\n" {
		t.Errorf("the launchers did %q; want a's fetch finished and b's not started", got)
	}
	if !strings.Contains(text, "letting this fetch finish") {
		t.Errorf("stderr:\n%s", text)
	}

	start := time.Now()
	sig, text = interrupt(2)
	if sig != os.Interrupt || strings.Contains(read(), "done") {
		t.Errorf("after two interrupts: %v, the launchers did %q; want a's fetch stopped", sig, read())
	}
	if d := time.Since(start); d > 1400*time.Millisecond {
		t.Errorf("two interrupts took %v to stop the fetch", d)
	}
	if !strings.Contains(text, "stopping the fetch now") {
		t.Errorf("stderr:\n%s", text)
	}
}
