package main

import (
	"os"
	"testing"
	"time"
)

// TestInitTimeoutOnlyWhenGiven: the hub gets --init-timeout only when the
// command line gives it; otherwise 0, so that it can give a first start
// through npx and the like its longer budget.
func TestInitTimeoutOnlyWhenGiven(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{[]string{"dir", "--", "npx", "-y", "srv"}, 0},
		{[]string{"--init-timeout", "15s", "dir", "--", "npx", "-y", "srv"}, 15 * time.Second},
		{[]string{"--init-timeout=1m30s", "dir"}, 90 * time.Second},
	} {
		e := &env{stdout: os.Stdout, stderr: os.Stderr}
		c, kctx, err := parse(tc.args, e)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if got := c.Pick.initTimeout(kctx); got != tc.want {
			t.Errorf("%q: init timeout %v; want %v", tc.args, got, tc.want)
		}
	}
}
