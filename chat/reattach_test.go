package chat

import (
	"context"
	"path/filepath"
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
