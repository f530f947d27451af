package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"followup/forms"
	"followup/store"
)

func TestCancelTellsTheAgentAndTheTaskGoesOn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, req := fxDeploy(t, s)
	rc, err := s.Cancel(ctx, req.ID, "cancel-1")
	if err != nil {
		t.Fatal(err)
	}
	if rc.Kind != "cancel" || rc.ApplyState != Applied || rc.RunID != sent.RunID {
		t.Fatalf("receipt = %+v", rc)
	}
	v, _ := s.Request(ctx, req.ID)
	if v.State != store.ReqCancelled || v.ClosedReason != store.ReasonUserCancelled || len(v.Deliveries) != 1 || v.Deliveries[0].Kind != store.DeliveryCancel {
		t.Fatalf("request = %s/%s deliveries %+v", v.State, v.ClosedReason, v.Deliveries)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if run.State != store.RunSucceeded || !strings.Contains(run.Reply, "go on without") {
		t.Fatalf("run = %s %q", run.State, run.Reply)
	}
	v, _ = s.Request(ctx, req.ID)
	if v.Deliveries[0].State != store.DeliveryDelivered {
		t.Fatalf("delivery = %+v", v.Deliveries[0])
	}
	ms, _ := s.store.RunMessages(ctx, s.reader(), sent.RunID)
	found := false
	for _, m := range ms {
		if m.DeliveryID.Valid && strings.Contains(m.Content, `"input_cancelled"`) {
			found = true
		}
	}
	if !found {
		t.Fatal("the agent was not told of the cancellation")
	}
	// The receipt survives; a late answer is refused with the reason.
	again, err := s.Cancel(ctx, req.ID, "cancel-1")
	if err != nil || !reflect.DeepEqual(again, rc) {
		t.Fatalf("replay = %+v, %v", again, err)
	}
	_, err = s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}})
	if e := fxCode(t, err, CodeTargetClosed); e.Details["state"] != store.ReqCancelled {
		t.Fatalf("details = %v", e.Details)
	}
}

func TestStopExpiresRequestsAndCallsNoModel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, req := fxDeploy(t, s)
	// A second question in the same run, and an answer not yet delivered.
	extra, err := s.OpenRequest(ctx, sent.RunID, "call_x", fxDecl(t, map[string]any{"requestKey": "x", "source": fxTextDef("X", "a")}))
	if err != nil {
		t.Fatal(err)
	}
	before, _ := s.GetRun(ctx, sent.RunID)
	msgs := fxCount(t, s, `SELECT COUNT(*) FROM messages WHERE chat_id = ? AND role <> 'notice'`, sent.ChatID)

	res, err := s.Stop(ctx, sent.RunID, "")
	if err != nil || res.State != store.RunStopped {
		t.Fatalf("stop = %+v, %v", res, err)
	}
	for _, id := range []string{req.ID, extra.RequestID} {
		v, _ := s.Request(ctx, id)
		if v.State != store.ReqExpired || v.ClosedReason != store.ReasonTaskStopped || len(v.Deliveries) != 0 {
			t.Fatalf("request %s = %s/%s deliveries %+v", id, v.State, v.ClosedReason, v.Deliveries)
		}
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if run.State != store.RunStopped || run.ModelCalls != before.ModelCalls {
		t.Fatalf("run after stop = %+v (model calls before %d)", run, before.ModelCalls)
	}
	if n := fxCount(t, s, `SELECT COUNT(*) FROM deliveries`); n != 0 {
		t.Fatalf("deliveries = %d, want 0", n)
	}
	// The conversation stays.
	if n := fxCount(t, s, `SELECT COUNT(*) FROM messages WHERE chat_id = ? AND role <> 'notice'`, sent.ChatID); n != msgs {
		t.Fatalf("messages = %d, want %d", n, msgs)
	}
	iv, err := s.Inspect(ctx, sent.ChatID)
	if err != nil || len(iv.Messages) == 0 || iv.Run.State != store.RunStopped {
		t.Fatalf("inspect = %+v, %v", iv, err)
	}
	_, err = s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}})
	if e := fxCode(t, err, CodeTargetClosed); e.Details["closedReason"] != store.ReasonTaskStopped {
		t.Fatalf("details = %v", e.Details)
	}
	_, err = s.Stop(ctx, sent.RunID, "")
	fxCode(t, err, CodeTargetClosed)
	// The next message starts a new run in the same chat.
	next, err := s.Send(ctx, sent.ChatID, "Check deployment again", "")
	if err != nil || !next.NewRun || next.RunID == sent.RunID {
		t.Fatalf("send after stop = %+v, %v", next, err)
	}
}

