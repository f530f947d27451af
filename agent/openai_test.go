package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"followup/agent/agenttest"
)

func TestOpenAINonStreaming(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, agenttest.JSONReply(200, `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls",
		"message":{"role":"assistant","content":"Asking.","tool_calls":[{"id":"call_9","type":"function","function":{"name":"input_request","arguments":"{\"requestKey\":\"k\"}"}}]}}]}`))
	p := NewOpenAI(f.URL+"/v1", "sk-test", "llama3.2")
	resp, err := p.Complete(context.Background(), Request{System: "be brief", Messages: sampleHistory, Tools: sampleTools})
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Message
	if m.Role != RoleAssistant || m.Content != "Asking." || len(m.ToolCalls) != 1 {
		t.Fatalf("message = %+v", m)
	}
	if tc := m.ToolCalls[0]; tc.ID != "call_9" || tc.Name != "input_request" || string(tc.Arguments) != `{"requestKey":"k"}` {
		t.Fatalf("tool call = %+v", tc)
	}

	got := f.Request(0)
	if got.Path != "/v1/chat/completions" {
		t.Errorf("path = %s", got.Path)
	}
	if h := got.Header.Get("Authorization"); h != "Bearer sk-test" {
		t.Errorf("Authorization = %q", h)
	}
	b := got.Body
	if b["model"] != "llama3.2" || b["stream"] == true {
		t.Errorf("model/stream = %v/%v", b["model"], b["stream"])
	}
	checks := []struct {
		path []any
		want any
	}{
		{[]any{"messages", 0, "role"}, "system"},
		{[]any{"messages", 0, "content"}, "be brief"},
		{[]any{"messages", 1, "content"}, "Plan a trip"},
		{[]any{"messages", 2, "role"}, "assistant"},
		{[]any{"messages", 2, "tool_calls", 0, "id"}, "call_1"},
		{[]any{"messages", 2, "tool_calls", 0, "type"}, "function"},
		{[]any{"messages", 2, "tool_calls", 0, "function", "name"}, "input_list"},
		{[]any{"messages", 2, "tool_calls", 1, "function", "arguments"}, "{}"},
		{[]any{"messages", 3, "role"}, "tool"},
		{[]any{"messages", 3, "tool_call_id"}, "call_1"},
		{[]any{"messages", 3, "content"}, `{"ok":true,"requests":[]}`},
		{[]any{"messages", 4, "tool_call_id"}, "call_2"},
		{[]any{"messages", 5, "content"}, "To Shanghai"},
		{[]any{"tools", 0, "type"}, "function"},
		{[]any{"tools", 0, "function", "name"}, "input_request"},
		{[]any{"tools", 0, "function", "parameters", "required", 0}, "requestKey"},
		{[]any{"tools", 0, "function", "parameters", "additionalProperties"}, false},
	}
	for _, c := range checks {
		if v := agenttest.Path(b, c.path...); v != c.want {
			t.Errorf("%v = %#v, want %#v", c.path, v, c.want)
		}
	}
}

func TestOpenAIRequestModelOverridesDefault(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, agenttest.JSONReply(200, `{"choices":[{"message":{"role":"assistant","content":"ok"}}]}`))
	p := NewOpenAI(f.URL, "", "")
	if _, err := p.Complete(context.Background(), Request{Model: "qwen3", Messages: sampleHistory[:1]}); err != nil {
		t.Fatal(err)
	}
	if got := f.Request(0); got.Body["model"] != "qwen3" || got.Header.Get("Authorization") != "" {
		t.Errorf("model %v, Authorization %q: an empty key must send no header", got.Body["model"], got.Header.Get("Authorization"))
	}
}

func TestOpenAIStreamingText(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, sseReply(
		agenttest.OpenAIChunk(`{"role":"assistant","content":""}`, ""),
		openAIText("Hel"), openAIText("lo, "), openAIText("world"),
		agenttest.OpenAIChunk(`{}`, "stop"), agenttest.OpenAIDone))
	var sink textSink
	resp, err := NewOpenAI(f.URL, "k", "m").Complete(context.Background(), Request{Messages: sampleHistory[:1], OnText: sink.onText})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "Hello, world" || sink.String() != "Hello, world" || sink.deltas != 3 {
		t.Fatalf("content %q, streamed %q in %d deltas", resp.Message.Content, sink.String(), sink.deltas)
	}
	if f.Request(0).Body["stream"] != true {
		t.Error("a call with OnText must stream")
	}
}

func TestOpenAIStreamingToolCallFragments(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, sseReply(
		openAIText("One moment."),
		agenttest.OpenAIChunk(`{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"input_request","arguments":""}}]}`, ""),
		agenttest.OpenAIChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"requestKey\":"}}]}`, ""),
		agenttest.OpenAIChunk(`{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"input_list","arguments":""}}]}`, ""),
		agenttest.OpenAIChunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"trip-1\"}"}}]}`, ""),
		agenttest.OpenAIChunk(`{}`, "tool_calls"), agenttest.OpenAIDone))
	var sink textSink
	resp, err := NewOpenAI(f.URL, "k", "m").Complete(context.Background(), Request{Messages: sampleHistory[:1], Tools: sampleTools, OnText: sink.onText})
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{
		{ID: "call_a", Name: "input_request", Arguments: json.RawMessage(`{"requestKey":"trip-1"}`)},
		{ID: "call_b", Name: "input_list", Arguments: json.RawMessage(`{}`)},
	}
	got := resp.Message.ToolCalls
	if len(got) != len(want) {
		t.Fatalf("tool calls = %+v", got)
	}
	for i := range want {
		if got[i].ID != want[i].ID || got[i].Name != want[i].Name || string(got[i].Arguments) != string(want[i].Arguments) {
			t.Errorf("call %d = %s %s %s, want %+v", i, got[i].ID, got[i].Name, got[i].Arguments, want[i])
		}
	}
	if resp.Message.Content != "One moment." || sink.String() != "One moment." {
		t.Errorf("text %q / %q", resp.Message.Content, sink.String())
	}
}

