package chat

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"followup/store"
)

// An answer the agent never read waits for its client to come back
// within the question's lifetime; past it, the next start fails its
// delivery, and the same requestKey opens a new question.
func TestReattachLifetime(t *testing.T) {
	ctx := context.Background()
	clock := newFxClock()
	path := filepath.Join(t.TempDir(), "f.db")
	s, err := Open(ctx, Options{DBPath: path, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Close() }()
	ss := fxServe(t, s, "agent")
	id := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{"destination": "Rome", "travelers": 3}}); err != nil {
		t.Fatal(err)
	}
	ss.End(ctx)
	failed(t, fxServe(t, s, "agent").ReadAnswer(ctx, idArg(id)), CodeSessionEnded)
	failed(t, fxServe(t, s, "other").ReadAnswer(ctx, idArg(id)), CodeNotFound)

	clock.Advance(23 * time.Hour)
	s.Close()
	if s, err = Open(ctx, Options{DBPath: path, Now: clock.Now}); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Request(ctx, id); v.Deliveries[0].State != store.DeliveryPending {
		t.Errorf("within its lifetime the answer waits: %+v", v.Deliveries)
	}
	clock.Advance(2 * time.Hour)
	s.Close()
	if s, err = Open(ctx, Options{DBPath: path, Now: clock.Now}); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Request(ctx, id); v.Deliveries[0].State != store.DeliveryFailed {
		t.Errorf("past its lifetime the answer is failed: %+v", v.Deliveries)
	}
	if again := ok(t, fxServe(t, s, "agent").Request(ctx, travelArgs("k")))["requestId"]; again == id {
		t.Error("a question past its lifetime was taken back")
	}
}

// Deleting a chat throws away a confirmed answer its agent has not read:
// the warning names it until the agent reads it.
func TestUnreadWarning(t *testing.T) {
	ctx := context.Background()
	s := fxOpen(t, nil)
	ss := fxServe(t, s, "agent")
	id := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
	other := ok(t, ss.Request(ctx, travelArgs("other")))["requestId"].(string)
	v, _ := s.Request(ctx, id)
	if _, w, err := s.UnreadWarning(ctx, v.ChatID); w != "" || err != nil {
		t.Errorf("nothing answered: %q %v", w, err)
	}
	for _, r := range []string{id, other} {
		if _, err := s.Answer(ctx, AnswerInput{RequestID: r, Values: map[string]any{"destination": "Rome", "travelers": 3}}); err != nil {
			t.Fatal(err)
		}
	}
	if n, w, _ := s.UnreadWarning(ctx, v.ChatID); n != 2 || !strings.Contains(w, "2 confirmed answers have not been read") || !strings.Contains(w, "“Trip” ("+id+")") {
		t.Errorf("two unread: %q", w)
	}
	ok(t, ss.ReadAnswer(ctx, idArg(id)))
	if _, w, _ := s.UnreadWarning(ctx, v.ChatID); w != "the answer confirmed to “Trip” ("+other+") has not been read by its agent yet" {
		t.Errorf("one unread: %q", w)
	}
}

// A session with a question waiting whose client has made no call for
// ServeQuietAfter shows as quiet (its client may be gone) until it calls.
func TestQuietClient(t *testing.T) {
	ctx := context.Background()
	clock := newFxClock()
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "f.db"), Now: clock.Now, ServeQuietAfter: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ss := fxServe(t, s, "agent")
	id := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
	chatOf := func() *ServeInfo {
		v, _ := s.Request(ctx, id)
		in, err := s.Inspect(ctx, v.ChatID)
		if err != nil {
			t.Fatal(err)
		}
		return in.Chat.Serve
	}
	quiet := func() bool {
		q, err := s.QuietChats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return len(q) == 1 && chatOf().Quiet
	}
	clock.Advance(50 * time.Second)
	if quiet() {
		t.Error("quiet within the threshold")
	}
	clock.Advance(20 * time.Second)
	if !quiet() {
		t.Error("not quiet after a minute without a call")
	}
	ss.Wait(ctx, id, 0) // a call
	if quiet() {
		t.Error("still quiet after a call")
	}
	clock.Advance(2 * time.Minute)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{"destination": "Rome", "travelers": 3}}); err != nil {
		t.Fatal(err)
	}
	if quiet() {
		t.Error("quiet with no question waiting")
	}
}
