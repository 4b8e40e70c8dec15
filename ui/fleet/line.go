package fleet

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/ui/style"
)

// The status line's part (line), and the sentences the consent dialog
// says of who a confirmation reaches.

// serverNames names who a confirmation reaches: the connected servers, and
// how many will be served when they connect.
func (f at) serverNames() string {
	conn := f.connected()
	names := make([]string, len(conn))
	for i, s := range conn {
		names[i] = f.displayName(s)
	}
	out := strings.Join(names, ", ")
	if len(conn) == 0 {
		if c := f.consumers(); c != "" {
			return c + " (" + consumersLater + ")"
		}
		out = "no connected server"
	}
	switch waiting := len(f.list) - len(conn); {
	case waiting == 1:
		out += " (1 more server will be served when it connects)"
	case waiting > 1:
		out += " (" + strconv.Itoa(waiting) + " more servers will be served when they connect)"
	}
	return out
}

// consumersLater says when the profile's consumers (Config.Consumers)
// get the folders: none of them is running.
const consumersLater = "not running now: each gets the folders when its host starts it"

// consumers names the profile's consumers (Config.Consumers), escaped and
// joined, or "".
func (f at) consumers() string {
	names := make([]string, len(f.Consumers))
	for i, c := range f.Consumers {
		names[i] = safetext.Escape(c)
	}
	return strings.Join(names, ", ")
}

// needsDetails reports whether a server is down with a reason the server
// pane tells in full.
func (f at) needsDetails() bool {
	for _, s := range f.list {
		if s.life.down() || s.life == lifeRestarting && s.err != "" || s.life == lifeStarting && s.attempt > 1 && s.reason != "" {
			return true
		}
	}
	return false
}

// line is one line: how many roots are exposed, then each server's
// state, in the most words that fit width w. A root counts as exposed
// only while a server is connected to be served it.
func (f at) line(w int) string {
	n := len(f.Sharing.Served())
	var exposed string
	shortExposed := strconv.Itoa(n) + " exposed" // for a narrow line
	proxied, proxies := f.proxyServed(), f.proxyCount()
	switch {
	case n == 0 && len(proxied) > 0:
		// The picker serves nothing, but the profile's proxies serve its
		// remembered consent: that is exposed too.
		exposed = style.Plural(len(proxied), "root", "roots") + " served by " + style.Plural(proxies, "proxy", "proxies")
		shortExposed = strconv.Itoa(len(proxied)) + " via proxy"
	case len(f.connected()) == 0 && n > 0:
		exposed = style.Plural(n, "root", "roots") + " consented, served when a server connects"
		shortExposed = strconv.Itoa(n) + " consented"
	case n == 0:
		exposed, shortExposed = "nothing shared", "0 shared"
	case n == 1:
		exposed = "1 root exposed"
	default:
		exposed = strconv.Itoa(n) + " roots exposed"
	}
	// The count comes first so that no server error can push it off. The
	// line is the first of these that fits, from the whole story to the
	// fewest words: every server's state in full, then each one's state
	// word with its short reason ("restarting in 4s: exited with status
	// 1"), then
	// one word each, then (several servers) counted by state. Where a
	// server is down, " — tab for details" follows while there is room.
	if len(f.list) == 0 {
		if c := f.consumers(); c != "" {
			return exposed + "  " + f.Styles.Dim.Render("for "+c+" ("+consumersLater+")")
		}
		return exposed + "  " + f.Styles.Dim.Render("no server")
	}
	tries := f.lineTries(exposed, shortExposed, w)
	for _, try := range tries {
		if style.Width(try) <= w {
			return try
		}
	}
	return tries[len(tries)-1]
}

// lineTries are the status line's forms, from the whole story to the
// fewest words (line takes the first that fits).
func (f at) lineTries(exposed, shortExposed string, w int) []string {
	hint := ""
	if f.needsDetails() {
		hint = f.Styles.Dim.Render(" — " + f.Keys.Pane + " for details")
	}
	each := func(head string, state func(*serverState) string) string {
		parts := []string{head}
		for _, s := range f.list {
			parts = append(parts, "● "+f.displayName(s)+" "+state(s))
		}
		return strings.Join(parts, "  ")
	}
	tries := []string{
		each(exposed, f.fullState) + hint,
		each(exposed, f.fullState),
	}
	tries = append(tries, f.startingCut(exposed, w)...)
	tries = append(tries,
		each(exposed, f.shortState)+hint,
		each(exposed, f.shortState))
	if len(f.list) > 1 {
		// Never hide a server: when they do not fit, one word each,
		// then count them: with the hint while it fits, then without;
		// at the narrowest, the count of roots in short and the worst
		// states first, so what is cut at the edge is good news.
		return append(tries,
			each(exposed, f.wordState)+hint,
			each(exposed, f.wordState),
			exposed+"  "+f.serverSummary(true, false),
			exposed+"  "+f.serverSummary(false, false),
			shortExposed+"  "+f.serverSummary(false, true))
	}
	// One server: the short count, then its name is what gets cut, down
	// to a few letters while its reason fits, and to one letter before
	// its state word is.
	s := f.list[0]
	tries = append(tries, each(shortExposed, f.shortState)+hint, each(shortExposed, f.shortState))
	for _, state := range []string{f.shortState(s), f.wordState(s)} {
		head, tail := shortExposed+"  ● ", " "+state
		room := w - style.Width(head+tail)
		if state == f.wordState(s) || room >= min(style.Width(f.displayName(s)), nameKept) {
			tries = append(tries, head+style.Cut(f.displayName(s), max(room, 1), "…")+tail)
		}
	}
	return tries
}

