package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/rootpick/rootpick/ui"
)

// manCmd prints the man page, written from the same kong model as --help
// and the completions, so it always names every command and flag.
//
// It is written here rather than with mango-kong: that adapter (v0.1.0,
// untouched since 2022, over muesli/mango v0.2.0 and muesli/roff v0.1.0)
// glues each command's details to its name ("\fBcompletion <shell>
// [flags]\fPExamples:"), lists commands as tagged paragraphs instead of
// one section each, splits examples into one paragraph a line (their
// columns lost), puts the description in the page's header and leaves
// "-" unescaped (so "--config" is not typed as it reads); tried again on
// this model for issue 29. The page takes 150 lines with the model we
// already walk for completions.
type manCmd struct{}

func (manCmd) Help() string {
	return `Examples:
  rootpick man | man -l -
  rootpick man > ~/.local/share/man/man1/rootpick.1`
}

func (manCmd) Run(e *env, k *kong.Kong) error {
	bi, _ := debug.ReadBuildInfo()
	_, err := io.WriteString(e.stdout, manPage(k.Model, bi))
	return err
}

// manPage is the roff source of rootpick(1). Its date is the commit's, so
// that two builds of one commit give the same page.
func manPage(app *kong.Application, bi *debug.BuildInfo) string {
	var b strings.Builder
	date := ""
	if bi != nil {
		for _, s := range bi.Settings {
			if s.Key == "vcs.time" && len(s.Value) >= 10 {
				date = s.Value[:10]
			}
		}
	}
	fmt.Fprintf(&b, ".TH ROOTPICK 1 %s %s \"User Commands\"\n", roffQuote(date), roffQuote("rootpick "+version()))
	summary, _, _ := strings.Cut(description, "\n")
	b.WriteString(".SH NAME\nrootpick \\- " + roffText(strings.ToLower(summary[:1])+strings.TrimSuffix(summary[1:], ".")) + "\n")
	b.WriteString(".SH SYNOPSIS\n")
	b.WriteString(".B rootpick\n[\\fIflags\\fR] [\\fIDIR\\fR] [\\fB\\-\\-\\fR \\fISERVER_COMMAND\\fR [\\fIARGS\\fR...]]\n.br\n")
	b.WriteString(".B rootpick\n\\fICOMMAND\\fR [\\fIflags\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n")
	_, rest, _ := strings.Cut(description, "\n")
	manBlock(&b, rest)
	if len(app.Flags) > 0 {
		b.WriteString(".SH OPTIONS\n")
		manFlags(&b, app.Flags)
	}
	b.WriteString(".SH COMMANDS\n")
	var commands func(parent *kong.Node)
	commands = func(parent *kong.Node) {
		for _, n := range parent.Children {
			if n.Hidden || n.Type != kong.CommandNode {
				continue
			}
			fmt.Fprintf(&b, ".SS %s\n", roffQuote("rootpick "+n.Summary()))
			manBlock(&b, n.Help)
			if n.Detail != "" {
				manBlock(&b, n.Detail)
			}
			for _, a := range n.Positional {
				fmt.Fprintf(&b, ".TP\n\\fI%s\\fR\n%s\n", roffText(strings.ToUpper(a.Name)), roffText(a.Help))
			}
			manFlags(&b, n.Flags)
			commands(n)
		}
	}
	commands(app.Node)
	// The picker's keys, from its bindings (the README's table is the
	// same list): a key rebound in ui changes this page with it.
	b.WriteString(".SH KEYS\n")
	manBlock(&b, "In the picker, letters, digits and - _ . / type into the query (fuzzy; space separates terms); every command is a key that cannot be typed in a name. ? shows them all, with what each row mark and server state means.")
	for _, row := range ui.KeyTable() {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", roffText(row[0]), roffText(row[1]))
	}
	b.WriteString(".SH EXIT STATUS\n")
	manBlock(&b, "0 on success; 1 when something failed (a folder that cannot be scanned, a server that never started); 2 for a bad command line; 130 when interrupted with ctrl+c; 128+N when ended by signal N.")
	b.WriteString(".SH ENVIRONMENT\n")
	for _, v := range [][2]string{
		{"ROOTPICK_CONFIG", "The config file to read when --config is not given."},
		{"XDG_CONFIG_HOME", "Where the config file is looked for: rootpick/config.toml under it (default ~/.config)."},
		{"XDG_STATE_HOME", "Where the remembered consent, the audit log, the log file and the proxy registry live (default ~/.local/state)."},
		{"NO_COLOR", "When set and not empty, the picker draws no colour."},
	} {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", v[0], roffText(v[1]))
	}
	b.WriteString(".SH FILES\n")
	manBlock(&b, "$XDG_CONFIG_HOME/rootpick/config.toml is the config file (see rootpick config --help; rootpick config path prints where it is on this system).")
	manBlock(&b, "$XDG_STATE_HOME/rootpick/ holds PROFILE.json (the remembered consent of each profile), its audit log, rootpick.log and run/, where running proxies register.")
	b.WriteString(".SH SEE ALSO\n")
	manBlock(&b, "The README at https://github.com/rootpick/rootpick, and the MCP roots specification at https://modelcontextprotocol.io/specification/.")
	return b.String()
}

// manFlags writes one tagged paragraph a visible flag, in kong's groups'
// order of appearance.
func manFlags(b *strings.Builder, flags []*kong.Flag) {
	for _, f := range flags {
		if f.Hidden {
			continue
		}
		tag := "\\fB\\-\\-" + roffText(f.Name) + "\\fR"
		if f.Short != 0 {
			tag = "\\fB\\-" + roffText(string(f.Short)) + "\\fR, " + tag
		}
		if !f.IsBool() {
			tag += "=\\fI" + roffText(f.FormatPlaceHolder()) + "\\fR"
		}
		fmt.Fprintf(b, ".TP\n%s\n%s\n", tag, roffText(f.Help))
	}
}

// manBlock writes text as paragraphs: blank lines separate paragraphs, and
// indented lines (examples) are kept as they are, unfilled.
func manBlock(b *strings.Builder, text string) {
	inExample := false
	for _, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		b.WriteString(".PP\n")
		for _, line := range strings.Split(para, "\n") {
			example := strings.HasPrefix(line, "  ")
			switch {
			case example && !inExample:
				b.WriteString(".RS 2\n.nf\n")
			case !example && inExample:
				b.WriteString(".fi\n.RE\n")
			}
			inExample = example
			if example {
				line = strings.TrimPrefix(line, "  ")
			}
			b.WriteString(roffText(line) + "\n")
		}
		if inExample {
			b.WriteString(".fi\n.RE\n")
			inExample = false
		}
	}
}

// roffText escapes s for roff: backslashes, hyphens (so options copy as
// ASCII minus), a leading dot or quote, which would start a request, and
// anything not ASCII, as a named glyph (troff reads bytes, not UTF-8).
func roffText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r > 0x7e:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		default:
			b.WriteRune(r)
		}
	}
	s = b.String()
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffQuote is s as one quoted macro argument.
func roffQuote(s string) string {
	return `"` + strings.ReplaceAll(roffText(s), `"`, `\(dq`) + `"`
}
