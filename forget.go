package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"strconv"

	"github.com/rootpick/rootpick/consent"
)

// runForget clears the remembered consent of a profile (rootpick forget
// [--profile NAME]) and notes it in the audit log.
func runForget(args []string, stdout, stderr io.Writer) error {
	var o options
	pos, _, err := parse("forget", args, &o, stderr)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError("forget takes no arguments, got %q", pos)
	}
	store, err := consent.OpenStore(o.profile)
	if err != nil {
		return usageError("--profile: %v", err)
	}
	rec, loadErr := store.Load()
	if err := store.Forget(); err != nil {
		return err
	}
	if errors.Is(loadErr, fs.ErrNotExist) {
		fmt.Fprintf(stdout, "Nothing remembered for profile %s.\n", o.profile)
		return nil
	}
	entry := consent.AuditEntry{Action: "forget", Dir: rec.Dir, Servers: []string{}, Added: []string{}, Removed: []string{}, Warnings: []string{}}
	for _, r := range rec.Roots {
		entry.Removed = append(entry.Removed, r.Path)
	}
	if err := store.AppendAudit(entry); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Forgot the consent of profile %s (%s).\n", o.profile, strconv.Quote(store.Path()))
	return nil
}

// loadConsent reads the remembered consent; an unreadable record is
// logged and treated as none (nothing is served from it).
func loadConsent(store *consent.Store, logger *slog.Logger) *consent.Record {
	rec, err := store.Load()
	switch {
	case err == nil:
		logger.Info("remembered consent", "profile", store.Profile(), "roots", len(rec.Roots), "time", rec.Time)
		return &rec
	case !errors.Is(err, fs.ErrNotExist):
		logger.Warn("remembered consent unreadable", "profile", store.Profile(), "err", err)
	}
	return nil
}
