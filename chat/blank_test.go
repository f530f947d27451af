package chat

import (
	"context"
	"testing"

	"followup/store"
)

// TestBlankRequiredTextIsMissing: a required text field given only spaces
// is missing everywhere the host says so (docs/behaviour.md) — the answer's
// receipt, the request's view and the stored pending list, all through
// forms.Missing — and the blank value is not recorded as an answer.
func TestBlankRequiredTextIsMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, _ := fxAsk(t, s, "", "Plan a trip")
	req := fxOnePending(t, s, sent.ChatID)
	contains := func(xs []string, x string) bool {
		for _, y := range xs {
			if y == x {
				return true
			}
		}
		return false
	}
	rc, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"destination": "   ", "travelers": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if rc.ApplyState != Partial || !contains(rc.Missing, "destination") {
		t.Fatalf("receipt = %+v", rc)
	}
	v, err := s.Request(ctx, req.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.State != store.ReqPending || !contains(v.Missing, "destination") {
		t.Fatalf("view: %s, missing %v", v.State, v.Missing)
	}
	if _, ok := v.Partial["destination"]; ok {
		t.Fatalf("a blank destination was recorded: %v", v.Partial)
	}
	items, err := s.PendingItems(ctx, sent.ChatID)
	if err != nil {
		t.Fatal(err)
	}
	its, _ := items.Items()
	if len(its) != 1 || !contains(its[0].Missing, "destination") {
		t.Fatalf("pending list: %+v", its)
	}
	if _, ok := its[0].Partial["destination"]; ok {
		t.Fatalf("the pending list records a blank destination: %v", its[0].Partial)
	}
}
