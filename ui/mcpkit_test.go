package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/agent/mcp"
	"followup/chat"
	"followup/ui/dialog"
)

// A go-sdk server on 127.0.0.1 inside the test, for screens that must be
// the same on every run (server-everything's are driven in tmux). It
// speaks 2026-07-28 (stateless), so its questions come as input_required
// results: durable requests, like a server's form after a restart.

// fakeURL is the link the fake server's link tool asks the user to visit:
// a punycode host, which the consent card warns about.
const fakeURL = "https://xn--80ak6aa92e.com/login?session=42"

// fakeServer serves the tools echo (asks for approval), ask (a form with a
// field that looks like a secret), link (a URL to visit) and peek
// (read-only); link and peek run without asking. It returns its config
// entry.
func fakeServer(t testing.TB) mcp.ServerConfig {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "fake", Version: "1"}, nil)
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	srv.AddTool(&sdk.Tool{Name: "echo", Description: "Echoes back the message", InputSchema: map[string]any{
		"type": "object", "properties": map[string]any{"message": map[string]any{"type": "string"}}}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var a struct{ Message string }
			json.Unmarshal(req.Params.Arguments, &a)
			return text("Echo: " + a.Message + "\nsecond line of the echo"), nil
		})
	srv.AddTool(&sdk.Tool{Name: "ask", Description: "Asks for a login", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				return &sdk.CallToolResult{RequestState: "s1", InputRequests: sdk.InputRequestMap{"login": &sdk.ElicitParams{
					Mode: "form", Message: "Who should the report be sent as?",
					RequestedSchema: map[string]any{"type": "object", "required": []any{"name"}, "properties": map[string]any{
						"name":      map[string]any{"type": "string", "title": "Your name"},
						"api_token": map[string]any{"type": "string", "title": "API token"},
					}}}}}, nil
			}
			r, _ := req.Params.InputResponses["login"].(*sdk.ElicitResult)
			if r == nil {
				return nil, fmt.Errorf("no reply")
			}
			b, _ := json.Marshal(r.Content)
			return text(fmt.Sprintf("%s %s", r.Action, b)), nil
		})
	srv.AddTool(&sdk.Tool{Name: "link", Description: "Signs in through a web page", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				return &sdk.CallToolResult{RequestState: "u1", InputRequests: sdk.InputRequestMap{"visit": &sdk.ElicitParams{
					Mode: "url", Message: "Sign in to continue", URL: fakeURL, ElicitationID: "e1"}}}, nil
			}
			r, _ := req.Params.InputResponses["visit"].(*sdk.ElicitResult)
			if r == nil {
				return nil, fmt.Errorf("no reply")
			}
			return text("visit: " + r.Action), nil
		})
	srv.AddTool(&sdk.Tool{Name: "peek", Description: "Reads the weather", InputSchema: map[string]any{"type": "object"},
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("sunny"), nil })
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{Stateless: true})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return mcp.ServerConfig{Name: "fake", Type: mcp.TypeHTTP, URL: ts.URL, Shown: "http://127.0.0.1/fake",
		Timeout: 10 * time.Second, AutoApprove: mcp.AutoApprove{Tools: []string{"peek", "link"}}}
}

// withMCP configures the host with the servers of cfg.
func withMCP(t testing.TB, cfg mcp.Config) func(*chat.Options) {
	return func(o *chat.Options) {
		o.MCP = chat.MCPOptions{Config: &cfg, LogDir: t.TempDir()}
	}
}

// newMCPKit opens a screen whose host has the fake server, connected.
func newMCPKit(t *testing.T, opts ...func(*chat.Options)) *kit {
	t.Helper()
	cfg := mcp.Config{Path: "/home/me/.config/followup/mcp.json", Servers: []mcp.ServerConfig{fakeServer(t)}}
	k := newKit(t, append(opts, withMCP(t, cfg))...)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := k.svc.WaitMCP(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := k.svc.MCPStatus().Connected(); n != 1 {
		t.Fatalf("the fake server is not connected: %+v", k.svc.MCPStatus())
	}
	k.m.Update(dialog.ServerStatus{Status: k.svc.MCPStatus()})
	return k
}

// pendingApprovals lists the chat's pending approvals.
func (k *kit) pendingApprovals(chatID string) []chat.ApprovalView {
	k.t.Helper()
	as, err := k.svc.PendingApprovals(context.Background(), chatID)
	if err != nil {
		k.t.Fatal(err)
	}
	return as
}
