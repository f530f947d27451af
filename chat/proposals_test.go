package chat

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"followup/agent"
	"followup/forms"
	"followup/store"
)

// fxResolveProposal sends "use staging" to a chat waiting on the deploy
// question and returns the proposal the demo agent made.
func fxResolveProposal(t *testing.T, s *Service) (Sent, RequestView, ProposalView) {
	t.Helper()
	ctx := context.Background()
	sent, req := fxDeploy(t, s)
	if _, run := fxAsk(t, s, sent.ChatID, "use staging"); run.State != store.RunWaitingInput {
		t.Fatalf("run after chat message = %s", run.State)
	}
	v, err := s.Request(ctx, req.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Proposals) != 1 {
		t.Fatalf("proposals = %+v", v.Proposals)
	}
	return sent, v, v.Proposals[0]
}

func TestChatMessageBecomesResolveProposal(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		accept bool
		draft  forms.Values // what the form holds when deciding
		want   forms.Values // the saved draft afterwards (nil: none)
	}{
		{"accept", true, nil, forms.Values{"environment": "staging"}},
		{"accept over the form", true, forms.Values{"environment": "production"}, forms.Values{"environment": "staging"}},
		{"keep mine", false, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := fxOpen(t, nil)
			sent, req, p := fxResolveProposal(t, s)
			if p.Kind != ProposeResolve || p.State != store.ProposalPending || !reflect.DeepEqual(p.Values, forms.Values{"environment": "staging"}) {
				t.Fatalf("proposal = %+v", p)
			}
			// Nothing is filled by the message or the proposal.
			if req.State != store.ReqPending || req.Answer != nil || len(req.Partial) != 0 {
				t.Fatalf("request = %+v", req)
			}
			if _, ok, _ := s.LoadDraft(ctx, req.ID, req.Revision); ok {
				t.Fatal("a draft exists before the decision")
			}
			before := fxRows(t, s, req.ID)
			res, err := s.Decide(ctx, Decision{ProposalID: p.ID, Accept: tc.accept, Draft: tc.draft}, "")
			if err != nil {
				t.Fatal(err)
			}
			d, ok, _ := s.LoadDraft(ctx, req.ID, req.Revision)
			if tc.want == nil {
				if ok {
					t.Fatalf("keep-mine saved a draft: %+v", d)
				}
				if res.State != store.ProposalRejected {
					t.Fatalf("decision = %+v", res)
				}
			} else if !ok || !reflect.DeepEqual(d.Values, tc.want) || !reflect.DeepEqual(res.Draft, tc.want) {
				t.Fatalf("draft = %+v (%v), result %+v; want %v", d, ok, res, tc.want)
			}
			v, _ := s.Request(ctx, req.ID)
			if v.State != store.ReqPending || v.Digest != req.Digest || len(v.Proposals) != 0 {
				t.Fatalf("request after decision = %+v", v)
			}
			if !tc.accept {
				// Only the proposal's state moved.
				if after := fxRows(t, s, req.ID); after == before {
					t.Fatal("the rejection was not recorded")
				}
			}
			run, _ := s.GetRun(ctx, sent.RunID)
			if run.State != store.RunWaitingInput {
				t.Fatalf("run = %s", run.State)
			}
			// A decided proposal cannot be decided again.
			_, err = s.Decide(ctx, Decision{ProposalID: p.ID, Accept: true}, "")
			fxCode(t, err, CodeTargetClosed)
		})
	}
}

