package chat

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"followup/agent"
	"followup/forms"
	"followup/store"
)

func TestDraftsPerRevision(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent := fxRun(t, s)
	open := func(key string) OpenResult {
		res, err := s.OpenRequest(ctx, sent.RunID, "call_"+key, fxDecl(t, map[string]any{"requestKey": key, "source": fxTextDef("T", "a", "b")}))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	r := open("r")
	if _, ok, err := s.LoadDraft(ctx, r.RequestID, 1); ok || err != nil {
		t.Fatalf("draft before save: %v %v", ok, err)
	}
	if err := s.SaveDraft(ctx, Draft{RequestID: r.RequestID, Revision: 1, Values: forms.Values{"a": "half"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveDraft(ctx, Draft{RequestID: r.RequestID, Revision: 1, Values: forms.Values{"a": "typed"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	d, ok, err := s.LoadDraft(ctx, r.RequestID, 1)
	if err != nil || !ok || d.Values["a"] != "typed" || !d.Edited {
		t.Fatalf("draft = %+v %v %v", d, ok, err)
	}

	// A new revision (by accepting a replace proposal) has its own draft;
	// the old revision's draft can no longer be saved.
	p, err := s.Replace(ctx, ReplaceInput{RequestID: r.RequestID, Source: json.RawMessage(mustJSON(fxTextDef("T", "a", "c")))}, "")
	if err != nil || !p.ConfirmationRequired {
		t.Fatalf("replace = %+v, %v", p, err)
	}
	if _, err := s.Decide(ctx, Decision{ProposalID: p.ProposalID, Accept: true}, ""); err != nil {
		t.Fatal(err)
	}
	err = s.SaveDraft(ctx, Draft{RequestID: r.RequestID, Revision: 1, Values: forms.Values{"a": "late"}, Edited: true})
	fxCode(t, err, CodeStaleTarget)
	if d, _, _ := s.LoadDraft(ctx, r.RequestID, 1); d.Values["a"] != "typed" {
		t.Fatalf("old draft changed: %+v", d)
	}
	if d, ok, _ := s.LoadDraft(ctx, r.RequestID, 2); !ok || d.Values["a"] != "typed" {
		t.Fatalf("revision 2 draft = %+v %v", d, ok)
	}

	cases := []struct {
		name string
		id   string
		rev  int
		code string
	}{
		{"answered", func() string {
			x := open("answered")
			if _, err := s.Answer(ctx, AnswerInput{RequestID: x.RequestID, Values: map[string]any{"a": "1", "b": "2"}}); err != nil {
				t.Fatal(err)
			}
			return x.RequestID
		}(), 1, CodeTargetClosed},
		{"cancelled", func() string {
			x := open("cancelled")
			if _, err := s.Cancel(ctx, x.RequestID, ""); err != nil {
				t.Fatal(err)
			}
			return x.RequestID
		}(), 1, CodeTargetClosed},
		{"unknown", "rq_missing", 1, CodeNotFound},
		{"future revision", r.RequestID, 9, CodeStaleTarget},
	}
	big := Draft{RequestID: r.RequestID, Revision: 2, Values: forms.Values{"a": strings.Repeat("x", DefaultPolicy().ReplySize)}}
	fxCode(t, s.SaveDraft(ctx, big), CodeLimitExceeded)
	for _, tc := range cases {
		err := s.SaveDraft(ctx, Draft{RequestID: tc.id, Revision: tc.rev, Values: forms.Values{"a": "x"}})
		if CodeOf(err) != tc.code {
			t.Errorf("%s: err = %v, want %s", tc.name, err, tc.code)
		}
	}
}

func TestReadAnswerNeverShowsDraft(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, req := fxDeploy(t, s)
	tools := inputTools{s}
	cc := agent.CallContext{ChatID: sent.ChatID, RunID: sent.RunID, ToolCallID: "call_read"}
	const secret = "DRAFT-SECRET-7f3a"
	if err := s.SaveDraft(ctx, Draft{RequestID: req.ID, Revision: req.Revision, Values: forms.Values{"environment": secret}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	read := func() map[string]any {
		return fxToolJSON(t, tools.ReadAnswer(ctx, cc, json.RawMessage(`{"requestId":"`+req.ID+`"}`)))
	}
	got := read()
	if got["ok"] != true || got["answer"] != nil || got["state"] != store.ReqPending {
		t.Fatalf("read answer with a draft = %v", got)
	}
	if strings.Contains(mustJSON(got), secret) {
		t.Fatalf("read answer shows the draft: %v", got)
	}
	// A chat message and the list tool do not show it either.
	if _, err := s.Send(ctx, sent.ChatID, "still thinking about it", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Drive(ctx, sent.RunID); err != nil {
		t.Fatal(err)
	}
	if l := tools.List(ctx, cc, nil); strings.Contains(string(l), secret) {
		t.Fatalf("input_list shows the draft: %s", l)
	}
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil || run.State != store.RunSucceeded {
		t.Fatalf("run = %+v, %v", run, err)
	}
	got = read()
	ans, _ := got["answer"].(map[string]any)
	if ans == nil || ans["values"].(map[string]any)["environment"] != "staging" {
		t.Fatalf("read answer after answering = %v", got)
	}
	ms, err := s.store.RunMessages(ctx, s.reader(), sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if strings.Contains(m.Content, secret) || strings.Contains(m.ToolCalls.String, secret) {
			t.Fatalf("a model message holds draft text: %+v", m)
		}
	}
}

// A draft once edited stays edited: a later save from a screen that has
// not edited it yet (a form reopened) keeps it so, and a replace still
// asks before overwriting it.
func TestAnEditedDraftStaysEdited(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent := fxRun(t, s)
	r, err := s.OpenRequest(ctx, sent.RunID, "call_e", fxDecl(t, map[string]any{"requestKey": "e", "source": fxTextDef("T", "a")}))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveDraft(ctx, Draft{RequestID: r.RequestID, Revision: 1, Values: forms.Values{"a": "typed"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	reopened := Draft{RequestID: r.RequestID, Revision: 1, Values: forms.Values{"a": "typed"}, Base: forms.Values{"a": "typed"}}
	if err := s.SaveDraft(ctx, reopened); err != nil {
		t.Fatal(err)
	}
	if d, _, _ := s.LoadDraft(ctx, r.RequestID, 1); !d.Edited {
		t.Fatalf("the draft is no longer edited: %+v", d)
	}
	p, err := s.Replace(ctx, ReplaceInput{RequestID: r.RequestID, Source: json.RawMessage(mustJSON(fxTextDef("T", "a", "b")))}, "")
	if err != nil || !p.ConfirmationRequired {
		t.Fatalf("a replace over an edited draft = %+v, %v; want a confirmation asked", p, err)
	}
}
