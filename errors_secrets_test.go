package main

// Tests that no secret given on the command line comes back in an error:
// --url's own check, kong's errors that quote a value, and main's printing
// of every error (report). parse_test.go's TestNoSecretInErrors checks the
// config file's urls too.

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestURLFlagErrorHidesSecrets: --url with a URL url.Parse refuses, in
// each malformed shape, is refused naming what it got, with the host kept
// and no secret: the flag's own message (before main prints it) and what
// main prints.
func TestURLFlagErrorHidesSecrets(t *testing.T) {
	for _, tc := range []struct{ url, shown string }{
		{"http://a b@127.0.0.1:47310/%zz?token=SEKRITTOKEN42", `"http://REDACTED@127.0.0.1:47310/%zz?token=REDACTED"`}, // space in the user, bad escape
		{"http://alice:hunter2SEKRIT@127.0.0.1:1/%zz?api_key=SEKRIT#SEKRIT", `"http://REDACTED@127.0.0.1:1/%zz?api_key=REDACTED#REDACTED"`},
		{"127.0.0.1:47310/mcp?token=SEKRIT", `"127.0.0.1:47310/mcp?token=REDACTED"`},                                     // no scheme
		{"alice:SEKRIT@host.example/mcp?k=SEKRIT", `"REDACTED@host.example/mcp?k=REDACTED"`},                             // user:pass@host without scheme
		{"http://u:SEKRIT@[::1/mcp?token=SEKRIT", `"http://REDACTED@[::1/mcp?token=REDACTED"`},                           // an IPv6 bracket left open
		{"http://[::1]:9/%zz#SEKRIT", `"http://[::1]:9/%zz#REDACTED"`},                                                   // IPv6 and a fragment
		{"ftp://alice:SEKRIT@h.example/?api_key=SEKRIT#SEKRIT", `"ftp://REDACTED@h.example/?api_key=REDACTED#REDACTED"`}, // parses, wrong scheme
		{"http://u:pa#SEKRIT@h.example/", `"http://REDACTED@REDACTED"`},                                                  // '#' in the password: all hidden
	} {
		err := run([]string{"--url", tc.url, t.TempDir()}, io.Discard, io.Discard)
		var ee exitError
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Fatalf("--url %q: %v, want exit 2", tc.url, err)
		}
		var printed bytes.Buffer
		report(&printed, err)
		for _, text := range []string{ee.msg, printed.String()} {
			if strings.Contains(text, "SEKRIT") || strings.Contains(text, "alice") {
				t.Errorf("--url %q: the error shows a secret: %s", tc.url, text)
			}
			if !strings.Contains(text, "want an http:// or https:// URL with a host, got "+tc.shown) {
				t.Errorf("--url %q: the error is %q, want it to quote %s", tc.url, text, tc.shown)
			}
		}
	}
}

// TestReportHidesSecrets: errors that quote a value as given (kong's, the
// commands') are printed by main without its secrets; the exit code stays.
func TestReportHidesSecrets(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		shown string
	}{
		{[]string{"list", t.TempDir(), "http://u:SEKRIT1@h.example/?token=SEKRIT2"}, "unexpected argument http://REDACTED@h.example/?token=REDACTED"},
		{[]string{"--max-depth", "sk-proj-SEKRIT3abcdefghijklmnop", t.TempDir()}, `got "sk-REDACTED"`},
		{[]string{"--server", `npx srv --token SEKRIT4 "`, t.TempDir()}, `cannot split "npx srv --token REDACTED \""`},
		{[]string{"--init-timeout", "Bearer SEKRIT5", t.TempDir()}, `got "Bearer REDACTED"`},
		{[]string{"hosts", "wrap", "claude", "GITHUB_TOKEN=SEKRIT6"}, "no server GITHUB_TOKEN=REDACTED in claude"},
	} {
		err := run(tc.args, io.Discard, io.Discard)
		var ee exitError
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Fatalf("%q: %v, want exit 2", tc.args, err)
		}
		var printed bytes.Buffer
		if code := report(&printed, err); code != 2 {
			t.Errorf("%q: report returned %d, want 2", tc.args, code)
		}
		if strings.Contains(printed.String(), "SEKRIT") || !strings.Contains(printed.String(), tc.shown) {
			t.Errorf("%q: printed %q, want %q and no secret", tc.args, printed.String(), tc.shown)
		}
	}
	// A plain error (exit 1) is printed the same way.
	var printed bytes.Buffer
	if code := report(&printed, errors.New(`Post "http://u:SEKRIT7@h/mcp?k=SEKRIT8": refused`)); code != 1 ||
		printed.String() != "rootpick: Post \"http://REDACTED@h/mcp?k=REDACTED\": refused\n" {
		t.Errorf("report printed %q, code %d", printed.String(), code)
	}
	if code := report(&printed, nil); code != 0 {
		t.Errorf("report(nil) = %d", code)
	}
}

// TestNoConsentNoteHidesSecrets: the proxy's message to its host, when no
// consent can be read, quotes the reason without its secrets.
func TestNoConsentNoteHidesSecrets(t *testing.T) {
	note := noConsentNote("work", "")("consent: reading state from http://u:SEKRIT1@h/x?token=SEKRIT2: GITHUB_TOKEN=SEKRIT3 refused")
	if strings.Contains(note, "SEKRIT") || !strings.Contains(note, "http://REDACTED@h/x?token=REDACTED") || !strings.Contains(note, "--profile work") {
		t.Errorf("the note: %s", note)
	}
}
