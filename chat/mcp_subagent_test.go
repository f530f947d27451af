package chat

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"followup/agent"
	"followup/agent/mcp"
	"followup/store"
)

// bookingDelegator is a scripted model: "delegate" hands "book" to a
// sub-agent, venue; "book" calls booking.book; a tool result is read back
// as the reply.
type bookingDelegator struct{}

func (bookingDelegator) Name() string { return "delegator" }

func (bookingDelegator) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	msg := agent.Message{Role: agent.RoleAssistant}
	last := req.Messages[len(req.Messages)-1]
	switch {
	case last.Role == agent.RoleTool:
		msg.Content = "read: " + last.Content
	case req.Messages[0].Content == "delegate":
		msg.ToolCalls = []agent.ToolCall{{ID: "d", Name: agent.DelegateTool, Arguments: json.RawMessage(`{"name":"venue","brief":"book"}`)}}
	default:
		msg.ToolCalls = []agent.ToolCall{{ID: "b", Name: mcp.ToolName("booking", "book"), Arguments: json.RawMessage(`{}`)}}
	}
	return agent.Response{Message: msg}, nil
}

// An MCP server's question during a sub-agent's call names the server and
// the sub-agent (its run, its parent, its path), durably: a second
// process lists it among all pending questions with that owner, and the
// answer goes to the sub-agent's call, whose reply reaches the parent.
func TestMCPElicitationOfSubAgentNamesIt(t *testing.T) {
	var calls atomic.Int32
	cfg := mcp.Config{Path: "test", Servers: []mcp.ServerConfig{bookingServer(t, &calls)}}
	db := filepath.Join(t.TempDir(), "followup.db")
	open := func() *Service {
		s, err := Open(context.Background(), Options{DBPath: db, Provider: bookingDelegator{}, MCP: MCPOptions{Config: &cfg, LogDir: t.TempDir()}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	first := open()
	if err := first.WaitMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	sent, root := fxAsk(t, first, "", "delegate")
	if root.State != store.RunWaitingChildren {
		t.Fatalf("root = %+v", root)
	}
	kids, err := first.Children(context.Background(), sent.RunID)
	if err != nil || len(kids) != 1 {
		t.Fatalf("children = %+v, %v", kids, err)
	}
	first.Close()

	second := open()
	ctx := context.Background()
	all, err := second.Pending(ctx, "")
	if err != nil || len(all) != 1 {
		t.Fatalf("pending = %+v, %v", all, err)
	}
	r := all[0]
	want := Owner{Kind: OwnerMCPServer, Name: "booking", RunID: kids[0].ID, ParentRunID: sent.RunID, Path: "venue"}
	if r.Owner != want || r.RunID != kids[0].ID || !r.Owner.ForSubAgent() || r.Owner.SubAgent() {
		t.Fatalf("owner = %+v, run %s; want %+v", r.Owner, r.RunID, want)
	}
	b, _ := json.Marshal(r)
	if !strings.Contains(string(b), `"owner":{"kind":"mcp_server","name":"booking","runId":"`+kids[0].ID+`","parentRunId":"`+sent.RunID+`","path":"venue"}`) {
		t.Fatalf("pending entry: %s", b)
	}
	if _, err := second.Answer(ctx, AnswerInput{RequestID: r.ID, Values: map[string]any{"when": "2026-05-01"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := second.Drive(ctx, kids[0].ID); err != nil {
		t.Fatal(err)
	}
	v, err := second.Drive(ctx, sent.RunID)
	if err != nil || v.State != store.RunSucceeded || !strings.Contains(v.Reply, `"name":"venue"`) ||
		!strings.Contains(v.Reply, "2026-05-01") || !strings.Contains(v.Reply, "action=accept") {
		t.Fatalf("root = %+v, %v", v, err)
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("the server was called %d times, want 2", n)
	}
}
