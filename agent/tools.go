package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
)

// CallContext tells a tool which run and tool call it serves.
type CallContext struct {
	ChatID     string
	RunID      string
	ToolCallID string
}

// ToolFunc runs one tool call and returns its JSON result.
type ToolFunc func(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage

// Tool is a registered tool. Input tools carry the authority to open and
// change input requests: only RegisterInputTools adds them, and Register
// refuses their names.
type Tool struct {
	Spec ToolSpec
	Run  ToolFunc
}

// Registry holds the tools a run offers the model.
type Registry struct {
	tools map[string]*Tool
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{tools: map[string]*Tool{}} }

// Register adds an ordinary tool. A name reserved for an input tool is
// refused, so nothing can pose as one.
func (r *Registry) Register(spec ToolSpec, run ToolFunc) error {
	if reserved(spec.Name) {
		return fmt.Errorf("tool name %q is reserved for the host's input tools", spec.Name)
	}
	return r.add(&Tool{Spec: spec, Run: run})
}

func (r *Registry) add(t *Tool) error {
	if _, dup := r.tools[t.Spec.Name]; dup {
		return fmt.Errorf("tool %q is already registered", t.Spec.Name)
	}
	r.tools[t.Spec.Name] = t
	return nil
}

// Get finds a tool by name.
func (r *Registry) Get(name string) (*Tool, bool) {
	t, ok := r.tools[name]
	return t, ok
}

// Specs lists the tools for the model, sorted by name.
func (r *Registry) Specs() []ToolSpec {
	out := make([]ToolSpec, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t.Spec)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ToolFailure is a tool's result for a call it refuses:
// {"ok":false,"error":{"code","message"}}.
func ToolFailure(code, msg string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"ok": false, "error": map[string]any{"code": code, "message": msg}})
	return b
}

// unknownTool is the result for a call to a tool nobody registered.
func unknownTool(name string) json.RawMessage {
	return ToolFailure("NOT_FOUND", fmt.Sprintf("no tool named %q", name))
}
