package chat

import (
	"context"
	"testing"

	"followup/store"
)

// TestUnsentStaysAfterEveryClose: whatever closes a request without an
// answer — the user's cancel, a stopped task — what the user had typed
// stays readable on it; an answered request shows its answer only.
func TestUnsentStaysAfterEveryClose(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	for _, c := range []struct {
		name  string
		close func(r RequestView, runID string)
		state string
	}{
		{"cancelled", func(r RequestView, _ string) {
			if _, err := s.Cancel(ctx, r.ID, ""); err != nil {
				t.Fatal(err)
			}
		}, store.ReqCancelled},
		{"stopped", func(_ RequestView, runID string) {
			if _, err := s.Stop(ctx, runID, ""); err != nil {
				t.Fatal(err)
			}
		}, store.ReqExpired},
		{"answered", func(r RequestView, _ string) {
			if _, err := s.Answer(ctx, AnswerInput{RequestID: r.ID, Values: map[string]any{"details": "the report"}}); err != nil {
				t.Fatal(err)
			}
		}, store.ReqAnswered},
	} {
		sent, _ := fxAsk(t, s, "", "help me out")
		r := fxOnePending(t, s, sent.ChatID)
		if err := s.SaveDraft(ctx, Draft{RequestID: r.ID, Revision: r.Revision, Values: map[string]any{"details": "half a thou"}, Edited: true}); err != nil {
			t.Fatal(err)
		}
		c.close(r, sent.RunID)
		v, err := s.Request(ctx, r.ID)
		if err != nil || string(v.State) != c.state {
			t.Fatalf("%s: %s, %v", c.name, v.State, err)
		}
		if want := c.state != store.ReqAnswered; (v.Unsent["details"] == "half a thou") != want {
			t.Errorf("%s: unsent = %v", c.name, v.Unsent)
		}
	}
}
