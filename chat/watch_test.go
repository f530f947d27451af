package chat

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// nextExternal waits for the next EvExternal on ch and reports whether one
// came within d; the other events are skipped.
func nextExternal(ch <-chan Event, d time.Duration) bool {
	timeout := time.After(d)
	for {
		select {
		case e := <-ch:
			if e.Kind == EvExternal {
				return true
			}
		case <-timeout:
			return false
		}
	}
}

// TestSubscribersHearOtherProcesses: a subscriber learns of another
// process's commits from the host's own stream (EvExternal), not of its
// own process's; the watch runs only while someone subscribes, and Close
// ends it.
func TestSubscribersHearOtherProcesses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "followup.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := Open(ctx, Options{DBPath: s.Path()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	sub, cancel := context.WithCancel(ctx)
	events := s.Subscribe(sub)
	if !nextExternal(events, 10*time.Second) {
		t.Fatal("no catch-up look after subscribing")
	}
	if _, err := s.Send(ctx, "", "my own message", ""); err != nil {
		t.Fatal(err)
	}
	if nextExternal(events, 3*watchEvery) {
		t.Fatal("this process's own commit was announced as another's")
	}
	if _, err := other.Send(ctx, "", "a message from elsewhere", ""); err != nil {
		t.Fatal(err)
	}
	if !nextExternal(events, 10*time.Second) {
		t.Fatal("another process's commit was not announced")
	}

	s.watchMu.Lock()
	done := s.watchDone
	s.watchMu.Unlock()
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the watch went on after the last subscriber left")
	}
	again := s.Subscribe(ctx)
	if !nextExternal(again, 10*time.Second) {
		t.Fatal("a new subscriber gets no watch")
	}
	s.watchMu.Lock()
	done = s.watchDone
	s.watchMu.Unlock()
	s.Close()
	select {
	case <-done:
	default:
		t.Fatal("Close returned with the watch running")
	}
}

// TestWatchSleepsWhileNothingIsWritten: the watch looks for a while after
// the database's files are written and then not at all until they are
// written again; another process's commit after a long quiet still shows.
func TestWatchSleepsWhileNothingIsWritten(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "followup.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.db.Written(ctx); err != nil {
		t.Fatalf("the database's files cannot be watched here: %v", err)
	}
	other, err := Open(ctx, Options{DBPath: s.Path()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	events := s.Subscribe(ctx)
	if !nextExternal(events, 10*time.Second) {
		t.Fatal("no catch-up look after subscribing")
	}
	// Quiet: after the settling looks, none.
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := s.watchLooks.Load()
		time.Sleep(watchSettle + 2*watchEvery)
		if s.watchLooks.Load() == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the watch keeps looking with nothing written (%d looks)", s.watchLooks.Load())
		}
	}
	if _, err := other.Send(ctx, "", "a message after a quiet while", ""); err != nil {
		t.Fatal(err)
	}
	if !nextExternal(events, 10*time.Second) {
		t.Fatal("another process's commit after a quiet while was not announced")
	}
}

// A question expires at its deadline while a screen only watches: nothing
// else reads or writes the database meanwhile.
func TestAWatchedQuestionExpiresAtItsDeadline(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent := fxRun(t, s)
	deadline := time.Now().Add(2 * time.Second).Truncate(time.Second).Add(time.Second)
	res, err := s.OpenRequest(ctx, sent.RunID, "call_1", fxDecl(t, map[string]any{
		"requestKey": "soon", "source": fxTextDef("Soon", "a"), "expiresAt": deadline.Format(time.RFC3339)}))
	if err != nil {
		t.Fatal(err)
	}
	events := s.Subscribe(ctx)
	for {
		select {
		case ev := <-events:
			if ev.Kind != EvRequest || ev.RequestID != res.RequestID {
				continue
			}
			if late := time.Since(deadline); late > time.Second {
				t.Fatalf("expired %v after its deadline", late)
			}
			if got := fxCount(t, s, `SELECT COUNT(*) FROM requests WHERE id = ? AND state = 'expired'`, res.RequestID); got != 1 {
				t.Fatal("announced but not expired")
			}
			return
		case <-time.After(time.Until(deadline) + 5*time.Second):
			t.Fatal("the question did not expire while watched")
		}
	}
}

// Another process's commit wakes the waiters of the requests it changed,
// each for its own request only, within milliseconds of the commit.
func TestAwaitedRequestsWakeAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	other, err := Open(ctx, Options{DBPath: s.Path()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	sent := fxRun(t, s)
	var ids []string
	for _, key := range []string{"a", "b"} {
		res, err := s.OpenRequest(ctx, sent.RunID, "call_"+key, fxDecl(t, map[string]any{"requestKey": key, "source": fxTextDef("Q", "a")}))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.RequestID)
	}
	defer s.await(ids[0])()
	events := s.Subscribe(ctx)
	if !nextExternal(events, 10*time.Second) {
		t.Fatal("no catch-up look")
	}
	wakes := func(id string) (time.Duration, bool) {
		t.Helper()
		if _, err := other.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{"a": "x"}}); err != nil {
			t.Fatal(err)
		}
		// From the commit's return: the commit's own fsyncs are not the
		// wake's (under -race on a loaded machine they took over 150 ms).
		start := time.Now()
		timeout := time.After(2 * time.Second)
		for {
			select {
			case e := <-events:
				if e.Kind == EvRequest && e.RequestID != "" {
					return time.Since(start), e.RequestID == ids[0]
				}
			case <-timeout:
				return 0, false
			}
		}
	}
	if _, woke := wakes(ids[1]); woke {
		t.Error("an answer to another request woke the waiter")
	}
	d, woke := wakes(ids[0])
	if !woke {
		t.Fatal("the answer to the awaited request woke nobody")
	}
	if d > 150*time.Millisecond {
		t.Errorf("the waiter heard of the answer %v after it was committed", d)
	}
}
