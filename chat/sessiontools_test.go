package chat

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"followup/store"
)

// The serve tools that read answers and cancel (sessiontools.go).

func TestServeAnswerReachesTheAgentOnce(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	ss := fxServe(t, s, "agent")
	id := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
	if r := ok(t, ss.ReadAnswer(ctx, idArg(id))); r["state"] != "pending" || r["answer"] != nil || r["result"] != nil {
		t.Fatalf("read before the answer: %v", r)
	}
	// A partial answer is not an answer.
	if _, err := s.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{"destination": "Lyon"}}); err != nil {
		t.Fatal(err)
	}
	if r := ok(t, ss.Wait(ctx, id, 50*time.Millisecond)); r["state"] != "pending" || r["answer"] != nil {
		t.Fatalf("wait after a partial answer: %v", r)
	}
	rc, err := s.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{"travelers": 2}})
	if err != nil || rc.ApplyState != Applied || rc.RunID != "" {
		t.Fatalf("answer: %+v, %v", rc, err)
	}
	v, _ := s.Request(ctx, id)
	if len(v.Deliveries) != 1 || v.Deliveries[0].State != store.DeliveryPending {
		t.Fatalf("deliveries before the agent read: %+v", v.Deliveries)
	}
	r := ok(t, ss.Wait(ctx, id, time.Second))
	want := `{"origins":{"destination":"response","travelers":"response"},"values":{"destination":"Lyon","travelers":2}}`
	if got, _ := json.Marshal(r["answer"]); r["state"] != "answered" || string(got) != want {
		t.Fatalf("wait: %v", r)
	}
	res := r["result"].(map[string]any)
	if res["status"] != "input_received" || res["requestId"] != nil || res["context"].(map[string]any)["op"] != "plan" ||
		res["origin"].(map[string]any)["sessionId"] != ss.rowID() {
		t.Errorf("§5 result: %v", res)
	}
	v, _ = s.Request(ctx, id)
	if len(v.Deliveries) != 1 || v.Deliveries[0].State != store.DeliveryDelivered || v.Deliveries[0].Attempts != 1 {
		t.Errorf("deliveries after the read: %+v", v.Deliveries)
	}
	// Reading again returns the same and delivers nothing more.
	again := ok(t, ss.ReadAnswer(ctx, idArg(id)))
	if a, _ := json.Marshal(again["answer"]); string(a) != want {
		t.Errorf("read again: %v", again)
	}
	if v, _ = s.Request(ctx, id); v.Deliveries[0].Attempts != 1 {
		t.Errorf("read again delivered again: %+v", v.Deliveries)
	}
}

func TestServeWaitSeesAnotherProcess(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	open := func() *Service {
		s, err := Open(ctx, Options{DBPath: filepath.Join(dir, "f.db")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	server, screen := open(), open()
	ss := fxServe(t, server, "agent")
	id := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
	go func() {
		time.Sleep(150 * time.Millisecond)
		screen.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{"destination": "Oslo", "travelers": 1}})
	}()
	start := time.Now()
	r := ok(t, ss.Wait(ctx, id, 10*time.Second))
	if r["state"] != "answered" || r["answer"].(map[string]any)["values"].(map[string]any)["destination"] != "Oslo" {
		t.Fatalf("wait: %v", r)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the wait took %v to see another process's answer", d)
	}
	// A cancel in the screen reaches the agent as input_cancelled.
	id2 := ok(t, ss.Request(ctx, travelArgs("k2")))["requestId"].(string)
	go func() {
		time.Sleep(100 * time.Millisecond)
		screen.Cancel(ctx, id2, "")
	}()
	r = ok(t, ss.Wait(ctx, id2, 10*time.Second))
	if r["state"] != "cancelled" || r["result"].(map[string]any)["status"] != "input_cancelled" {
		t.Fatalf("wait on a cancel: %v", r)
	}
}

func TestServeCancelByTheAgent(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	ss := fxServe(t, s, "agent")
	id := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
	first := ok(t, ss.Cancel(ctx, idArg(id)))
	// Cancelling again returns the first receipt.
	if again := ok(t, ss.Cancel(ctx, idArg(id))); again["commandId"] != first["commandId"] {
		t.Errorf("cancel again: %v, first %v", again, first)
	}
	v, _ := s.Request(ctx, id)
	if v.State != store.ReqCancelled || len(v.Deliveries) != 1 || v.Deliveries[0].State != store.DeliveryDelivered {
		t.Errorf("after the agent's cancel: %s %+v", v.State, v.Deliveries)
	}
	// The user cannot answer it any more.
	if _, err := s.Answer(ctx, AnswerInput{RequestID: id, Values: map[string]any{"travelers": 2}}); CodeOf(err) != CodeTargetClosed {
		t.Errorf("answer after cancel: %v", err)
	}
}

// A wait whose call ends first (its client cancelled it) returns the
// request's state then, not the cancellation as an INTERNAL error.
func TestServeWaitCancelledReturnsTheState(t *testing.T) {
	s := fxOpen(t, nil)
	ss := fxServe(t, s, "agent")
	id := ok(t, ss.Request(context.Background(), travelArgs("k")))["requestId"].(string)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(50 * time.Millisecond)
		cancel()
	}()
	if r := ok(t, ss.Wait(ctx, id, 10*time.Second)); r["state"] != "pending" || r["requestId"] != id {
		t.Fatalf("a cancelled wait: %v", r)
	}
}

