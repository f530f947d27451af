package chat

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"followup/agent/mcp"
	"followup/store"
)

// allThirteen answers every field of server-everything's
// trigger-elicitation-request form, none with its default, so the
// server's echo proves each value arrived as confirmed.
var allThirteen = map[string]any{
	"name": "Ada Lovelace", "check": true, "firstLine": "Call me Ishmael.", "email": "ada@example.org",
	"homepage": "https://example.org/ada", "birthdate": "1815-12-10", "integer": 7, "number": 2.5,
	"untitledSingleSelectEnum": "Joey", "untitledMultipleSelectEnum": []any{"Piano", "Drums"},
	"titledSingleSelectEnum": "hero-3", "titledMultipleSelectEnum": []any{"fish-2", "fish-3"},
	"legacyTitledEnum": "pet-4",
}

// everythingOrder is the order of the form's fields in server-everything's
// requestedSchema.
const everythingOrder = "name check firstLine email homepage birthdate integer number untitledSingleSelectEnum " +
	"untitledMultipleSelectEnum titledSingleSelectEnum titledMultipleSelectEnum legacyTitledEnum"

// serverReceived reads the "Raw result:" JSON server-everything appends to
// its answer: what it received.
func serverReceived(t *testing.T, text string) map[string]any {
	t.Helper()
	_, raw, ok := strings.Cut(text, "Raw result: ")
	if !ok {
		t.Fatalf("no raw result in %q", text)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("raw result %q: %v", raw, err)
	}
	return v
}

// driveAsync drives a run in the background; the channel has its view.
func driveAsync(s *Service, runID string) chan RunView {
	done := make(chan RunView, 1)
	go func() {
		v, _ := s.Drive(context.Background(), runID)
		done <- v
	}()
	return done
}

