package enforcetest

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/mcpconn/proxy"
	"golang.org/x/sys/unix"
)

// The enforcement of a folder shared read-only: a server that ignores
// roots (snoop) may read and list it and do nothing else there (write,
// create, truncate, rename, remove, chmod, run), launched by the Hub and
// behind proxy.Run; a change of access alone reaches it as a new process
// under the new ruleset; the server cap (Spec.ReadOnly,
// proxy.Options.ReadOnly) makes every consented folder read-only for it.

// probeChanges makes the change attempts of a (see probeArgs), each
// answered in out as the others are.
func probeChanges(a probeArgs, out map[string]string) {
	for _, p := range a.Truncate {
		out["truncate "+p] = errName(unix.Truncate(p, 0))
	}
	for _, p := range a.Mkdir {
		out["mkdir "+p] = errName(unix.Mkdir(p, 0o755))
	}
	for _, p := range a.Rename {
		out["rename "+p] = errName(unix.Rename(p, p+".moved"))
	}
	for _, p := range a.Remove {
		out["remove "+p] = errName(unix.Unlink(p))
	}
	for _, p := range a.Exec {
		out["exec "+p] = errName(exec.Command(p).Run())
	}
}

// readOnlyHome is a snoopHome whose folder a is shared read-only and b
// read and write, with a folder shared read-only inside b (nested), and in
// a and b a script (x) and files to change.
type readOnlyHome struct {
	snoopHome
	nested string
}

func plantReadOnly(t *testing.T) readOnlyHome {
	t.Helper()
	h := readOnlyHome{snoopHome: plantHome(t)}
	h.nested = filepath.Join(h.b, "docs")
	must(t, os.MkdirAll(h.nested, 0o755))
	for _, d := range []string{h.a, h.b} {
		must(t, os.WriteFile(filepath.Join(d, "x"), []byte("#!/bin/sh\nexit 0\n"), 0o755))
		for _, f := range []string{"t", "r", "del"} {
			must(t, os.WriteFile(filepath.Join(d, f), []byte("private"), 0o600))
		}
	}
	return h
}

// consent is the consent with a read-only or not, b read and write and
// nested read-only.
func (h readOnlyHome) consent(t *testing.T, aReadOnly bool) []consent.Root {
	a, b, nested := testproc.Root(t, h.a), testproc.Root(t, h.b), testproc.Root(t, h.nested)
	a.ReadOnly, nested.ReadOnly = aReadOnly, true
	return []consent.Root{a, b, nested}
}

// refusals are the attempts a folder shared read-only refuses, on a, and
// what each answers: Landlock's EACCES; the seccomp guard's EPERM for a
// mode or time change; truncate(2) only from ABI 3, which handles it.
func (h readOnlyHome) refusals(abi int) (probeArgs, map[string]string) {
	in := func(f string) string { return filepath.Join(h.a, f) }
	args := changesIn(in)
	args.Read, args.List = []string{in("f")}, []string{h.a}
	args.Write = append(args.Write, in("f"))
	want := map[string]string{
		"read " + in("f"): "ok", "list " + h.a: "ok",
		"write " + in("w"): "EACCES", "write " + in("f"): "EACCES",
		"chmod " + in("f"): "EPERM", "fchmod " + in("f"): "EPERM", "utime " + in("f"): "EPERM",
		"mkdir " + in("d"): "EACCES", "rename " + in("r"): "EACCES", "remove " + in("del"): "EACCES",
		"exec " + in("x"): "EACCES",
	}
	if abi >= 3 {
		want["truncate "+in("t")] = "EACCES"
	}
	return args, want
}

// changesIn is every change the probe tries, on the planted files of the
// folder in names.
func changesIn(in func(string) string) probeArgs {
	return probeArgs{
		Write:    []string{in("w")},
		Chmod:    []string{in("f")}, // not x, which is run after
		Fchmod:   []string{in("f")},
		Utime:    []string{in("f")},
		Truncate: []string{in("t")},
		Mkdir:    []string{in("d")},
		Rename:   []string{in("r")},
		Remove:   []string{in("del")},
		Exec:     []string{in("x")},
	}
}

