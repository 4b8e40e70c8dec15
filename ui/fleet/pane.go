package fleet

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/rootpick/rootpick/internal/safetext"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"github.com/rootpick/rootpick/ui/style"
)

// The server pane's lines: one block per server, trouble first.

// troubleFirst is the servers in the order the pane shows them: those in
// trouble first (down, stuck, restarting, refused by enforcement, holding
// something else than the consent, never fetching, crash-looping), then
// those starting, then the healthy ones; each group in the order they
// came.
func (f at) troubleFirst() []*serverState {
	rank := func(s *serverState) int {
		switch v := f.verdictOf(s); {
		case v == verdictFailed || v == verdictExited || v == verdictStuck || v == verdictRestarting,
			len(s.refused) > 0, v == verdictMismatch, v == verdictNotFetching, v == verdictNoConsent,
			f.loopNote(s, inShort) != "":
			return 0
		case v == verdictStarting:
			return 1
		}
		return 2
	}
	out := slices.Clone(f.list)
	slices.SortStableFunc(out, func(a, b *serverState) int { return rank(a) - rank(b) })
	return out
}

// serverLines are the server pane's lines, unscrolled: for each server its
// state, the roots it fetched, the whole error (wrapped, never cut), what
// happened to it lately with the time (the last HistoryKept events: a
// crash it recovered from stays in view) and its last stderr lines.
func (f at) serverLines(width int) []string {
	p := &paneWriter{w: max(width, 1)}
	if len(f.list) == 0 {
		p.wrapped("", f.Styles.Dim.Render("No server. Name one after -- or with --server/--url; rootpick proxy shows up here too."))
	}
	for i, s := range f.troubleFirst() {
		if i > 0 {
			p.out = append(p.out, "")
		}
		f.serverBlock(p, s, f.wantOf(s))
	}
	if f.LogPath != "" {
		p.out = append(p.out, "")
		p.add(f.Styles.Dim.Render("log: " + safetext.Escape(f.LogPath)))
	}
	p.wrapped("", f.Styles.Dim.Render(f.Keys.Retry+" retries servers that are down now · "+f.Keys.Back+" or "+f.Keys.Pane+" goes back to the list"))
	return p.out
}

// paneWriter writes the server pane's lines at width w: a line cut at the
// edge, or a labelled field shown whole.
type paneWriter struct {
	w   int
	out []string
}

// add is one line, cut at the edge.
func (p *paneWriter) add(s string) { p.out = append(p.out, style.Cut(s, p.w, "…")) }

// wrapped is a labelled field shown whole (an error, the roots fetched):
// wrapped under its label instead of cut at the edge.
func (p *paneWriter) wrapped(label, text string) {
	indent := strings.Repeat(" ", style.Width(label))
	if p.w-len(indent) < 20 {
		p.add(label + text)
		return
	}
	for i, l := range strings.Split(ansi.Wrap(text, p.w-len(indent), " /,"), "\n") {
		if i == 0 {
			p.out = append(p.out, label+l)
		} else {
			p.out = append(p.out, indent+l)
		}
	}
}

// list is a labelled list of fields, the label on the first only.
func (p *paneWriter) list(label string, items []string) {
	blank := strings.Repeat(" ", len(label))
	for j, it := range items {
		l := label
		if j > 0 {
			l = blank
		}
		p.wrapped(l, it)
	}
}

