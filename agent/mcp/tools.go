package mcp

import (
	"context"
	"encoding/json"
	"sort"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool is one tool of a connected server.
type Tool struct {
	// Name is what the model sees (ToolName: mcp__<server>__<tool>).
	Name string `json:"name"`
	// Server is the config key; Tool the server's own name for it.
	Server      string          `json:"server"`
	Tool        string          `json:"tool"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	Annotations Annotations     `json:"annotations"`
	// AutoApproved: the entry's autoApprove lets the tool run without asking.
	AutoApproved bool `json:"autoApproved"`
}

// Annotations are a tool's hints (untrusted: they come from the server).
type Annotations struct {
	Title       string `json:"title,omitempty"`
	ReadOnly    bool   `json:"readOnlyHint"`
	Idempotent  bool   `json:"idempotentHint"`
	Destructive *bool  `json:"destructiveHint,omitempty"`
	OpenWorld   *bool  `json:"openWorldHint,omitempty"`
}

// Rerunnable reports whether a call whose outcome a crash left unknown may be made again
// (docs/mcp.md): the tool says it changes nothing, or that repeating it changes nothing
// more.
func (t Tool) Rerunnable() bool { return t.Annotations.ReadOnly || t.Annotations.Idempotent }

// listTools reads every page of a server's tools.
func listTools(ctx context.Context, cs *sdk.ClientSession, cfg ServerConfig) ([]Tool, error) {
	var out []Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, toolOf(cfg, t))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func toolOf(cfg ServerConfig, t *sdk.Tool) Tool {
	tool := Tool{
		Name: ToolName(cfg.Name, t.Name), Server: cfg.Name, Tool: t.Name, Title: t.Title,
		Description: t.Description, InputSchema: modelSchema(t.InputSchema),
		AutoApproved: cfg.AutoApprove.Allows(t.Name),
	}
	if a := t.Annotations; a != nil {
		tool.Annotations = Annotations{Title: a.Title, ReadOnly: a.ReadOnlyHint, Idempotent: a.IdempotentHint,
			Destructive: a.DestructiveHint, OpenWorld: a.OpenWorldHint}
		if tool.Title == "" {
			tool.Title = a.Title
		}
	}
	return tool
}

// emptySchema is the parameters of a tool that takes nothing.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// modelSchema is a tool's input schema as providers accept it: a JSON object schema. A
// schema without a type is taken as an object (what MCP requires anyway); a missing or
// non-object schema becomes the empty one.
func modelSchema(v any) json.RawMessage {
	if v == nil {
		return emptySchema
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return emptySchema
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return emptySchema
	}
	if _, ok := m["type"]; ok {
		return raw
	}
	m["type"] = json.RawMessage(`"object"`)
	out, err := json.Marshal(m)
	if err != nil {
		return emptySchema
	}
	return out
}