// nameKept is the fewest cells of a server's name the status line keeps
// to show its short reason; below it the reason goes, not the name.
const nameKept = 6

// startingCut is, when the one server is starting and has written on
// stderr, its line with that last stderr line cut to fit: what a slow
// start is busy with is worth more than the rest of the line.
func (f at) startingCut(exposed string, w int) []string {
	if len(f.list) != 1 {
		return nil
	}
	s := f.list[0]
	if s.life != lifeStarting || s.startedAt.IsZero() || s.startLine == "" {
		return nil
	}
	head := exposed + "  ● " + f.displayName(s) + " " + f.Styles.Pending.Render(f.startingFor(s)) + f.Styles.Dim.Render(" — ")
	room := w - style.Width(head)
	if room < 10 {
		return nil
	}
	return []string{head + f.Styles.Dim.Render(style.Cut(s.startLine, room, "…"))}
}

// serverSummary counts the servers by state: "3 servers: 2 verified, 1
// failed", and " — tab for details" (the server pane's key) with hint;
// worst puts the states that need attention first.
func (f at) serverSummary(hint, worst bool) string {
	var counts [numVerdicts]int
	for _, s := range f.list {
		counts[f.verdictOf(s)]++
	}
	var parts []string
	for i := range numVerdicts {
		v := i
		if worst {
			v = numVerdicts - 1 - i
		}
		if n := counts[v]; n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+v.String())
		}
	}
	line := strconv.Itoa(len(f.list)) + " servers: " + strings.Join(parts, ", ")
	if hint {
		line += f.Styles.Dim.Render(" — " + f.Keys.Pane + " for details")
	}
	return line
}

// accessSentence says what sharing means for what the servers can open:
// the kernel's boundary where every server that said runs under it, else
// who may read anything the person can; beyond names what else the
// enforced servers can read. Both are "" while no server has said.
func (f at) accessSentence() (sentence, beyond string) {
	var enforced, advisory, anySocket, netOff []string
	var whys []string
	for _, s := range f.list {
		switch {
		case s.enf == nil:
		case s.enf.Enforced:
			enforced = append(enforced, f.displayName(s))
			if s.enf.Policy != nil && s.enf.Policy.AnySocket(s.enf.ABI) {
				anySocket = append(anySocket, f.displayName(s))
			}
			if s.enf.Policy != nil && s.enf.Policy.NoNetwork {
				netOff = append(netOff, f.displayName(s))
			}
			if s.enf.Policy != nil {
				for _, p := range s.enf.Policy.Beyond() {
					if w := beyondWords(p); !slices.Contains(whys, w) {
						whys = append(whys, w)
					}
				}
			}
		default:
			advisory = append(advisory, f.displayName(s))
		}
	}
	switch {
	case len(enforced)+len(advisory) == 0:
		return "", ""
	case len(advisory) == 0:
		sentence = "Enforced: the kernel lets " + style.Noun(len(enforced), "the server", "the servers") + " open only these folders, and what " + style.Noun(len(enforced), "it needs", "they need") + " to run."
	case len(enforced) == 0:
		sentence = "Advisory: " + style.Noun(len(advisory), "the server", "the servers") + " may read anything you can; the consent is a request, not a boundary."
	default:
		sentence = "Advisory for " + strings.Join(advisory, ", ") + ": may read anything you can. Enforced for the others: only these folders."
	}
	if len(whys) > 0 {
		beyond = "Also readable where enforced: " + strings.Join(whys, ", ") + "."
	}
	switch {
	case len(enforced) == 0:
	case len(netOff) == len(enforced):
		beyond = strings.TrimSpace(beyond + " Network: off.")
	case len(netOff) > 0:
		beyond = strings.TrimSpace(beyond + " Network: off for " + strings.Join(netOff, ", ") + "; on for the others.")
	default:
		beyond = strings.TrimSpace(beyond + " Network: on.")
	}
	if len(enforced) > 0 && f.AsRoot {
		beyond = strings.TrimSpace(beyond + " " + asRootWarning)
	}
	if len(anySocket) > 0 {
		// allow-socket below Landlock ABI 9 opens every socket, not one.
		beyond = strings.TrimSpace(beyond + " Any unix socket for " + strings.Join(anySocket, ", ") + ": --allow-socket needs Landlock ABI 9 to hold it to one.")
	}
	return sentence, beyond
}

// asRootWarning is what an enforced server run as root can still read.
const asRootWarning = "rootpick runs as root: an enforced server still reads all that root can in its runtime (/etc/shadow, other processes' /proc). Run rootpick as yourself."

// beyondWords names why a server may open a path beyond the consent; a
// folder the person allowed is named itself, with how.
func beyondWords(p launch.PolicyPath) string {
	switch p.Why {
	case launch.WhySystem:
		return "system folders"
	case launch.WhyDevice:
		return "devices"
	case launch.WhyProgram:
		return "its program"
	case launch.WhyInterpreter:
		return "its interpreter"
	case launch.WhyPackage:
		return "its package"
	case launch.WhyTmp:
		return "a private temporary folder"
	case launch.WhyAllowRead:
		return safetext.Escape(style.Home(p.Path)) + " (--allow-read)"
	case launch.WhyAllowWrite:
		return safetext.Escape(style.Home(p.Path)) + " (--allow-write)"
	case launch.WhyAllowSocket:
		return "the socket " + safetext.Escape(style.Home(p.Path)) + " (--allow-socket)"
	}
	return p.Why // a launcher's cache: "npm cache", "uv cache", …
}
