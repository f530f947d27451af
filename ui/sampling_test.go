package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"followup/agent/mcp"
	"followup/agent/mcp/mcptest"
	"followup/chat"
	"followup/ui/dialog"
)

// server-everything's sampling tool asks followup's model during the call:
// the card shows who asks, its system prompt and message, the model and
// the token cap; y allows it once, the model answers, the server gets the
// reply and the transcript shows the exchange.
func TestSamplingCardAllowsOnce(t *testing.T) {
	p := mcptest.Find(t)
	command, args := p.EverythingStdio(t)
	cfg := mcp.Config{Path: "/home/me/mcp.json", Servers: []mcp.ServerConfig{{Name: "everything", Type: mcp.TypeStdio,
		Command: command, Args: args, Shown: "server-everything", Timeout: 20 * time.Second, AutoApprove: mcp.AutoApprove{All: true}}}}
	k := newKit(t, withMCP(t, cfg))
	ctx := context.Background()
	sent, err := k.svc.Send(ctx, "", `call everything.trigger-sampling-request {"prompt": "name three rivers", "maxTokens": 60}`, "")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan chat.RunView, 1)
	go func() {
		v, _ := k.svc.Drive(ctx, sent.RunID)
		done <- v
	}()
	deadline := time.Now().Add(20 * time.Second)
	for len(k.pendingApprovals(sent.ChatID)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no sampling approval")
		}
		time.Sleep(20 * time.Millisecond)
	}
	k.load(sent.ChatID)
	f := frameOf(k.m)
	if !showing[dialog.Approval](k.m) || !containsAll(f, "Allow everything (MCP server) to use followup's model?",
		"asked during trigger-sampling-request", "model offline, a reply of at most 60 tokens (the server asks up to 60)",
		"You are a helpful test server.", "Message (user)", "name three rivers") {
		t.Fatalf("the sampling card:\n%s", f)
	}
	k.settleFocus()
	k.hit(letter('y'))
	var run chat.RunView
	select {
	case run = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the run did not end after the allow")
	}
	if run.State != chat.RunSucceeded || !strings.Contains(run.Reply, `"model": "offline"`) {
		t.Fatalf("run %s: %q", run.State, run.Reply)
	}
	k.load(sent.ChatID)
	if f := frameOf(k.m); showing[dialog.Approval](k.m) || !containsAll(f, "everything (MCP server) asked followup's model",
		"allowed once", "offline replied (up to 60 tokens)") {
		t.Fatalf("after the allow:\n%s", f)
	}
}