// Arguments of the wrong type are refused in words, for every tool that
// decodes them (the serve tools and the agent's).
func TestToolArgumentsOfTheWrongType(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	ss := fxServe(t, s, "agent")
	for _, c := range []struct {
		run  func(context.Context, json.RawMessage) json.RawMessage
		args string
		says string
	}{
		{ss.ReadAnswer, `{"requestId":5}`, "requestId must be a string (got the number 5)"},
		{ss.Cancel, `{"requestId":{"id":"rq_1"}}`, "requestId must be a string (got an object)"},
		{ss.ReadAnswer, `["rq_1"]`, "the arguments must be a JSON object of named arguments (got a list)"},
		{ss.Cancel, `"rq_1"`, `the arguments must be a JSON object of named arguments (got the string "rq_1")`},
	} {
		var out struct {
			Error Error `json:"error"`
		}
		raw := c.run(ctx, json.RawMessage(c.args))
		if json.Unmarshal(raw, &out) != nil || out.Error.Code != CodeInvalidArgument || out.Error.Message != c.says {
			t.Errorf("%s: %s, want %q", c.args, raw, c.says)
		}
	}
	// A nested argument is named by its path; a whole number by what it must be.
	var in struct {
		Values struct {
			Count int `json:"count"`
		} `json:"values"`
	}
	if err := DecodeArgs(json.RawMessage(`{"values":{"count":2.5}}`), &in); CodeOf(err) != CodeInvalidArgument ||
		AsError(err).Message != "values.count must be a whole number (got the number 2.5)" {
		t.Errorf("nested: %v", err)
	}
}

// The user deleting a serve session's chat, or archiving it, tells the
// agent waiting there: its question reads cancelled (chat_deleted), or
// expires (chat_archived) — never NOT_FOUND like a wrong id, nor a wait on
// a question the pending list no longer shows.
func TestServeChatDeletedOrArchivedTellsTheAgent(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, state, reason, status string
		do                          func(s *Service, chatID string) error
	}{
		{"delete", "cancelled", ReasonChatDeleted, "", func(s *Service, chatID string) error { return s.Delete(ctx, chatID, "") }},
		{"archive", "expired", ReasonChatArchived, "input_expired", func(s *Service, chatID string) error {
			_, err := s.Archive(ctx, chatID, "")
			return err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := fxOpen(t, nil)
			ss := fxServe(t, s, "agent")
			id := ok(t, ss.Request(ctx, travelArgs("k")))["requestId"].(string)
			v, _ := s.Request(ctx, id)
			done := make(chan error, 1)
			go func() {
				time.Sleep(100 * time.Millisecond)
				done <- c.do(s, v.ChatID)
			}()
			start := time.Now()
			r := ok(t, ss.Wait(ctx, id, 10*time.Second))
			// The wait may hear of the commit before the operation has
			// returned: it ends before the database closes.
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if r["state"] != c.state || r["closedReason"] != c.reason || r["requestId"] != id {
				t.Fatalf("wait: %v", r)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the wait took %v to learn of the %s", d, c.name)
			}
			if c.status != "" && r["result"].(map[string]any)["status"] != c.status {
				t.Errorf("§5 result: %v", r["result"])
			}
			if again := ok(t, ss.ReadAnswer(ctx, idArg(id))); again["state"] != c.state || again["closedReason"] != c.reason {
				t.Errorf("read after the %s: %v", c.name, again)
			}
			var out struct{ Error *Error }
			json.Unmarshal(ss.ReadAnswer(ctx, idArg("rq_wrong")), &out)
			if out.Error == nil || out.Error.Code != CodeNotFound {
				t.Errorf("a wrong id: %+v", out.Error)
			}
		})
	}
}
