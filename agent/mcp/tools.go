package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"sort"
	"strings"

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
	// NotOffered says why the model is not offered the tool ("" when it is).
	NotOffered string `json:"notOffered,omitempty"`
}

// NeedsTasks is why a tool whose server requires MCP tasks to call it
// (execution.taskSupport "required") is not offered.
const NeedsTasks = "needs MCP tasks, which followup does not support"

// Annotations are a tool's hints as its server sent them (untrusted); a
// hint it did not send is absent, and the spec's default applies:
// not read-only, so maybe destructive; not idempotent; open world.
type Annotations struct {
	Title       string `json:"title,omitempty"`
	ReadOnly    bool   `json:"readOnlyHint,omitempty"`
	Idempotent  bool   `json:"idempotentHint,omitempty"`
	Destructive *bool  `json:"destructiveHint,omitempty"`
	OpenWorld   *bool  `json:"openWorldHint,omitempty"`
}

// Words says the hints, with the spec's defaults where the server is
// silent: a tool not marked read-only may be destructive.
func (a Annotations) Words() string {
	var ws []string
	switch {
	case a.ReadOnly:
		ws = append(ws, "read-only")
	case a.Destructive == nil:
		ws = append(ws, "may be destructive (not marked read-only)")
	case *a.Destructive:
		ws = append(ws, "destructive")
	default:
		ws = append(ws, "changes things, not destructively")
	}
	if a.Idempotent {
		ws = append(ws, "idempotent")
	}
	if a.OpenWorld != nil && *a.OpenWorld {
		ws = append(ws, "open world")
	}
	return strings.Join(ws, ", ")
}

// listTools reads every page of a server's tools; the tools the wire saw
// marked task-only (wire.go) are not offered.
func (s *server) listTools(ctx context.Context, cs *sdk.ClientSession) ([]Tool, error) {
	var out []Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		tool := toolOf(s.cfg, t)
		if s.orders.taskOnly(t.Name) {
			tool.NotOffered = NeedsTasks
		}
		out = append(out, tool)
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
		tool.Title = cmp.Or(tool.Title, a.Title)
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
