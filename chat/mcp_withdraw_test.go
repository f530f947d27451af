package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/agent/mcp"
	"followup/store"
)

// askingServer is a go-sdk server (stateful streamable HTTP on 127.0.0.1,
// protocol 2025-11-25) whose tools ask during the call: "impatient"
// withdraws its question after a second, "odd" asks with property names
// no form field may have, "nested" with a property the form cannot show,
// "country" with a 250-option enum and a uuid, "narnia" with a default
// its enum does not have. Each returns what its question came to.
func askingServer(t *testing.T) mcp.ServerConfig {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "asking", Version: "1"}, nil)
	// The go-sdk checks a reply against the schema it sent, knowing four
	// formats only: the reply is read as it came, before that check.
	var got atomic.Pointer[sdk.ElicitResult]
	srv.AddSendingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			res, err := next(ctx, method, req)
			if r, ok := res.(*sdk.ElicitResult); ok && err == nil {
				got.Store(r)
			}
			return res, err
		}
	})
	ask := func(wait time.Duration, schema map[string]any) sdk.ToolHandler {
		return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			ectx, cancel := context.WithTimeout(ctx, wait)
			defer cancel()
			res, err := req.Session.Elicit(ectx, &sdk.ElicitParams{Message: "Your name?", RequestedSchema: schema})
			if r := got.Swap(nil); r != nil {
				res, err = r, nil
			}
			text := "answered"
			var wire *jsonrpc.Error
			switch {
			case errors.As(err, &wire):
				text = fmt.Sprintf("error %d: %s", wire.Code, wire.Message)
			case err != nil:
				text = "error: " + err.Error()
			case res != nil:
				text = "action " + res.Action
				if res.Content != nil {
					b, _ := json.Marshal(res.Content)
					text += " " + string(b)
				}
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil
		}
	}
	srv.AddTool(&sdk.Tool{Name: "impatient", InputSchema: map[string]any{"type": "object"}}, ask(time.Second,
		map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}))
	srv.AddTool(&sdk.Tool{Name: "odd", InputSchema: map[string]any{"type": "object"}}, ask(10*time.Second,
		map[string]any{"type": "object", "properties": map[string]any{"first name": map[string]any{"type": "string"},
			"first_name": map[string]any{"type": "string", "title": "Nickname"}, "e-mail": map[string]any{"type": "string"}}}))
	srv.AddTool(&sdk.Tool{Name: "nested", InputSchema: map[string]any{"type": "object"}}, ask(10*time.Second,
		map[string]any{"type": "object", "properties": map[string]any{"address": map[string]any{"type": "object"}}}))
	countries := make([]any, 250)
	for i := range countries {
		countries[i] = fmt.Sprintf("C%03d", i)
	}
	srv.AddTool(&sdk.Tool{Name: "country", InputSchema: map[string]any{"type": "object"}}, ask(10*time.Second,
		map[string]any{"type": "object", "required": []any{"country", "id"}, "properties": map[string]any{
			"country": map[string]any{"type": "string", "enum": countries}, "id": map[string]any{"type": "string", "format": "uuid"}}}))
	srv.AddTool(&sdk.Tool{Name: "narnia", InputSchema: map[string]any{"type": "object"}}, ask(10*time.Second,
		map[string]any{"type": "object", "properties": map[string]any{
			"country": map[string]any{"type": "string", "enum": countries, "default": "Narnia"}}}))
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return mcp.ServerConfig{Name: "asking", Type: mcp.TypeHTTP, URL: ts.URL, Shown: ts.URL, Timeout: 10 * time.Second,
		AutoApprove: mcp.AutoApprove{All: true}}
}

