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
// while it looks at all: at most once per interval.
var watchEvery = 300 * time.Millisecond

// watchSettle is how long the host keeps looking after the database's
// files were last written: a write is reported when its bytes land, and
// SQLite makes the commit visible a little later (store.Written).
var watchSettle = 4 * watchEvery

// Subscribe returns the host's events until ctx ends, in the order they
// happened: what this process changes, and EvExternal when another process
// committed (at most one per look, every watchEvery), with the ordering
// and merging of streamed text the Broker describes. The channel closes
// when ctx ends or the host is closed.
//
// The first look comes one interval after the first subscription and
// always publishes EvExternal: a commit made between the subscriber's first
// read and that look would otherwise go unseen.
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

// watch publishes EvExternal after each look that finds other processes'
// commits, until ctx ends. It looks only while something happens: for a
// while after any process wrote the database's files, and every interval
// while serve sessions are open (a serve process that dies writes
// nothing: its lease is looked at). Where the files cannot be watched it
// looks every interval.
func (s *Service) watch(ctx context.Context, done chan struct{}) {
	defer close(done)
	written, err := s.db.Written(ctx)
	if err != nil {
		written = nil // poll
	}
	t := time.NewTimer(watchEvery) // the first look
	defer t.Stop()
	// due fires at the earliest deadline of a pending request: a question
	// expires on screen at its deadline (docs/behaviour.md: nothing times
	// out silently), not at the next read. Each look sets it again.
	due := time.NewTimer(time.Hour)
	due.Stop()
	defer due.Stop()
	scheduled := true
	var last int64
	var lastLook, lastWrite time.Time
	first, wasGone := true, false
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-written:
			if !ok {
				written = nil // the watch ended: poll from now on
			}
			lastWrite = time.Now()
			if !scheduled {
				t.Reset(max(0, watchEvery-time.Since(lastLook)))
				scheduled = true
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
		// A serve process that died committed nothing: look at the
		// sessions' leases too (sessions.go); what ends is published.
		sessions, _ := s.expireDisconnected(ctx)
		// The file removed or replaced at its path (an unlink or a rename
		// is a write of the directory): its subscribers read ReadOnly.
		gone := !wasGone && s.db.CheckFile() != ""
		wasGone = wasGone || gone
		v, err := s.db.CommitsElsewhere(ctx)
		if gone || err == nil && (first || v != last) {
			s.broker.Publish(Event{Kind: EvExternal})
		}
		if err == nil {
			first, last = false, v
		}
		s.setDue(ctx, due)
		// Look again next interval unless all is quiet; a look that failed
		// (the database busy or closing) is tried again.
		scheduled = written == nil || sessions || err != nil || time.Since(lastWrite) < watchSettle
		if scheduled {
			t.Reset(watchEvery)
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