// allowed are the same attempts on b, shared read and write, and in nested
// (read-only, but inside b: Landlock grants along the tree), all
// answered "ok". Each changes b: make them once.
func (h readOnlyHome) allowed() (probeArgs, map[string]string) {
	in := func(f string) string { return filepath.Join(h.b, f) }
	args := changesIn(in)
	args.Write = append(args.Write, filepath.Join(h.nested, "w"))
	want := map[string]string{}
	for op, paths := range map[string][]string{"write": args.Write, "chmod": args.Chmod, "fchmod": args.Fchmod, "utime": args.Utime,
		"truncate": args.Truncate, "mkdir": args.Mkdir, "rename": args.Rename, "remove": args.Remove, "exec": args.Exec} {
		for _, p := range paths {
			want[op+" "+p] = "ok"
		}
	}
	return args, want
}

// unchanged checks from outside that a's files are as they were planted.
func (h readOnlyHome) unchanged(t *testing.T, step string) {
	t.Helper()
	for f, mode := range map[string]os.FileMode{"f": 0o600, "t": 0o600, "r": 0o600, "del": 0o600, "x": 0o755} {
		p := filepath.Join(h.a, f)
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != mode || fi.ModTime().Year() == 2001 || (f != "x" && fi.Size() != int64(len("private"))) {
			t.Errorf("%s: %s changed: %v, %v", step, p, fi, err)
		}
	}
	for _, p := range []string{filepath.Join(h.a, "w"), filepath.Join(h.a, "d"), filepath.Join(h.a, "r.moved")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s: %s was made", step, p)
		}
	}
}

// checkReadOnly runs the access story against a snoop: consented a
// read-only and b read and write, it reads and lists a and is refused
// every change there, and makes each change in b (and in the read-only
// folder nested in b); a flipped to read and write alone (the same
// folders) reaches it as a new process that writes a; flipped back, a new
// process that may not. It returns the last answer.
func checkReadOnly(t *testing.T, h readOnlyHome, probe probeFunc, set func([]consent.Root)) {
	t.Helper()
	abi := needLandlock(t)
	anyAnswer := func(map[string]string) bool { return true }
	aw := filepath.Join(h.a, "w")

	set(h.consent(t, true))
	args, want := h.refusals(abi)
	got := probeUntil(t, "the server to read a", probe, args, func(m map[string]string) bool { return m["read "+filepath.Join(h.a, "f")] == "ok" })
	expect(t, "a read-only", got, want)
	first := got["ppid"]
	bArgs, bWant := h.allowed()
	expect(t, "b read and write", probeUntil(t, "changes in b", probe, bArgs, anyAnswer), bWant)
	h.unchanged(t, "a read-only")

	// The access alone changes: the same folders, a read and write. Only
	// a new process can have the new ruleset. (The probes made while the
	// old one may still answer change nothing it could refuse.)
	set(h.consent(t, false))
	flip := probeArgs{Write: []string{aw}, Chmod: []string{filepath.Join(h.a, "f")}}
	got = probeUntil(t, "the server to write a once it is read and write", probe, flip, func(m map[string]string) bool { return m["write "+aw] == "ok" })
	expect(t, "a flipped to read and write", got, map[string]string{"chmod " + filepath.Join(h.a, "f"): "ok"})
	second := got["ppid"]
	if second == first {
		t.Errorf("a read and write: the same process (guard %s) writes a; want a new one", first)
	}
	must(t, os.Chmod(filepath.Join(h.a, "f"), 0o600))
	must(t, os.Remove(aw))

	set(h.consent(t, true))
	got = probeUntil(t, "the server to be refused a once it is read-only again", probe, flip, func(m map[string]string) bool { return m["write "+aw] == "EACCES" })
	expect(t, "a flipped back to read-only", got, map[string]string{"chmod " + filepath.Join(h.a, "f"): "EPERM"})
	if got["ppid"] == second {
		t.Errorf("a read-only again: the same process (guard %s) is refused; want a new one", second)
	}
	// What the previous process may have done before it ended.
	must(t, os.Chmod(filepath.Join(h.a, "f"), 0o600))
	if err := os.Remove(aw); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	expect(t, "a read-only again", probeUntil(t, "the refusals in a", probe, args, anyAnswer), want)
	h.unchanged(t, "a read-only again")
}

