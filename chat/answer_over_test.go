package chat

import (
	"context"
	"testing"

	"followup/forms"
)

// An answer made over the partial answer the user was shown is refused
// with STALE_TARGET, recording nothing, when another partial answer was
// stored meanwhile; made over the one stored, it is recorded.
func TestAnswerOverAChangedPartialIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, _ := fxAsk(t, s, "", "Plan a trip")
	req := fxOnePending(t, s, sent.ChatID)
	shown := req.Partial // nothing yet
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"destination": "Oslo", "start": "2026-07-01"}}); err != nil {
		t.Fatal(err) // elsewhere, meanwhile
	}
	before := fxRows(t, s, req.ID)
	_, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Over: &shown,
		Values: map[string]any{"destination": "Shanghai", "travelers": 3, "transport": "train"}})
	e := fxCode(t, err, CodeStaleTarget)
	if p, _ := e.Details["partial"].(forms.Values); p["destination"] != "Oslo" {
		t.Fatalf("details %v", e.Details)
	}
	if after := fxRows(t, s, req.ID); after != before {
		t.Fatalf("a refused answer changed the request:\n%s\n%s", before, after)
	}
	now := fxOnePending(t, s, sent.ChatID)
	rc, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Over: &now.Partial,
		Values: map[string]any{"destination": "Oslo", "travelers": 3, "transport": "train"}})
	if err != nil || rc.ApplyState != Applied {
		t.Fatalf("over the stored partial: %+v, %v", rc, err)
	}
}