func TestStopFailsUndeliveredAnswers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, req := fxDeploy(t, s)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	before, _ := s.GetRun(ctx, sent.RunID)
	if _, err := s.Stop(ctx, sent.RunID, ""); err != nil {
		t.Fatal(err)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil || run.ModelCalls != before.ModelCalls {
		t.Fatalf("run = %+v, %v", run, err)
	}
	v, _ := s.Request(ctx, req.ID)
	if v.State != store.ReqAnswered || v.Deliveries[0].State != store.DeliveryFailed {
		t.Fatalf("request = %s deliveries %+v", v.State, v.Deliveries)
	}
	if n := fxCount(t, s, `SELECT COUNT(*) FROM messages WHERE delivery_id IS NOT NULL`); n != 0 {
		t.Fatalf("delivered messages = %d", n)
	}
}

// TestExpiryByDeadline: whatever reads or changes requests first expires
// what is overdue — every read that shows a request's state, and every
// command (a late answer, cancel or draft is refused with TARGET_CLOSED);
// no caller has to ask for it.
func TestExpiryByDeadline(t *testing.T) {
	t.Parallel()
	bg := context.Background()
	cases := []struct {
		name    string
		refused bool                                      // the late command gets TARGET_CLOSED
		expire  func(s *Service, chatID, id string) error // what notices the deadline
	}{
		{"Request", false, func(s *Service, _, id string) error { _, err := s.Request(bg, id); return err }},
		{"Pending", false, func(s *Service, chatID, _ string) error { _, err := s.Pending(bg, chatID); return err }},
		{"Pending of every chat", false, func(s *Service, _, _ string) error { _, err := s.Pending(bg, ""); return err }},
		{"PendingItems", false, func(s *Service, _, _ string) error { _, err := s.PendingItems(bg, ""); return err }},
		{"Requests", false, func(s *Service, chatID, _ string) error { _, err := s.Requests(bg, chatID); return err }},
		{"Inspect", false, func(s *Service, chatID, _ string) error { _, err := s.Inspect(bg, chatID); return err }},
		{"Screen", false, func(s *Service, chatID, _ string) error {
			sc, err := s.Screen(bg, chatID, 50)
			if err == nil && len(sc.Pending) != 0 {
				err = fmt.Errorf("the screen shows %d open questions", len(sc.Pending))
			}
			return err
		}},
		{"PendingElsewhere", false, func(s *Service, _, _ string) error { _, err := s.PendingElsewhere(bg, "ch_other"); return err }},
		{"ChatList", false, func(s *Service, _, _ string) error { _, err := s.ChatList(bg, "", 10); return err }},
		{"a message", false, func(s *Service, chatID, _ string) error { _, err := s.Send(bg, chatID, "still there?", ""); return err }},
		{"late answer", true, func(s *Service, _, id string) error {
			_, err := s.Answer(bg, AnswerInput{RequestID: id, Values: map[string]any{"a": "late"}})
			return err
		}},
		{"late cancel", true, func(s *Service, _, id string) error { _, err := s.Cancel(bg, id, ""); return err }},
		{"late draft", true, func(s *Service, _, id string) error {
			return s.SaveDraft(bg, Draft{RequestID: id, Revision: 1, Values: forms.Values{"a": "late"}, Edited: true})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			clock := newFxClock()
			s := fxOpen(t, clock)
			sent := fxRun(t, s)
			deadline := clock.Now().Add(10 * time.Minute).Format(time.RFC3339)
			res, err := s.OpenRequest(ctx, sent.RunID, "call_1", fxDecl(t, map[string]any{
				"requestKey": "soon", "source": fxTextDef("Soon", "a"), "expiresAt": deadline}))
			if err != nil {
				t.Fatal(err)
			}
			clock.Advance(9 * time.Minute)
			if v, _ := s.Request(ctx, res.RequestID); v.State != store.ReqPending {
				t.Fatalf("expired early: %s", v.State)
			}
			clock.Advance(2 * time.Minute)
			err = tc.expire(s, sent.ChatID, res.RequestID)
			if tc.refused {
				if e := fxCode(t, err, CodeTargetClosed); e.Details["state"] != store.ReqExpired || e.Details["closedReason"] != store.ReasonDeadline {
					t.Fatalf("details = %v", e.Details)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			// Read the row itself: every read of the host would expire it.
			if n := fxCount(t, s, `SELECT COUNT(*) FROM requests WHERE id = ? AND state = 'expired' AND closed_reason = 'deadline'`,
				res.RequestID); n != 1 {
				t.Fatalf("%s did not expire the request", tc.name)
			}
			v, _ := s.Request(ctx, res.RequestID)
			if v.State != store.ReqExpired || v.ClosedReason != store.ReasonDeadline || v.Answer != nil {
				t.Fatalf("request = %s/%s", v.State, v.ClosedReason)
			}
			if len(v.Deliveries) != 1 || v.Deliveries[0].Kind != store.DeliveryExpire {
				t.Fatalf("deliveries = %+v", v.Deliveries)
			}
			if pend, _ := s.Pending(ctx, sent.ChatID); len(pend) != 0 {
				t.Fatalf("still pending: %d", len(pend))
			}
			list := fxToolJSON(t, inputTools{s}.List(ctx, agentCC(sent), nil))
			item := list["requests"].([]any)[0].(map[string]any)
			if item["state"] != store.ReqExpired || item["closedReason"] != store.ReasonDeadline {
				t.Fatalf("input_list item = %v", item)
			}
			iv, _ := s.Inspect(ctx, sent.ChatID)
			if iv.Requests[0].State != store.ReqExpired {
				t.Fatalf("inspect = %+v", iv.Requests[0])
			}
			// The run is told, and it can go on.
			run, err := s.Drive(ctx, sent.RunID)
			if err != nil {
				t.Fatal(err)
			}
			v, _ = s.Request(ctx, res.RequestID)
			if v.Deliveries[0].State != store.DeliveryDelivered {
				t.Fatalf("expire delivery = %+v (run %s)", v.Deliveries[0], run.State)
			}
			var told bool
			ms, _ := s.store.RunMessages(ctx, s.reader(), sent.RunID)
			for _, m := range ms {
				var p map[string]any
				if m.DeliveryID.Valid && json.Unmarshal([]byte(m.Content), &p) == nil && p["status"] == "input_expired" {
					told = p["reason"] == store.ReasonDeadline
				}
			}
			if !told {
				t.Fatal("the run was not told of the expiry")
			}
		})
	}
}

// TestExpiredRunGoesOn: told that its question expired, the demo agent
// goes on without it, as after a cancellation, and asks nothing new.
func TestExpiredRunGoesOn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := newFxClock()
	s := fxOpen(t, clock)
	sent, req := fxDeploy(t, s)
	// The demo agent never sets a deadline: give its question one.
	if _, err := fxSQL(t, s).Exec(`UPDATE requests SET expires_at = ? WHERE id = ?`, clock.Now().Add(time.Minute).UnixMilli(), req.ID); err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Minute)
	if _, err := s.Pending(ctx, sent.ChatID); err != nil { // a read notices the deadline
		t.Fatal(err)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if pend, _ := s.Pending(ctx, sent.ChatID); run.State != store.RunSucceeded || len(pend) != 0 {
		t.Fatalf("run = %s %q, pending %d", run.State, run.Reply, len(pend))
	}
}

func TestAgentCancelIsToldOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, req := fxDeploy(t, s)
	cc := agentCC(sent)
	args := json.RawMessage(`{"requestId":"` + req.ID + `"}`)
	first := fxToolJSON(t, inputTools{s}.Cancel(ctx, cc, args))
	again := fxToolJSON(t, inputTools{s}.Cancel(ctx, cc, args))
	if first["ok"] != true || !reflect.DeepEqual(first, again) {
		t.Fatalf("tool cancel = %v, retry %v", first, again)
	}
	v, _ := s.Request(ctx, req.ID)
	if v.State != store.ReqCancelled || len(v.Deliveries) != 1 || v.Deliveries[0].State != store.DeliveryDelivered {
		t.Fatalf("request = %s deliveries %+v", v.State, v.Deliveries)
	}
	if n := fxCount(t, s, `SELECT COUNT(*) FROM messages WHERE delivery_id IS NOT NULL`); n != 0 {
		t.Fatalf("the agent's own cancel reached the history %d times", n)
	}
}