func TestReplaceAppliesOrProposes(t *testing.T) {
	t.Parallel()
	newSource := json.RawMessage(`{"kind":"dynamic","definition":{"title":"Choose an environment and region","fields":[
		{"name":"environment","type":"select","label":"Environment","options":["production","staging","canary"]},
		{"name":"region","type":"text","label":"Region"}]}}`)
	cases := []struct {
		name    string
		draft   *Draft // saved before the replace
		propose bool
		kept    forms.Values
	}{
		{"no draft", nil, false, nil},
		{"untouched draft", &Draft{Values: forms.Values{}, Edited: false}, false, nil},
		{"edited draft", &Draft{Values: forms.Values{"environment": "staging"}, Edited: true}, true, forms.Values{"environment": "staging"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := fxOpen(t, nil)
			_, req := fxDeploy(t, s)
			if tc.draft != nil {
				tc.draft.RequestID, tc.draft.Revision = req.ID, req.Revision
				if err := s.SaveDraft(ctx, *tc.draft); err != nil {
					t.Fatal(err)
				}
			}
			res, err := s.Replace(ctx, ReplaceInput{RequestID: req.ID, Digest: req.Digest, Source: newSource}, "")
			if err != nil {
				t.Fatal(err)
			}
			if res.ConfirmationRequired != tc.propose || (res.ProposalID != "") != tc.propose {
				t.Fatalf("replace = %+v", res)
			}
			if tc.propose {
				v, _ := s.Request(ctx, req.ID)
				if v.Digest != req.Digest || v.Revision != 1 || len(v.Proposals) != 1 || v.Proposals[0].Kind != ProposeReplace {
					t.Fatalf("before accepting: %+v", v)
				}
				dr, err := s.Decide(ctx, Decision{ProposalID: res.ProposalID, Accept: true}, "")
				if err != nil {
					t.Fatal(err)
				}
				if dr.Revision != 2 || !reflect.DeepEqual(dr.Draft, tc.kept) {
					t.Fatalf("decision = %+v", dr)
				}
				if d, ok, _ := s.LoadDraft(ctx, req.ID, 2); !ok || !reflect.DeepEqual(d.Values, tc.kept) {
					t.Fatalf("revision 2 draft = %+v", d)
				}
			}
			v, _ := s.Request(ctx, req.ID)
			if v.Revision != 2 || v.Digest == req.Digest || len(v.Fields) != 2 || v.Title != "Choose an environment and region" {
				t.Fatalf("after replace: rev %d digest %s fields %d", v.Revision, v.Digest, len(v.Fields))
			}
			if !tc.propose && v.Digest != res.Digest {
				t.Fatalf("receipt digest %s, request %s", res.Digest, v.Digest)
			}
			_, err = s.Answer(ctx, AnswerInput{RequestID: req.ID, Digest: req.Digest, Values: map[string]any{"environment": "canary"}})
			fxCode(t, err, CodeStaleTarget)
			rc, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Digest: v.Digest, Values: map[string]any{"environment": "canary", "region": "eu"}})
			if err != nil || rc.ApplyState != Applied {
				t.Fatalf("answer at the new digest = %+v, %v", rc, err)
			}
		})
	}
}

func TestReplaceRejectedChangesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	_, req := fxDeploy(t, s)
	if err := s.SaveDraft(ctx, Draft{RequestID: req.ID, Revision: 1, Values: forms.Values{"environment": "staging"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Replace(ctx, ReplaceInput{RequestID: req.ID, Source: json.RawMessage(mustJSON(fxTextDef("Other", "x")))}, "")
	if err != nil || !res.ConfirmationRequired {
		t.Fatalf("replace = %+v, %v", res, err)
	}
	if _, err := s.Decide(ctx, Decision{ProposalID: res.ProposalID, Accept: false}, ""); err != nil {
		t.Fatal(err)
	}
	v, _ := s.Request(ctx, req.ID)
	d, _, _ := s.LoadDraft(ctx, req.ID, 1)
	if v.Revision != 1 || v.Digest != req.Digest || d.Values["environment"] != "staging" {
		t.Fatalf("keep-mine changed the request: %+v draft %+v", v, d)
	}
}

func TestProposalForClosedRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	_, req, p := fxResolveProposal(t, s)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "production"}}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Decide(ctx, Decision{ProposalID: p.ID, Accept: true}, "")
	fxCode(t, err, CodeTargetClosed)
	_, err = s.Resolve(ctx, req.ID, "", map[string]any{"environment": "staging"}, "")
	fxCode(t, err, CodeTargetClosed)
	_, err = s.Replace(ctx, ReplaceInput{RequestID: req.ID, Source: json.RawMessage(mustJSON(fxTextDef("T", "x")))}, "")
	fxCode(t, err, CodeTargetClosed)
	v, _ := s.Request(ctx, req.ID)
	if v.Answer.Values["environment"] != "production" {
		t.Fatalf("answer = %+v", v.Answer)
	}
}

