package chat

import (
	"context"
	"strings"
	"testing"
	"time"

	"followup/agent/mcp"
	"followup/store"
)

const consentURL = "https://example.com/consent?step=1"

// A URL elicitation is a request with no fields: answering it ({}) says
// done, and the server hears accept. followup never opens the URL.
func TestMCPURLElicitationConsent(t *testing.T) {
	s := fxEverything(t, mcp.TypeStdio, mcp.AutoApprove{All: true})
	ctx := context.Background()
	sent, err := s.Send(ctx, "", `call everything.trigger-url-elicitation {"url": "`+consentURL+`", "elicitationId": "e-1"}`, "")
	if err != nil {
		t.Fatal(err)
	}
	done := driveAsync(s, sent.RunID)
	r := fxWaitPending(t, s, sent.ChatID)
	if r.Mode != mcp.ModeURL || r.URL != consentURL || len(r.Fields) != 0 || !r.Live || r.Owner.Name != "everything" {
		t.Fatalf("request = %+v", r.RequestItem)
	}
	if _, err := s.Answer(ctx, AnswerInput{RequestID: r.ID, Values: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	run := waitRun(t, done)
	if run.State != store.RunSucceeded || !strings.Contains(run.Reply, "User completed the URL elicitation flow") {
		t.Fatalf("run = %+v", run)
	}
}

// -32042 URLElicitationRequired: the URL waits in the database like an
// input_required question, and the process whose call got it keeps the
// connection the server knows the call by: once the user says done — here
// from another process on the same database, as `followup answer` from
// another shell — it makes the call again itself, and server-everything
// (stdio, which recognises the retry only on the same connection) goes
// through; a decline is told to the model and the call is not made again.
func TestMCPURLRequiredThenRetried(t *testing.T) {
	s := fxEverything(t, mcp.TypeStdio, mcp.AutoApprove{All: true})
	other, err := Open(context.Background(), Options{DBPath: s.Path()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx := context.Background()
	msg := `call everything.trigger-url-elicitation {"url": "` + consentURL + `", "errorPath": true}`
	sent, err := s.Send(ctx, "", msg, "")
	if err != nil {
		t.Fatal(err)
	}
	done := driveAsync(s, sent.RunID)
	r := fxWaitPending(t, s, sent.ChatID)
	if r.Mode != mcp.ModeURL || r.URL == "" || r.Live {
		t.Fatalf("request = %+v", r.RequestItem)
	}
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		run, err := other.GetRun(ctx, sent.RunID)
		if err == nil && run.State == store.RunWaitingInput {
			break
		}
		if err != nil || time.Now().After(end) {
			t.Fatalf("while the link is open: %+v, %v", run, err)
		}
	}
	if _, err := other.Answer(ctx, AnswerInput{RequestID: r.ID, Values: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	// The call is made again on the same connection; this time
	// server-everything asks for its own URL during the call
	// (elicitation/create), and the user says done.
	var again RequestView
	for again = fxWaitPending(t, s, sent.ChatID); again.ID == r.ID; again = fxWaitPending(t, s, sent.ChatID) {
	}
	if again.URL != consentURL || !again.Live {
		t.Fatalf("second question = %+v", again.RequestItem)
	}
	if _, err := other.Answer(ctx, AnswerInput{RequestID: again.ID, Values: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if run := waitRun(t, done); run.State != store.RunSucceeded || !strings.Contains(run.Reply, "User completed the URL elicitation flow") {
		t.Fatalf("after done: %+v", run)
	}
	// Both links' replies reached the server: the first with the call made
	// again, the second as the answer to its elicitation/create. No record
	// is left waiting to be sent.
	for _, id := range []string{r.ID, again.ID} {
		shown, err := s.Request(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(shown.Deliveries) != 1 || shown.Deliveries[0].State != store.DeliveryDelivered || shown.Deliveries[0].Action != mcp.ActionAccept {
			t.Fatalf("%s deliveries = %+v", id, shown.Deliveries)
		}
	}

	// With --no-wait the drive leaves the link pending and returns.
	sent, _ = fxAskNoWait(t, s, msg)
	r = fxOnePending(t, s, sent.ChatID)
	if _, err := s.Cancel(ctx, r.ID, ""); err != nil {
		t.Fatal(err)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil || !strings.Contains(run.Reply, "did not go ahead") {
		t.Fatalf("after decline: %+v, %v", run, err)
	}
	steps := fxSteps(t, s, sent.ChatID)
	if len(steps) != 1 || steps[0].Outcome != OutcomeDeclined || steps[0].Attempts != 1 {
		t.Fatalf("steps = %+v", steps)
	}
	// The decline reaches no one (the call is not made again), and the
	// record says so instead of waiting to send it.
	shown, err := s.Request(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(shown.Deliveries) != 1 || shown.Deliveries[0].State != store.DeliveryFailed || !strings.Contains(shown.Deliveries[0].LastError, "not made again") {
		t.Fatalf("declined deliveries = %+v", shown.Deliveries)
	}
}

// fxAskNoWait sends text in a new chat and drives its run with --no-wait.
func fxAskNoWait(t *testing.T, s *Service, text string) (Sent, RunView) {
	t.Helper()
	ctx := context.Background()
	sent, err := s.Send(ctx, "", text, "")
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Drive(WithoutWaiting(ctx), sent.RunID)
	if err != nil || run.State != store.RunWaitingInput {
		t.Fatalf("Drive --no-wait: %+v, %v", run, err)
	}
	return sent, run
}

// A link followup would not open — another scheme than http and https, or
// bytes that would have to change to be shown (an escape sequence) — is
// never shown: the server hears -32602 with the reason, and no request
// opens.
func TestMCPURLElicitationRefusesWhatCannotBeOpened(t *testing.T) {
	s := fxEverything(t, mcp.TypeStdio, mcp.AutoApprove{All: true})
	ctx := context.Background()
	for link, reason := range map[string]string{
		"javascript:alert(1)":            "only http and https links are opened (this one is javascript:)",
		"file:///etc/passwd":             "only http and https links are opened (this one is file:)",
		"data:text/html,hi":              "only http and https links are opened (this one is data:)",
		`https://example.com/\u001b[2Jx`: "control or invisible characters",
	} {
		sent, err := s.Send(ctx, "", `call everything.trigger-url-elicitation {"url": "`+link+`"}`, "")
		if err != nil {
			t.Fatal(err)
		}
		run := waitRun(t, driveAsync(s, sent.RunID))
		if !strings.Contains(run.Reply, "-32602") || !strings.Contains(run.Reply, reason) {
			t.Errorf("%s: run = %+v", link, run)
		}
		if p, err := s.Pending(ctx, sent.ChatID); err != nil || len(p) != 0 {
			t.Errorf("%s: pending %+v %v", link, p, err)
		}
	}
}
