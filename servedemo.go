package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"

	"github.com/rootpick/rootpick/mcpconn"
)

// serveDemoCmd runs the built-in roots-aware demo server on stdio.
type serveDemoCmd struct {
	Record string `placeholder:"FILE" type:"path" help:"Append every roots/list answer received to FILE as JSON Lines."`
	// Try is what rootpick demo runs it with (mcpconn.Demo.TryOpen).
	Try   bool `help:"After each roots/list answer, try to list the first root and the folder above it, and say on stderr how each went (rootpick demo shows the boundary so)."`
	Debug bool `help:"Log at debug level (the log goes to stderr)."`
}

func (o *serveDemoCmd) Help() string {
	return `The demo asks roots/list after initialized and on every list_changed, and
offers the tool list_roots. Stdout is the protocol; the log
goes to stderr.

Example:
  rootpick ~/src -- rootpick serve-demo --record /tmp/roots.jsonl`
}

func (o *serveDemoCmd) Run(e *env) error {
	if e.dashdash {
		return usageError("serve-demo takes no arguments, got -- %q", e.command)
	}
	stderr := e.stderr
	var record io.Writer
	if o.Record != "" {
		f, err := os.OpenFile(o.Record, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		record = f
	}
	level := slog.LevelInfo
	if o.Debug {
		level = slog.LevelDebug
	}
	// On stdio, stdout is the protocol; the log goes to stderr, which the
	// client (rootpick) sends to its own log.
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	ctx := onSignals(context.Background())
	defer ctx.stop()
	demo := mcpconn.NewDemo(logger, record)
	if o.Try {
		demo.TryOpen(stderr)
	}
	err := demo.ServeStdio(ctx)
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
