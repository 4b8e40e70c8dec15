package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/mcpconn"
	"github.com/rootpick/rootpick/mcpconn/proxy"
)

// TestRefusedServerSaysWhyAndTheWayOut: a server enforcement refused a
// path says so on the status line (with the key to the pane) and in the
// pane, with the keys that answer it; a allows the path (kept by
// RememberAllow, which is told the server and the path) and clears the
// refusal; the note says where it was kept.
func TestRefusedServerSaysWhyAndTheWayOut(t *testing.T) {
	m := wide(t)
	var kept []string
	m.cfg.RememberAllow = func(server, path string) (string, error) {
		kept = append(kept, server, path)
		return "kept in /c/config.toml", nil
	}
	settings := "/home/me/.config/x/settings.json"
	m.onHubEvent(mcpconn.Event{Server: "cfg", Kind: mcpconn.Connecting, Attempt: 1})
	m.onHubEvent(mcpconn.Event{Server: "cfg", Kind: mcpconn.Refused, Path: settings, Text: "read", Reason: "refused: " + settings + " (read)"})
	m.onHubEvent(mcpconn.Event{Server: "cfg", Kind: mcpconn.Failed, Err: errors.New("stopped by enforcement? refused: " + settings + " (read); exited with status 1 before it answered initialize"),
		Reason: "stopped by enforcement? refused: " + settings + " (read); exited with status 1"})
	if line := statusOf(m); !strings.Contains(line, "stopped by enforcement? refused: "+settings+" (read); exited with status 1") || !strings.Contains(line, "(ctrl+o to allow it)") {
		t.Errorf("the status line: %q", line)
	}
	send(m, "ctrl+o")
	pane := strings.Join(strings.Fields(ansi.Strip(screen(m))), " ")
	for _, want := range []string{"refused " + settings + " (read)", "a lets it read " + settings, "o runs it advisory", "a allow what enforcement refused"} {
		if !strings.Contains(pane, want) {
			t.Errorf("the pane does not say %q:\n%s", want, pane)
		}
	}
	cmd := send(m, "a")
	if cmd == nil {
		t.Fatal("a answered nothing")
	}
	m.Update(cmd())
	if len(kept) != 2 || kept[0] != "cfg" || kept[1] != settings {
		t.Errorf("RememberAllow was told %q", kept)
	}
	if !strings.Contains(m.status.note, "cfg may read "+settings+"; kept in /c/config.toml.") {
		t.Errorf("the note: %q", m.status.note)
	}
	pane = strings.Join(strings.Fields(ansi.Strip(strings.Join(m.fleet.PaneLines(m.fleetView(), 200), "\n"))), " ")
	if m.fleet.HasRefusal() || strings.Contains(pane, "refused "+settings+" (read)") || strings.Contains(pane, "lets it read") || !strings.Contains(pane, "allowed to read "+settings) {
		t.Errorf("after a: the pane\n%s", pane)
	}
	if cmd := send(m, "a"); cmd != nil {
		t.Error("a with nothing refused did something")
	}
}

// TestProxyRefusedSaysTheFlag: a proxy's refusals are listed with the
// flag that allows them in the host's entry; the pane's a does not
// answer them (the picker cannot change a host's entry).
func TestProxyRefusedSaysTheFlag(t *testing.T) {
	m := wide(t)
	m.fleet.SetProxies([]proxy.Entry{{PID: 42, Status: proxy.Status{Refused: []string{"/home/me/.netrc (read)"}}}})
	pane := strings.Join(strings.Fields(ansi.Strip(strings.Join(m.fleet.PaneLines(m.fleetView(), 200), "\n"))), " ")
	if !strings.Contains(pane, "refused /home/me/.netrc (read)") || !strings.Contains(pane, "add --allow-read=PATH to the proxy's arguments") {
		t.Errorf("the pane:\n%s", pane)
	}
	if m.fleet.HasRefusal() {
		t.Error("a proxy's refusal is offered to the allow key")
	}
}

// TestCrashLoopDoesNotLookHealthy: a server that died twice in the last
// minute reads "pending (restarted 2× in 21 s)" (or ready…) while it is up, on the
// status line and in the pane, where it comes before a healthy server;
// once it has stayed up a minute it reads ready again.
func TestCrashLoopDoesNotLookHealthy(t *testing.T) {
	m := wide(t)
	start := time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)
	at := func(d time.Duration, ev mcpconn.Event) {
		m.now = start.Add(d)
		m.onHubEvent(ev)
	}
	at(0, connectedEvent("calm", "calm"))
	at(0, connectedEvent("loop", "loop"))
	at(10*time.Second, mcpconn.Event{Server: "loop", Kind: mcpconn.Disconnected, Reason: "exited with status 1"})
	at(11*time.Second, connectedEvent("loop", "loop"))
	at(30*time.Second, mcpconn.Event{Server: "loop", Kind: mcpconn.Failed, Reason: "exited with status 1"})
	at(31*time.Second, connectedEvent("loop", "loop"))
	if line := statusOf(m); !strings.Contains(line, "loop pending (restarted 2× in 21 s)") {
		t.Errorf("the status line: %q", line)
	}
	pane := ansi.Strip(strings.Join(m.fleet.PaneLines(m.fleetView(), 120), "\n"))
	if i, j := strings.Index(pane, "● loop"), strings.Index(pane, "● calm"); i < 0 || j < 0 || i > j {
		t.Errorf("the crash-looping server does not come first in the pane:\n%s", pane)
	}
	m.now = start.Add(31*time.Second + time.Minute)
	if line := statusOf(m); strings.Contains(line, "restarted") {
		t.Errorf("after a minute up the status line still says it restarted: %q", line)
	}
}

// TestProfileConsumersAreTheReceivers: a picker that runs no server of
// its own for a profile with consumers (Config.Consumers) says, before
// any consent and in the dialog, that the folders go to them, and when.
func TestProfileConsumersAreTheReceivers(t *testing.T) {
	m := wide(t)
	m.cfg.Consumers = []string{"claude → fs"}
	if line := statusOf(m); !strings.Contains(line, "nothing shared  for claude → fs (not running now: each gets the folders when its host starts it)") {
		t.Errorf("the status line before any consent: %q", line)
	}
	openDialog(t, m, mkRoot("/work/demo/api"))
	if out := strings.Join(strings.Fields(screen(m)), " "); !strings.Contains(out, "Share 1 root with claude → fs (not running now: each gets the folders when its host starts it)?") {
		t.Errorf("the dialog does not name the receivers:\n%s", screen(m))
	}
}
