package agent

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"followup/agent/agenttest"
)

func TestAnthropicNonStreaming(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, agenttest.JSONReply(200, `{"id":"msg_1","type":"message","role":"assistant","model":"m",
		"content":[{"type":"text","text":"Asking."},{"type":"tool_use","id":"toolu_1","name":"input_request","input":{"requestKey":"k"}}],
		"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":5}}`))
	p := NewAnthropic(f.URL, "sk-ant-test", "")
	resp, err := p.Complete(context.Background(), Request{System: "be brief", Messages: sampleHistory, Tools: sampleTools})
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Message
	if m.Role != RoleAssistant || m.Content != "Asking." || len(m.ToolCalls) != 1 {
		t.Fatalf("message = %+v", m)
	}
	if tc := m.ToolCalls[0]; tc.ID != "toolu_1" || tc.Name != "input_request" || string(tc.Arguments) != `{"requestKey":"k"}` {
		t.Fatalf("tool call = %+v", tc)
	}

	got := f.Request(0)
	if got.Path != "/v1/messages" {
		t.Errorf("path = %s", got.Path)
	}
	if got.Header.Get("Anthropic-Version") == "" {
		t.Error("no anthropic-version header")
	}
	if a, k := got.Header.Get("Authorization"), got.Header.Get("X-Api-Key"); !strings.Contains(a+k, "sk-ant-test") {
		t.Errorf("credential not sent: Authorization %q, X-Api-Key %q", a, k)
	}
	b := got.Body
	checks := []struct {
		path []any
		want any
	}{
		{[]any{"model"}, DefaultAnthropicModel},
		{[]any{"max_tokens"}, float64(MaxReplyTokens)},
		{[]any{"system", 0, "text"}, "be brief"},
		{[]any{"messages", 0, "role"}, "user"},
		{[]any{"messages", 0, "content", 0, "text"}, "Plan a trip"},
		{[]any{"messages", 1, "role"}, "assistant"},
		{[]any{"messages", 1, "content", 0, "text"}, "Let me check."},
		{[]any{"messages", 1, "content", 1, "type"}, "tool_use"},
		{[]any{"messages", 1, "content", 1, "id"}, "call_1"},
		{[]any{"messages", 1, "content", 2, "name"}, "input_capabilities"},
		// Both tool results and the next user text share one user message,
		// results first.
		{[]any{"messages", 2, "role"}, "user"},
		{[]any{"messages", 2, "content", 0, "type"}, "tool_result"},
		{[]any{"messages", 2, "content", 0, "tool_use_id"}, "call_1"},
		{[]any{"messages", 2, "content", 0, "content", 0, "text"}, `{"ok":true,"requests":[]}`},
		{[]any{"messages", 2, "content", 1, "tool_use_id"}, "call_2"},
		{[]any{"messages", 2, "content", 2, "text"}, "To Shanghai"},
		{[]any{"messages", 3}, nil},
		{[]any{"tools", 0, "name"}, "input_request"},
		{[]any{"tools", 0, "description"}, "Ask the user"},
		{[]any{"tools", 0, "input_schema", "type"}, "object"},
		{[]any{"tools", 0, "input_schema", "required", 0}, "requestKey"},
		{[]any{"tools", 0, "input_schema", "properties", "requestKey", "type"}, "string"},
		{[]any{"tools", 0, "input_schema", "additionalProperties"}, false},
	}
	for _, c := range checks {
		if v := agenttest.Path(b, c.path...); v != c.want {
			t.Errorf("%v = %#v, want %#v", c.path, v, c.want)
		}
	}
	if in, ok := agenttest.Path(b, "messages", 1, "content", 2, "input").(map[string]any); !ok || len(in) != 0 {
		t.Errorf("a call without arguments must send input {}: %#v", agenttest.Path(b, "messages", 1, "content", 2))
	}
}

