package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"followup/forms"
)

// InputHost is what the input tools need from the chat host: each call gets
// the tool's raw arguments and returns the host's JSON result (docs/input-requests.md).
type InputHost interface {
	Capabilities(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	List(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	Request(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	ReadAnswer(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	Cancel(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	Replace(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
	Resolve(ctx context.Context, cc CallContext, args json.RawMessage) json.RawMessage
}

// InputTool is one of the host's input tools, written once: the registry, the reserved
// names, the system prompt and `followup mcp serve` all read the catalogue.
type InputTool struct {
	Name string
	// Description says what the tool does, for any model that calls it.
	Description string
	// RunNote is added for followup's own agent, whose run pauses while a request waits;
	// an external client through `mcp serve` gets its own note instead.
	RunNote string
	// Parameters is the JSON Schema of the arguments.
	Parameters json.RawMessage
	// Serve reports whether `followup mcp serve` offers the tool (docs/input-requests.md).
	Serve bool
	bind  func(InputHost) ToolFunc
}

// Spec is the tool as followup's own agent sees it.
func (t InputTool) Spec() ToolSpec {
	desc := t.Description
	if t.RunNote != "" {
		desc += " " + t.RunNote
	}
	return ToolSpec{Name: t.Name, Description: desc, Parameters: t.Parameters}
}

var inputCatalogue = []InputTool{
	{Name: "input_capabilities", Serve: true, Parameters: schemas["none"],
		Description: "Field types, source kinds, limits and registered templates of input requests. Call it when unsure what a form may contain.",
		bind:        func(h InputHost) ToolFunc { return h.Capabilities }},
	{Name: "input_list", Serve: true, Parameters: schemas["none"],
		Description: "This chat's input requests and their state (pending, answered, cancelled, expired). Call it before asking again: reuse an answered request's values, and do not open a second request for something already pending.",
		bind:        func(h InputHost) ToolFunc { return h.List }},
	{Name: "input_request", Serve: true, Parameters: schemas["input_request"],
		Description: `Ask the user for missing details with a form. Arguments: requestKey (stable, e.g. "trip-destination-1"; retrying with the same key and arguments is safe), reason (one sentence the user sees), source ({"kind":"dynamic","definition":{"title","description","fields":[...]}}, or a schema or template), prefill, supplied, context. Field types: ` + forms.TypeList() + `; fields are required unless "required": false. Returns at once with a requestId.`,
		RunNote:     `The run then pauses; the answer arrives as a message with status "input_received" or "input_cancelled".`,
		bind:        func(h InputHost) ToolFunc { return h.Request }},
	{Name: "input_read_answer", Serve: true, Parameters: schemas["id"],
		Description: "The state and confirmed answer of one request (answer is null until the user confirms; never a draft).",
		bind:        func(h InputHost) ToolFunc { return h.ReadAnswer }},
	{Name: "input_cancel", Serve: true, Parameters: schemas["id"],
		Description: "Withdraw a request you no longer need.",
		bind:        func(h InputHost) ToolFunc { return h.Cancel }},
	{Name: "input_replace", Parameters: schemas["input_replace"],
		Description: "Change a pending request's form or prefill; if the user has started editing, it becomes a proposal they accept or reject.",
		bind:        func(h InputHost) ToolFunc { return h.Replace }},
	{Name: "input_resolve", Parameters: schemas["input_resolve"],
		Description: "Propose values for a pending request, e.g. read from the user's chat message; the user must accept them.",
		bind:        func(h InputHost) ToolFunc { return h.Resolve }},
}

// InputTools returns the catalogue of input tools in its order. The slice is a copy.
func InputTools() []InputTool { return append([]InputTool(nil), inputCatalogue...) }

func reserved(name string) bool {
	return slices.ContainsFunc(inputCatalogue, func(t InputTool) bool { return t.Name == name })
}

// RegisterInputTools registers the host's input tools, bound to h: the only way a tool of
// their names is registered.
func RegisterInputTools(r *Registry, h InputHost) error {
	for _, t := range inputCatalogue {
		if err := r.add(&Tool{Spec: t.Spec(), Run: t.bind(h)}); err != nil {
			return err
		}
	}
	return nil
}

// toolLines lists the catalogue for the system prompt, one tool per line.
func toolLines() string {
	var b strings.Builder
	for _, t := range inputCatalogue {
		b.WriteString("- " + t.Name + ": " + t.Spec().Description + "\n")
	}
	return b.String()
}
