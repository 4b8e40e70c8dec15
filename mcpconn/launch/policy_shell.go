package launch

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A server started through a shell (`sh -c 'exec npx -y pkg'`, `bash -c
// "source ~/.nvm/nvm.sh && npx …"`, common in host configurations) runs
// the programs named in the shell's command string, not the shell alone:
// the policy reads that string (mvdan.cc/sh's parser, already a
// dependency) and grants what each simple command with a literal program
// needs, as if it were the server's command, and reads a script it
// sources (`source FILE`, `. FILE`); a wrapper script with a shell's #!
// line is read the same way. What it cannot read statically (a
// program named by a variable or a substitution) is not granted: the
// server fails on it, and the pane says what it was refused.

// prefixWords run the command that follows them; shellBuiltins run no
// program of their own.
var (
	prefixWords   = []string{"exec", "command", "nohup", "builtin"}
	shellBuiltins = []string{"cd", "export", "set", "unset", "true", "false", "echo", "printf", "test", "["}
)

// dropPrefixWords is words without its leading prefixWords.
func dropPrefixWords(words []string) []string {
	for len(words) > 0 && slices.Contains(prefixWords, words[0]) {
		words = words[1:]
	}
	return words
}

// shells are the programs whose -c string is read.
var shells = []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash"}

// shellCommand reads the -c string of a shell's arguments, if there is
// one: `-c STRING`, or a cluster of short options holding c (`-lc`,
// `-ec`).
func shellCommand(args []string) (string, bool) {
	for i, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") {
			return "", false
		}
		if strings.Trim(a[1:], "abcefhiklmnprstuvxBCEHPT") == "" && strings.Contains(a, "c") && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

// shellC grants what the commands of a shell's -c string run.
func (b *policyBuilder) shellC(args []string) {
	if src, ok := shellCommand(args); ok {
		b.shellSource(src)
	}
}

// maxScriptRead bounds how much of a wrapper script is read.
const maxScriptRead = 256 << 10

// shellScript grants what a shell script the server runs as its program
// (a wrapper: `#!/bin/sh` then `exec npx -y pkg "$@"`) runs, as far as
// reading its text tells: as a -c string is read.
func (b *policyBuilder) shellScript(file string) {
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxScriptRead))
	if err == nil {
		b.shellSource(string(src))
	}
}

// shellSource grants what the simple commands of shell source src run.
func (b *policyBuilder) shellSource(src string) {
	if b.depth >= 4 {
		return
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		return
	}
	b.depth++
	defer func() { b.depth-- }()
	syntax.Walk(f, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok {
			b.shellCall(call)
		}
		return true
	})
}

// shellCall grants what one simple command of a shell string runs: its
// program and interpreter, its launcher's cache, the script it runs or
// sources. Only literal words count.
func (b *policyBuilder) shellCall(call *syntax.CallExpr) {
	var words []string
	for _, w := range call.Args {
		s, ok := b.literal(w)
		if !ok {
			break // a word the shell expands at run time: the rest is not read
		}
		words = append(words, s)
	}
	words = dropPrefixWords(words)
	if len(words) == 0 {
		return
	}
	switch words[0] {
	case "source", ".":
		if len(words) > 1 {
			p := b.abs(words[1])
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				if r, err := filepath.EvalSymlinks(p); err == nil {
					b.runtimeFile(r, AccessRead, WhyPackage)
					b.pkg(r)
				}
			}
		}
		return
	}
	if slices.Contains(shellBuiltins, words[0]) {
		return
	}
	b.commandLine(words)
}

// literal is word's value where the shell would not expand it at run
// time (plain text, quoted text, a leading ~/ for the home folder).
func (b *policyBuilder) literal(w *syntax.Word) (string, bool) {
	var sb strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && (v == "~" || strings.HasPrefix(v, "~/")) {
				if b.home == "" {
					return "", false
				}
				v = b.home + v[1:]
			}
			sb.WriteString(v)
		case *syntax.SglQuoted:
			sb.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				sb.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// lastShellCall is the literal words of the last simple command of shell
// source src that runs a program (exec and the like dropped; source, cd,
// export… skipped): what a -c string serves, for its label. nil when
// there is none.
func lastShellCall(src string) []string {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		return nil
	}
	var last []string
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		var words []string
		for _, w := range call.Args {
			s := w.Lit()
			if s == "" {
				break
			}
			words = append(words, s)
		}
		words = dropPrefixWords(words)
		if len(words) > 0 && !slices.Contains(shellBuiltins, words[0]) && words[0] != "source" && words[0] != "." {
			last = words
		}
		return true
	})
	return last
}
