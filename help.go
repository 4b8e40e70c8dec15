package main

import (
	"errors"
	"os"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
)

// helpCmd is "rootpick help [COMMAND]": the same as COMMAND --help.
type helpCmd struct {
	Command []string `arg:"" optional:"" help:"The command to describe."`
}

func (h *helpCmd) Run(e *env, k *kong.Kong) error {
	// Without this, an unknown word would be taken as pick's DIR.
	if len(h.Command) > 0 && !slices.ContainsFunc(k.Model.Children, func(n *kong.Node) bool { return n.Name == h.Command[0] }) {
		return usageError("help: no command %q (see 'rootpick --help')", h.Command[0])
	}
	var c cli
	k, err := newParser(&c, e.stdout, e.stderr)
	if err != nil {
		return err
	}
	// --help prints and exits through the parser's Exit (exit 0).
	_, err = k.Parse(append(h.Command, "--help"))
	if err != nil {
		if pe := (*kong.ParseError)(nil); errors.As(err, &pe) {
			return usageError("help: %v (see 'rootpick --help')", err)
		}
	}
	return err
}

// unknownCommand reports a DIR that is no folder but looks like a
// mistyped command ("rootpick lst"), so the person reads "did you mean
// list?" rather than "cannot scan". A folder that exists always wins.
func unknownCommand(k *kong.Kong, word string) error {
	if word == "" || strings.ContainsAny(word, `/\.~`) {
		return nil
	}
	if _, err := os.Lstat(word); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	best, bestDist := "", 3 // at most two edits away
	for _, n := range k.Model.Children {
		if n.Hidden {
			continue
		}
		if d := editDistance(word, n.Name); d < bestDist {
			best, bestDist = n.Name, d
		}
	}
	if best == "" {
		return nil
	}
	return usageError("no folder or command %q; did you mean '%s'? (see 'rootpick --help')", word, "rootpick "+best)
}

// editDistance is the Levenshtein distance between a and b, by bytes
// (command names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