// enforcedLines are an enforced server's lines of the pane: every path it
// may open, its sockets, network and metadata (the guard's walls beside
// the files), root's warning, and what its environment asked and did not
// get. Nothing for a server that is not enforced.
func (f at) enforcedLines(p *paneWriter, s *serverState) {
	if s.enf == nil || !s.enf.Enforced || s.enf.Policy == nil {
		return
	}
	// The doors beside the files (the guard's seccomp filter): said,
	// so that a refused socket or chmod reads as the boundary's.
	sockets := s.enf.Policy.UnixSockets(s.enf.ABI)
	if s.enf.Policy.AnySocket(s.enf.ABI) {
		sockets = f.Styles.Warn.Render(safetext.Escape(sockets))
	} else {
		sockets = f.Styles.Dim.Render(safetext.Escape(sockets))
	}
	// Every path it may open, with its access and why: what the
	// kernel holds it to, not a summary (rootpick policy prints the
	// same for a command not running).
	paths := make([]string, len(s.enf.Policy.Paths))
	for i, pp := range s.enf.Policy.Paths {
		why := safetext.Escape(pp.Why)
		if note := pp.Note(func(p string) string { return safetext.Escape(style.Home(p)) }, safetext.Escape); note != "" {
			why += "; " + note // read-only, or what widens it
		}
		paths[i] = f.Styles.Dim.Render(safetext.Escape(style.Home(pp.Path)) + "  " + pp.Access.String() + " (" + why + ")")
	}
	p.list("  may open  ", paths)
	p.wrapped("  sockets   ", sockets)
	p.wrapped("  network   ", f.Styles.Dim.Render(s.enf.Policy.NetworkWords()))
	p.wrapped("  metadata  ", f.Styles.Dim.Render("mode and times only where it may write; owner and extended attributes nowhere"))
	if f.AsRoot {
		p.wrapped("  as root   ", f.Styles.Warn.Render(asRootWarning))
	}
	// What its environment or command asked of the boundary and did
	// not get (a cache variable pointing at ~/.ssh): the reason a
	// server may fail, said where the person looks.
	refused := make([]string, len(s.enf.Policy.Refused))
	for i, r := range s.enf.Policy.Refused {
		refused[i] = f.Styles.Warn.Render(r.Subject(func(p string) string { return safetext.Escape(style.Home(p)) }, safetext.Escape) + ": " + safetext.Escape(r.Why))
	}
	p.list("  refused   ", refused)
}

// serverBlock is one server's block in the pane: its name, state, roots,
// error, withheld roots, history and last stderr lines.
func (f at) serverBlock(p *paneWriter, s *serverState, want []string) {
	head := f.Styles.Title.Render("● " + f.displayName(s))
	if !s.proxy && s.name != "" {
		// What it calls itself (serverInfo), as a detail: the name the
		// person gave it stays the name everywhere.
		switch {
		case s.name != safetext.Escape(s.label) && s.version != "":
			head += f.Styles.Dim.Render("  (" + s.name + " " + s.version + ")")
		case s.name != safetext.Escape(s.label):
			head += f.Styles.Dim.Render("  (" + s.name + ")")
		case s.version != "":
			head += f.Styles.Dim.Render(" " + s.version) // its own name is the one given
		}
	}
	p.add(head)
	state := f.stateView(s, inPane)
	if s.protocol != "" {
		state += f.Styles.Dim.Render("  · protocol " + safetext.Escape(s.protocol))
	}
	if e := f.enforcementText(s); e != "" {
		state += f.Styles.Dim.Render("  · ") + e
	}
	p.wrapped("  state     ", state)
	if s.asked {
		p.wrapped("  roots     ", f.fetchedText(s, want))
	} else {
		p.add(f.Styles.Dim.Render("  roots     not asked yet"))
	}
	if s.verified != nil || s.mismatch != "" {
		// What it said it holds, asked: for a proxy the only word on what
		// its server can open beside the roots it was sent.
		p.wrapped("  holds     ", f.holdsText(s))
	}
	if allowed := allowedPaths(s); len(allowed) > 0 {
		p.wrapped("  allowed   ", f.Styles.Dim.Render(strings.Join(allowed, ", ")))
	}
	f.enforcedLines(p, s)
	f.refusedLines(p, s)
	if s.err != "" {
		p.wrapped("  error     ", f.Styles.Err.Render(s.err))
	}
	if s.final {
		p.wrapped("            ", f.Styles.Dim.Render("It is not restarted until you press "+f.Keys.Retry+
			": starting it again cannot help until the program is installed, made executable or the command corrected."))
	}
	withheld := make([]string, len(s.withheld))
	for j, d := range s.withheld {
		withheld[j] = f.Styles.Err.Render(d)
	}
	p.list("  withheld  ", withheld)
	history := make([]string, len(s.history))
	for j, e := range s.history {
		history[j] = f.Styles.Dim.Render(e.at.Format("15:04:05")+" ") + e.text
	}
	p.list("  history   ", history)
	if s.dropped > 0 {
		p.add(f.Styles.Dim.Render("  stderr    " + strconv.Itoa(s.dropped) + " lines came faster than they could be read (the log has them)"))
	}
	for j, l := range s.stderr {
		label := "  stderr    "
		if j > 0 {
			label = "            "
		}
		p.add(f.Styles.Dim.Render(label + l))
	}
}