// A server that takes its question back closes the form as withdrawn;
// nothing is sent to it, and the call goes on to its result.
func TestMCPServerWithdrawsItsQuestion(t *testing.T) {
	s := fxOpenMCP(t, filepath.Join(t.TempDir(), "f.db"), mcp.Config{Path: "test", Servers: []mcp.ServerConfig{askingServer(t)}})
	ctx := context.Background()
	sent, err := s.Send(ctx, "", "call asking.impatient", "")
	if err != nil {
		t.Fatal(err)
	}
	done := driveAsync(s, sent.RunID)
	r := fxWaitPending(t, s, sent.ChatID)
	if err := s.SaveDraft(ctx, Draft{RequestID: r.ID, Revision: r.Revision, Values: map[string]any{"name": "Ad"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	run := waitRun(t, done)
	got, err := s.Request(ctx, r.ID)
	if err != nil || got.State != store.ReqExpired || got.ClosedReason != ReasonWithdrawn {
		t.Fatalf("request = %s/%s, %v", got.State, got.ClosedReason, err)
	}
	// What the user had typed stays readable after the form is gone.
	if got.Unsent["name"] != "Ad" {
		t.Fatalf("unsent = %v", got.Unsent)
	}
	if len(got.Deliveries) != 1 || got.Deliveries[0].State != store.DeliveryFailed {
		t.Fatalf("deliveries = %+v", got.Deliveries)
	}
	if run.State != store.RunSucceeded || !strings.Contains(run.Reply, "error") {
		t.Fatalf("run = %+v", run)
	}
	if _, err := s.Answer(ctx, AnswerInput{RequestID: r.ID, Values: map[string]any{"name": "late"}}); CodeOf(err) != CodeTargetClosed {
		t.Fatalf("a late answer: %v", err)
	}
}

// A schema followup cannot draw is refused to the server with -32602 and
// the reason — not a decline: no person chose anything.
func TestMCPUnshowableSchemaIsRefusedNotDeclined(t *testing.T) {
	s := fxOpenMCP(t, filepath.Join(t.TempDir(), "f.db"), mcp.Config{Path: "test", Servers: []mcp.ServerConfig{askingServer(t)}})
	sent, run := fxAsk(t, s, "", "call asking.nested")
	if run.State != store.RunSucceeded || !strings.Contains(run.Reply, "error -32602: the requested schema is not a form followup can show") ||
		strings.Contains(run.Reply, "decline") {
		t.Fatalf("run = %+v", run)
	}
	if rs, _ := s.Requests(context.Background(), sent.ChatID); len(rs) != 0 {
		t.Fatalf("requests = %+v", rs)
	}
}

// Property names that are not field names ("first name", "e-mail") are
// asked under field names made from them, labelled with the server's own
// names, and the answer goes back under the server's names.
func TestMCPPropertyNamesThatAreNotFieldNames(t *testing.T) {
	s := fxOpenMCP(t, filepath.Join(t.TempDir(), "f.db"), mcp.Config{Path: "test", Servers: []mcp.ServerConfig{askingServer(t)}})
	ctx := context.Background()
	sent, err := s.Send(ctx, "", "call asking.odd", "")
	if err != nil {
		t.Fatal(err)
	}
	done := driveAsync(s, sent.RunID)
	r := fxWaitPending(t, s, sent.ChatID)
	var got []string
	for _, f := range r.Fields {
		got = append(got, f.Name+"="+f.DisplayLabel())
	}
	if want := "e_mail=e-mail first_name_2=first name first_name=Nickname"; strings.Join(got, " ") != want {
		t.Fatalf("fields = %q, want %q", strings.Join(got, " "), want)
	}
	if _, err := s.Answer(ctx, AnswerInput{RequestID: r.ID, Values: map[string]any{"first_name_2": "Ada", "e_mail": "a@b.co"}}); err != nil {
		t.Fatal(err)
	}
	run := waitRun(t, done)
	if want := `action accept {"e-mail":"a@b.co","first name":"Ada"}`; !strings.Contains(run.Reply, want) {
		t.Fatalf("reply = %q, want %q", run.Reply, want)
	}
}

// A server's schema is answered as sent: a 250-option enum is a list
// that filters, a uuid is asked as text with its format named, and a
// problem the server must fix names its own schema's path.
func TestMCPServerSchemaAnsweredAsSent(t *testing.T) {
	s := fxOpenMCP(t, filepath.Join(t.TempDir(), "f.db"), mcp.Config{Path: "test", Servers: []mcp.ServerConfig{askingServer(t)}})
	ctx := context.Background()
	sent, err := s.Send(ctx, "", "call asking.country", "")
	if err != nil {
		t.Fatal(err)
	}
	done := driveAsync(s, sent.RunID)
	r := fxWaitPending(t, s, sent.ChatID)
	if len(r.Fields) != 2 || len(r.Fields[0].Options) != 250 || !slices.Contains(r.Fields[1].Constraints(), "format uuid") {
		t.Fatalf("fields = %+v", r.Fields)
	}
	id := "123e4567-e89b-12d3-a456-426614174000"
	if _, err := s.Answer(ctx, AnswerInput{RequestID: r.ID, Values: map[string]any{"country": "C249", "id": id}}); err != nil {
		t.Fatal(err)
	}
	if run, want := waitRun(t, done), `action accept {"country":"C249","id":"`+id+`"}`; !strings.Contains(run.Reply, want) {
		t.Fatalf("reply = %q, want %q", run.Reply, want)
	}
	if _, run := fxAsk(t, s, "", "call asking.narnia"); !strings.Contains(run.Reply, "error -32602: ") ||
		!strings.Contains(run.Reply, "(/properties/country/default: ") {
		t.Fatalf("run = %+v", run)
	}
}
