package chat

import (
	"context"
	"strings"
	"testing"

	"followup/store"
)

// pendingDocNow reads the `pending --json` document twice, keeping it in
// between, and fails unless the first was made afresh (wantMade), the
// second is the kept one, and both are what the list writes now.
func pendingDocNow(t *testing.T, s *Service, step string, wantMade bool) string {
	t.Helper()
	ctx := context.Background()
	first, err := s.PendingJSON(ctx)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	if made := first.s != nil; made != wantMade {
		t.Fatalf("%s: made afresh = %v, want %v", step, made, wantMade)
	}
	first.Keep(ctx)
	second, err := s.PendingJSON(ctx)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	if second.s != nil {
		t.Fatalf("%s: the document just kept was made again", step)
	}
	list, err := s.PendingItems(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if _, err := list.WriteTo(&want); err != nil {
		t.Fatal(err)
	}
	for _, d := range []*PendingJSON{first, second} {
		if d.doc != want.String() {
			t.Fatalf("%s: the document\n  %s\nis not the list's\n  %s", step, d.doc, want.String())
		}
	}
	return want.String()
}

// The kept document is the one the list makes, after every kind of change
// to what it is made from, whichever process makes the change.
func TestThePendingDocumentKeptIsTheListsAfterEveryChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	pendingDocNow(t, s, "empty", true)
	pendingDocNow(t, s, "nothing changed", false)

	sent, req, p := fxResolveProposal(t, s) // a question and a proposal on it
	doc := pendingDocNow(t, s, "a question with a proposal", true)
	if !strings.Contains(doc, req.ID) || !strings.Contains(doc, p.ID) {
		t.Fatalf("the document lacks the question or its proposal: %s", doc)
	}
	other, _ := fxDeploy(t, s) // another chat's question
	pendingDocNow(t, s, "another question", true)

	if _, err := s.Decide(ctx, Decision{ProposalID: p.ID, Accept: false}, ""); err != nil {
		t.Fatal(err)
	}
	pendingDocNow(t, s, "the proposal decided", true)

	err := s.db.Write(ctx, func(tx store.Handle) error {
		return s.store.InsertApproval(ctx, tx, store.Approval{ID: "ap_1", ChatID: sent.ChatID, RunID: sent.RunID,
			ToolCallID: "call_1", Name: "everything_echo", Server: "everything", Tool: "echo", Arguments: `{"message":"hi"}`,
			Annotations: "{}", State: store.ApprovalPending, CreatedAt: s.nowMS()})
	})
	if err != nil {
		t.Fatal(err)
	}
	doc = pendingDocNow(t, s, "an approval asked", true)
	if !strings.Contains(doc, "ap_1") {
		t.Fatalf("the document lacks the approval: %s", doc)
	}
	if _, err := fxSQL(t, s).ExecContext(ctx, `UPDATE approvals SET state = 'denied' WHERE id = 'ap_1'`); err != nil {
		t.Fatal(err)
	}
	pendingDocNow(t, s, "the approval decided by another process", true)

	if _, err := s.Archive(ctx, other.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	if doc = pendingDocNow(t, s, "a chat archived", true); strings.Contains(doc, other.ChatID) {
		t.Fatalf("an archived chat's question is listed: %s", doc)
	}
	if _, err := s.Unarchive(ctx, other.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	pendingDocNow(t, s, "a chat unarchived", true)

	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	if doc = pendingDocNow(t, s, "a question answered", true); strings.Contains(doc, req.ID) {
		t.Fatalf("an answered question is listed: %s", doc)
	}
	if err := s.Delete(ctx, other.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	pendingDocNow(t, s, "a chat deleted", true)
}

// A document made while what it is made from changed is not kept: the
// next reader makes it again, with the change.
func TestAPendingDocumentMadeDuringAChangeIsNotKept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	made, err := s.PendingJSON(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sent, _ := fxDeploy(t, s) // after the document was made, before it is kept
	made.Keep(ctx)
	doc := pendingDocNow(t, s, "after the change", true)
	if !strings.Contains(doc, sent.ChatID) {
		t.Fatalf("the document lacks the question asked meanwhile: %s", doc)
	}
}
