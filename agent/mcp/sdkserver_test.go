package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkServer serves a go-sdk server over streamable HTTP on 127.0.0.1 and returns its
// config entry (with a header) and the last Authorization header it received.
// A stateless handler is what speaks 2026-07-28 (sessionless) with the client.
func sdkServer(t testing.TB, stateless bool, setup func(*sdk.Server)) (ServerConfig, func() string) {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "gosdk", Version: "1"}, nil)
	setup(srv)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{Stateless: stateless})
	var mu sync.Mutex
	var auth string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = r.Header.Get("Authorization")
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	sc := ServerConfig{Name: "gosdk", Type: TypeHTTP, URL: ts.URL, Shown: ts.URL, Timeout: 10 * time.Second,
		Headers: map[string]string{"Authorization": "Bearer t0ken"}, AutoApprove: AutoApprove{Tools: []string{"plain"}}}
	return sc, func() string { mu.Lock(); defer mu.Unlock(); return auth }
}

func textResult(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

var confirmSchema = map[string]any{"type": "object", "required": []any{"confirmed"}, "properties": map[string]any{
	"confirmed": map[string]any{"type": "boolean"},
	"note":      map[string]any{"type": "string", "default": "none"},
}}

// TestInputRequiredIsStoredAndRetriedElsewhere: a 2026-07-28 input_required result comes
// back to the caller (not retried in memory), survives a JSON round trip and is retried
// by another manager — another process — with the exact requestState; the reply is sent
// as confirmed: a field left out stays out, whatever its default.
func TestInputRequiredIsStoredAndRetriedElsewhere(t *testing.T) {
	sc, _ := sdkServer(t, true, func(s *sdk.Server) {
		s.AddTool(&sdk.Tool{Name: "confirm", InputSchema: map[string]any{"type": "object"}},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				if len(req.Params.InputResponses) == 0 {
					return &sdk.CallToolResult{RequestState: "opaque-1", InputRequests: sdk.InputRequestMap{
						"q": &sdk.ElicitParams{Mode: "form", Message: "Confirm?", RequestedSchema: confirmSchema}}}, nil
				}
				r, _ := req.Params.InputResponses["q"].(*sdk.ElicitResult)
				if r == nil {
					return nil, fmt.Errorf("no reply to q")
				}
				b, _ := json.Marshal(r.Content)
				return textResult(fmt.Sprintf("state=%s action=%s content=%s", req.Params.RequestState, r.Action, b)), nil
			})
	})
	m1 := newFakeManager(t, &scriptedElicitor{}, sc)
	req := CallRequest{Server: "gosdk", Tool: "confirm", Origin: Origin{RunID: "r1", ToolCallID: "t1"}}
	res, err := m1.Call(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("protocol %s result %+v", m1.Status().Servers[0].Protocol, res)
	if p := m1.Status().Servers[0].Protocol; p != "2026-07-28" {
		t.Fatalf("negotiated %s", p)
	}
	if res.InputRequired == nil || len(res.InputRequired.Requests) != 1 {
		t.Fatalf("result %+v", res)
	}
	stored, _ := json.Marshal(res.InputRequired)
	m1.Close()

	var ir InputRequired
	if err := json.Unmarshal(stored, &ir); err != nil {
		t.Fatal(err)
	}
	q := ir.Requests["q"]
	if ir.RequestState != "opaque-1" || q.Mode != ModeForm || q.Message != "Confirm?" || q.Server != "gosdk" ||
		q.Origin.ToolCallID != "t1" || !strings.Contains(string(q.RequestedSchema), `"confirmed"`) {
		t.Fatalf("stored %s", stored)
	}
	m2 := newFakeManager(t, &scriptedElicitor{}, sc)
	if _, err := m2.Retry(context.Background(), req, ir, map[string]Reply{"q": {Action: ActionAccept, Content: map[string]any{"note": 5}}}); err == nil {
		t.Fatal("a reply that breaks the schema was sent")
	}
	res, err = m2.Retry(context.Background(), req, ir, map[string]Reply{"q": {Action: ActionAccept, Content: map[string]any{"confirmed": true}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `state=opaque-1 action=accept content={"confirmed":true}`; res.Text != want {
		t.Fatalf("the server received %q, want %q", res.Text, want)
	}
}

// TestHTTPHeadersToolsAndResults: headers reach the server; tools carry their
// description, schema, annotations and autoApprove; results are bounded, isError passes
// through, structured content comes along when it fits; a list change is followed.
func TestHTTPHeadersToolsAndResults(t *testing.T) {
	var srv *sdk.Server
	sc, auth := sdkServer(t, false, func(s *sdk.Server) {
		srv = s
		s.AddTool(&sdk.Tool{Name: "plain", Description: "says hi", InputSchema: map[string]any{"type": "object"},
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				r := textResult("hi")
				r.StructuredContent = map[string]any{"greeting": "hi"}
				return r, nil
			})
		s.AddTool(&sdk.Tool{Name: "big", InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				r := textResult(strings.Repeat("é", 50000))
				r.StructuredContent = map[string]any{"n": 1}
				return r, nil
			})
		s.AddTool(&sdk.Tool{Name: "broken", InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				r := textResult("disk full")
				r.IsError = true
				return r, nil
			})
	})
	changed := make(chan struct{}, 16)
	m := New(Config{Servers: []ServerConfig{sc}}, Options{LogDir: t.TempDir(), OnChange: func() { changed <- struct{}{} }})
	defer m.Close()
	waitAll(t, m)
	if got := auth(); got != "Bearer t0ken" {
		t.Errorf("Authorization %q", got)
	}
	plain, ok := m.Lookup("mcp__gosdk__plain")
	if !ok || plain.Description != "says hi" || !plain.Annotations.ReadOnly || !plain.AutoApproved || plain.Server != "gosdk" || plain.Tool != "plain" {
		t.Fatalf("plain %+v", plain)
	}
	if big, _ := m.Lookup("mcp__gosdk__big"); big.Annotations.ReadOnly || big.Annotations.Idempotent || big.AutoApproved {
		t.Errorf("big %+v", big)
	}
	// A tool that sent no hints is reported with none, and judged by the
	// spec's defaults: not read-only, so it may be destructive.
	big, _ := m.Lookup("mcp__gosdk__big")
	if raw, _ := json.Marshal(big.Annotations); string(raw) != `{}` {
		t.Errorf("big's annotations were invented: %s", raw)
	}
	if w := big.Annotations.Words(); w != "may be destructive (not marked read-only)" {
		t.Errorf("big is %q", w)
	}
	if w := plain.Annotations.Words(); w != "read-only" {
		t.Errorf("plain is %q", w)
	}
	ctx := context.Background()
	res, err := m.Call(ctx, CallRequest{Server: "gosdk", Tool: "plain"})
	if err != nil || res.Text != "hi" || string(res.Structured) != `{"greeting":"hi"}` || res.Truncated {
		t.Errorf("plain: %v %+v", err, res)
	}
	res, err = m.Call(ctx, CallRequest{Server: "gosdk", Tool: "big", MaxBytes: 1000})
	if err != nil || len(res.Text) > 1000 || !res.Truncated || res.Structured != nil || !strings.Contains(res.Text, "cut at 1000") {
		t.Errorf("big: %v len %d truncated %v", err, len(res.Text), res.Truncated)
	}
	if !strings.HasPrefix(res.Text, "éé") || !json.Valid([]byte(`"`+strings.SplitN(res.Text, "\n", 2)[0]+`"`)) {
		t.Errorf("big was cut inside a character")
	}
	res, err = m.Call(ctx, CallRequest{Server: "gosdk", Tool: "broken"})
	if err != nil || !res.IsError || res.Text != "disk full" {
		t.Errorf("broken: %v %+v", err, res)
	}

	for len(changed) > 0 {
		<-changed
	}
	srv.AddTool(&sdk.Tool{Name: "late", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return textResult("late"), nil
		})
	deadline := time.After(10 * time.Second)
	for {
		if _, ok := m.Lookup("mcp__gosdk__late"); ok {
			break
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("the new tool never appeared: %+v", m.Tools())
		}
	}
}