func TestOpenAIStreamingToolCallsWithoutIndex(t *testing.T) {
	t.Parallel()
	// Some servers send whole calls without an index.
	f := agenttest.New(t, sseReply(
		agenttest.OpenAIChunk(`{"tool_calls":[{"id":"c1","type":"function","function":{"name":"a","arguments":"{\"x\":1}"}},{"id":"c2","type":"function","function":{"name":"b","arguments":"{}"}}]}`, "tool_calls"),
		agenttest.OpenAIDone))
	resp, err := NewOpenAI(f.URL, "", "m").Complete(context.Background(), Request{OnText: func(string) {}})
	if err != nil {
		t.Fatal(err)
	}
	if tc := resp.Message.ToolCalls; len(tc) != 2 || tc[0].Name != "a" || string(tc[0].Arguments) != `{"x":1}` || tc[1].ID != "c2" {
		t.Fatalf("tool calls = %+v", tc)
	}
}

func TestOpenAIErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		reply     agenttest.Step
		status    int
		transient bool
		message   string
		after     time.Duration
	}{
		{"401", agenttest.JSONReply(401, `{"error":{"message":"Incorrect API key provided: sk-secret-1234.","type":"invalid_request_error","code":"invalid_api_key"}}`),
			401, false, "Incorrect API key provided: [redacted].", 0},
		{"400", agenttest.JSONReply(400, `{"error":{"message":"'messages' must contain at least one message","type":"invalid_request_error"}}`),
			400, false, "'messages' must contain at least one message", 0},
		{"404 ollama", agenttest.JSONReply(404, `{"error":"model \"nope\" not found, try pulling it first"}`),
			404, false, `model "nope" not found, try pulling it first`, 0},
		{"429", agenttest.JSONReply(429, `{"error":{"message":"Rate limit reached","type":"requests"}}`, "Retry-After", "7"),
			429, true, "Rate limit reached", 7 * time.Second},
		{"500", agenttest.JSONReply(500, `{"error":{"message":"The server had an error","type":"server_error"}}`),
			500, true, "The server had an error", 0},
		{"503 html", agenttest.JSONReply(503, `<html>upstream unavailable</html>`),
			503, true, "<html>upstream unavailable</html>", 0},
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
				_, err := NewOpenAI(f.URL, "sk-secret-1234", "m").Complete(context.Background(), req)
				var pe *ProviderError
				if !errors.As(err, &pe) {
					t.Fatalf("stream=%v: err = %v (%T), want *ProviderError", stream, err, err)
				}
				if pe.Status != c.status || pe.Transient != c.transient || pe.Message != c.message || pe.RetryAfter != c.after {
					t.Errorf("stream=%v: got %+v", stream, *pe)
				}
				if strings.Contains(err.Error(), "sk-secret-1234") {
					t.Errorf("the key leaked into %q", err)
				}
			}
		})
	}
}

func TestOpenAIDroppedStreamIsTransient(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, droppedReply(openAIText("partial")))
	_, err := NewOpenAI(f.URL, "", "m").Complete(context.Background(), Request{OnText: func(string) {}})
	if !IsTransient(err) {
		t.Fatalf("err = %v, want transient", err)
	}
}

func TestOpenAIStreamErrorEvent(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, sseReply(openAIText("Hi"), `data: {"error":{"message":"The server is overloaded","type":"server_error"}}`))
	_, err := NewOpenAI(f.URL, "", "m").Complete(context.Background(), Request{OnText: func(string) {}})
	var pe *ProviderError
	if !errors.As(err, &pe) || !pe.Transient || pe.Message != "The server is overloaded" {
		t.Fatalf("err = %v", err)
	}
}

func TestOpenAICancelMidStream(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, hangingReply(openAIText("thinking")))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel once the first text arrived: the call is in flight, blocked.
	req := Request{OnText: func(string) { time.AfterFunc(20*time.Millisecond, cancel) }}
	start := time.Now()
	_, err := NewOpenAI(f.URL, "", "m").Complete(ctx, req)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
}

func TestOpenAIConnectionRefusedIsFinal(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t)
	url := f.URL
	f.Close() // nothing listens there now
	_, err := NewOpenAI(url, "", "m").Complete(context.Background(), Request{})
	var pe *ProviderError
	if !errors.As(err, &pe) || pe.Transient || !strings.Contains(pe.Message, "cannot connect") {
		t.Fatalf("err = %v", err)
	}
}

// A server's sampling request caps the reply, and a reply cut at the cap
// says so.
func TestOpenAICapsASampledReply(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, agenttest.JSONReply(200, `{"choices":[{"finish_reason":"length","message":{"role":"assistant","content":"The Nile, the"}}]}`))
	resp, err := NewOpenAI(f.URL, "", "").Complete(context.Background(), Request{Messages: sampleHistory[:1], MaxTokens: 5})
	if err != nil || !resp.Truncated || resp.Message.Content != "The Nile, the" {
		t.Fatalf("response %+v, %v", resp, err)
	}
	if got := f.Request(0).Body["max_tokens"]; got != float64(5) {
		t.Errorf("max_tokens = %v", got)
	}
}
