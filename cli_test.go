package main

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestUsageErrorsExit2(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{dir, dir},
		{"list", dir, dir},
		{"--server", " ", dir},
		{"--no-such-flag"},
		{"serve-demo", "extra"},
	} {
		var ee exitError
		err := run(args, io.Discard, io.Discard)
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("%q: %v, want exit 2", args, err)
		}
	}
	var ee exitError
	if err := run([]string{"--help"}, io.Discard, io.Discard); !errors.As(err, &ee) || ee.code != 0 {
		t.Errorf("--help: %v, want exit 0", err)
	}
}

// TestPickScanFlags: the picker takes the walk's flags, as list does.
func TestPickScanFlags(t *testing.T) {
	c, _, err := parse([]string{"--all", "--skip", "build", "--skip", "out", "--follow", "--one-file-system", "dir"}, &env{stdout: io.Discard, stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	o := c.Pick
	if !o.All || !o.Follow || !o.OneFileSystem || strings.Join(o.Skip, ",") != "build,out" || o.Dir != "dir" {
		t.Fatalf("options %+v", o)
	}
}