// fxWaitPending waits for the chat's one pending request.
func fxWaitPending(t *testing.T, s *Service, chatID string) RequestView {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		rs, err := s.Pending(context.Background(), chatID)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) == 1 {
			return rs[0]
		}
		if len(rs) > 1 || time.Now().After(deadline) {
			t.Fatalf("pending = %d, want 1", len(rs))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func waitRun(t *testing.T, done chan RunView) RunView {
	t.Helper()
	select {
	case v := <-done:
		return v
	case <-time.After(30 * time.Second):
		t.Fatal("the drive did not end")
		return RunView{}
	}
}

func TestMCPClassicElicitationThroughTheInputPath(t *testing.T) {
	for _, tr := range []string{mcp.TypeStdio, mcp.TypeHTTP} {
		t.Run(tr, func(t *testing.T) {
			s := fxEverything(t, tr, mcp.AutoApprove{All: true})
			ctx := context.Background()
			cases := []struct {
				name   string
				act    func(r RequestView, runID string)
				action string
				says   string
				reason string
			}{
				{"answer", func(r RequestView, _ string) {
					if _, err := s.Answer(ctx, AnswerInput{RequestID: r.ID, Values: allThirteen}); err != nil {
						t.Fatal(err)
					}
				}, mcp.ActionAccept, "User provided the requested information", ""},
				// Only the required field, and "String with default" cleared
				// (as the form sends it): the server gets exactly the name —
				// no default the user did not confirm — and show says so.
				{"defaults", func(r RequestView, _ string) {
					if _, err := s.Answer(ctx, AnswerInput{RequestID: r.ID, Values: map[string]any{"name": "Ada", "firstLine": ""}}); err != nil {
						t.Fatal(err)
					}
				}, mcp.ActionAccept, "User provided the requested information", ""},
				{"cancel", func(r RequestView, _ string) {
					if _, err := s.Cancel(ctx, r.ID, ""); err != nil {
						t.Fatal(err)
					}
				}, mcp.ActionDecline, "User declined", ""},
				{"stop", func(r RequestView, runID string) {
					if _, err := s.Stop(ctx, runID, ""); err != nil {
						t.Fatal(err)
					}
				}, mcp.ActionCancel, "User cancelled", store.ReasonTaskStopped},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					sent, err := s.Send(ctx, "", "call everything.trigger-elicitation-request", "")
					if err != nil {
						t.Fatal(err)
					}
					done := driveAsync(s, sent.RunID)
					r := fxWaitPending(t, s, sent.ChatID)
					if r.Owner != (Owner{Kind: OwnerMCPServer, Name: "everything"}) || r.Mode != mcp.ModeForm ||
						r.Tool != "trigger-elicitation-request" || len(r.Fields) != 13 || r.Reason == "" {
						t.Fatalf("request = %+v", r.RequestItem)
					}
					// The fields come in the order the server wrote them.
					var names []string
					for _, f := range r.Fields {
						names = append(names, f.Name)
					}
					if got := strings.Join(names, " "); got != everythingOrder {
						t.Fatalf("fields in the order %s, want %s", got, everythingOrder)
					}
					if v, _ := s.GetRun(ctx, sent.RunID); v.State != store.RunWaitingInput {
						t.Fatalf("run while the form is open: %s", v.State)
					}
					c.act(r, sent.RunID)
					run := waitRun(t, done)
					steps := fxSteps(t, s, sent.ChatID)
					if len(steps) != 1 {
						t.Fatalf("steps = %+v", steps)
					}
					text := steps[0].Text
					if !strings.Contains(text, c.says) {
						t.Fatalf("the server said %q, want %q", text, c.says)
					}
					got := serverReceived(t, text)
					if got["action"] != c.action {
						t.Fatalf("the server received %v", got)
					}
					if want := map[string]any{"answer": allThirteen, "defaults": map[string]any{"name": "Ada"}}[c.name]; want != nil {
						a, _ := json.Marshal(got["content"])
						b, _ := json.Marshal(want)
						var x, y any
						json.Unmarshal(a, &x)
						json.Unmarshal(b, &y)
						a, _ = json.Marshal(x)
						b, _ = json.Marshal(y)
						if string(a) != string(b) {
							t.Fatalf("the server received\n%s\nwant\n%s", a, b)
						}
					}
					if c.action == mcp.ActionAccept {
						if run.State != store.RunSucceeded || !strings.Contains(run.Reply, c.says) {
							t.Fatalf("run = %+v", run)
						}
					} else if _, has := got["content"]; has {
						t.Fatalf("%s sent content: %v", c.name, got)
					}
					shown, err := s.Request(ctx, r.ID)
					if err != nil {
						t.Fatal(err)
					}
					if shown.ClosedReason != c.reason && !(c.reason == "" && shown.ClosedReason == store.ReasonUserCancelled) {
						t.Fatalf("closed reason %q, want %q", shown.ClosedReason, c.reason)
					}
					var server *DeliveryView
					for i, d := range shown.Deliveries {
						if d.Target == store.TargetMCPServer {
							server = &shown.Deliveries[i]
						} else {
							t.Fatalf("a delivery to the model: %+v", d)
						}
					}
					if server == nil || server.Action != c.action || server.State != store.DeliveryDelivered {
						t.Fatalf("deliveries = %+v", shown.Deliveries)
					}
					// show tells what the server received.
					a, _ := json.Marshal(server.Content)
					b, _ := json.Marshal(got["content"])
					if c.action == mcp.ActionAccept && string(a) != string(b) {
						t.Fatalf("recorded as sent %s, the server received %s", a, b)
					}
				})
			}
		})
	}
}

// A server's question waiting for its answer reads the database again only
// for an event that may tell of its end, not for every other question's.
func TestLiveQuestionWakesForItsOwnEvents(t *testing.T) {
	r := store.Request{ID: "rq_1", ChatID: "ch_1", RunID: sql.NullString{String: "run_1", Valid: true}}
	for _, c := range []struct {
		ev   Event
		want bool
	}{
		{Event{Kind: EvRequest, ChatID: "ch_1", RequestID: "rq_1"}, true},
		{Event{Kind: EvRequest, ChatID: "ch_1", RunID: "run_1"}, true}, // a stop
		{Event{Kind: EvExternal}, false},                               // another process's change to it comes as EvRequest
		{Event{Kind: EvRun, ChatID: "ch_1", RunID: "run_1"}, true},
		{Event{Kind: EvChat, ChatID: "ch_1"}, true},
		{Event{Kind: EvRequest, ChatID: "ch_1", RunID: "run_1", RequestID: "rq_2"}, false},
		{Event{Kind: EvMessage, ChatID: "ch_1", RunID: "run_1"}, false},
		{Event{Kind: EvRun, ChatID: "ch_2", RunID: "run_2"}, false},
	} {
		if got := mayClose(c.ev, r); got != c.want {
			t.Errorf("%+v: %v", c.ev, got)
		}
	}
}