func TestAnthropicStreaming(t *testing.T) {
	t.Parallel()
	events := slices.Concat(
		[]string{anthropicStart(), "event: ping\ndata: {\"type\":\"ping\"}"},
		anthropicTextBlock(0, "Let ", "me ", "ask."),
		[]string{
			anthropicEvent("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_7","name":"input_request","input":{}}}`),
			anthropicEvent("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"requestKey\""}}`),
			anthropicEvent("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":": \"trip-1\"}"}}`),
			anthropicEvent("content_block_stop", `{"type":"content_block_stop","index":1}`),
		},
		anthropicStop("tool_use"))
	f := agenttest.New(t, sseReply(events...))
	var sink textSink
	resp, err := NewAnthropic(f.URL, "k", "m").Complete(context.Background(), Request{Messages: sampleHistory[:1], OnText: sink.onText})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "Let me ask." || sink.String() != "Let me ask." || sink.deltas != 3 {
		t.Errorf("content %q, streamed %q in %d deltas", resp.Message.Content, sink.String(), sink.deltas)
	}
	tc := resp.Message.ToolCalls
	if len(tc) != 1 || tc[0].ID != "toolu_7" || tc[0].Name != "input_request" || string(tc[0].Arguments) != `{"requestKey": "trip-1"}` {
		t.Fatalf("tool calls = %+v", tc)
	}
	if f.Request(0).Body["stream"] != true {
		t.Error("a call with OnText must stream")
	}
}

func TestAnthropicErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		reply     agenttest.Step
		status    int
		transient bool
		message   string
		after     time.Duration
	}{
		{"401", agenttest.JSONReply(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`),
			401, false, "invalid x-api-key", 0},
		{"400", agenttest.JSONReply(400, `{"type":"error","error":{"type":"invalid_request_error","message":"messages: at least one message is required"}}`),
			400, false, "messages: at least one message is required", 0},
		{"429", agenttest.JSONReply(429, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your rate limit"}}`, "Retry-After", "3"),
			429, true, "Number of request tokens has exceeded your rate limit", 3 * time.Second},
		{"529", agenttest.JSONReply(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
			529, true, "Overloaded", 0},
		{"502 text", agenttest.JSONReply(502, `bad gateway`),
			502, true, "bad gateway", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, stream := range []bool{false, true} {
				f := agenttest.New(t, c.reply)
				req := Request{Messages: sampleHistory[:1]}
				if stream {
					req.OnText = func(string) {}
				}
				_, err := NewAnthropic(f.URL, "sk-ant-secret", "m").Complete(context.Background(), req)
				var pe *ProviderError
				if !errors.As(err, &pe) {
					t.Fatalf("stream=%v: err = %v (%T), want *ProviderError", stream, err, err)
				}
				if pe.Status != c.status || pe.Transient != c.transient || pe.Message != c.message || pe.RetryAfter != c.after {
					t.Errorf("stream=%v: got %+v", stream, *pe)
				}
				if strings.Contains(err.Error(), "sk-ant-secret") {
					t.Errorf("the key leaked into %q", err)
				}
				if f.Calls() != 1 {
					t.Errorf("the SDK retried by itself: %d calls", f.Calls())
				}
			}
		})
	}
}

func TestAnthropicStreamErrorEvent(t *testing.T) {
	t.Parallel()
	events := slices.Concat([]string{anthropicStart()}, anthropicTextBlock(0, "Hi"),
		[]string{anthropicEvent("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)})
	f := agenttest.New(t, sseReply(events...))
	_, err := NewAnthropic(f.URL, "", "m").Complete(context.Background(), Request{OnText: func(string) {}})
	var pe *ProviderError
	if !errors.As(err, &pe) || !pe.Transient || pe.Message != "Overloaded" {
		t.Fatalf("err = %v", err)
	}
}

func TestAnthropicTruncatedStreams(t *testing.T) {
	t.Parallel()
	partial := slices.Concat([]string{anthropicStart()}, anthropicTextBlock(0, "Hel"))
	for name, reply := range map[string]agenttest.Step{
		"dropped":     droppedReply(partial...),
		"ended early": sseReply(partial...),
	} {
		f := agenttest.New(t, reply)
		_, err := NewAnthropic(f.URL, "", "m").Complete(context.Background(), Request{OnText: func(string) {}})
		if !IsTransient(err) {
			t.Errorf("%s: err = %v, want transient", name, err)
		}
	}
}

func TestAnthropicCancelMidStream(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, hangingReply(slices.Concat([]string{anthropicStart()}, anthropicTextBlock(0, "thinking"))...))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := Request{OnText: func(string) { time.AfterFunc(20*time.Millisecond, cancel) }}
	start := time.Now()
	_, err := NewAnthropic(f.URL, "", "m").Complete(ctx, req)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
}
