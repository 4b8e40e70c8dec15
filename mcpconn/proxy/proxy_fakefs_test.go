package proxy

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/internal/testproc"
	"github.com/rootpick/rootpick/mcpconn/faultserver"
)

// The proxy in front of faultserver.Filesystem, server-filesystem's
// stand-in: what needs a server that ignores an empty list, on every
// machine.

// TestProxyTellsAMismatchOnce: the host is warned once per new mismatch,
// not each time the server is asked what it holds. server-filesystem with
// a folder argument, served no consent, keeps the folder: the host is
// warned. The server crashes and is restarted; it fetches, is asked again
// and holds the same folder: no second warning. The consent then gives it
// a folder, which it holds (the mismatch is over), and revoking everything
// restarts it with its argument: the mismatch is back, and the host is
// warned again — of the argument, which it holds after the restart, not
// of the revoked folder it would keep without one.
func TestProxyTellsAMismatchOnce(t *testing.T) {
	base := tempDir(t)
	a := testproc.Root(t, filepath.Join(base, "a"))
	arg := testproc.Root(t, filepath.Join(base, "arg"))
	marker := testproc.UniqueMarker("fakefs-once")
	src := testproc.NewSource()
	var opts Options
	statuses := proxyStatuses(&opts)
	h := startMsgHost(t, testproc.SelfServer(t, "filesystem", marker, arg.Path), src, opts)
	holdsArg := "holds " + arg.Path + " beyond the consent"
	st, warned := verifiedHost(t, h, statuses)
	if st.Mismatch != holdsArg {
		t.Fatalf("verified %q, mismatch %q; want %q", st.Verified, st.Mismatch, holdsArg)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], holdsArg) {
		t.Fatalf("the host's warnings: %q", warned)
	}

	// The same mismatch after a restart.
	killed := time.Now()
	faultserver.KillServer(t, marker)
	waitFor(t, "the restarted server asked what it holds", func() bool {
		st := lastStatus(statuses)
		return st.VerifiedAt.After(killed) && st.Mismatch != ""
	})
	w := &warnings{}
	h.answer(h.send("ping", map[string]any{}, true), w.see)
	if st := lastStatus(statuses); st.Mismatch != holdsArg {
		t.Fatalf("after the restart: verified %q, mismatch %q; want %q", st.Verified, st.Mismatch, holdsArg)
	}
	if len(w.texts) > 0 {
		t.Errorf("the host was told the same mismatch again: %q", w.texts)
	}

	// Over, then back.
	src.Set([]consent.Root{a}, nil)
	waitFor(t, "the server to hold a", func() bool {
		st := lastStatus(statuses)
		return slices.Equal(st.Verified, []string{a.URI}) && st.Mismatch == ""
	})
	src.Set(nil, nil)
	waitFor(t, "the mismatch to come back", func() bool { return lastStatus(statuses).Mismatch != "" })
	h.answer(h.send("ping", map[string]any{}, true), w.see)
	if st := lastStatus(statuses); st.Mismatch != holdsArg || !slices.Equal(st.Verified, []string{arg.URI}) {
		t.Errorf("after revoking everything: verified %q, mismatch %q; want %q (restarted with its argument)", st.Verified, st.Mismatch, holdsArg)
	}
	if len(w.texts) != 1 || !strings.Contains(w.texts[0], holdsArg) {
		t.Errorf("after the mismatch came back the host's warnings: %q; want one, of %s", w.texts, arg.Path)
	}
}
