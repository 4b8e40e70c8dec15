package mcpconn

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Spec says how to reach one server. Exactly one of Command, URL and Demo is
// set.
type Spec struct {
	// Name labels the server in events and the UI; "" derives one.
	Name string
	// Command is a stdio server: the program and its arguments.
	Command []string
	// URL is a Streamable HTTP endpoint.
	URL string
	// Demo is the built-in server, run in this process.
	Demo *Demo
}

// Label is the name used for the server before it has told its own.
func (s Spec) Label() string {
	switch {
	case s.Name != "":
		return s.Name
	case s.Demo != nil:
		return "demo"
	case s.URL != "":
		return redactURL(s.URL)
	case len(s.Command) > 0:
		// "npx -y @scope/server-x /tmp" → "server-x": the package says more
		// than the launcher does.
		for _, a := range s.Command[1:] {
			if !strings.HasPrefix(a, "-") {
				if b := filepath.Base(a); strings.Contains(a, "@") || strings.HasPrefix(b, "server") || strings.HasPrefix(b, "mcp") {
					return b
				}
				break
			}
		}
		return filepath.Base(s.Command[0])
	}
	return "server"
}

// stdioTerminate is how long a stdio server gets to exit after its stdin is
// closed before it is signalled.
const stdioTerminate = time.Second

// transport builds the transport for spec and a stop function that ends what
// it started. onStderr receives the server's stderr, line by line.
func (s Spec) transport(ctx context.Context, logger *slog.Logger, onStderr func(string)) (mcp.Transport, func(), error) {
	switch {
	case s.Demo != nil:
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.Demo.Server().Connect(ctx, st, nil)
		if err != nil {
			return nil, nil, err
		}
		return ct, func() { _ = ss.Close() }, nil
	case s.URL != "":
		return &mcp.StreamableClientTransport{Endpoint: s.URL}, func() {}, nil
	case len(s.Command) > 0:
		t, err := newProcessTransport(s.Command, logger, onStderr)
		if err != nil {
			return nil, nil, err
		}
		return t, t.stop, nil
	}
	return nil, nil, errors.New("mcpconn: empty server spec")
}

// processTransport starts a stdio server in its own process group, so that
// the terminal's signals do not reach it and shutdown can end its
// grandchildren too (npx starts node). Its stderr is an OS pipe read line by
// line: the child never inherits the terminal, and waiting for the child
// does not wait for a grandchild that keeps stderr open.
type processTransport struct {
	inner   *mcp.CommandTransport
	stderrW *os.File

	mu      sync.Mutex
	pid     int
	stopped bool
	ended   sync.Once // the group is ended once; every stop waits for it
}

func newProcessTransport(command []string, logger *slog.Logger, onStderr func(string)) (*processTransport, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = w
	go func() {
		defer r.Close()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			logger.Info("stderr", "line", sc.Text())
			onStderr(sc.Text())
		}
		_, _ = io.Copy(io.Discard, r)
	}()
	return &processTransport{inner: &mcp.CommandTransport{Command: cmd, TerminateDuration: stdioTerminate}, stderrW: w}, nil
}

// Connect starts the process; the SDK then speaks MCP over its stdin/stdout.
func (t *processTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	_ = t.stderrW.Close() // the child holds its own copy
	t.mu.Lock()
	if err == nil {
		t.pid = t.inner.Command.Process.Pid
	}
	stopped := t.stopped
	t.mu.Unlock()
	if err == nil && stopped {
		_ = conn.Close()
		t.stop()
		return nil, errors.New("mcpconn: stopped while starting")
	}
	return conn, err
}

// stop ends the process group, if the process was started; it is safe to
// call at any time, from any goroutine, any number of times.
func (t *processTransport) stop() {
	t.mu.Lock()
	t.stopped = true
	pid := t.pid
	t.mu.Unlock()
	_ = t.stderrW.Close() // if the process never started, the reader ends too
	if pid != 0 {
		// Concurrent callers (the session's end and Hub.Close) all return
		// only once the group is gone, so rootpick cannot exit first.
		t.ended.Do(func() { endGroup(pid) })
	}
}

// endGroup sends SIGTERM to the process group pgid, waits up to a second for
// it to be gone, then sends SIGKILL and waits up to another second.
func endGroup(pgid int) {
	if syscall.Kill(-pgid, syscall.SIGTERM) != nil {
		return // no such group: everything has exited
	}
	if groupGone(pgid, time.Second) {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	groupGone(pgid, time.Second)
}

// groupGone polls until no process is left in group pgid or d has passed.
func groupGone(pgid int, d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !groupAlive(pgid) {
			return true
		}
	}
	return false
}

// groupAlive reports whether a process of group pgid is still running.
// Zombies do not count: they hold no resources, and where the machine's init
// is slow to reap orphans they would otherwise look alive forever. Without
// /proc it falls back to signal 0, which counts zombies too.
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) >= 3 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" && f[0] != "X" {
			return true
		}
	}
	return false
}

// redactURL drops what may be a secret from a URL shown or logged: the user
// information and the query (tokens often travel as ?api_key=...).
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// redactError removes the URL's secrets from an error's text: transport
// errors quote the URL they were given.
func (s Spec) redactError(err error) error {
	if err == nil || s.URL == "" {
		return err
	}
	u, perr := url.Parse(s.URL)
	if perr != nil {
		return errors.New("(error text withheld: it may hold the URL)")
	}
	text := err.Error()
	var secrets []string
	if u.User != nil {
		secrets = append(secrets, u.User.String())
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p)
		}
	}
	if u.RawQuery != "" {
		secrets = append(secrets, u.RawQuery)
		for _, vs := range u.Query() {
			secrets = append(secrets, vs...)
		}
	}
	for _, sec := range secrets {
		if sec != "" {
			text = strings.ReplaceAll(text, sec, "REDACTED")
		}
	}
	return &redactedError{text: text, err: err}
}

// redactedError shows a cleaned text and still unwraps to the cause.
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }
