package main

import (
	"errors"
	"slices"

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
