package launch

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestReadLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		max  int
		want []string
	}{
		{"plain", "a\nb\n", 16, []string{"a", "b"}},
		{"crlf and no final newline", "a\r\nb", 16, []string{"a", "b"}},
		{"empty lines kept", "\n\nx\n", 16, []string{"", "", "x"}},
		{"exactly max", strings.Repeat("y", 16) + "\nz\n", 16, []string{strings.Repeat("y", 16), "z"}},
		{"long line cut, next kept", strings.Repeat("x", 40) + "\nafter\n", 16,
			[]string{strings.Repeat("x", 16) + " … (24 more bytes dropped)", "after"}},
		{"long line at EOF", strings.Repeat("x", 40), 16,
			[]string{strings.Repeat("x", 16) + " … (24 more bytes dropped)"}},
		// "é" is 2 bytes: a cut in its middle backs off to before it.
		{"cut on a rune boundary", strings.Repeat("a", 15) + "é" + strings.Repeat("b", 9) + "\n", 16,
			[]string{strings.Repeat("a", 15) + " … (11 more bytes dropped)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			readLines(strings.NewReader(tc.in), tc.max, func(s string) { got = append(got, s) })
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestStderrRing(t *testing.T) {
	r := NewStderrRing(3, 8)
	if got := r.Tail(5); len(got) != 0 {
		t.Fatalf("empty ring Tail = %q", got)
	}
	r.Add("one")
	r.Add("two")
	if got := r.Tail(0); !slices.Equal(got, []string{"one", "two"}) {
		t.Fatalf("Tail(0) = %q", got)
	}
	r.Add("three")
	r.Add("four")
	r.Add("a line far longer than eight bytes")
	if got := r.Tail(0); !slices.Equal(got, []string{"three", "four", "a line f…"}) {
		t.Fatalf("Tail(0) = %q", got)
	}
	if got := r.Tail(2); !slices.Equal(got, []string{"four", "a line f…"}) {
		t.Fatalf("Tail(2) = %q", got)
	}
	if d := r.Dropped(); d != 2 {
		t.Fatalf("Dropped = %d, want 2", d)
	}
	// Goroutine-safe (run with -race).
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				r.Add(fmt.Sprint(i, j))
				r.Tail(2)
				r.Dropped()
			}
		})
	}
	wg.Wait()
	if d := r.Dropped(); d != 802 {
		t.Fatalf("Dropped = %d after 805 adds to a ring of 3, want 802", d)
	}
}

func TestLogBudget(t *testing.T) {
	b := newLogBudget(3, 2)
	now := time.Unix(0, 0)
	var logged int
	for range 10 {
		if ok, _ := b.take(now); ok {
			logged++
		}
	}
	if logged != 3 {
		t.Fatalf("a burst of 10 logged %d lines, want 3", logged)
	}
	ok, skipped := b.take(now.Add(time.Second))
	if !ok || skipped != 7 {
		t.Fatalf("one second later: ok=%v skipped=%d, want true 7", ok, skipped)
	}
}
