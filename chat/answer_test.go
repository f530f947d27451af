package chat

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"followup/forms"
	"followup/store"
)

func TestAnswerCompleteDeliversAndRunSucceeds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, req := fxDeploy(t, s)

	rc, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Digest: req.Digest, Values: map[string]any{"environment": "production"}})
	if err != nil {
		t.Fatal(err)
	}
	if rc.ApplyState != Applied || len(rc.Missing) != 0 || rc.RunID != sent.RunID || rc.CommandID == "" {
		t.Fatalf("receipt = %+v", rc)
	}
	v, err := s.Request(ctx, req.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.State != store.ReqAnswered || v.Answer == nil || v.Answer.Origins["environment"] != "response" {
		t.Fatalf("request = %s answer %+v", v.State, v.Answer)
	}
	if len(v.Deliveries) != 1 || v.Deliveries[0].State != store.DeliveryPending || v.Deliveries[0].Kind != store.DeliveryAnswer {
		t.Fatalf("deliveries before drive = %+v", v.Deliveries)
	}

	run, err := s.Drive(ctx, sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if run.State != store.RunSucceeded {
		t.Fatalf("run = %s (%s)", run.State, run.Error)
	}
	if got, want := mustJSON(run.Result), `{"environment":"production"}`; got != want {
		t.Fatalf("result = %s, want %s", got, want)
	}
	if !strings.Contains(run.Reply, "production") {
		t.Fatalf("reply = %q", run.Reply)
	}
	v, _ = s.Request(ctx, req.ID)
	if v.Deliveries[0].State != store.DeliveryDelivered {
		t.Fatalf("delivery after drive = %+v", v.Deliveries[0])
	}
}

func TestAnswerPartialKeepsPending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, run := fxAsk(t, s, "", "Plan a trip")
	if run.State != store.RunWaitingInput {
		t.Fatalf("run = %s", run.State)
	}
	req := fxOnePending(t, s, sent.ChatID)
	before, _ := s.GetRun(ctx, sent.RunID)

	rc, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"destination": "Lisbon", "travelers": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if rc.ApplyState != Partial || !reflect.DeepEqual(rc.Missing, []string{"start", "transport"}) {
		t.Fatalf("receipt = %+v", rc)
	}
	v, _ := s.Request(ctx, req.ID)
	if v.State != store.ReqPending || v.Answer != nil || len(v.Deliveries) != 0 {
		t.Fatalf("request = %s answer=%v deliveries=%v", v.State, v.Answer, v.Deliveries)
	}
	if v.Partial["destination"] != "Lisbon" || !reflect.DeepEqual(v.Missing, rc.Missing) {
		t.Fatalf("partial = %v missing = %v", v.Partial, v.Missing)
	}

	after, err := s.Drive(ctx, sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if after.State != store.RunWaitingInput || after.ModelCalls != before.ModelCalls || after.Step != before.Step {
		t.Fatalf("run moved on a partial answer: before %+v after %+v", before, after)
	}

	// The rest completes it; the accepted values join with origin response.
	rc, err = s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"start": "2026-05-01", "transport": "train"}})
	if err != nil || rc.ApplyState != Applied {
		t.Fatalf("second answer = %+v, %v", rc, err)
	}
	v, _ = s.Request(ctx, req.ID)
	want := map[string]string{"destination": "response", "travelers": "response", "start": "response", "transport": "response"}
	if v.State != store.ReqAnswered || !reflect.DeepEqual(v.Answer.Origins, want) {
		t.Fatalf("answer = %+v", v.Answer)
	}
	run, err = s.Drive(ctx, sent.RunID)
	if err != nil || run.State != store.RunSucceeded || !strings.Contains(run.Reply, "Lisbon") {
		t.Fatalf("run = %+v, %v", run, err)
	}
}

func TestDeclarationAllSuppliedCompletesAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent := fxRun(t, s)
	res, err := s.OpenRequest(ctx, sent.RunID, "call_x", fxDecl(t, map[string]any{
		"requestKey": "known", "source": fxTextDef("Known", "city"),
		"supplied": map[string]any{"city": "Oslo"}, "context": map[string]any{"op": "x"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if res.State != store.ReqAnswered || len(res.Result) == 0 {
		t.Fatalf("open result = %+v", res)
	}
	p := fxToolJSON(t, res.Result)
	if p["status"] != "input_received" || p["origins"].(map[string]any)["city"] != "declaration" ||
		p["context"].(map[string]any)["op"] != "x" {
		t.Fatalf("result = %v", p)
	}
	pend, _ := s.Pending(ctx, sent.ChatID)
	if len(pend) != 0 {
		t.Fatalf("pending = %d, want 0", len(pend))
	}
	v, _ := s.Request(ctx, res.RequestID)
	if v.Answer.Origins["city"] != "declaration" {
		t.Fatalf("answer = %+v", v.Answer)
	}
}

func TestAnswerRefusedLeavesRequestAsItWas(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		values   map[string]any
		code     string
		problems int
	}{
		{"unknown and wrong type", map[string]any{"nope": 1, "travelers": "two", "transport": "boat"}, CodeReplyInvalid, 3},
		{"fraction and range", map[string]any{"travelers": 2.5, "budget": -1}, CodeReplyInvalid, 2},
		{"bad date and options", map[string]any{"start": "tomorrow", "interests": []any{"golf"}}, CodeReplyInvalid, 2},
		{"too large", map[string]any{"notes": strings.Repeat("x", 70_000)}, CodeReplyInvalid, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := fxOpen(t, nil)
			sent, _ := fxAsk(t, s, "", "Plan a trip")
			req := fxOnePending(t, s, sent.ChatID)
			if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"destination": "Rome"}}); err != nil {
				t.Fatal(err)
			}
			before := fxRows(t, s, req.ID)
			_, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: tc.values, CommandID: "cmd-bad"})
			e := fxCode(t, err, tc.code)
			ps, _ := e.Details["problems"].([]forms.Problem)
			if len(ps) != tc.problems {
				t.Fatalf("problems = %v, want %d", e.Details["problems"], tc.problems)
			}
			if after := fxRows(t, s, req.ID); after != before {
				t.Fatalf("request changed:\nbefore %s\nafter %s", before, after)
			}
			// The error consumed nothing: the same command id still works.
			if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, CommandID: "cmd-bad",
				Values: map[string]any{"start": "2026-05-01", "travelers": 1, "transport": "car"}}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestAnswerCannotOverrideSupplied(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent := fxRun(t, s)
	res, err := s.OpenRequest(ctx, sent.RunID, "call_s", fxDecl(t, map[string]any{
		"requestKey": "two", "source": fxTextDef("Two", "year", "zone"), "supplied": map[string]any{"year": "2026"},
	}))
	if err != nil || res.State != store.ReqPending || !reflect.DeepEqual(res.Missing, []string{"zone"}) {
		t.Fatalf("open = %+v, %v", res, err)
	}
	before := fxRows(t, s, res.RequestID)
	_, err = s.Answer(ctx, AnswerInput{RequestID: res.RequestID, Values: map[string]any{"year": "1999", "zone": "UTC"}})
	fxCode(t, err, CodeReplyInvalid)
	if after := fxRows(t, s, res.RequestID); after != before {
		t.Fatalf("request changed:\n%s\n%s", before, after)
	}
	if _, err := s.Answer(ctx, AnswerInput{RequestID: res.RequestID, Values: map[string]any{"zone": "UTC"}}); err != nil {
		t.Fatal(err)
	}
	v, _ := s.Request(ctx, res.RequestID)
	if v.Answer.Values["year"] != "2026" || v.Answer.Origins["year"] != "declaration" || v.Answer.Origins["zone"] != "response" {
		t.Fatalf("answer = %+v", v.Answer)
	}
}

func TestAnswerReplySizePolicy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	o := Options{DBPath: t.TempDir() + "/f.db", Policy: DefaultPolicy()}
	o.Policy.ReplySize = 100
	s, err := Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fxCheckItemsAtEnd(t, s)
	sent, _ := fxAsk(t, s, "", "Plan a trip")
	req := fxOnePending(t, s, sent.ChatID)
	_, err = s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"notes": strings.Repeat("é", 60)}})
	fxCode(t, err, CodeReplyInvalid)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"notes": strings.Repeat("e", 40)}}); err != nil {
		t.Fatalf("a reply under the limit: %v", err)
	}
}
