package wrapplan

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/hostcfg"
	"github.com/rootpick/rootpick/mcpconn/launch"
)

// wrapNotes say, below the diff, what becomes of server i's folder
// arguments: each run replaced by {roots} (and what the server was
// limited to, against what its profile grants now), or kept, with what
// keeping them means; and the network it gets, and what its own env
// asks of the boundary and will not get.
func (pl *planner) wrapNotes(c *hostcfg.Config, i int) []string {
	s := c.Servers[i]
	profile := cmp.Or(pl.Proxy.Profile, consent.DefaultProfile)
	var notes, replaced, kept []string
	for _, r := range c.FolderArgs(i) {
		words := argWords(r.Args)
		switch {
		case r.Inside:
			notes = append(notes, fmt.Sprintf("warning: %s keeps %s: {roots} cannot stand inside an argument, so the server gets that folder whatever you consent (enforced, it cannot open it unless consented)", shown(s.Name), words))
		case r.Flag != "":
			notes = append(notes, fmt.Sprintf("warning: %s keeps %s %s: %s takes exactly one folder, and {roots} stands for as many as you consent (none before a consent), which the server would refuse; so it gets that folder whatever you consent (enforced, it cannot open it unless consented)",
				shown(s.Name), shown(r.Flag), words, shown(r.Flag)))
		case pl.Proxy.KeepArgs:
			kept = append(kept, words)
		default:
			replaced = append(replaced, words)
			notes = append(notes, fmt.Sprintf("%s: %s → %s: it will see only what you consent", shown(s.Name), words, hostcfg.RootsArg))
		}
	}
	if len(replaced) > 0 {
		notes = append(notes, fmt.Sprintf("%s was limited to %s; behind profile %s it sees what you consent for %s (%s)",
			shown(s.Name), strings.Join(replaced, " and "), shown(profile), shown(profile), pl.Grants.of(profile)))
	}
	if len(kept) > 0 {
		notes = append(notes, fmt.Sprintf("warning: --keep-args: %s keeps %s: the server gets those folders whatever you consent for %s (enforced, it cannot open them unless consented)",
			shown(s.Name), strings.Join(kept, " and "), shown(profile)))
	}
	if pl.Proxy.Network == "" {
		if what, ok := offlineServer(append([]string{s.Command}, s.Args...)); ok {
			notes = append(notes, fmt.Sprintf("%s: network off: %s needs none (hosts wrap --network on keeps it on)", shown(s.Name), shown(what)))
		}
	}
	return append(notes, refusedNotes(c, i)...)
}

// refusedNotes say what the entry's own env, or the files its command
// names, asked of the boundary and will not get when the proxy runs it
// enforced (launch.EnvRefusals: a cache variable pointing at ~/.ssh, a
// script under ~/.aws): a project file's word widens nothing, and the
// person reads here why the server may then fail.
func refusedNotes(c *hostcfg.Config, i int) []string {
	s := c.Servers[i]
	env := c.Env(i)
	var notes []string
	for _, r := range launch.EnvRefusals(append([]string{s.Command}, s.Args...), envList(os.Environ(), env)) {
		if _, own := env[r.Var]; own || r.Var == launch.RefusedCommand {
			notes = append(notes, fmt.Sprintf("warning: %s: %s is not granted when it runs enforced: %s", shown(s.Name), r.Subject(ShownPath(c.File.Home), shown), shown(r.Why)))
		}
	}
	return notes
}

// unwrapNotes say which folder arguments unwrap puts back: each {roots}
// and the arguments it becomes again, and nothing else of the command
// (the program and its other arguments stay as they are).
func unwrapNotes(s hostcfg.Server) []string {
	var back []string
	for _, group := range s.Orig {
		if len(group) > 0 {
			back = append(back, hostcfg.RootsArg+" → "+argWords(group))
		}
	}
	if len(back) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s: %s: it sees those folders again whatever you consent", shown(s.Name), strings.Join(back, ", "))}
}

// GeminiTrustNote says, for Gemini CLI's file f, when Gemini CLI's
// trusted folders mark f's project folder untrusted: run there, Gemini CLI
// reads none of the project's settings and starts no MCP server at all,
// the person's own included, wrapped or not, and nothing in the entries
// shows it. "" when the folder is not marked untrusted; a trust file that
// cannot be read is said too (Gemini CLI stops on it).
func GeminiTrustNote(f hostcfg.File) string {
	tr, err := hostcfg.GeminiFolderTrust(f.Home, f.Workspace, f.Getenv)
	if err != nil {
		return "note: whether Gemini CLI trusts " + ShownFolder(f.Workspace, f.Home) + " cannot be told: " + shown(err.Error())
	}
	if !tr.Untrusted {
		return ""
	}
	return fmt.Sprintf("note: Gemini CLI's trusted folders mark %s untrusted (%s: %s is DO_NOT_TRUST): run there, Gemini CLI reads no .gemini/settings.json of the folder and starts no MCP server at all, yours included, wrapped or not; /permissions in Gemini CLI changes it",
		ShownFolder(f.Workspace, f.Home), ShownFolder(tr.File, f.Home), ShownFolder(filepath.Clean(tr.Rule), f.Home))
}
