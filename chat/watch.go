package chat

import (
	"context"
	"time"
)

// Other processes (the CLI, another chat screen, an MCP server) write to
// the same database. While anyone subscribes to the host's events, the
// host notices their commits and publishes EvExternal, so a subscriber
// learns of every change, its own process's or not, from one stream.

// watchEvery is how often the host looks for other processes' commits
// where the database's files cannot be watched, and how often at most it
// publishes EvExternal and looks at leases and the file's path.
var watchEvery = 300 * time.Millisecond

// watchSoon is how soon after a write the host looks, and watchBusy the
// least time between looks while writes keep coming: a write is reported
// when its bytes land, and SQLite makes the commit visible a moment later
// (store.Written). The looks after the last write come at doubling
// intervals, up to watchEvery, for watchSettle. An agent waiting for an
// answer hears of it within milliseconds (docs/performance.md).
var (
	watchSoon   = 2 * time.Millisecond
	watchBusy   = 10 * time.Millisecond
	watchSettle = 4 * watchEvery
)

// Subscribe returns the host's events until ctx ends, in the order they
// happened: what this process changes, and EvExternal when another process
// committed (at most one every watchEvery), with the ordering and merging
// of streamed text the Broker describes. The channel closes when ctx ends
// or the host is closed.
//
// The first look comes one watchEvery after the first subscription, or
// soon after a write, and always publishes EvExternal: a commit made between the subscriber's first read
// and that look would otherwise go unseen.
func (s *Service) Subscribe(ctx context.Context) <-chan Event {
	ch := s.broker.Subscribe(ctx)
	s.watchMu.Lock()
	s.subscribers++
	if s.subscribers == 1 && !s.closed {
		wctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		s.stopWatch, s.watchDone = stop, done
		go s.watch(wctx, done)
	}
	s.watchMu.Unlock()
	go func() {
		select {
		case <-ctx.Done():
		case <-s.closing:
		}
		s.watchMu.Lock()
		defer s.watchMu.Unlock()
		if s.subscribers--; s.subscribers == 0 && s.stopWatch != nil {
			s.stopWatch()
			s.stopWatch = nil
		}
	}()
	return ch
}

// watch follows other processes' commits until ctx ends. Each look reads
// the database's commit counter; when it moved, the awaited requests it
// changed are announced at once (EvRequest, awaited.go), and EvExternal,
// the look at the sessions' leases (a serve process that dies writes
// nothing, but its lease file closes) and at the file's path follow at
// most every watchEvery. It looks only while something happens: for a
// while after any process wrote the database's files or closed the lease
// file. Where the files cannot be watched it looks every watchEvery.
func (s *Service) watch(ctx context.Context, done chan struct{}) {
	defer close(done)
	written, err := s.db.Written(ctx)
	if err != nil {
		written = nil // poll
	}
	t := time.NewTimer(watchEvery) // the first look, unless a write comes first
	defer t.Stop()
	next, scheduled, gap := time.Now().Add(watchEvery), true, watchSoon
	lookIn := func(d time.Duration) {
		t.Reset(d)
		next, scheduled = time.Now().Add(d), true
	}
	// due fires at the earliest deadline of a pending request: a question
	// expires on screen at its deadline (docs/behaviour.md: nothing times
	// out silently), not at the next read. Each look sets it again.
	due := time.NewTimer(time.Hour)
	due.Stop()
	defer due.Stop()
	var last int64
	var lastLook, lastWrite, lastSlow time.Time
	first, wasGone, changed := true, false, false
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-written:
			if !ok {
				written = nil // the watch ended: poll from now on
			}
			lastWrite = time.Now()
			if !scheduled || time.Until(next) > watchBusy {
				gap = watchSoon
				lookIn(max(watchSoon, watchBusy-time.Since(lastLook)))
			}
			continue
		case <-due.C:
			if s.expireDue(ctx) != nil { // what expires is published
				due.Reset(watchEvery) // busy: try again
			} else {
				s.setDue(ctx, due)
			}
			continue
		case <-t.C:
		}
		lastLook = time.Now()
		s.watchLooks.Add(1)
		// The file removed or replaced at its path (an unlink or a rename
		// is a write of the directory): its subscribers read ReadOnly. It
		// is looked at first: a read may open a connection, which creates
		// an empty file at the path.
		gone := !wasGone && s.db.CheckFile() != ""
		wasGone = wasGone || gone
		v, err := s.db.CommitsElsewhere(ctx)
		if err == nil && (first || v != last) {
			s.wakeAwaited(ctx)
			changed, first, last = true, false, v
		}
		if gone || time.Since(lastSlow) >= watchEvery {
			lastSlow = lastLook
			if changed || gone {
				s.broker.Publish(Event{Kind: EvExternal})
			}
			changed = false
			if look, err := s.store.Look(ctx, s.reader(), s.nowMS()); err == nil && len(look.Sessions) > 0 {
				s.expireDisconnected(ctx, look.Sessions) // what ends is published (sessions.go)
			}
			s.setDue(ctx, due)
		}
		// Look again unless all is quiet; a look that failed (the
		// database busy or closing), or a change not yet published, is
		// looked at again.
		gap = min(2*gap, watchEvery)
		if written == nil || err != nil {
			gap = watchEvery
		}
		if changed {
			gap = min(gap, max(0, watchEvery-time.Since(lastSlow)))
		}
		scheduled = false
		if changed || written == nil || err != nil || time.Since(lastWrite) < watchSettle {
			lookIn(gap)
		}
	}
}

// setDue sets due to fire at the earliest deadline of a pending request.
func (s *Service) setDue(ctx context.Context, due *time.Timer) {
	if ms, ok, err := s.store.NextDeadline(ctx, s.reader()); err == nil && ok {
		due.Reset(time.Duration(max(0, ms-s.nowMS())) * time.Millisecond)
	}
}

// stopWatching ends the watch and waits for it, before the database closes.
func (s *Service) stopWatching() {
	s.watchMu.Lock()
	if !s.closed {
		s.closed = true
		close(s.closing)
	}
	stop, done := s.stopWatch, s.watchDone
	s.stopWatch = nil
	s.watchMu.Unlock()
	if stop != nil {
		stop()
	}
	if done != nil {
		<-done
	}
}
