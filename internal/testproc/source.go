package testproc

import (
	"context"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rootpick/rootpick/consent"
)

// Source is a source of consented roots the test sets by hand (what
// rootpick proxy reads instead of the person's record: Roots, Changed).
type Source struct {
	mu      sync.Mutex
	roots   []consent.Root
	err     error
	changed chan struct{}
}

// NewSource is a Source with no roots.
func NewSource() *Source { return &Source{changed: make(chan struct{}, 1)} }

// Roots are the roots last Set, and its error.
func (s *Source) Roots() ([]consent.Root, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.roots), s.err
}

// Changed is signalled (buffered, one pending at most) by Set.
func (s *Source) Changed() <-chan struct{} { return s.changed }

// Again says the roots changed without changing them, and waits until
// the signal is taken if one is pending already.
func (s *Source) Again() { s.changed <- struct{}{} }

// Set sets the roots and the error Roots returns, and signals Changed.
func (s *Source) Set(roots []consent.Root, err error) {
	s.mu.Lock()
	s.roots, s.err = roots, err
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// EndRun closes a test host's side, as a host going away does, cancels
// the run, and checks that it then ends (done) within 5 s.
func EndRun(t testing.TB, host io.Closer, cancel context.CancelFunc, done <-chan error) {
	t.Helper()
	_ = host.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Logf("the proxy ended: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("the proxy did not end after the host went away")
	}
}

// BackoffJudge checks the delays a supervisor (the hub's, the proxy's) chose after a run of
// crashes, judging each by what the test can prove about the run that
// ended, so that load cannot make it fail: that run started after the
// previous kill and before "connected" was seen, and ended after its kill
// and before the restart was reported. A run shorter than HealthyAfter
// for sure doubles the delay; one longer for sure starts over at
// BackoffMin; one in between proves nothing, and run kills again.
type BackoffJudge struct {
	t                  testing.TB
	least, most, ok    time.Duration // BackoffMin, BackoffMax, HealthyAfter
	prevDelay          time.Duration
	prevKilled         time.Time
	doubled, startOver int
}

// NewBackoffJudge judges a supervisor whose backoff runs from least to
// most and resets after a run of healthyAfter.
func NewBackoffJudge(t testing.TB, least, most, healthyAfter time.Duration) *BackoffJudge {
	return &BackoffJudge{t: t, least: least, most: most, ok: healthyAfter, prevKilled: time.Now()}
}

// Judge checks the delay reported at reported for the run that was seen
// connected at connected and killed at killed.
func (j *BackoffJudge) Judge(connected, killed, reported time.Time, delay time.Duration) {
	j.t.Helper()
	switch shortest, longest := killed.Sub(connected), reported.Sub(j.prevKilled); {
	case j.prevDelay == 0:
		if delay != j.least {
			j.t.Fatalf("first restart in %v, want BackoffMin %v", delay, j.least)
		}
	case longest < j.ok:
		if want := min(2*j.prevDelay, j.most); delay != want {
			j.t.Fatalf("after a run of at most %v, restarted in %v, want %v (twice %v)", longest, delay, want, j.prevDelay)
		}
		j.doubled++
	case shortest >= j.ok:
		if delay != j.least {
			j.t.Fatalf("after a run of at least %v, restarted in %v, want BackoffMin %v", shortest, delay, j.least)
		}
		j.startOver++
	}
	j.prevDelay, j.prevKilled = delay, killed
}

// Run calls restart, which kills the server after sleeping for its
// argument, until two quick crashes doubled the delay and a crash after
// a long Run started over.
func (j *BackoffJudge) Run(restart func(sleep time.Duration)) {
	j.t.Helper()
	for i := 0; j.doubled < 2; i++ {
		if i == 10 {
			j.t.Fatalf("10 quick crashes, only %d runs provably shorter than %v", j.doubled, j.ok)
		}
		restart(0)
	}
	for i := 0; j.startOver < 1; i++ {
		if i == 3 {
			j.t.Fatalf("3 long runs, none provably longer than %v", j.ok)
		}
		restart(j.ok + 500*time.Millisecond)
	}
}
