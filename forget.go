package main

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strconv"
	"strings"

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
	if err := useStateDir(o.StateDir); err != nil {
		return err
	}
	store, err := consent.OpenStore(o.Profile)
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

// loadConsent reads the remembered consent; an unreadable or untrusted
// record is logged and treated as none (nothing is served from it), and
// problem says why for the status line.
func loadConsent(store *consent.Store, logger *slog.Logger) (rec *consent.Record, problem string) {
	r, err := store.Load()
	switch {
	case err == nil:
		logger.Info("remembered consent", "profile", store.Profile(), "roots", len(r.Roots), "time", r.Time)
		return &r, ""
	case !errors.Is(err, fs.ErrNotExist):
		logger.Warn("remembered consent unreadable", "profile", store.Profile(), "err", err)
		var u *consent.UntrustedError
		if errors.As(err, &u) {
			return nil, "Remembered consent not believed: " + u.Error()
		}
		return nil, "Remembered consent unreadable: " + strings.TrimPrefix(err.Error(), "consent: ")
	}
	return nil, ""
}
