package chat

import (
	"context"
	"time"
)

// Other processes (the CLI, another chat screen, an MCP server) write to
// the same database. While anyone subscribes to the host's events, the
// host notices their commits and publishes EvExternal, so a subscriber
// learns of every change, its own process's or not, from one stream.

// watchEvery is how often the host looks for other processes' commits.
var watchEvery = 300 * time.Millisecond

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
// commits, until ctx ends.
func (s *Service) watch(ctx context.Context, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	var last int64
	first := true
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// A serve process that died committed nothing: look at the
		// sessions' leases too (sessions.go); what ends is published.
		s.expireDisconnected(ctx)
		v, err := s.db.CommitsElsewhere(ctx)
		if err != nil {
			continue // the database is busy or closing: look again next time
		}
		if first || v != last {
			s.broker.Publish(Event{Kind: EvExternal})
		}
		first, last = false, v
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