func TestProposalToolRetryReturnsReceipt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, req := fxDeploy(t, s)
	tools := inputTools{s}
	cc := agent.CallContext{ChatID: sent.ChatID, RunID: sent.RunID, ToolCallID: "call_9"}

	resolve := json.RawMessage(`{"requestId":"` + req.ID + `","digest":"` + req.Digest + `","values":{"environment":"staging"}}`)
	first := fxToolJSON(t, tools.Resolve(ctx, cc, resolve))
	again := fxToolJSON(t, tools.Resolve(ctx, cc, resolve))
	if first["ok"] != true || first["proposalId"] == nil || !reflect.DeepEqual(first, again) {
		t.Fatalf("retry = %v, first %v", again, first)
	}
	if n := fxCount(t, s, `SELECT COUNT(*) FROM proposals`); n != 1 {
		t.Fatalf("proposals = %d, want 1", n)
	}
	// The same tool call with other arguments is a conflict.
	other := fxToolJSON(t, tools.Resolve(ctx, cc, json.RawMessage(`{"requestId":"`+req.ID+`","values":{"environment":"production"}}`)))
	if e, _ := other["error"].(map[string]any); e["code"] != CodeCommandIDConfl {
		t.Fatalf("conflicting retry = %v", other)
	}

	if err := s.SaveDraft(ctx, Draft{RequestID: req.ID, Revision: 1, Values: forms.Values{"environment": "production"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	cc.ToolCallID = "call_10"
	replace := json.RawMessage(`{"requestId":"` + req.ID + `","source":` + mustJSON(fxTextDef("T", "environment")) + `}`)
	r1 := fxToolJSON(t, tools.Replace(ctx, cc, replace))
	r2 := fxToolJSON(t, tools.Replace(ctx, cc, replace))
	if r1["confirmationRequired"] != true || r1["proposalId"] == nil || !reflect.DeepEqual(r1, r2) {
		t.Fatalf("replace retry = %v, first %v", r2, r1)
	}
	// A newer proposal supersedes the older one.
	v, _ := s.Request(ctx, req.ID)
	if len(v.Proposals) != 1 || v.Proposals[0].ID != r1["proposalId"] {
		t.Fatalf("pending proposals = %+v", v.Proposals)
	}
}

func TestResolveRefusesSuppliedAndInvalidValues(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent := fxRun(t, s)
	res, err := s.OpenRequest(ctx, sent.RunID, "call_1", fxDecl(t, map[string]any{
		"requestKey": "k", "source": fxTextDef("T", "year", "zone"), "supplied": map[string]any{"year": "2026"}}))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		values map[string]any
	}{
		{"supplied field", map[string]any{"year": "1999"}},
		{"unknown field", map[string]any{"nope": "x"}},
		{"empty", map[string]any{}},
	}
	for _, tc := range cases {
		before := fxRows(t, s, res.RequestID)
		_, err := s.Resolve(ctx, res.RequestID, "", tc.values, "")
		if CodeOf(err) != CodeReplyInvalid {
			t.Errorf("%s: err = %v, want %s", tc.name, err, CodeReplyInvalid)
		}
		if after := fxRows(t, s, res.RequestID); after != before {
			t.Errorf("%s changed the request", tc.name)
		}
	}
}

func TestReplaceKeepsConfirmedPartialValues(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent := fxRun(t, s)
	res, err := s.OpenRequest(ctx, sent.RunID, "call_1", fxDecl(t, map[string]any{"requestKey": "k", "source": fxTextDef("T", "a", "b", "c")}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Answer(ctx, AnswerInput{RequestID: res.RequestID, Values: map[string]any{"a": "kept", "b": "dropped"}}); err != nil {
		t.Fatal(err)
	}
	// Replacing with the same form is not a change.
	same, err := s.Replace(ctx, ReplaceInput{RequestID: res.RequestID}, "")
	if err != nil || same.Revision != 1 || same.Digest != res.Digest {
		t.Fatalf("no-op replace = %+v, %v", same, err)
	}
	if _, err := s.Replace(ctx, ReplaceInput{RequestID: res.RequestID, Source: json.RawMessage(mustJSON(fxTextDef("T", "a", "c")))}, ""); err != nil {
		t.Fatal(err)
	}
	v, _ := s.Request(ctx, res.RequestID)
	if v.Revision != 2 || !reflect.DeepEqual(v.Partial, forms.Values{"a": "kept"}) || !reflect.DeepEqual(v.Missing, []string{"c"}) {
		t.Fatalf("after replace: rev %d partial %v missing %v", v.Revision, v.Partial, v.Missing)
	}
	if _, err := s.Answer(ctx, AnswerInput{RequestID: res.RequestID, Values: map[string]any{"c": "last"}}); err != nil {
		t.Fatal(err)
	}
	v, _ = s.Request(ctx, res.RequestID)
	if v.State != store.ReqAnswered || !reflect.DeepEqual(v.Answer.Values, forms.Values{"a": "kept", "c": "last"}) {
		t.Fatalf("answer = %+v", v.Answer)
	}
}
