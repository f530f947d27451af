package chat

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"followup/store"
)

func TestCommandIDReplayAndConflict(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, req := fxDeploy(t, s)
	in := AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}, CommandID: "cmd-1"}
	first, err := s.Answer(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Drive(ctx, sent.RunID); err != nil {
		t.Fatal(err)
	}

	// The request is closed and the run ended: the same command still
	// returns the original receipt.
	again, err := s.Answer(ctx, in)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if !reflect.DeepEqual(first, again) || again.CommandID != "cmd-1" {
		t.Fatalf("replay = %+v, want %+v", again, first)
	}

	cases := []struct {
		name string
		run  func() error
	}{
		{"other values", func() error {
			_, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "production"}, CommandID: "cmd-1"})
			return err
		}},
		{"other kind", func() error { _, err := s.Cancel(ctx, req.ID, "cmd-1"); return err }},
		{"other request", func() error {
			_, err := s.Answer(ctx, AnswerInput{RequestID: "rq_other", Values: in.Values, CommandID: "cmd-1"})
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fxCode(t, tc.run(), CodeCommandIDConfl)
		})
	}

	// Send is a command too.
	m1, err := s.Send(ctx, sent.ChatID, "hello again", "send-1")
	if err != nil {
		t.Fatal(err)
	}
	m2, err := s.Send(ctx, sent.ChatID, "hello again", "send-1")
	if err != nil || m1 != m2 {
		t.Fatalf("send replay = %+v, %v; want %+v", m2, err, m1)
	}
	if n := fxCount(t, s, `SELECT COUNT(*) FROM messages WHERE content = 'hello again'`); n != 1 {
		t.Fatalf("messages = %d, want 1", n)
	}
	_, err = s.Send(ctx, sent.ChatID, "something else", "send-1")
	fxCode(t, err, CodeCommandIDConfl)
}

func TestRequestKeyRetry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent := fxRun(t, s)
	decl := map[string]any{"requestKey": "k1", "reason": "why", "source": fxTextDef("T", "a", "b")}
	first, err := s.OpenRequest(ctx, sent.RunID, "call_1", fxDecl(t, decl))
	if err != nil {
		t.Fatal(err)
	}
	// Same arguments (keys reordered) → the request's current state.
	raw := json.RawMessage(`{"source":` + mustJSON(decl["source"]) + `,"reason":"why","requestKey":"k1"}`)
	again, err := s.OpenRequest(ctx, sent.RunID, "call_2", raw)
	if err != nil || again.RequestID != first.RequestID {
		t.Fatalf("retry = %+v, %v", again, err)
	}
	if _, err := s.Answer(ctx, AnswerInput{RequestID: first.RequestID, Values: map[string]any{"a": "x"}}); err != nil {
		t.Fatal(err)
	}
	again, err = s.OpenRequest(ctx, sent.RunID, "call_3", raw)
	if err != nil || again.State != store.ReqPending || !reflect.DeepEqual(again.Missing, []string{"b"}) {
		t.Fatalf("retry after partial = %+v, %v", again, err)
	}
	if n := fxCount(t, s, `SELECT COUNT(*) FROM requests`); n != 1 {
		t.Fatalf("requests = %d, want 1", n)
	}
	run, _ := s.GetRun(ctx, sent.RunID)
	if run.Step != 0 {
		t.Fatalf("step = %d", run.Step)
	}

	decl["reason"] = "another reason"
	_, err = s.OpenRequest(ctx, sent.RunID, "call_4", fxDecl(t, decl))
	fxCode(t, err, CodeRequestKeyConfl)
}

func TestTargetErrorsNeverChangeTheRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent := fxRun(t, s)
	open := func(key string) OpenResult {
		res, err := s.OpenRequest(ctx, sent.RunID, "call_"+key, fxDecl(t, map[string]any{"requestKey": key, "source": fxTextDef("T", "a")}))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	stale := open("stale")
	if _, err := s.Replace(ctx, ReplaceInput{RequestID: stale.RequestID, Source: json.RawMessage(mustJSON(fxTextDef("T2", "a", "c")))}, ""); err != nil {
		t.Fatal(err)
	}
	answered := open("answered")
	if _, err := s.Answer(ctx, AnswerInput{RequestID: answered.RequestID, Values: map[string]any{"a": "x"}}); err != nil {
		t.Fatal(err)
	}
	cancelled := open("cancelled")
	if _, err := s.Cancel(ctx, cancelled.RequestID, ""); err != nil {
		t.Fatal(err)
	}

	vals := map[string]any{"a": "y"}
	cases := []struct {
		name    string
		target  string
		run     func() error
		code    string
		details map[string]any
	}{
		{"answer stale digest", stale.RequestID, func() error {
			_, err := s.Answer(ctx, AnswerInput{RequestID: stale.RequestID, Digest: stale.Digest, Values: vals})
			return err
		}, CodeStaleTarget, nil},
		{"resolve stale digest", stale.RequestID, func() error {
			_, err := s.Resolve(ctx, stale.RequestID, stale.Digest, vals, "")
			return err
		}, CodeStaleTarget, nil},
		{"replace stale digest", stale.RequestID, func() error {
			_, err := s.Replace(ctx, ReplaceInput{RequestID: stale.RequestID, Digest: stale.Digest}, "")
			return err
		}, CodeStaleTarget, nil},
		{"answer answered", answered.RequestID, func() error {
			_, err := s.Answer(ctx, AnswerInput{RequestID: answered.RequestID, Values: vals})
			return err
		}, CodeTargetClosed, map[string]any{"state": store.ReqAnswered, "closedReason": ""}},
		{"cancel answered", answered.RequestID, func() error {
			_, err := s.Cancel(ctx, answered.RequestID, "")
			return err
		}, CodeTargetClosed, map[string]any{"state": store.ReqAnswered, "closedReason": ""}},
		{"answer cancelled", cancelled.RequestID, func() error {
			_, err := s.Answer(ctx, AnswerInput{RequestID: cancelled.RequestID, Values: vals})
			return err
		}, CodeTargetClosed, map[string]any{"state": store.ReqCancelled, "closedReason": store.ReasonUserCancelled}},
		{"cancel cancelled", cancelled.RequestID, func() error {
			_, err := s.Cancel(ctx, cancelled.RequestID, "")
			return err
		}, CodeTargetClosed, map[string]any{"state": store.ReqCancelled, "closedReason": store.ReasonUserCancelled}},
		{"answer unknown", stale.RequestID, func() error {
			_, err := s.Answer(ctx, AnswerInput{RequestID: "rq_missing", Values: vals})
			return err
		}, CodeNotFound, nil},
		{"cancel unknown", stale.RequestID, func() error { _, err := s.Cancel(ctx, "rq_missing", ""); return err }, CodeNotFound, nil},
		{"resolve unknown", stale.RequestID, func() error { _, err := s.Resolve(ctx, "rq_missing", "", vals, ""); return err }, CodeNotFound, nil},
		{"decide unknown", stale.RequestID, func() error { _, err := s.Decide(ctx, Decision{ProposalID: "prop_missing"}, ""); return err }, CodeNotFound, nil},
		{"stop unknown", stale.RequestID, func() error { _, err := s.Stop(ctx, "run_missing", ""); return err }, CodeNotFound, nil},
		{"inspect unknown", stale.RequestID, func() error { _, err := s.Inspect(ctx, "ch_missing"); return err }, CodeNotFound, nil},
		{"request unknown", stale.RequestID, func() error { _, err := s.Request(ctx, "rq_missing"); return err }, CodeNotFound, nil},
		{"open in unknown run", stale.RequestID, func() error {
			_, err := s.OpenRequest(ctx, "run_missing", "c", fxDecl(t, map[string]any{"requestKey": "x", "source": fxTextDef("T", "a")}))
			return err
		}, CodeNotFound, nil},
	}
	for _, tc := range cases {
		before := fxRows(t, s, tc.target)
		e := fxCode(t, tc.run(), tc.code)
		for k, v := range tc.details {
			if e.Details[k] != v {
				t.Errorf("%s: details[%s] = %v, want %v", tc.name, k, e.Details[k], v)
			}
		}
		if after := fxRows(t, s, tc.target); after != before {
			t.Errorf("%s changed the request:\n%s\n%s", tc.name, before, after)
		}
	}

	// The stale request can still be answered at its current digest.
	cur, _ := s.Request(ctx, stale.RequestID)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: stale.RequestID, Digest: cur.Digest, Values: map[string]any{"a": "1", "c": "2"}}); err != nil {
		t.Fatal(err)
	}
}
