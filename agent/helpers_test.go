package agent

import (
	"encoding/json"
	"strings"
	"sync"
)

// The scripted model server and its replies are agenttest's; these are the
// provider tests' own fixtures.

// textSink collects streamed text the way a UI would, honouring resets.
type textSink struct {
	mu     sync.Mutex
	text   strings.Builder
	deltas int
	resets int
}

func (s *textSink) onText(d string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text.WriteString(d)
	s.deltas++
}

func (s *textSink) onReset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text.Reset()
	s.resets++
}

func (s *textSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.text.String()
}

// history is a conversation with every message kind, for conversion tests.
var sampleHistory = []Message{
	{Role: RoleUser, Content: "Plan a trip"},
	{Role: RoleAssistant, Content: "Let me check.", ToolCalls: []ToolCall{
		{ID: "call_1", Name: "input_list", Arguments: json.RawMessage(`{}`)},
		{ID: "call_2", Name: "input_capabilities", Arguments: nil},
	}},
	{Role: RoleTool, ToolCallID: "call_1", ToolName: "input_list", Content: `{"ok":true,"requests":[]}`},
	{Role: RoleTool, ToolCallID: "call_2", ToolName: "input_capabilities", Content: `{"ok":true}`},
	{Role: RoleUser, Content: "To Shanghai"},
}

var sampleTools = []ToolSpec{{
	Name: "input_request", Description: "Ask the user",
	Parameters: json.RawMessage(`{"type":"object","required":["requestKey"],"properties":{"requestKey":{"type":"string"}},"additionalProperties":false}`),
}}
