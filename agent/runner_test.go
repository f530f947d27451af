package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// memHost is a Host in memory: the history as a crash left it.
type memHost struct {
	history    []Message
	state      string
	modelCalls int
	wait       bool // Settle finds a pending request
}

func (h *memHost) Begin(ctx context.Context, runID string) (Turn, error) {
	if h.state == "" {
		h.state = "running"
	}
	return Turn{State: h.state, History: append([]Message(nil), h.history...), ModelCalls: h.modelCalls}, nil
}

func (h *memHost) Deliver(ctx context.Context, runID string) (int, error) { return 0, nil }

func (h *memHost) RecordTurn(ctx context.Context, runID string, msg Message, _ int64) error {
	h.history = append(h.history, msg)
	h.modelCalls++
	return nil
}

func (h *memHost) RecordToolResult(ctx context.Context, runID string, call ToolCall, result json.RawMessage) error {
	h.history = append(h.history, Message{Role: RoleTool, ToolCallID: call.ID, ToolName: call.Name, Content: string(result)})
	return nil
}

func (h *memHost) Settle(ctx context.Context, runID string, final bool) (string, error) {
	switch {
	case h.wait:
		h.state = "waiting_input"
	case final:
		h.state = "succeeded"
	}
	return h.state, nil
}

func (h *memHost) Fail(ctx context.Context, runID string, reason string) error {
	h.state = "failed"
	return nil
}

// staticProvider answers every call with the same turn and counts calls.
type staticProvider struct{ msg Message }

func (p staticProvider) Name() string { return "static" }

func (p staticProvider) Complete(ctx context.Context, req Request) (Response, error) {
	return Response{Message: p.msg}, nil
}

type countingProvider struct {
	Provider
	calls *int
}

func (p countingProvider) Complete(ctx context.Context, req Request) (Response, error) {
	*p.calls++
	return p.Provider.Complete(ctx, req)
}

func runRegistry(t *testing.T, ran *[]string) *Registry {
	r := NewRegistry()
	for _, name := range []string{"a", "b"} {
		err := r.Register(ToolSpec{Name: name}, func(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage {
			*ran = append(*ran, cc.ToolCallID)
			return json.RawMessage(`{"ok":true}`)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// TestRunnerFinishesOpenToolCalls: after a crash between two tool results
// of one turn, the drive runs only the call without a result — even when
// an earlier turn used the same call id — before the model is called.
func TestRunnerFinishesOpenToolCalls(t *testing.T) {
	var ran []string
	calls := 0
	h := &memHost{history: []Message{
		{Role: RoleUser, Content: "go"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c2", Name: "b"}}},
		{Role: RoleTool, ToolCallID: "c2", Content: `{"ok":true}`},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "a"}, {ID: "c2", Name: "b"}}},
		{Role: RoleTool, ToolCallID: "c1", Content: `{"ok":true}`},
	}}
	r := &Runner{Tools: runRegistry(t, &ran), Host: h,
		Provider: countingProvider{staticProvider{Message{Role: RoleAssistant, Content: "done"}}, &calls}}
	state, err := r.Drive(context.Background(), "run")
	if err != nil || state != "succeeded" {
		t.Fatalf("Drive = %s, %v", state, err)
	}
	if len(ran) != 1 || ran[0] != "c2" || calls != 1 {
		t.Fatalf("ran %v with %d model calls; want c2 once, then one call", ran, calls)
	}
	if h.history[5].Role != RoleTool || h.history[5].ToolCallID != "c2" {
		t.Fatalf("history %+v", h.history)
	}
}

// TestRunnerSettlesBeforeCalling: a crash after the last tool result and
// before the run settled leaves a history ending in a tool result; the next
// drive settles (the run waits) and calls no model.
func TestRunnerSettlesBeforeCalling(t *testing.T) {
	calls := 0
	h := &memHost{wait: true, history: []Message{
		{Role: RoleUser, Content: "go"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "input_request"}}},
		{Role: RoleTool, ToolCallID: "c1", Content: `{"ok":true,"requestId":"rq_1"}`},
	}}
	r := &Runner{Tools: NewRegistry(), Host: h, Provider: countingProvider{staticProvider{Message{Role: RoleAssistant, Content: "hm"}}, &calls}}
	state, err := r.Drive(context.Background(), "run")
	if err != nil || state != "waiting_input" || calls != 0 {
		t.Fatalf("Drive = %s, %v after %d model calls; want waiting_input and none", state, err, calls)
	}
}

// TestRunnerCheckpoints: the crash hook sees each unrecorded effect.
func TestRunnerCheckpoints(t *testing.T) {
	var ran, steps []string
	h := &memHost{history: []Message{{Role: RoleUser, Content: "go"}}}
	p := &turns{msgs: []Message{
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "a"}}},
		{Role: RoleAssistant, Content: "done"},
	}}
	r := &Runner{Tools: runRegistry(t, &ran), Host: h, Provider: p, Checkpoint: func(s string) { steps = append(steps, s) }}
	if state, err := r.Drive(context.Background(), "run"); err != nil || state != "succeeded" {
		t.Fatalf("Drive = %s, %v", state, err)
	}
	want := "model-replied,tool-ran,model-replied"
	if got := strings.Join(steps, ","); got != want {
		t.Fatalf("checkpoints %s, want %s", got, want)
	}
}

type turns struct{ msgs []Message }

func (p *turns) Name() string { return "turns" }

func (p *turns) Complete(ctx context.Context, req Request) (Response, error) {
	m := p.msgs[0]
	p.msgs = p.msgs[1:]
	return Response{Message: m}, nil
}
