package agent

import (
	"context"
	"encoding/json"
)

// InputHost is what the input tools need from the chat host: each call gets
// the tool's raw arguments and returns the host's JSON result (DESIGN §4).
type InputHost interface {
	Capabilities(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	List(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	Request(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	ReadAnswer(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	Cancel(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	Replace(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	Resolve(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
}

const requestParams = `{"type":"object","required":["requestKey","source"],"properties":{
 "requestKey":{"type":"string","description":"stable key; retrying with the same key and arguments returns the same request"},
 "reason":{"type":"string","description":"why the detail is needed, shown to the user"},
 "source":{"type":"object","description":"kind dynamic with definition {title, description, fields:[{name,type,label,description,placeholder,required,options,min,max,minLength,maxLength,pattern,format,minItems,maxItems}]}; kind schema with requestedSchema (MCP elicitation); kind template with template name",
  "properties":{"kind":{"type":"string","enum":["dynamic","schema","template"]},"definition":{"type":"object"},"requestedSchema":{"type":"object"},"template":{"type":"string"}},"required":["kind"]},
 "prefill":{"type":"object","description":"suggested values the user confirms or edits"},
 "supplied":{"type":"object","description":"values already known; not asked"},
 "context":{"type":"object","description":"returned untouched with the answer"},
 "expiresAt":{"type":"string","description":"RFC 3339 deadline; omit to wait until answered"}}}`

const idParams = `{"type":"object","required":["requestId"],"properties":{"requestId":{"type":"string"}}}`

const replaceParams = `{"type":"object","required":["requestId"],"properties":{"requestId":{"type":"string"},
 "digest":{"type":"string","description":"the digest you saw; refused when no longer current"},
 "source":{"type":"object"},"prefill":{"type":"object"}}}`

const resolveParams = `{"type":"object","required":["requestId","values"],"properties":{"requestId":{"type":"string"},
 "digest":{"type":"string"},"values":{"type":"object","description":"values read from the user's message; the user must accept them"}}}`

const noParams = `{"type":"object","properties":{}}`

// RegisterInputTools registers the host's input tools with their authority.
func RegisterInputTools(r *Registry, h InputHost) error {
	tools := []struct {
		name, desc, params string
		run                ToolFunc
	}{
		{"input_capabilities", "Field types, source kinds, limits and templates of input requests.", noParams, h.Capabilities},
		{"input_list", "This chat's input requests with their state. Check it before asking again.", noParams, h.List},
		{"input_request", "Ask the user for missing details with a form. Returns at once with a requestId; the run then waits and the answer arrives as a message with status input_received or input_cancelled.", requestParams, h.Request},
		{"input_read_answer", "The state and confirmed answer of a request (null until the user confirms).", idParams, h.ReadAnswer},
		{"input_cancel", "Withdraw a request that is no longer needed.", idParams, h.Cancel},
		{"input_replace", "Change a pending request's form or prefill. If the user is editing, it becomes a proposal they confirm.", replaceParams, h.Replace},
		{"input_resolve", "Propose values for a pending request, e.g. read from the user's chat message. The user accepts or rejects them.", resolveParams, h.Resolve},
	}
	for _, t := range tools {
		spec := ToolSpec{Name: t.name, Description: t.desc, Parameters: json.RawMessage(t.params)}
		if err := r.RegisterInput(spec, t.run); err != nil {
			return err
		}
	}
	return nil
}
