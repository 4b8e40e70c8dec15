package launch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/panics"
	"github.com/rootpick/rootpick/internal/redact"
)

// CommandLabel names a server command: "server-filesystem" for npx -y
// @modelcontextprotocol/server-filesystem, the command a shell string or
// env(1) runs last, else the program. A label is shown and logged: an
// argument it is made of may hold a secret (a token in a URL, an
// --api-key value), so it is hidden (redact.Text).
func CommandLabel(command []string) string { return redact.Text(commandLabel(command)) }

// commandLabel is CommandLabel before secrets are hidden.
func commandLabel(command []string) string {
	if filepath.Base(command[0]) == EnvProgram {
		if rest := EnvCommand(command[1:]); len(rest) > 0 {
			return commandLabel(rest)
		}
	}
	// "sh -c 'source ~/.nvm/nvm.sh && exec npx -y pkg'" → "pkg": the
	// server is what the string runs last, not the shell.
	if slices.Contains(shells, filepath.Base(command[0])) {
		if src, ok := shellCommand(command[1:]); ok {
			if words := lastShellCall(src); len(words) > 0 {
				return commandLabel(words)
			}
		}
	}
	// "npx -y @scope/server-x /tmp" → "server-x": the package says more
	// than the launcher does; so does "node …/node_modules/@scope/pkg/
	// dist/index.js" → "pkg", or "node ~/src/memory/dist/index.js" →
	// "memory".
	for _, a := range command[1:] {
		if !strings.HasPrefix(a, "-") {
			if pkg := scriptPackage(a); pkg != "" {
				return pkg
			}
			if b := filepath.Base(a); strings.Contains(a, "@") || strings.HasPrefix(b, "server") || strings.HasPrefix(b, "mcp") {
				return b
			}
			break
		}
	}
	return filepath.Base(command[0])
}

