//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rootpick/rootpick/internal/prefetch"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/internal/testskip"
	"github.com/rootpick/rootpick/internal/wrapplan"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// TestHostsWrapPrefetchIsEnforced: hosts wrap's prefetch runs under the
// ruleset its server would get, through the guard (this test binary is
// one, as rootpick is: guard.go): a launcher named npx, first on PATH,
// that tries to read the person's key in ~/.ssh and copy it out is
// refused (EACCES), while it writes its npm cache (the entry's, in
// ~/.cache) — and the wrap says it fetched.
func TestHostsWrapPrefetchIsEnforced(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Landlock is Linux's: elsewhere nothing is fetched ahead (TestHostsPrefetchNotConfinedIsNotRun)")
	}
	if err := launch.CanConfine(); err != nil {
		testskip.Skip(t, "landlock", err.Error()+": run the enforcement tests on Linux 5.13 or later with Landlock on")
	}
	home, project := launcherSandbox(t)
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("private"), 0o600); err != nil {
		t.Fatal(err)
	}
	exfil := filepath.Join(filepath.Dir(home), "exfil")
	fakeLauncher(t, filepath.Join(filepath.Dir(home), "bin", "npx"), `c="$npm_config_cache"
mkdir -p "$c"
if cat "$HOME/.ssh/id_ed25519" > "$c/stolen" 2> "$c/read-error"; then echo read > "$c/result"; else echo refused > "$c/result"; fi
cp "$HOME/.ssh/id_ed25519" `+exfil+` 2>/dev/null
echo "$*" > "$c/marker"`)
	realPrefetch(t, launch.Confine)
	var errb bytes.Buffer
	if err := run([]string{"hosts", "wrap", "claude", "--yes", "--prefetch", "--project", project}, io.Discard, &errb); err != nil {
		t.Fatalf("wrap: %v\n%s", err, errb.String())
	}
	cache := filepath.Join(home, ".cache", "alt-npm")
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(cache, name))
		return strings.TrimSpace(string(b))
	}
	if got := read("result"); got != "refused" {
		t.Errorf("the prefetch's read of ~/.ssh/id_ed25519: %q (it got %q); want refused\n%s", got, read("stolen"), errb.String())
	}
	if got := read("read-error"); !strings.Contains(got, "Permission denied") {
		t.Errorf("the refused read said %q; want Permission denied (EACCES)", got)
	}
	if _, err := os.Stat(exfil); err == nil {
		t.Error("the prefetch copied the key out")
	}
	if got := read("marker"); got != "--yes --package=@modelcontextprotocol/server-filesystem -- node -e 0" {
		t.Errorf("the launcher wrote %q in its npm cache; want its arguments (could it write there?)\n%s", got, errb.String())
	}
	if !strings.Contains(errb.String(), "fs: fetched @modelcontextprotocol/server-filesystem with npx in ") {
		t.Errorf("the wrap does not say it fetched:\n%s", errb.String())
	}
}

// TestHostsPrefetchInterrupted: ctrl+c during a fetch lets that fetch
// finish (the launcher is not interrupted), fetches nothing more and
// returns the signal, so that nothing is written; a second ctrl+c stops
// the fetch at once.
func TestHostsPrefetchInterrupted(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	// "installs" for 1.5 s; a SIGINT to the launcher would end it before
	// it writes done.
	fakeLauncher(t, filepath.Join(dir, "bin", "npx"), "trap 'exit 130' INT\necho \"start $2\" >> "+state+"\ni=0\nwhile [ $i -lt 15 ]; do sleep 0.1; i=$((i+1)); done\necho \"done $2\" >> "+state)
	t.Setenv("PATH", filepath.Join(dir, "bin")+string(filepath.ListSeparator)+os.Getenv("PATH"))
	plan := func() []*wrapplan.File {
		a, _ := prefetch.Of([]string{"npx", "-y", "a"})
		b, _ := prefetch.Of([]string{"npx", "-y", "b"})
		return []*wrapplan.File{{Launches: []wrapplan.Launch{{Name: "a", Launcher: a, Dir: dir}, {Name: "b", Launcher: b, Dir: dir}}}}
	}
	read := func() string { b, _ := os.ReadFile(state); return string(b) }
	interrupt := func(times int) (os.Signal, string) {
		t.Helper()
		_ = os.Remove(state)
		var errb testproc.Buffer
		done := make(chan os.Signal, 1)
		go func() {
			done <- hostsChange{wrap: true, prefetch: prefetch.Run, confine: unconfined}.prefetchAll(&env{stderr: &errb}, plan())
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
