package main

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"

	"github.com/rootpick/rootpick/consent"
)

// forgetCmd clears the remembered consent of a profile and notes it in the
// audit log.
type forgetCmd struct {
	Profile  string `placeholder:"NAME" default:"${profile}" help:"Forget the consent of profile NAME (default: ${default})."`
	StateDir string `name:"state-dir" type:"path" placeholder:"DIR" help:"Keep consent, the proxy registry and logs in DIR (default: $$XDG_STATE_HOME/rootpick, else ~/.local/state/rootpick)."`
}

func (o *forgetCmd) Help() string {
	return `The forgetting is noted in the profile's audit log.

Example:
  rootpick forget --profile work`
}

func (o *forgetCmd) Run(e *env) error {
	if e.dashdash {
		return usageError("forget takes no arguments, got -- %q", e.command)
	}
	stdout := e.stdout
	if err := useStateDir(e, o.StateDir); err != nil {
		return err
	}
	state, err := e.dirs.State()
	if err != nil {
		return err
	}
	store, err := consent.OpenStoreAt(state, o.Profile)
	if err != nil {
		return usageError("--profile: %v", err)
	}
	rec, loadErr := store.Load()
	if err := store.Forget(); err != nil {
		return err
	}
	if errors.Is(loadErr, fs.ErrNotExist) {
		fmt.Fprintf(stdout, "Nothing remembered for profile %s.\n", o.Profile)
		return nil
	}
	entry := consent.AuditEntry{Action: "forget", Dir: rec.Dir, Servers: []string{}, Added: []string{}, Removed: []string{}, Warnings: []string{}}
	for _, r := range rec.Roots {
		entry.Removed = append(entry.Removed, r.Path)
	}
	if err := store.AppendAudit(entry); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Forgot the consent of profile %s (%s).\n", o.Profile, strconv.Quote(store.Path()))
	return nil
}
