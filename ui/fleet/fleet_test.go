package fleet

import (
	"strings"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
	"github.com/rootpick/rootpick/mcpconn"
)

// sharing is a sharing state as the fleet reads it.
type sharing struct {
	served   []consent.Root
	applying bool
}

func (s sharing) Served() []consent.Root { return s.served }
func (s sharing) Applying() bool         { return s.applying }

// TestVerdictIsOfTheViewHanded: the fleet keeps only what it was told of
// its servers; the rest of a judgement is the view each call hands it.
// The same server, told the same events, reads synced, pending (a change
// on its way) or pending again (another set shared, or none) as the view
// says, and a restart's countdown follows the view's clock.
func TestVerdictIsOfTheViewHanded(t *testing.T) {
	api := consent.Root{URI: "file:///work/api", Path: "/work/api", Name: "api"}
	web := consent.Root{URI: "file:///work/web", Path: "/work/web", Name: "web"}
	start := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	f := New("fs")
	f.Apply(mcpconn.Event{Server: "fs", Kind: mcpconn.Connected}, start)
	f.Apply(mcpconn.Event{Server: "fs", Kind: mcpconn.Fetched, URIs: []string{api.URI}}, start)
	for _, c := range []struct {
		sh   sharing
		want string
	}{
		{sharing{served: []consent.Root{api}}, "synced"},
		{sharing{served: []consent.Root{api}, applying: true}, "pending"},
		{sharing{served: []consent.Root{web}}, "pending"},
		{sharing{}, "pending"}, // it holds api until it asks again
	} {
		if got := f.Line(View{Sharing: c.sh, Now: start}, 200); !strings.Contains(got, "● fs "+c.want) {
			t.Errorf("served %v, applying %v: %q, want fs %s", c.sh.served, c.sh.applying, got, c.want)
		}
	}
	if f.Apply(mcpconn.Event{Server: "fs", Kind: mcpconn.Restarting, Attempt: 1, Delay: 5 * time.Second}, start) != true {
		t.Fatal("a restart after a pause asked for no tick")
	}
	for secs, want := range map[int]string{0: "restarting in 5s", 2: "restarting in 3s", 9: "restarting in 0s"} {
		v := View{Sharing: sharing{}, Now: start.Add(time.Duration(secs) * time.Second)}
		if got := f.Line(v, 200); !strings.Contains(got, want) {
			t.Errorf("%d s after: %q, want %q", secs, got, want)
		}
	}
}

// The server pane with no server says how to name one, whole: at 80
// columns the sentence was cut ("…here to…"); it wraps.
func TestNoServerSentenceIsWhole(t *testing.T) {
	f := New()
	for _, w := range []int{30, 80} {
		got := strings.Join(strings.Fields(strings.Join(f.PaneLines(View{Sharing: sharing{}}, w), " ")), " ")
		if !strings.Contains(got, "rootpick proxy shows up here too.") || strings.Contains(got, "…") {
			t.Errorf("at %d columns: %q", w, got)
		}
	}
}