// refusedLines say what enforcement refused the server, and the way out:
// the allow key and the advisory key for the picker's own servers, the
// flag for a proxy's (its host's entry holds its arguments).
func (f at) refusedLines(p *paneWriter, s *serverState) {
	if len(s.refused) == 0 {
		return
	}
	lines := make([]string, len(s.refused))
	for i, r := range s.refused {
		lines[i] = f.Styles.Warn.Render(r)
	}
	p.list("  refused   ", lines)
	switch {
	case len(s.allowable) > 0:
		p.wrapped("            ", f.Styles.Dim.Render(f.Keys.Allow+" lets it read "+safetext.Escape(style.Home(s.allowable[0]))+
			" (for this server, kept in the config when it is the config's) and starts it again · "+
			f.Keys.Advisory+" runs it advisory, unenforced, until rootpick quits"))
	case s.proxy:
		p.wrapped("            ", f.Styles.Dim.Render("allow it in the host's entry: add --allow-read=PATH to the proxy's arguments (its stderr says the same)"))
	}
}

// refusedServer is the first of the picker's own servers with a refusal
// the allow key can allow, or nil.
func (f *Fleet) refusedServer() *serverState {
	for _, s := range f.list {
		if len(s.allowable) > 0 {
			return s
		}
	}
	return nil
}

// TakeRefusal takes the first refusal the allow key can allow
// (refusedServer): the server's label and the path it was refused, for
// the model to allow (the hub starts the server again with it) or, with
// allow false, to run the server advisory; ok is false when there is
// none. The server's refusals are cleared (a new start says its own) and
// its history says what the person chose, at now.
func (f *Fleet) TakeRefusal(allow bool, now time.Time) (label, path string, ok bool) {
	s := f.refusedServer()
	if s == nil {
		return "", "", false
	}
	label, path = s.label, s.allowable[0]
	s.refused, s.allowable = nil, nil
	if allow {
		s.addHistory(now, "allowed to read "+safetext.Escape(style.Home(path)))
	} else {
		s.addHistory(now, "run advisory, unenforced, until rootpick quits (you chose it)")
	}
	return label, path, true
}

// HasRefusal reports whether one of the picker's own servers has a
// refusal the pane's allow key can allow.
func (f *Fleet) HasRefusal() bool { return f.refusedServer() != nil }

// fetchedText is the roots a server last fetched, when, and whether they
// are the consent (want).
func (f at) fetchedText(s *serverState, want []string) string {
	got := make([]string, len(s.fetched))
	for i, u := range s.fetched {
		got[i] = safetext.Escape(style.RelPath(f.Dir, pathOfURI(u)))
	}
	when := ""
	if !s.fetchedAt.IsZero() {
		when = " at " + s.fetchedAt.Format("15:04:05")
	}
	text := style.Plural(len(s.fetched), "root", "roots") + " fetched" + when
	if len(got) > 0 {
		text += ": " + strings.Join(got, ", ")
	}
	if sameSet(want, s.fetched) {
		text += f.Styles.OK.Render("  = the consent")
	}
	return text
}

// enforcementText is a server's enforcement for the pane: "enforced
// (Landlock ABI 7)" or "advisory: why"; "" while it has not said.
func (f at) enforcementText(s *serverState) string {
	if s.enf == nil {
		return ""
	}
	if s.enf.Enforced {
		return f.Styles.OK.Render(s.enf.String())
	}
	return f.Styles.Warn.Render(safetext.Escape(s.enf.String()))
}

// holdsText is what a server said it holds when asked, or how that
// differs from the consent.
func (f at) holdsText(s *serverState) string {
	if s.mismatch != "" {
		return f.Styles.Warn.Render(s.mismatch)
	}
	if len(s.verified) == 0 {
		return "nothing"
	}
	held := make([]string, len(s.verified))
	for i, u := range s.verified {
		held[i] = safetext.Escape(style.RelPath(f.Dir, pathOfURI(u)))
	}
	return strings.Join(held, ", ")
}

// allowedPaths are the folders and sockets the person allowed an enforced
// server beyond the consent (--allow-read, --allow-write, --allow-socket),
// for the pane.
func allowedPaths(s *serverState) []string {
	if s.enf == nil || s.enf.Policy == nil {
		return nil
	}
	var out []string
	for _, p := range s.enf.Policy.Paths {
		switch p.Why {
		case launch.WhyAllowRead:
			out = append(out, safetext.Escape(style.Home(p.Path))+" (read)")
		case launch.WhyAllowWrite:
			out = append(out, safetext.Escape(style.Home(p.Path))+" (read, write)")
		case launch.WhyAllowSocket:
			out = append(out, safetext.Escape(style.Home(p.Path))+" (connect)")
		}
	}
	return out
}
