package ui

import tea "charm.land/bubbletea/v2"

// earlyKeys is the one queue of keys pressed before what they are for is
// on screen: a key that acts on rows while the query typed is still being
// matched waits for that query's result, and the list's keys pressed
// while a review is being built wait for its dialog. One queue, so that
// their order is the order pressed whatever each waited for: once one
// key waits, every key (and paste) after it waits behind it. Model owns
// it; Model.holdKey decides what enters, Model.releaseKeys hands it back
// (filter.go, beside the query whose result most keys wait for).
type earlyKeys struct {
	msgs []tea.Msg // key presses, and pastes behind them
}

// earlyKeysMax bounds the keys that wait; beyond it a key is dropped,
// and the note says so.
const earlyKeysMax = 64

// waiting reports whether a key (or paste) waits.
func (q *earlyKeys) waiting() bool { return len(q.msgs) > 0 }

// push keeps msg at the end; it reports false (msg dropped) when the
// queue is full.
func (q *earlyKeys) push(msg tea.Msg) bool {
	if len(q.msgs) >= earlyKeysMax {
		return false
	}
	q.msgs = append(q.msgs, msg)
	return true
}

// take returns what waits, in order, and empties the queue.
func (q *earlyKeys) take() []tea.Msg {
	msgs := q.msgs
	q.msgs = nil
	return msgs
}
