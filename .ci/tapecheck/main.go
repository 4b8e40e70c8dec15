// Command tapecheck checks VHS tape files (demo.tape) the way
// `vhs validate` does, with the same code: VHS's own lexer and parser
// (github.com/charmbracelet/vhs/parser, pinned in this module's go.mod to the
// VHS version that records the demo). `vhs validate` does nothing else, but
// `go run github.com/charmbracelet/vhs@VERSION validate` builds all of VHS
// (its browser driver, its video and SSH dependencies) on a machine with an
// empty Go cache, close to two minutes on CI's two cores; these three
// packages build in seconds. Unlike `vhs validate`, a file it cannot read
// fails too.
//
//	go -C .ci/tapecheck run . ../../demo.tape
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/vhs/lexer"
	"github.com/charmbracelet/vhs/parser"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: tapecheck FILE...")
		os.Exit(2)
	}
	valid := true
	for _, path := range os.Args[1:] {
		b, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			valid = false
			continue
		}
		p := parser.New(lexer.New(string(b)))
		cmds := p.Parse()
		errs := p.Errors()
		if len(errs) == 0 {
			fmt.Printf("%s: valid (%d commands)\n", path, len(cmds))
			continue
		}
		valid = false
		lines := strings.Split(string(b), "\n")
		for _, e := range errs {
			line := ""
			if n := e.Token.Line; n >= 1 && n <= len(lines) {
				line = strings.TrimSpace(lines[n-1])
			}
			fmt.Fprintf(os.Stderr, "%s:%d:%d: %s (in %q)\n", path, e.Token.Line, e.Token.Column, e.Msg, line)
		}
	}
	if !valid {
		os.Exit(1)
	}
}
