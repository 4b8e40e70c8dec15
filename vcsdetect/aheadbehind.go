package vcsdetect

import (
	"container/heap"
	"context"
	"errors"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// maxAheadBehindCommits caps the commits the go-git ahead/behind walk
// reads (it decodes each one); a history that needs more is left
// uncounted. The describer's budget bounds it in time as well.
var maxAheadBehindCommits = 20000

var errTooManyCommits = errors.New("too many commits to count ahead/behind")

// aheadBehind counts the commits reachable from head and not from up
// (ahead) and the other way round (behind), as git rev-list --left-right
// --count head...up does, for when git is not installed. Both sides are
// walked together, newest committer date first, marking each commit with
// the sides that reach it; the walk stops once every commit still queued
// is reached by both sides and is older than every commit one side alone
// reached. That is exact when no commit is dated after its children (as
// git's own walk, a history with a skewed clock may be miscounted). It
// gives up, with an error, when ctx ends or the walk needs more than
// maxAheadBehindCommits commits.
func aheadBehind(ctx context.Context, s storer.EncodedObjectStorer, head, up plumbing.Hash) (ahead, behind int, err error) {
	const left, right, both = 1, 2, 3
	var (
		flags    = map[plumbing.Hash]uint8{}
		expanded = map[plumbing.Hash]uint8{} // the flags a commit's parents were given
		commits  = map[plumbing.Hash]*commit{}
		q        commitQueue
		active   int       // queued entries that were not reached by both sides when queued
		oldest   time.Time // the oldest commit ever reached by one side alone
	)
	mark := func(h plumbing.Hash, f uint8) error {
		old := flags[h]
		if old|f == old {
			return nil
		}
		c := commits[h]
		if c == nil {
			if len(commits) >= maxAheadBehindCommits {
				return errTooManyCommits
			}
			var err error
			if c, err = readCommit(s, h); err != nil {
				return err
			}
			commits[h] = c
		}
		f |= old
		flags[h] = f
		if f != both {
			active++
			if when := c.committer; oldest.IsZero() || when.Before(oldest) {
				oldest = when
			}
		}
		heap.Push(&q, queued{c, f})
		return nil
	}
	if err := mark(head, left); err != nil {
		return 0, 0, err
	}
	if err := mark(up, right); err != nil {
		return 0, 0, err
	}
	for q.Len() > 0 && (active > 0 || !q[0].c.committer.Before(oldest)) {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		e := heap.Pop(&q).(queued)
		if e.flags != both {
			active--
		}
		h := e.c.hash
		f := flags[h]
		if expanded[h] == f {
			continue
		}
		expanded[h] = f
		for _, p := range e.c.parents {
			if err := mark(p, f); err != nil {
				return 0, 0, err
			}
		}
	}
	for _, f := range flags {
		switch f {
		case left:
			ahead++
		case right:
			behind++
		}
	}
	return ahead, behind, nil
}

// queued is a commit waiting in the walk, with the flags it had then.
type queued struct {
	c     *commit
	flags uint8
}

// commitQueue is a heap of commits, newest committer date first.
type commitQueue []queued

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	return q[i].c.committer.After(q[j].c.committer)
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(queued)) }
func (q *commitQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}
