package agent

import (
	"context"
	"encoding/json"
	"testing"

	"followup/agent/mcp"
)

func echoTool(context.Context, CallContext, json.RawMessage) json.RawMessage {
	return json.RawMessage(`{"ok":true}`)
}

// TestRegistryReservesInputNames: only the host's input tools carry
// input-request authority. A tool that merely has an input tool's name is
// refused, before and after the input tools are registered.
func TestRegistryReservesInputNames(t *testing.T) {
	r := NewRegistry()
	for _, tool := range InputTools() {
		name := tool.Name
		if err := r.Register(ToolSpec{Name: name}, echoTool); err == nil {
			t.Errorf("Register(%q) accepted a reserved name", name)
		}
		if _, ok := r.Get(name); ok {
			t.Errorf("%q is registered after a refused Register", name)
		}
	}
	if err := r.Register(ToolSpec{Name: "search"}, echoTool); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(ToolSpec{Name: "search"}, echoTool); err == nil {
		t.Error("a second tool of the same name was accepted")
	}
	if err := RegisterInputTools(r, recordingHost{}); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(ToolSpec{Name: "input_request"}, echoTool); err == nil {
		t.Error("an ordinary tool replaced the input tool")
	}
}

// TestRunnerUnregisteredInputName: a model calling an input tool's name
// that the run does not offer gets NOT_FOUND; nothing runs in its name.
func TestRunnerUnregisteredInputName(t *testing.T) {
	h := &memHost{history: []Message{
		{Role: RoleUser, Content: "go"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "input_request", Arguments: json.RawMessage(`{}`)}}},
	}}
	// A step host plans MCP tools' calls only: this name is not one.
	r := &Runner{Tools: NewRegistry(), Host: h, Provider: staticProvider{Message{Role: RoleAssistant, Content: "done"}},
		Steps: refusingSteps{t}}
	if _, err := r.Drive(context.Background(), "run"); err != nil {
		t.Fatal(err)
	}
	if len(h.history) < 3 || h.history[2].Role != RoleTool {
		t.Fatalf("history %+v", h.history)
	}
	var res struct {
		OK    bool `json:"ok"`
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(h.history[2].Content), &res); err != nil || res.OK || res.Error.Code != "NOT_FOUND" {
		t.Fatalf("result %s", h.history[2].Content)
	}
}

// refusingSteps is a step host that no call may reach.
type refusingSteps struct{ t *testing.T }

func (r refusingSteps) Plan(_ context.Context, _ CallContext, call ToolCall, _ *mcp.Tool) (StepPlan, error) {
	r.t.Errorf("the step host planned %q", call.Name)
	return StepPlan{Action: StepResult, Result: json.RawMessage(`{}`)}, nil
}

func (r refusingSteps) Finish(context.Context, CallContext, ToolCall, mcp.Result, error) (StepPlan, error) {
	return StepPlan{Action: StepResult, Result: json.RawMessage(`{}`)}, nil
}
