package main

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/redact"
	"github.com/rootpick/rootpick/mcpconn/launch"
	"mvdan.cc/sh/v3/shell"
)

// flagGroups title the groups flags are shown in by --help.
var flagGroups = []kong.Group{
	{Key: "servers", Title: "Servers:"},
	{Key: "scan", Title: "Scanning:"},
	{Key: "consent", Title: "Consent:"},
	{Key: "output", Title: "Output:"},
	{Key: "screen", Title: "Screen:"},
	{Key: "log", Title: "Logging:"},
}

// The flag value types below decode from the command line (kong's
// Decode) and from the config file (TOML's UnmarshalTOML) with the same
// check, so that a value is refused alike wherever it is written.

// httpURL is an http or https URL with a host, checked while parsing.
type httpURL string

func (u *httpURL) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("url", &s); err != nil {
		return err
	}
	v, err := checkHTTPURL(s)
	if err != nil {
		return err
	}
	*u = v
	return nil
}

// UnmarshalTOML reads a server's url from the config file.
func (u *httpURL) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return wrongType("a string", v)
	}
	got, err := checkHTTPURL(s)
	*u = got
	return err
}

// checkHTTPURL is the check of --url, also made on the config file's urls.
func checkHTTPURL(s string) (httpURL, error) {
	p, err := url.Parse(s)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return "", fmt.Errorf("want an http:// or https:// URL with a host, got %q", redact.URL(s))
	}
	return httpURL(s), nil
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
	v, err := checkDepth(n)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// UnmarshalTOML reads max_depth from the config file: an integer.
func (d *depth) UnmarshalTOML(v any) error {
	n, ok := v.(int64)
	if !ok {
		return wrongType("an integer", v)
	}
	if n != int64(int(n)) {
		return fmt.Errorf("%d is too large", n)
	}
	got, err := checkDepth(int(n))
	*d = got
	return err
}

// checkDepth is the check of --max-depth, also made on the config file's.
func checkDepth(n int) (depth, error) {
	if n < 0 {
		return 0, fmt.Errorf("must be 0 or more, got %d", n)
	}
	return depth(n), nil
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
	f, err := splitCommand(s)
	if err != nil {
		return err
	}
	*c = f
	return nil
}

// UnmarshalTOML reads a server's command from the config file: an array
// of words, or one string split with shell rules as --server is.
func (c *shellCommand) UnmarshalTOML(v any) error {
	if s, ok := v.(string); ok {
		f, err := splitCommand(s)
		*c = f
		return err
	}
	var l tomlStrings
	if err := l.UnmarshalTOML(v); err != nil {
		if _, ok := v.([]any); !ok {
			return wrongType("a string or an array of strings", v)
		}
		return err
	}
	if len(l) == 0 || l[0] == "" {
		return errors.New("needs a command, got none")
	}
	*c = shellCommand(l)
	return nil
}

// splitCommand is the split and check of --server, also made on the config
// file's commands given as one string.
func splitCommand(s string) (shellCommand, error) {
	// $VAR is expanded from the environment, as a shell would.
	f, err := shell.Fields(s, nil)
	if err != nil {
		return nil, fmt.Errorf("cannot split %q: %v", s, err)
	}
	if len(f) == 0 {
		return nil, fmt.Errorf("needs a command, got %q", s)
	}
	return f, nil
}

// useStateDir applies --state-dir to e.dirs: rootpick's state folder
// (consent records, the proxy registry, logs) for this run, where the
// environment cannot be relied on to say it (hosts start servers with a
// minimal one).
//
// The folder must be named by its absolute path (a host starts the proxy
// in a folder of its own choosing, so a relative one would move), and be
// absent or already private (consent.CheckNamedDir): rootpick changes no
// folder it did not make.
func useStateDir(e *env, dir string) error {
	if dir == "" {
		return nil
	}
	if strings.HasPrefix(dir, "~/") {
		dir = kong.ExpandPath(dir)
	}
	if !filepath.IsAbs(dir) {
		return usageError("--state-dir %q is a relative path: name the folder by its absolute path", dir)
	}
	dirs, err := e.dirs.WithStateDir(dir, consent.CheckNamedDir)
	if err != nil {
		var ue *consent.UntrustedError
		if errors.As(err, &ue) {
			return usageError("--state-dir: %v; rootpick changes no folder it did not make: name a folder that does not exist yet, or make this one private yourself (chmod 700)", err)
		}
		return usageError("--state-dir: %v", err)
	}
	e.dirs = dirs
	return nil
}

// enforceFlag is --enforce, and a server's enforce in the config file:
// whether the kernel enforces what a stdio server may open (on, off or
// require; see launch.Enforce).
type enforceFlag string

func (e *enforceFlag) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("on|off|require", &s); err != nil {
		return err
	}
	v, err := checkEnforce(s)
	if err != nil {
		return err
	}
	*e = v
	return nil
}

// UnmarshalTOML reads a server's enforce from the config file.
func (e *enforceFlag) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return wrongType("a string", v)
	}
	got, err := checkEnforce(s)
	*e = got
	return err
}

// checkEnforce is the check of --enforce, also made on the config file's.
func checkEnforce(s string) (enforceFlag, error) {
	switch s {
	case "on", "off", "require":
		return enforceFlag(s), nil
	}
	return "", fmt.Errorf("want on, off or require, got %q", s)
}

// networkFlag is --network and a server's network in the config file:
// on or off (launch.Network).
type networkFlag string

func (n *networkFlag) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("on|off", &s); err != nil {
		return err
	}
	v, err := launch.ParseNetwork(s)
	*n = networkFlag(v)
	return err
}

// UnmarshalTOML reads a server's network from the config file.
func (n *networkFlag) UnmarshalTOML(v any) error {
	s, ok := v.(string)
	if !ok {
		return wrongType("a string", v)
	}
	got, err := launch.ParseNetwork(s)
	*n = networkFlag(got)
	return err
}

// allowPaths is a server's allow-read or allow-write in the config file:
// an array of absolute paths or paths under ~/ (as dir is), since the
// file is read from any folder. On the command line --allow-read and
// --allow-write are kong paths: relative to the current folder.
type allowPaths []string

func (a *allowPaths) UnmarshalTOML(v any) error {
	var l tomlStrings
	if err := l.UnmarshalTOML(v); err != nil {
		return err
	}
	out := make([]string, 0, len(l))
	for i, p := range l {
		abs, err := expandDir(p)
		if err != nil {
			return fmt.Errorf("element %d: %w", i+1, err)
		}
		out = append(out, abs)
	}
	*a = out
	return nil
}
