package mcp

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHi serves a stateful go-sdk server with one tool, hi, on l.
func serveHi(t *testing.T, l net.Listener) *httptest.Server {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "hi", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "hi", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hi"}}}, nil
		})
	ts := httptest.NewUnstartedServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	ts.Listener.Close()
	ts.Listener = l
	// No connection outlives its request: a pooled one to the server
	// closed below would fail the next call with EOF before it reaches the
	// new server (a call whose fate is unknown, not made again).
	ts.Config.SetKeepAlivesEnabled(false)
	ts.Start()
	stop := func() {
		ts.CloseClientConnections()
		ts.Close()
	}
	t.Cleanup(stop)
	return ts
}

// TestHTTPServerThatRestartedIsCalledOnANewSession: an HTTP server that
// restarted no longer knows followup's session and refuses the next call
// unread (404); the call is made on a new session and succeeds.
func TestHTTPServerThatRestartedIsCalledOnANewSession(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	first := serveHi(t, l)
	m := newFakeManager(t, nil, ServerConfig{Name: "h", Type: TypeHTTP, URL: "http://" + addr + "/mcp", Shown: "h", Timeout: 5 * time.Second})
	waitAll(t, m)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if res, err := m.Call(ctx, CallRequest{Server: "h", Tool: "hi"}); err != nil || res.Text != "hi" {
		t.Fatalf("first call: %+v, %v", res, err)
	}
	first.CloseClientConnections()
	first.Close()
	if l, err = net.Listen("tcp", addr); err != nil {
		t.Fatal(err)
	}
	serveHi(t, l)
	if res, err := m.Call(ctx, CallRequest{Server: "h", Tool: "hi"}); err != nil || res.Text != "hi" {
		t.Fatalf("the call after the server restarted: %+v, %v", res, err)
	}
	if st := m.Status().Servers[0]; st.State != StateConnected {
		t.Fatalf("after the call: %+v", st)
	}
}
