package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/agent/mcp"
	"followup/store"
)

// bookingServer is a go-sdk server speaking 2026-07-28 over streamable
// HTTP on 127.0.0.1. Its tool "book" answers input_required (a form asking
// when, with requestState "s1"), and once it has the reply, the text
// "booked <when> state=<requestState> action=<action>". calls counts the
// calls it received.
func bookingServer(t *testing.T, calls *atomic.Int32) mcp.ServerConfig {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "booking", Version: "1"}, nil)
	schema := map[string]any{"type": "object", "required": []any{"when"}, "properties": map[string]any{
		"when":  map[string]any{"type": "string", "title": "When", "format": "date"},
		"seats": map[string]any{"type": "integer", "minimum": 1, "maximum": 9, "default": 2},
	}}
	srv.AddTool(&sdk.Tool{Name: "book", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			calls.Add(1)
			if len(req.Params.InputResponses) == 0 {
				return &sdk.CallToolResult{RequestState: "s1", InputRequests: sdk.InputRequestMap{
					"when": &sdk.ElicitParams{Mode: "form", Message: "When do you travel?", RequestedSchema: schema}}}, nil
			}
			r, _ := req.Params.InputResponses["when"].(*sdk.ElicitResult)
			if r == nil {
				return nil, fmt.Errorf("no reply to when")
			}
			b, _ := json.Marshal(r.Content)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{
				Text: fmt.Sprintf("booked %s state=%s action=%s", b, req.Params.RequestState, r.Action)}}}, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{Stateless: true})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return mcp.ServerConfig{Name: "booking", Type: mcp.TypeHTTP, URL: ts.URL, Shown: ts.URL, Timeout: 10 * time.Second,
		AutoApprove: mcp.AutoApprove{All: true}}
}

// A 2026-07-28 input_required result waits in the database: another
// process (here a second Service on the same file, after the first one
// closed) answers it and drives the run, and the call is retried with the
// reply and the exact requestState.
func TestMCPInputRequiredIsAnsweredInAnotherProcess(t *testing.T) {
	var calls atomic.Int32
	cfg := mcp.Config{Path: "test", Servers: []mcp.ServerConfig{bookingServer(t, &calls)}}
	db := filepath.Join(t.TempDir(), "followup.db")
	first := fxOpenMCP(t, db, cfg)
	sent, run := fxAsk(t, first, "", "call booking.book")
	if run.State != store.RunWaitingInput {
		t.Fatalf("run = %+v", run)
	}
	r := fxOnePending(t, first, sent.ChatID)
	if r.Owner.Kind != OwnerMCPServer || r.Live || r.Mode != mcp.ModeForm || r.Reason != "When do you travel?" ||
		r.Prefill["seats"] != float64(2) && r.Prefill["seats"] != int64(2) {
		t.Fatalf("request = %+v", r.RequestItem)
	}
	steps := fxSteps(t, first, sent.ChatID)
	if len(steps) != 1 || steps[0].State != store.StepInputRequired || len(steps[0].RequestIDs) != 1 {
		t.Fatalf("steps = %+v", steps)
	}
	first.Close()

	second := fxOpenMCP(t, db, cfg)
	ctx := context.Background()
	if _, err := second.Answer(ctx, AnswerInput{RequestID: r.ID, Values: map[string]any{"when": "2026-05-01"}}); err != nil {
		t.Fatal(err)
	}
	if v, _ := second.GetRun(ctx, sent.RunID); v.State != store.RunRunning {
		t.Fatalf("after the last answer the run is %s, want running", v.State)
	}
	run, err := second.Drive(ctx, sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	// seats was only suggested (its default), never confirmed: the server
	// does not receive it.
	want := `booked {"when":"2026-05-01"} state=s1 action=accept`
	if run.State != store.RunSucceeded || !strings.Contains(run.Reply, want) {
		t.Fatalf("run = %+v, want a reply with %q", run, want)
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("the server was called %d times, want 2", n)
	}
	shown, _ := second.Request(ctx, r.ID)
	if len(shown.Deliveries) != 1 || shown.Deliveries[0].State != store.DeliveryDelivered || shown.Deliveries[0].Target != store.TargetMCPServer {
		t.Fatalf("deliveries = %+v", shown.Deliveries)
	}
	steps = fxSteps(t, second, sent.ChatID)
	if steps[0].State != store.StepDone || steps[0].Outcome != OutcomeOK || steps[0].Attempts != 2 {
		t.Fatalf("step = %+v", steps[0])
	}
}

// Cancelling the server's question is the user's decline: the call is
// retried with decline, never without a person choosing it.
func TestMCPInputRequiredCancelledIsDeclined(t *testing.T) {
	var calls atomic.Int32
	s := fxOpenMCP(t, filepath.Join(t.TempDir(), "followup.db"), mcp.Config{Path: "test", Servers: []mcp.ServerConfig{bookingServer(t, &calls)}})
	ctx := context.Background()
	sent, _ := fxAsk(t, s, "", "call booking.book")
	r := fxOnePending(t, s, sent.ChatID)
	// A message while the call waits joins the run and does not move it:
	// the model cannot answer before the call has its result.
	if _, run := fxAsk(t, s, sent.ChatID, "any news?"); run.State != store.RunWaitingInput {
		t.Fatalf("after a message: %+v", run)
	}
	if _, err := s.Cancel(ctx, r.ID, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Drive(ctx, sent.RunID); err != nil {
		t.Fatal(err)
	}
	steps := fxSteps(t, s, sent.ChatID)
	if len(steps) != 1 || !strings.Contains(steps[0].Text, "action=decline") {
		t.Fatalf("steps = %+v", steps)
	}
}

// Stopping the task while the call waits expires its question
// (task_stopped); the call is not retried, and show says nothing reached
// the server.
func TestMCPInputRequiredStopped(t *testing.T) {
	var calls atomic.Int32
	s := fxOpenMCP(t, filepath.Join(t.TempDir(), "followup.db"), mcp.Config{Path: "test", Servers: []mcp.ServerConfig{bookingServer(t, &calls)}})
	ctx := context.Background()
	sent, _ := fxAsk(t, s, "", "call booking.book")
	r := fxOnePending(t, s, sent.ChatID)
	if _, err := s.Stop(ctx, sent.RunID, ""); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Request(ctx, r.ID)
	if got.State != store.ReqExpired || got.ClosedReason != store.ReasonTaskStopped {
		t.Fatalf("request = %s/%s", got.State, got.ClosedReason)
	}
	if len(got.Deliveries) != 1 || got.Deliveries[0].State != store.DeliveryFailed || got.Deliveries[0].Target != store.TargetMCPServer {
		t.Fatalf("deliveries = %+v", got.Deliveries)
	}
	if _, err := s.Drive(ctx, sent.RunID); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("the server was called %d times after the stop, want the first call only", n)
	}
}
