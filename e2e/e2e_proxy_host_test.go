package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rootpick/rootpick/mcpconn/proxy"
)

// TestE2EProxyRefusesBadHostLines: the built binary's proxy, in front of
// serve-demo, is fed lines a host may get wrong — not JSON, an object as
// id, an empty array, a line over proxy.MaxHostLine — and answers each
// with its JSON-RPC error on stdout, answers the ping after them through
// the server, logs what it refused without the lines themselves, and ends
// with exit 0 when stdin closes.
func TestE2EProxyRefusesBadHostLines(t *testing.T) {
	bin := rootpickBin(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	logFile := filepath.Join(t.TempDir(), "proxy.log")
	cmd := exec.Command(bin, "proxy", "--log", logFile, "--", bin, "serve-demo")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan []byte, 16)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- bytes.Clone(sc.Bytes())
		}
	}()
	// drain reads what the test no longer will, so the scanner reaches EOF.
	drain := sync.OnceFunc(func() {
		go func() {
			for range lines {
			}
		}()
	})
	// Wait closes stdout: it may run only once everything was read.
	exited := make(chan error, 1)
	go func() {
		<-scanned
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		drain()
		_ = stdin.Close()
		select {
		case err := <-exited:
			if err != nil {
				t.Logf("the proxy ended: %v", err)
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("the proxy was still running 10 s after its stdin closed")
		}
	})
	type answer struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Method string `json:"method"`
	}
	// until returns the answers the proxy wrote before the one with id.
	until := func(id string) []answer {
		t.Helper()
		var before []answer
		deadline := time.After(20 * time.Second)
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("stdout ended before the answer to %s; stderr:\n%s", id, stderr.String())
				}
				var a answer
				if err := json.Unmarshal(line, &a); err != nil {
					t.Fatalf("the proxy wrote a line that is not JSON: %.200q", line)
				}
				switch {
				case a.Method != "":
				case string(a.ID) == id:
					if a.Error != nil {
						t.Fatalf("%s answered with an error: %s", id, line)
					}
					return before
				default:
					before = append(before, a)
				}
			case <-deadline:
				t.Fatalf("no answer to %s within 20 s; before it %v", id, before)
			}
		}
	}
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(stdin, s); err != nil {
			t.Fatalf("writing to the proxy (did it exit?): %v; stderr:\n%s", err, stderr.String())
		}
	}

	send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e-host","version":"1"}}}` + "\n")
	until(`"init"`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	pad := strings.Repeat("a", proxy.MaxHostLine)
	send("hello\n")
	send(`{"jsonrpc":"2.0","id":{},"method":"ping"}` + "\n")
	send("[]\n")
	send(`{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"` + pad + `"}}` + "\n")
	send(`{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\r\n")
	var codes []int64
	for _, a := range until("2") {
		if a.Error == nil || string(a.ID) != "null" {
			t.Errorf("before the ping's answer: %+v, want errors with id null", a)
			continue
		}
		codes = append(codes, a.Error.Code)
		if a.Error.Code == -32600 && strings.Contains(a.Error.Message, "too large") {
			t.Logf("the long line: %s", a.Error.Message)
		}
	}
	if want := []int64{-32700, -32600, -32600, -32600}; !slices.Equal(codes, want) {
		t.Errorf("error codes %v, want %v", codes, want)
	}

	drain()
	_ = stdin.Close() // the host goes away
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("the proxy ended with %v, want exit 0; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the proxy did not end within 10 s of its stdin closing")
	}
	exited <- nil // for the clean-up
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(log, []byte("refused a message from the host")); n != 4 {
		t.Errorf("the log records %d refusals, want 4:\n%s", n, log)
	}
	if len(log) > 64<<10 || bytes.Contains(log, []byte(pad[:200])) {
		t.Errorf("the log (%d bytes) holds a refused line", len(log))
	}
}
