package agent

import (
	"context"
	"encoding/json"
	"testing"

	"followup/agent/agenttest"
	"followup/agent/mcp"
)

// imageHistory is a turn whose two tool calls returned an image and text.
var imageHistory = []Message{
	{Role: RoleUser, Content: "Show me"},
	{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_1", Name: "mcp__everything__get-tiny-image", Arguments: json.RawMessage(`{}`)},
		{ID: "call_2", Name: "mcp__everything__echo", Arguments: json.RawMessage(`{}`)}}},
	{Role: RoleTool, ToolCallID: "call_1", ToolName: "mcp__everything__get-tiny-image", Content: `{"status":"ok","text":"[image image/png, 3 bytes]"}`,
		Images: []mcp.Image{{MIMEType: "image/png", Data: []byte{1, 2, 3}}}},
	{Role: RoleTool, ToolCallID: "call_2", ToolName: "mcp__everything__echo", Content: `{"status":"ok","text":"hi"}`},
}

// Anthropic takes a tool result's images as image blocks in the tool_result.
func TestAnthropicSendsToolImages(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, agenttest.JSONReply(200, `{"id":"m","type":"message","role":"assistant","model":"m",
		"content":[{"type":"text","text":"A dot."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`))
	if _, err := NewAnthropic(f.URL, "k", "m").Complete(context.Background(), Request{Messages: imageHistory}); err != nil {
		t.Fatal(err)
	}
	b := f.Request(0).Body
	for _, c := range []struct {
		path []any
		want any
	}{
		{[]any{"messages", 2, "content", 0, "type"}, "tool_result"},
		{[]any{"messages", 2, "content", 0, "content", 0, "text"}, `{"status":"ok","text":"[image image/png, 3 bytes]"}`},
		{[]any{"messages", 2, "content", 0, "content", 1, "type"}, "image"},
		{[]any{"messages", 2, "content", 0, "content", 1, "source", "type"}, "base64"},
		{[]any{"messages", 2, "content", 0, "content", 1, "source", "media_type"}, "image/png"},
		{[]any{"messages", 2, "content", 0, "content", 1, "source", "data"}, "AQID"},
		{[]any{"messages", 2, "content", 1, "tool_use_id"}, "call_2"},
	} {
		if v := agenttest.Path(b, c.path...); v != c.want {
			t.Errorf("%v = %#v, want %#v", c.path, v, c.want)
		}
	}
}

// A chat-completions tool message holds text only: the images follow the
// turn's tool results in a user message, as data URLs.
func TestOpenAISendsToolImagesAfterTheResults(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, agenttest.JSONReply(200, `{"choices":[{"message":{"role":"assistant","content":"A dot."}}]}`))
	if _, err := NewOpenAI(f.URL, "", "m").Complete(context.Background(), Request{Messages: imageHistory}); err != nil {
		t.Fatal(err)
	}
	b := f.Request(0).Body
	for _, c := range []struct {
		path []any
		want any
	}{
		{[]any{"messages", 2, "role"}, "tool"},
		{[]any{"messages", 2, "content"}, `{"status":"ok","text":"[image image/png, 3 bytes]"}`},
		{[]any{"messages", 3, "tool_call_id"}, "call_2"},
		{[]any{"messages", 4, "role"}, "user"},
		{[]any{"messages", 4, "content", 0, "text"}, "The images of tool call call_1 (mcp__everything__get-tiny-image):"},
		{[]any{"messages", 4, "content", 1, "type"}, "image_url"},
		{[]any{"messages", 4, "content", 1, "image_url", "url"}, "data:image/png;base64,AQID"},
	} {
		if v := agenttest.Path(b, c.path...); v != c.want {
			t.Errorf("%v = %#v, want %#v", c.path, v, c.want)
		}
	}
	if n := len(b["messages"].([]any)); n != 5 {
		t.Errorf("%d messages, want 5", n)
	}
}