// checkCapped: a server capped to reading may read b, shared read and
// write, and not write it.
func checkCapped(t *testing.T, h readOnlyHome, probe probeFunc) {
	t.Helper()
	bw, bf := filepath.Join(h.b, "capped"), filepath.Join(h.b, "f")
	got := probeUntil(t, "the capped server to read b", probe, probeArgs{Read: []string{bf}, Write: []string{bw}, Exec: []string{filepath.Join(h.b, "x")}},
		func(m map[string]string) bool { return m["read "+bf] == "ok" })
	expect(t, "capped", got, map[string]string{"write " + bw: "EACCES", "exec " + filepath.Join(h.b, "x"): "EACCES"})
}

// readOnlyPolicy checks what a policy says of h's consent with a
// read-only: a read, read-only; nested inside b read and write in fact,
// widened by b; b read and write.
func readOnlyPolicy(t *testing.T, step string, paths []launch.PolicyPath, h readOnlyHome) {
	t.Helper()
	want := map[string]string{h.a: "read ro", h.b: "read+write+exec rw", h.nested: "read+write+exec ro widened by " + h.b}
	for _, pp := range paths {
		w, ok := want[pp.Path]
		if !ok || pp.Why != launch.WhyConsented {
			continue
		}
		delete(want, pp.Path)
		got := pp.Access.String()
		if pp.ReadOnly {
			got += " ro"
		} else {
			got += " rw"
		}
		if pp.Widened != nil {
			got += " widened by " + pp.Widened.Path
		}
		if got != w {
			t.Errorf("%s: %s is %q in the policy, want %q", step, pp.Path, got, w)
		}
	}
	for p := range want {
		t.Errorf("%s: %s is not in the policy", step, p)
	}
}

// TestReadOnlyRootHubServer: a server the picker launches may read and
// list a folder shared read-only and nothing else there, while it changes
// a folder shared read and write; a flip of access alone restarts it
// under the new ruleset; a server capped to reading (Spec.ReadOnly) may
// not write the folder shared read and write either. The Connected
// event's policy says it all.
func TestReadOnlyRootHubServer(t *testing.T) {
	needLandlock(t)
	h := plantReadOnly(t)
	hub := mcpconn.NewHub(mcpconn.Options{Timing: testTiming})
	events := collect(hub)
	defer hub.Close()
	for _, spec := range []mcpconn.Spec{
		{Name: "snoop", Command: testproc.SelfServer(t, "snoop", testproc.UniqueMarker("snoop-ro-hub")), Enforce: launch.EnforceRequire},
		{Name: "capped", Command: testproc.SelfServer(t, "snoop", testproc.UniqueMarker("snoop-ro-capped")), Enforce: launch.EnforceRequire, ReadOnly: true},
	} {
		if err := hub.Connect(context.Background(), spec); err != nil {
			t.Fatal(err)
		}
	}
	probe := func(server string) probeFunc {
		return func(ctx context.Context, args probeArgs) (map[string]string, error) {
			return decodeProbe(hub.CallTool(ctx, server, "probe", args.call()))
		}
	}
	checkReadOnly(t, h, probe("snoop"), hub.SetRoots)
	checkCapped(t, h, probe("capped"))
	var last *launch.Enforcement
	for _, e := range events() {
		if e.Kind == mcpconn.Connected && e.Server == "snoop" {
			last = e.Enforcement
		}
	}
	if last == nil || last.Policy == nil {
		t.Fatal("no Connected event with a policy")
	}
	readOnlyPolicy(t, "the last Connected event", last.Policy.Paths, h)
}

