// Package testskip lets a test skip for a missing tool without the skip
// passing unseen. `go test ./...` shows nothing of a package that passes,
// so a fresh clone without tmux or the npm servers would look all green
// while whole groups of tests never ran. A test skips through Skip, naming
// its group and what to install; the package's TestMain ends with Exit,
// which writes one line per package naming the groups skipped and why — to
// the terminal (/dev/tty), which go test does not capture — and, under
// ROOTPICK_TEST_STRICT=1 (set by .ci/run), fails the package when a group
// it does not allow was skipped.
//
// It has its own folder because four packages' tests share it and none of
// them may import another's tests.
package testskip

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Groups and the reason each was skipped, in the order first seen.
var (
	mu      sync.Mutex
	order   []string
	reasons = map[string]string{}
	counts  = map[string]int{}
)

// Skip records that t skips as part of group, because of reason (which
// should say what to install), and skips t.
func Skip(t testing.TB, group, reason string) {
	t.Helper()
	mu.Lock()
	if _, ok := reasons[group]; !ok {
		order = append(order, group)
		reasons[group] = reason
	}
	counts[group]++
	mu.Unlock()
	t.Skip(group + ": " + reason)
}

// Summary is the line Exit writes for package pkg, "" when nothing was
// skipped.
func Summary(pkg string) string {
	mu.Lock()
	defer mu.Unlock()
	if len(order) == 0 {
		return ""
	}
	var parts []string
	n := 0
	for _, g := range order {
		parts = append(parts, fmt.Sprintf("%s ×%d (%s)", g, counts[g], reasons[g]))
		n += counts[g]
	}
	return fmt.Sprintf("%s: %d tests skipped: %s\n", pkg, n, strings.Join(parts, "; "))
}

// Exit reports the skipped groups of package pkg and exits with code, or
// with 1 under ROOTPICK_TEST_STRICT=1 when a group not in allowed was
// skipped. The report goes to the terminal, to stderr, and, when
// ROOTPICK_SKIP_LOG names a file, appended to it: go test shows nothing
// of a package that passes, so a run logged without a terminal (CI) would
// not say what it skipped; .ci/run prints that file after the tests.
func Exit(pkg string, code int, allowed ...string) {
	var outs []io.Writer
	if t := tty(); t != nil {
		outs = append(outs, t)
	}
	var log *os.File
	if name := os.Getenv(SkipLogEnv); name != "" {
		if f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err == nil {
			log = f // one write a line: parallel packages' lines do not mix
			outs = append(outs, f)
		}
	}
	var w io.Writer
	if len(outs) > 0 {
		w = io.MultiWriter(outs...)
	}
	code = report(pkg, code, os.Getenv("ROOTPICK_TEST_STRICT") == "1", w, os.Stderr, allowed)
	if log != nil {
		log.Close()
	}
	os.Exit(code)
}

// SkipLogEnv names the file Exit appends each package's skip summary to
// (one line per package that skipped something), for a run whose output
// is logged: .ci/run sets it and prints the file.
const SkipLogEnv = "ROOTPICK_SKIP_LOG"

func report(pkg string, code int, strict bool, tty, stderr io.Writer, allowed []string) int {
	line := Summary(pkg)
	if line == "" {
		return code
	}
	if tty != nil {
		fmt.Fprint(tty, line)
	}
	fmt.Fprint(stderr, line) // seen with -v, and when the package fails
	if strict {
		mu.Lock()
		defer mu.Unlock()
		for _, g := range order {
			if !slices.Contains(allowed, g) {
				fmt.Fprintf(stderr, "%s: ROOTPICK_TEST_STRICT=1: group %q was skipped (%s)\n", pkg, g, reasons[g])
				return 1
			}
		}
	}
	return code
}

// tty is the terminal go test runs in, or nil.
func tty() io.Writer {
	f, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return nil
	}
	return f
}

// AsNobodyEnv names the file where SkipAsRoot lists the tests it skipped,
// one "PACKAGE-FOLDER<TAB>TEST-NAME" line each; .ci/run sets it, then
// reruns exactly those tests as an unprivileged user, so that a new
// permission test cannot be left out of that rerun.
const AsNobodyEnv = "ROOTPICK_AS_NOBODY_LIST"

// SkipAsRoot skips t when the tests run as root, whom file permissions do
// not stop, and lists it for the rerun as nobody (see AsNobodyEnv).
// Otherwise it returns and t goes on.
func SkipAsRoot(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	if list := os.Getenv(AsNobodyEnv); list != "" {
		wd, err := os.Getwd()
		if err != nil {
			t.Fatalf("listing %s for the rerun as nobody: %v", t.Name(), err)
		}
		f, err := os.OpenFile(list, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatalf("listing %s for the rerun as nobody: %v", t.Name(), err)
		}
		_, err = f.WriteString(wd + "\t" + t.Name() + "\n") // one write: lines of parallel tests do not mix
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatalf("listing %s for the rerun as nobody: %v", t.Name(), err)
		}
	}
	Skip(t, "as root", "permissions do not stop root; .ci/run reruns them as nobody")
}

// NpmRegistry skips t (group "npm registry") unless npm's registry
// (npm_config_registry, else registry.npmjs.org) answers on its port
// within 5 s: a cold npx start downloads from it.
func NpmRegistry(t testing.TB) {
	t.Helper()
	registry := os.Getenv("npm_config_registry")
	if registry == "" {
		registry = "https://registry.npmjs.org/"
	}
	u, err := url.Parse(registry)
	if err != nil || u.Hostname() == "" {
		Skip(t, "npm registry", fmt.Sprintf("npm_config_registry %q: cannot tell where the registry is", registry))
		return
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80"}[u.Scheme]
		if port == "" {
			port = "443"
		}
	}
	c, err := net.DialTimeout("tcp", net.JoinHostPort(u.Hostname(), port), 5*time.Second)
	if err != nil {
		Skip(t, "npm registry", "the npm registry is unreachable ("+err.Error()+"): a cold npx start needs it")
		return
	}
	c.Close()
}
