package conformanceclient

import (
	"context"
	"encoding/json"

	"followup/agent/mcp"
)

// confirmer answers like a user who confirms a form as followup draws it: every field
// prefilled from its schema default, a yes/no field ticked, a required field given a
// plain value; URL requests are consented to.
type confirmer struct{}

func (confirmer) Elicit(_ context.Context, e mcp.Elicitation) (mcp.Reply, error) {
	if e.Mode == mcp.ModeURL {
		return mcp.Reply{Action: mcp.ActionAccept}, nil
	}
	var schema struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Type    string   `json:"type"`
			Default any      `json:"default"`
			Enum    []any    `json:"enum"`
			Minimum *float64 `json:"minimum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(e.RequestedSchema, &schema); err != nil {
		return mcp.Reply{}, err
	}
	required := map[string]bool{}
	for _, r := range schema.Required {
		required[r] = true
	}
	content := map[string]any{}
	for name, p := range schema.Properties {
		switch {
		case p.Default != nil:
			content[name] = p.Default
		case p.Type == "boolean":
			content[name] = true
		case !required[name]:
		case len(p.Enum) > 0:
			content[name] = p.Enum[0]
		case p.Type == "number" || p.Type == "integer":
			v := 0.0
			if p.Minimum != nil {
				v = *p.Minimum
			}
			content[name] = v
		default:
			content[name] = "conformance"
		}
	}
	return mcp.Reply{Action: mcp.ActionAccept, Content: content}, nil
}