// TestReadOnlyRootProxyChild: the same behind rootpick proxy, whose
// consent comes from its Source; proxy.Options.ReadOnly caps its child.
func TestReadOnlyRootProxyChild(t *testing.T) {
	needLandlock(t)
	h := plantReadOnly(t)
	src, cappedSrc := testproc.NewSource(), testproc.NewSource()
	host := startEnforcedHost(t, proxy.Options{Command: testproc.SelfServer(t, "snoop", testproc.UniqueMarker("snoop-ro-proxy")), Source: src, Enforce: launch.EnforceRequire})
	capped := startEnforcedHost(t, proxy.Options{Command: testproc.SelfServer(t, "snoop", testproc.UniqueMarker("snoop-ro-proxycap")), Source: cappedSrc, Enforce: launch.EnforceRequire, ReadOnly: true})
	probe := func(host *enforcedHost) probeFunc {
		return func(ctx context.Context, args probeArgs) (map[string]string, error) {
			return decodeProbe(host.call(ctx, "probe", args.call()))
		}
	}
	checkReadOnly(t, h, probe(host), func(roots []consent.Root) { src.Set(roots, nil) })
	sts := host.statuses()
	readOnlyPolicy(t, "the last status", sts[len(sts)-1].Access, h)
	restarts := 0
	for _, s := range sts {
		if s.Error == mcpconn.RestartEnforced && s.State == "starting" {
			restarts++
		}
	}
	if restarts == 0 {
		t.Errorf("no status says the server was restarted for the consent (%q)", mcpconn.RestartEnforced)
	}
	cappedSrc.Set(h.consent(t, false), nil)
	checkCapped(t, h, probe(capped))
}

// TestAccessAloneRestartsOnlyWhereItBinds: a change of access alone (the
// same folders) restarts a proxy's child only where the access is held
// by the kernel and changes for it: not an advisory child (roots/list
// has no word for access, so it is not even told), not a child capped
// to reading (every folder is read-only for it either way).
func TestAccessAloneRestartsOnlyWhereItBinds(t *testing.T) {
	needLandlock(t)
	h := plantReadOnly(t)
	for _, c := range []struct {
		name string
		opts proxy.Options
		// restarts is how many the first consent makes: an enforced
		// child gets a new process for it.
		restarts int
	}{
		{"advisory", proxy.Options{Enforce: launch.EnforceOff}, 0},
		{"capped", proxy.Options{Enforce: launch.EnforceRequire, ReadOnly: true}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var log testproc.Buffer
			src := testproc.NewSource()
			opts := c.opts
			opts.Command, opts.Source, opts.Timing = testproc.SelfServer(t, "snoop", testproc.UniqueMarker("snoop-ro-"+c.name)), src, testTiming
			opts.Logger = slog.New(slog.NewTextHandler(&log, nil))
			ct, st := mcp.NewInMemoryTransports()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- proxy.Run(ctx, st, opts) }()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "h"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				cancel()
				t.Fatal(err)
			}
			t.Cleanup(func() { testproc.EndRun(t, cs, cancel, done) })
			changes := func() int { return strings.Count(log.String(), `msg="consented set changed"`) }
			restarts := func(text string) int { return strings.Count(text, `msg="restarting the server"`) }
			src.Set(h.consent(t, false), nil)
			waitFor(t, "the first consent", func() bool { return changes() == 1 && restarts(log.String()) == c.restarts })
			src.Set(h.consent(t, true), nil)
			waitFor(t, "the change of access", func() bool { return strings.Contains(log.String(), `"access alone"=true`) })
			// The next change is applied after the previous one is done
			// (one goroutine applies them): a restart for the change of
			// access would be logged before it.
			src.Set(h.consent(t, true)[:2], nil)
			waitFor(t, "the change of folders", func() bool { return strings.Contains(log.String(), `msg="consented set changed" count=2`) })
			text := log.String()
			before := text[:strings.LastIndex(text, `msg="consented set changed"`)]
			if n := restarts(before); n != c.restarts {
				t.Errorf("a change of access alone restarted the %s server (%d restarts, want %d):\n%s", c.name, n, c.restarts, before)
			}
		})
	}
}
