package main

import (
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/alecthomas/kong"
	"mvdan.cc/sh/v3/shell"
)

// flagGroups title the groups flags are shown in by --help.
var flagGroups = []kong.Group{
	{Key: "servers", Title: "Servers:"},
	{Key: "scan", Title: "Scanning:"},
	{Key: "consent", Title: "Consent:"},
	{Key: "output", Title: "Output:"},
	{Key: "log", Title: "Logging:"},
}

// httpURL is an http or https URL with a host, checked while parsing.
type httpURL string

func (u *httpURL) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("url", &s); err != nil {
		return err
	}
	p, err := url.Parse(s)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return fmt.Errorf("want an http:// or https:// URL with a host, got %q", s)
	}
	*u = httpURL(s)
	return nil
}

// depth is a number of levels, 0 or more.
type depth int

func (d *depth) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("N", &s); err != nil {
		return err
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want a number of levels, got %q", s)
	}
	if n < 0 {
		return fmt.Errorf("must be 0 or more, got %d", n)
	}
	*d = depth(n)
	return nil
}

// positiveDuration is a time.Duration above zero.
type positiveDuration time.Duration

func (p *positiveDuration) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("duration", &s); err != nil {
		return err
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want a duration such as 10s or 1m, got %q", s)
	}
	if d <= 0 {
		return fmt.Errorf("must be positive, got %s", d)
	}
	*p = positiveDuration(d)
	return nil
}

// shellCommand is a command line split with shell rules, so that quotes
// keep an argument with spaces whole ('uvx srv --root "my dir"').
type shellCommand []string

func (c *shellCommand) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("command", &s); err != nil {
		return err
	}
	// $VAR is expanded from the environment, as a shell would.
	f, err := shell.Fields(s, nil)
	if err != nil {
		return fmt.Errorf("cannot split %q: %v", s, err)
	}
	if len(f) == 0 {
		return fmt.Errorf("needs a command, got %q", s)
	}
	*c = f
	return nil
}