// scriptPackage names the package a script path belongs to: the package
// after the last node_modules (its name without the scope), or, for a
// script called index, main or cli, the nearest folder that is not a build
// folder (dist, build, lib, src, bin, out, esm, cjs). "" when neither.
func scriptPackage(path string) string {
	path = strings.ReplaceAll(path, `\`, "/")
	if _, rest, ok := cutLast(path, "/node_modules/"); ok {
		parts := strings.Split(rest, "/")
		if strings.HasPrefix(parts[0], "@") && len(parts) > 1 && parts[1] != "" {
			return parts[1]
		}
		if parts[0] != "" {
			return parts[0]
		}
	}
	parts := strings.Split(path, "/")
	if len(parts) < 2 {
		return ""
	}
	base := parts[len(parts)-1]
	stem, _, _ := strings.Cut(base, ".")
	if stem != "index" && stem != "main" && stem != "cli" {
		return ""
	}
	for i := len(parts) - 2; i >= 0; i-- {
		switch parts[i] {
		case "dist", "build", "lib", "src", "bin", "out", "esm", "cjs", ".", "":
			continue
		case "..", "~":
			return ""
		}
		return parts[i]
	}
	return ""
}

// cutLast is strings.Cut at the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// EnvCommand returns the command that env(1) would run given args: its
// options (-i, -u NAME, -C DIR, -S 'CMD ARGS', ...) and NAME=VALUE
// assignments are skipped. It returns nil when env would only print the
// environment.
func EnvCommand(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args[i+1:]
		case a == "-S" || a == "--split-string":
			if i+1 < len(args) {
				return append(strings.Fields(args[i+1]), args[i+2:]...)
			}
			return nil
		case strings.HasPrefix(a, "--split-string="):
			return append(strings.Fields(strings.TrimPrefix(a, "--split-string=")), args[i+1:]...)
		case strings.HasPrefix(a, "-S"):
			return append(strings.Fields(a[2:]), args[i+1:]...)
		case a == "-u" || a == "-C" || a == "-P" || a == "--unset" || a == "--chdir":
			i++ // the option's argument
		case strings.HasPrefix(a, "-") && a != "-":
			// -i, -0, -v, --ignore-environment, -uNAME, --unset=NAME, ...
		case a == "-" || strings.Contains(a, "="):
			// "-" is -i; NAME=VALUE sets a variable
		default:
			return args[i:]
		}
	}
	return nil
}

// stdioTerminate is how long a stdio server gets to exit after its stdin is
// closed before it is signalled.
const stdioTerminate = time.Second

// ServerAccess is what a stdio server may open besides its runtime, and
// whether the kernel is to enforce it: consented are the folders shared
// read and write, readOnly those shared read-only.
type ServerAccess struct {
	Enforce                                                 Enforce
	Consented, ReadOnly, AllowRead, AllowWrite, AllowSocket []string
	Network                                                 Network
	// Outlive, when not 0, lets the server's process (its guard) outlive
	// rootpick killed with SIGKILL, for that long at most: for a
	// launcher's first start, whose install must not be cut short
	// (proxy_install.go, outlive_linux.go).
	Outlive time.Duration
}

// Process starts a stdio server in its own process group, so that
// the terminal's signals do not reach it and shutdown can end its
// descendants too (npx starts node). Its stdin, stdout and stderr are OS
// pipes, stderr read line by line: the child never inherits the terminal,
// and waiting for the child does not wait for a grandchild that keeps one
// of them open. It does what the SDK's CommandTransport does, except
// that closing the connection never signals the process (stop ends it,
// guard first: see endGuard), and it learns how the process ended as
// soon as the process (or its guard) says so.
type Process struct {
	cmd     *exec.Cmd
	stderrW *os.File
	// program is the command's program as written, path where it was
	// found: a failure to start it names them, not the guard.
	program, path string
	report        *guardReport // nil without a guard
	// Enforcement says whether the kernel enforces what the server may
	// open; tmp is its private temporary folder then, removed once the
	// server's processes have ended.
	Enforcement Enforcement
	tmp         string

	mu      sync.Mutex
	tag     string // in the environment of the server and its descendants
	pid     int
	stamp   uint64 // tells pid apart from a later process reusing it
	stopped bool
	// starting is set while Connect starts the process, which hands
	// stderrW to it: stop leaves stderrW to Connect then, since closing a
	// file while exec passes it on races (its descriptor could even be
	// reused for another file before the child gets it).
	starting bool
	// signalled is set once stop has begun to end the process: an end
	// that comes after is rootpick's doing, not the server's.
	signalled bool
	ended     sync.Once // the tree is ended once; every stop waits for it
	exit      processExit
	exitSet   bool
	exitKnown chan struct{} // closed once exit is set
	Waited    chan struct{} // closed once the process has been waited for
	// abandoned is closed by abandon: closing the connection then waits
	// for nothing.
	abandoned   chan struct{}
	abandonOnce sync.Once
}

// How long a server's processes get to exit after SIGTERM before SIGKILL,
// and how long SIGKILL is given to take effect.
const (
	termGrace = time.Second
	killGrace = time.Second
)

// guardGrace is how long rootpick waits for a guard it sent SIGTERM to
// end its server's tree and exit (Linux), before it kills the tree
// itself: the guard gives the tree termGrace after SIGTERM, then kills
// what is left; the rest is room for a loaded machine.
const guardGrace = termGrace + killGrace + 3*time.Second

// Stderr logging limits, per server: a burst, then a steady rate (see
// logBudget). The Stderr events are not limited by this, the event queue
// bounds them.
const (
	stderrLogBurst     = 200
	stderrLogPerSecond = 20
)

// tagPrefix starts the name of every server tag (see serverTag).
const tagPrefix = "ROOTPICK_SERVER_"

// tagRandomBytes is how much randomness names one server's tag: 128 bits,
// so that no process carries it by chance (an inherited or copied
// environment, another rootpick) and none can have guessed it.
const tagRandomBytes = 16

// minTagLen is the least length of a tag: "ROOTPICK_SERVER_", 32 hex digits
// (128 bits) and "=1". A shorter tag (an empty one, a slip) is refused
// where it is made and where it is matched, because ending a server also
// signals every process whose environment holds its tag: a tag that many
// processes hold would end them all. It is written out rather than derived
// from tagRandomBytes, so that lowering that makes serverTag fail.
const minTagLen = len(tagPrefix) + 32 + len("=1")

// serverTag returns an environment entry unique to one server
// ("ROOTPICK_SERVER_<32 hex digits>=1", random). Descendants inherit it, so
// that ending the server finds them even after they were orphaned. Each
// server has its own variable name, not its own value, so that a rootpick
// started by a server (a nested one) keeps the outer tags: exec keeps only
// the last value of a name.
func serverTag() (string, error) {
	b := make([]byte, tagRandomBytes)
	_, _ = rand.Read(b) // it does not fail: since Go 1.24 a broken source crashes the program
	tag := tagPrefix + hex.EncodeToString(b) + "=1"
	if !validTag(tag) {
		return "", fmt.Errorf("launch: server tag %q is shorter than %d bytes", tag, minTagLen)
	}
	return tag, nil
}

// validTag reports whether tag is long enough and has the prefix of the
// tags serverTag makes; a process's environment is matched only against
// such a tag. The prefix keeps a long but common entry (PATH=...) from
// being taken for a tag.
func validTag(tag string) bool {
	return len(tag) >= minTagLen && strings.HasPrefix(tag, tagPrefix)
}

// enforcedStart prepares an enforced start of command: its private
// temporary folder (TMPDIR; /tmp is shared with every other program of
// the person's), the environment that goes with its access (env, the
// start's), and the policy its guard applies, with the launchers' caches
// it will need made.
func enforcedStart(command, env []string, access ServerAccess, logger *slog.Logger) ([]string, string, *Policy, error) {
	tmp, err := newServerTmp()
	if err != nil {
		return nil, "", nil, fmt.Errorf("launch: the server's temporary folder: %w", err)
	}
	env = append(env, "TMPDIR="+tmp)
	if access.Network.Off() {
		// A launcher that checks its registry on each start (npx -y
		// revalidates a cached package) would wait on a network it
		// cannot reach, retrying for a minute, and the host give up:
		// told to stay offline it runs from its cache at once, or fails
		// at once saying the package is not cached.
		env = append(env, offlineEnv...)
	}
	p := BuildPolicy(PolicyInput{Command: command, Env: env, Consented: access.Consented, ReadOnly: access.ReadOnly,
		AllowRead: access.AllowRead, AllowWrite: access.AllowWrite, AllowSocket: access.AllowSocket, NoNetwork: access.Network.Off(), TmpDir: tmp})
	makeCreates(p)
	for _, r := range p.Refused {
		// What its environment or command asked and did not get: the
		// likely reason if it fails.
		logger.Warn("not granted", "var", r.Var, "value", r.Value, "why", r.Why)
	}
	return env, tmp, &p, nil
}

// StderrFunc receives a line a server wrote on stderr, and the path the
// line says enforcement refused it (nil for most lines).
type StderrFunc func(line string, refused *Refusal)

// NewProcess prepares command as a stdio server with access: its tag,
// whether it is enforced (and so its policy, its private TMPDIR and its
// guard), and onStderr for its stderr lines. Nothing runs until the
// returned Process's Connect starts it; Stop ends it with all it started.
func NewProcess(command []string, access ServerAccess, logger *slog.Logger, onStderr StderrFunc) (*Process, error) {
	tag, err := serverTag()
	if err != nil {
		return nil, err
	}
	abi, advisory, err := decideEnforcement(access.Enforce, command[0])
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), tag)
	enforcement := Enforcement{Advisory: advisory}
	var policy *Policy
	tmp := ""
	if abi > 0 {
		if env, tmp, policy, err = enforcedStart(command, env, access, logger); err != nil {
			return nil, err
		}
		enforcement = Enforcement{Enforced: true, ABI: abi, Policy: policy}
		logger.Info("enforced", "landlock_abi", abi, "paths", len(policy.Paths))
	} else {
		logger.Info("advisory: the kernel does not enforce what the server may open", "why", advisory)
	}
	r, w, err := os.Pipe()
	if err != nil {
		removeTmp(tmp)
		return nil, err
	}
	cmd := exec.Command(command[0], command[1:]...)
	setProcAttr(cmd)
	path := cmd.Path
	report, err := guard(cmd, policy)
	if err != nil {
		_, _ = r.Close(), w.Close()
		removeTmp(tmp)
		return nil, err
	}
	if access.Outlive > 0 {
		outliveParent(cmd, access.Outlive)
	}
	if policy != nil && report == nil && cmd.Err == nil {
		// decideEnforcement saw a guard; there must be one.
		_, _ = r.Close(), w.Close()
		removeTmp(tmp)
		return nil, errors.New("launch: no guard to enforce the server's ruleset")
	}
	cmd.Env = env
	cmd.Stderr = w
	go func() {
		defer panics.Guard()
		defer r.Close()
		budget := newLogBudget(stderrLogBurst, stderrLogPerSecond)
		readLines(r, maxStderrLine, func(line string) {
			if ok, skipped := budget.take(time.Now()); ok {
				if skipped > 0 {
					logger.Warn("stderr lines not logged: the server writes too fast", "lines", skipped)
				}
				logger.Info("stderr", "line", line)
			}
			var refused *Refusal
			if policy != nil {
				if r, ok := policy.Refusal(line); ok {
					// Most likely the kernel's ruleset: said once a line.
					logger.Warn("refused by enforcement?", "path", r.Path, "need", r.Need.String())
					refused = &r
				}
			}
			onStderr(line, refused)
		})
		if budget.skipped > 0 {
			logger.Warn("stderr lines not logged: the server writes too fast", "lines", budget.skipped)
		}
	}()
	t := &Process{cmd: cmd, stderrW: w, tag: tag,
		program: command[0], path: path, report: report, Enforcement: enforcement, tmp: tmp,
		exitKnown: make(chan struct{}), Waited: make(chan struct{}), abandoned: make(chan struct{})}
	report.whenServerEnds(func(end string) { t.noteExit(end, true) })
	return t, nil
}

// Connect starts the process; the SDK then speaks MCP over its stdin/stdout.
func (t *Process) Connect(ctx context.Context) (mcp.Connection, error) {
	t.mu.Lock()
	if t.stopped {
		t.mu.Unlock()
		return nil, errors.New("launch: stopped before starting")
	}
	t.starting = true
	t.mu.Unlock()
	conn, err := t.start(ctx)
	_ = t.stderrW.Close() // the child holds its own copy
	t.report.afterStart(err == nil)
	t.mu.Lock()
	t.starting = false
	if err == nil {
		t.pid = t.cmd.Process.Pid
		t.stamp = startStamp(t.pid)
	}
	stopped := t.stopped
	t.mu.Unlock()
	if err != nil {
		t.noteExit("", false)     // nothing ran
		if t.cmd.Process == nil { // it did not start
			return nil, startFailure(t.program, t.path, err)
		}
		return nil, err
	}
	if stopped {
		t.Abandon() // being stopped: its close need not wait for it
		_ = conn.Close()
		t.Stop()
		return nil, errors.New("launch: stopped while starting")
	}
	return conn, nil
}

// start starts the process with its stdin and stdout on pipes of its own,
// and a waiter that records how it ended.
func (t *Process) start(ctx context.Context) (mcp.Connection, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		_, _ = inR.Close(), inW.Close()
		return nil, err
	}
	t.cmd.Stdin, t.cmd.Stdout = inR, outW
	err = t.cmd.Start()
	_, _ = inR.Close(), outW.Close() // the child holds its own copies
	if err != nil {
		_, _ = inW.Close(), outR.Close()
		return nil, err
	}
	go func() {
		defer panics.Guard()
		t.wait()
	}()
	// The connection closes its input only (the reader is left open, so
	// that the server's last words are still read); the output's end is
	// closed once the connection is closed and the process waited for.
	in := &serverInput{t: t, w: inW, out: outR}
	return (&mcp.IOTransport{Reader: io.NopCloser(outR), Writer: in}).Connect(ctx)
}

// wait waits for the process and records how it ended (noteExit), unless
// its guard said so first.
func (t *Process) wait() {
	err := t.cmd.Wait()
	close(t.Waited)
	if t.report != nil {
		// The server's own end, if it had one, is in the guard's report,
		// whole once the guard has exited; else the guard was told to end
		// it (or was killed): not the server's doing.
		if end := t.report.serverEnd(exitWait); end != "" {
			t.noteExit(end, true)
		}
		t.noteExit(exitReason(err), false)
		return
	}
	t.mu.Lock()
	self := !t.signalled
	t.mu.Unlock()
	reason := exitReason(err)
	t.noteExit(reason, self && reason != "")
}

// noteExit records how the process ended, the first time it is called,
// and whether that end was its own (not rootpick's stopping it).
func (t *Process) noteExit(reason string, self bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.exitSet {
		return
	}
	t.exitSet = true
	t.exit = processExit{reason: reason, self: self}
	close(t.exitKnown)
}

// exitWait bounds the wait for how a process ended, once it has been
// stopped (it is gone then, and only the goroutines that learn its
// status have to run): a catch-all for a hang, far above what a loaded
// machine needs.
const exitWait = 5 * time.Second

// GuardStartFailure says why the guard could not start the program, once
// the handshake has failed (the guard then exits with status 127): a
// finalError, or nil when it did start it or there is no guard. Nothing
// waits for the guard's word while all goes well.
func (t *Process) GuardStartFailure() error {
	serr := t.report.startError(exitWait)
	if serr == nil {
		return nil
	}
	var le landlockError
	if errors.As(serr, &le) {
		reason := "not started: its Landlock ruleset could not be applied"
		return &FinalError{msg: t.program + ": " + reason + ": " + le.Error(), Reason: reason, err: serr}
	}
	return startFailure(t.program, t.path, &os.PathError{Op: "fork/exec", Path: t.path, Err: serr})
}

// Exited says how the process ended, and whether it ended on its own. It
// waits (up to exitWait) until that is known: call it once the process
// has been stopped, so that the answer does not depend on how loaded the
// machine is.
func (t *Process) Exited() (string, bool) {
	select {
	case <-t.exitKnown:
	case <-time.After(exitWait):
		return "", false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.exit.reason, t.exit.self && t.exit.reason != ""
}

// Stop ends the server and all its descendants, if the process was started;
// it is safe to call at any time, from any goroutine, any number of times.
func (t *Process) Stop() {
	t.mu.Lock()
	t.stopped = true
	pid, stamp, tag, starting := t.pid, t.stamp, t.tag, t.starting
	if pid != 0 {
		t.signalled = true
	}
	t.mu.Unlock()
	if !starting { // else Connect closes it, sees stopped and calls stop again
		_ = t.stderrW.Close() // if the process never started, the reader ends too
		if pid == 0 {
			t.report.afterStart(false) // the guard's pipe, if Connect never ran
		}
	}
	if pid != 0 {
		// Concurrent callers (the session's end and Hub.Close) all return
		// only once the tree is gone, so rootpick cannot exit first.
		t.ended.Do(func() {
			if t.report != nil {
				// The guard ends the tree (and stays its subreaper
				// until it has); what is left (a guard that did not
				// exit, a process outside its tree that carries the
				// tag) is ended here.
				endGuard(pid, stamp, guardGrace)
			}
			endTree(pid, stamp, tag, termGrace, killGrace)
			removeTmp(t.tmp)
		})
	} else if !starting {
		t.ended.Do(func() { removeTmp(t.tmp) }) // it never started
		t.noteExit("", false)
	}
}

// Abandon makes closing the connection return at once, without waiting
// for the process to exit: it is about to be stopped, and how it ended
// will not be asked.
func (t *Process) Abandon() {
	t.abandonOnce.Do(func() { close(t.abandoned) })
}

// serverInput is the server's stdin as the connection writes it. Closing
// it is the polite end of a stdio server (the MCP spec's first step): the
// server reads the end of its input and exits. Close waits up to
// stdioTerminate for that, so that a server that exits is reported by its
// status, but it never signals the process: stop does, after.
type serverInput struct {
	t    *Process
	w    *os.File
	out  *os.File // the server's stdout, read end
	once sync.Once
	err  error
}

func (in *serverInput) Write(p []byte) (int, error) { return in.w.Write(p) }

func (in *serverInput) Close() error {
	in.once.Do(func() {
		in.err = in.w.Close()
		select {
		case <-in.t.exitKnown:
		case <-in.t.abandoned:
		case <-time.After(stdioTerminate):
		}
		go func() {
			defer panics.Guard()
			<-in.t.Waited
			_ = in.out.Close()
		}()
	})
	return in.err
}

// RootsPlaceholder in a server command's arguments expands to the
// consented paths, one argument each (ExpandRoots), for servers that take
// folders as arguments instead of asking roots/list. Such a server is
// restarted on every change.
const RootsPlaceholder = "{roots}"

// ExpandRoots replaces each RootsPlaceholder argument of command by the
// roots' paths.
func ExpandRoots(command []string, roots []consent.Root) []string {
	var out []string
	for _, a := range command {
		if a != RootsPlaceholder {
			out = append(out, a)
			continue
		}
		for _, r := range roots {
			out = append(out, r.Path)
		}
	}
	return out
}

// SplitConsented splits the consented roots into the folders a server
// may read and write and those it may only read (ServerAccess's
// Consented and ReadOnly, PolicyInput's): a root shared read-only
// (consent.Root.ReadOnly) is read-only, and so is every root when the
// server is capped to reading.
func SplitConsented(consented []consent.Root, capped bool) (readWrite, readOnly []string) {
	for _, r := range consented {
		if ReadOnlyFor(r, capped) {
			readOnly = append(readOnly, r.Path)
		} else {
			readWrite = append(readWrite, r.Path)
		}
	}
	return readWrite, readOnly
}

// ReadOnlyFor reports whether root r is read-only for a server: shared
// read-only, or the server is capped to reading.
func ReadOnlyFor(r consent.Root, capped bool) bool { return r.ReadOnly || capped }
