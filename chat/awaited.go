package chat

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// A waiter for one request — a serve session's input_wait, a server's
// elicitation — is woken only for that request: this process's changes
// name it (EvRequest), and for other processes' commits the watch reads
// the marks of every awaited request in one query and announces each that
// changed or went away (watch.go). A hundred agents waiting cost nothing
// while nothing happens, and one query per commit when something does.
type awaited struct {
	mu    sync.Mutex
	count map[string]int    // waiters per request id
	seen  map[string]string // the mark the watch last read, per id
}

// await counts a waiter of request id until the returned func is called.
func (s *Service) await(id string) func() {
	a := &s.awaited
	a.mu.Lock()
	if a.count == nil {
		a.count, a.seen = map[string]int{}, map[string]string{}
	}
	a.count[id]++
	a.mu.Unlock()
	return func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.count[id]--; a.count[id] <= 0 {
			delete(a.count, id)
			delete(a.seen, id)
		}
	}
}

// wakeAwaited announces the awaited requests another process changed (or
// that the watch reads for the first time: it cannot tell).
func (s *Service) wakeAwaited(ctx context.Context) {
	a := &s.awaited
	a.mu.Lock()
	ids := slices.Collect(maps.Keys(a.count))
	a.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	marks, err := s.store.RequestMarks(ctx, s.reader(), ids)
	now := map[string]string{}
	for _, m := range marks {
		now[m.ID] = m.ChatID + "\x00" + m.Mark
	}
	var wake []string
	a.mu.Lock()
	for _, id := range ids {
		if m, ok := now[id]; err != nil || !ok || a.seen[id] != m {
			wake = append(wake, id)
			if _, still := a.count[id]; still {
				a.seen[id] = m
			}
		}
	}
	a.mu.Unlock()
	for _, id := range wake {
		chatID, _, _ := strings.Cut(now[id], "\x00")
		s.broker.Publish(Event{Kind: EvRequest, ChatID: chatID, RequestID: id})
	}
}

// errDriveEnded ends a wait whose drive ended first.
var errDriveEnded = errors.New("the drive ended")

// waitFor calls check, then again at each event relevant accepts (every
// event when relevant is nil) and at each tick, until check says done or
// fails. It ends earlier with ctx's error when ctx ends, or errDriveEnded
// when drive is closed. The host's events bring other processes' commits
// too (watch.go), so nothing runs while nothing changes.
func (s *Service) waitFor(ctx context.Context, drive <-chan struct{}, tick <-chan time.Time, relevant func(Event) bool, check func() (bool, error)) error {
	sub, unsubscribe := context.WithCancel(ctx) // the events end with the wait
	defer unsubscribe()
	wake := s.Subscribe(sub)
	for {
		if done, err := check(); done || err != nil {
			return err
		}
		for again := false; !again; {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-drive:
				return errDriveEnded
			case <-tick:
				again = true
			case ev, ok := <-wake:
				if !ok {
					wake = nil // the host is closing: ctx, drive and tick remain
				}
				again = !ok || relevant == nil || relevant(ev)
			}
		}
	}
}
